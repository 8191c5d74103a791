"""The LEDs through adafruit-circuitpython-neopixel (from the Adafruit bundle:
requirements-circuitpython.txt), as the driver vortex.hal.pixels.Pixels
fills: a buffer of R, G, B per LED in chain order, and write().

    px = Pixels(None, 64, led_map(True), driver=NeoPixelBuffer(pin, 64))

Pixels does the rest as on MicroPython: the frame's bytes to their LEDs,
nothing sent when the LEDs already show it. write() gives the whole buffer
to the library in one slice assignment (3 ints a pixel, copied in C into
its wire order, GRB) and show()s it: auto_write=False, so nothing is sent
before. Brightness stays 1.0: the app has already scaled the frame to the
board's current budget (vortex/app/leds.py), and scaling again would dim
what the budget allows.
"""


class NeoPixelBuffer:
    """NeoPixelBuffer(pin, n, strip=None): .buf (bytearray(3n), R, G, B per
    LED in chain order), write(). strip: a neopixel.NeoPixel-like object
    (slice assignment, show()); by default the library's, on pin."""
    ORDER = (0, 1, 2)  # where R, G and B sit in .buf (the library orders the wire)
    bpp = 3

    def __init__(self, pin, n, strip=None):
        if strip is None:
            import neopixel
            strip = neopixel.NeoPixel(pin, n, brightness=1.0, auto_write=False,
                                      pixel_order=neopixel.GRB)
        self._strip = strip
        self.buf = bytearray(3 * n)
        self._all = slice(0, n)  # made once: a slice in the loop would be allocated

    def write(self):
        self._strip[self._all] = self.buf
        self._strip.show()
