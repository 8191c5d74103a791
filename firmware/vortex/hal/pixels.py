"""The 64 WS2812 LEDs under the cells.

    px = Pixels(Pin(pins.LED_PIN), 64, led_map(pins.LED_SERPENTINE))
    px.show(frame)        # frame: bytearray(192), R, G, B per cell index

The app budgets the current of every frame before it gets here; show() only
reorders. The chain runs along the board in the order of hardware/pins.py:
led_map() gives, for each cell (rank*8 + file), its place in the chain.

Built on MicroPython's neopixel.NeoPixel (bundled on the rp2 port), which
keeps its pixels in .buf in wire order and says where R, G and B go in its
ORDER attribute ((1, 0, 2, 3): WS2812s want G, R, B). The constructor works
out once where each byte of a frame goes on the wire; show() then moves the
192 bytes there in one viper loop (no per-pixel Python, no allocation) and
sends the 1.9 ms bitstream with one write(), and only when the frame differs
from the last one sent: the board logic returns the same frame on most
ticks, and the reed scan should not wait for LEDs that would not change.
"""
from array import array

from ..native import micropython, ptr8, ptr16


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
        bpp = getattr(driver, "bpp", 3)
        m = bytes(led_map) if led_map is not None else bytes(range(n))
        if len(m) != n or max(m) >= n:
            raise ValueError("led_map must give each of the %d cells an LED below %d" % (n, n))
        # _wire[i]: where byte i of a frame (cell i // 3, colour i % 3) goes in .buf.
        self._wire = array("H", range(3 * n))
        for i in range(3 * n):
            self._wire[i] = m[i // 3] * bpp + order[i % 3]
        self._last = bytearray(3 * n)  # the frame on the LEDs
        self._sent = False             # nothing sent yet: the LEDs' state is unknown

    def show(self, frame):
        """Send a frame: bytearray(3*n), R, G, B for cell 0, 1, ...; nothing
        if the LEDs already show it. True if it was sent."""
        if self._sent and frame == self._last:
            return False
        if len(frame) != len(self._last):  # viper reads it without bounds checks
            raise ValueError("a frame is %d bytes" % len(self._last))
        _scatter(frame, self._buf, self._wire, self._last, 3 * self.n)
        self._np.write()
        self._sent = True
        return True

    def off(self):
        """All LEDs dark."""
        buf = self._buf
        last = self._last
        for i in range(len(buf)):
            buf[i] = 0
        for i in range(len(last)):
            last[i] = 0
        self._np.write()
        self._sent = True


@micropython.viper
def _scatter(frame, wire, where, last, n: int):
    # wire[where[i]] = frame[i] for the n bytes of frame, and keep a copy in last.
    f = ptr8(frame)
    w = ptr8(wire)
    at = ptr16(where)
    keep = ptr8(last)
    for i in range(n):
        v = f[i]
        w[at[i]] = v
        keep[i] = v
