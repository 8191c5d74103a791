"""The 64 WS2812 LEDs under the cells.

    px = Pixels(Pin(pins.LED_PIN), 64, led_map(pins.LED_SERPENTINE))
    px.show(frame)        # frame: bytearray(192), R, G, B per cell index

The app budgets the current of every frame before it gets here; show() only
reorders. The chain runs along the board in the order of hardware/pins.py:
led_map() gives, for each cell (rank*8 + file), its place in the chain.

Built on MicroPython's neopixel.NeoPixel (bundled on the rp2 port), which
keeps its pixels in .buf in wire order and says where R, G and B go in its
ORDER attribute ((1, 0, 2, 3): WS2812s want G, R, B). show() writes .buf
directly with that order instead of assigning 64 tuples, so it allocates
nothing; then write() sends the 1.9 ms bitstream.
"""


def led_map(serpentine=True, cols=8, rows=8):
    """bytes: cell -> LED index, for a chain that starts at a1 and runs
    along rank 1 to h1, then along rank 2 (back from h2 to a2 if
    serpentine, else from a2 again), and so on up to rank 8."""
    m = bytearray(cols * rows)
    for rank in range(rows):
        back = serpentine and rank & 1
        for f in range(cols):
            m[rank * cols + f] = rank * cols + (cols - 1 - f if back else f)
    return bytes(m)


class Pixels:
    """Pixels(pin, n=64, led_map=None, driver=None).

    driver: a NeoPixel-like object (buf, write(), optional ORDER and bpp);
    by default neopixel.NeoPixel(pin, n). led_map: bytes cell -> LED index
    (default: the identity)."""

    def __init__(self, pin, n=64, led_map=None, driver=None):
        if driver is None:
            from neopixel import NeoPixel
            driver = NeoPixel(pin, n)
        self.n = n
        self._np = driver
        self._buf = driver.buf
        order = getattr(driver, "ORDER", (1, 0, 2))
        self._ro = order[0]
        self._go = order[1]
        self._bo = order[2]
        self._bpp = getattr(driver, "bpp", 3)
        self._map = bytes(led_map) if led_map is not None else bytes(range(n))

    def show(self, frame):
        """Send a frame: bytearray(3*n), R, G, B for cell 0, 1, ..."""
        buf = self._buf
        m = self._map
        bpp = self._bpp
        ro = self._ro
        go = self._go
        bo = self._bo
        s = 0
        for cell in range(self.n):
            o = m[cell] * bpp
            buf[o + ro] = frame[s]
            buf[o + go] = frame[s + 1]
            buf[o + bo] = frame[s + 2]
            s += 3
        self._np.write()

    def off(self):
        """All LEDs dark."""
        buf = self._buf
        for i in range(len(buf)):
            buf[i] = 0
        self._np.write()
