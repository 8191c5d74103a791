"""Pixels and Watchdog with fake drivers. Runs under MicroPython too."""
import gc
import sys

from hal_fakes import FakePin
from vortex.hal.pixels import Pixels, led_map
from vortex.hal.watchdog import Watchdog, MAX_MS


class FakeNeoPixel:
    """micropython-lib's NeoPixel, minus the bitstream."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0
        pin.init(pin.OUT)

    def __setitem__(self, i, v):
        for k in range(self.bpp):
            self.buf[i * self.bpp + self.ORDER[k]] = v[k]

    def write(self):
        self.writes += 1


def frame_of(colours):
    f = bytearray(192)
    for c in colours:
        r, g, b = colours[c]
        f[3 * c] = r
        f[3 * c + 1] = g
        f[3 * c + 2] = b
    return f


def test_led_map_serpentine():
    m = led_map(True)
    assert len(m) == 64 and sorted(m) == list(range(64))
    assert (m[0], m[7], m[8], m[15], m[16]) == (0, 7, 15, 8, 16)
    assert (m[56], m[63]) == (63, 56)          # a8, h8: rank 8 runs back
    s = led_map(False)
    assert s == bytes(range(64))


def test_show_puts_grb_at_the_chain_position():
    np = FakeNeoPixel(FakePin(), 64)
    px = Pixels(None, 64, led_map(True), driver=np)
    px.show(frame_of({0: (10, 20, 30), 8: (1, 2, 3), 63: (7, 8, 9)}))
    assert np.writes == 1
    assert np.buf[0:3] == bytearray((20, 10, 30))       # a1: LED 0, G R B
    assert np.buf[45:48] == bytearray((2, 1, 3))        # a2: LED 15
    assert np.buf[168:171] == bytearray((8, 7, 9))      # h8: LED 56
    assert sum(np.buf) == sum((10, 20, 30, 1, 2, 3, 7, 8, 9))
    # Same bytes as the driver's own (r, g, b) assignment would give.
    ref = FakeNeoPixel(FakePin(), 64)
    ref[0] = (10, 20, 30)
    ref[15] = (1, 2, 3)
    ref[56] = (7, 8, 9)
    assert ref.buf == np.buf
    px.off()
    assert np.buf == bytearray(192) and np.writes == 2


def test_a_frame_is_sent_only_when_it_changed():
    np = FakeNeoPixel(FakePin(), 64)
    px = Pixels(None, 64, led_map(True), driver=np)
    dark = bytearray(192)
    assert px.show(dark) and np.writes == 1      # the first frame always goes
    assert not px.show(bytearray(192)) and np.writes == 1
    lit = frame_of({9: (1, 2, 3)})
    assert px.show(lit) and np.writes == 2
    assert np.buf[42:45] == bytearray((2, 1, 3))  # b2: LED 14
    assert not px.show(lit) and np.writes == 2
    lit[27] = 4                                   # cell 9's red changes
    assert px.show(lit) and np.buf[43] == 4 and np.writes == 3
    px.off()
    assert np.writes == 4 and np.buf == bytearray(192)
    assert px.show(lit) and np.writes == 5       # back on after off()


def test_every_byte_lands_where_the_driver_puts_it():
    # A chain of four-byte LEDs in reverse order: cell c is LED 63 - c.
    np = FakeNeoPixel(FakePin(), 64, bpp=4)
    px = Pixels(None, 64, bytes(range(63, -1, -1)), driver=np)
    frame = bytearray(range(192))
    px.show(frame)
    ref = FakeNeoPixel(FakePin(), 64, bpp=4)
    for c in range(64):
        ref[63 - c] = (frame[3 * c], frame[3 * c + 1], frame[3 * c + 2], 0)
    assert np.buf == ref.buf


def test_a_frame_of_the_wrong_size_is_refused():
    px = Pixels(None, 64, led_map(True), driver=FakeNeoPixel(FakePin(), 64))
    for size in (191, 193, 0):
        try:
            px.show(bytearray(size))
        except ValueError:
            continue
        assert False, "accepted a frame of %d bytes" % size


def test_a_map_off_the_chain_is_refused():
    for bad in (bytes(range(63)), bytes(range(1, 65))):
        try:
            Pixels(None, 64, bad, driver=FakeNeoPixel(FakePin(), 64))
        except ValueError:
            continue
        assert False, "accepted a map with %d entries up to %d" % (len(bad), max(bad))


def test_default_driver_is_neopixel_module():
    saved = sys.modules.get("neopixel")

    class Mod:
        NeoPixel = FakeNeoPixel

    sys.modules["neopixel"] = Mod
    try:
        pin = FakePin()
        px = Pixels(pin, 64)
        assert isinstance(px._np, FakeNeoPixel) and pin.mode == FakePin.OUT
        px.show(frame_of({5: (1, 2, 3)}))
        assert px._np.buf[15:18] == bytearray((2, 1, 3))  # identity map
    finally:
        if saved is None:
            del sys.modules["neopixel"]
        else:
            sys.modules["neopixel"] = saved


def test_show_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    np = FakeNeoPixel(FakePin(), 64)
    px = Pixels(None, 64, led_map(True), driver=np)
    f = frame_of({3: (9, 9, 9)})
    px.show(f)
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for i in range(10):
            f[9] = i                 # a new frame each time: reordered and sent
            px.show(f)
            px.show(f)               # the same again: skipped
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used


class FakeWDT:
    def __init__(self, timeout=0):
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


def test_watchdog_feeds_and_clamps():
    w = FakeWDT()
    wd = Watchdog(3000, wdt=w)
    wd.feed()
    wd.feed()
    assert w.fed == 2 and wd.timeout_ms == 3000
    assert Watchdog(60000, wdt=w).timeout_ms == MAX_MS == 8388


def test_watchdog_default_is_machine_wdt():
    saved = sys.modules.get("machine")

    class Mod:
        WDT = FakeWDT

    sys.modules["machine"] = Mod
    try:
        wd = Watchdog(9000)
        assert isinstance(wd._wdt, FakeWDT) and wd._wdt.timeout == MAX_MS
    finally:
        if saved is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = saved
