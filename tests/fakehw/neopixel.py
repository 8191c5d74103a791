"""A stand-in for MicroPython's neopixel module: keeps what was written."""


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # G, R, B as on the rp2 port
    made = []

    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0
        NeoPixel.made.append(self)

    def write(self):
        self.writes += 1
