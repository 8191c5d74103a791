"""Small contracts of the hal that the parts' main tests leave out: the
order in which a save reaches the flash (flush, sync, rename), os.sync
where the runtime has it, the watchdog fed from a timer once the loop
stops, a NeoPixel driver without ORDER, and each refusal's whole message."""
import os

from vortex.hal.debounce import Debouncer
from vortex.hal.pixels import Pixels
from vortex.hal.reed import ReedMatrix
from vortex.hal.store import FileStore, RealFS
from vortex.hal.watchdog import Watchdog
from hal_fake_fs import MemFS
from hal_fakes import FakePin


def message(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except ValueError as e:
        return str(e)
    raise AssertionError("no ValueError from %r" % (fn,))


# --- the store ---------------------------------------------------------------

class Logged(MemFS):
    """MemFS that logs every call in order, sync() included."""

    def __init__(self):
        MemFS.__init__(self)
        self.log = []

    def open(self, path, mode):
        f = MemFS.open(self, path, mode)
        log = self.log
        log.append(("open", path))
        write, flush, close = f.write, f.flush, f.close
        f.write = lambda b: (log.append(("write", path)), write(b))[1]
        f.flush = lambda: (log.append(("flush", path)), flush())[1]
        f.close = lambda: (log.append(("close", path)), close())[1]
        return f

    def rename(self, old, new):
        self.log.append(("rename", old, new))
        MemFS.rename(self, old, new)

    def sync(self):
        self.log.append(("sync",))


def test_a_save_is_flushed_and_synced_before_each_rename():
    fs = Logged()
    st = FileStore("/g", fs=fs)
    st.save(b"first")
    fs.log = []
    st.save(b"second")
    log = [e for e in fs.log if e[0] != "open" or e[1] != "/g"]   # (reading the old save)
    assert log[:5] == [("open", "/g.tmp"), ("write", "/g.tmp"), ("flush", "/g.tmp"),
                       ("close", "/g.tmp"), ("sync",)]
    i = log.index(("rename", "/g.tmp", "/g"))
    assert log[i - 1] == ("rename", "/g", "/g.bak") and log[i + 1] == ("sync",)
    assert log[-2:] == [("rename", "/g.log.tmp", "/g.log"), ("sync",)]
    fs.log = []
    st.append(b"a move")
    assert fs.log == [("open", "/g.log"), ("write", "/g.log"), ("flush", "/g.log"),
                      ("close", "/g.log"), ("sync",)]


def test_the_real_filesystem_syncs_where_os_can(monkeypatch):
    synced = []
    monkeypatch.setattr(os, "sync", lambda: synced.append(1), raising=False)
    RealFS().sync()
    assert synced == [1]
    monkeypatch.delattr(os, "sync")   # MicroPython's os on some ports: nothing to call
    RealFS().sync()
    assert synced == [1]


# --- the watchdog -------------------------------------------------------------

class FakeWDT:
    def __init__(self):
        self.fed = 0

    def feed(self):
        self.fed += 1


class FakeTimer:
    PERIODIC = "periodic"

    def init(self, period, mode, callback):
        self.period, self.mode, self.callback = period, mode, callback


def test_once_the_loop_stops_a_timer_feeds_the_watchdog_four_times_a_timeout():
    wdt, timer = FakeWDT(), FakeTimer()
    wd = Watchdog(5000, wdt=wdt)
    wd.keep_fed(timer)
    assert (timer.period, timer.mode) == (1250, "periodic")
    timer.callback(timer)
    timer.callback(timer)
    assert wdt.fed == 2
    assert Watchdog(20000, wdt=wdt).timeout_ms == 8388   # the RP2040's longest


# --- LEDs, reeds, debounce: what they refuse ------------------------------------------

class BareDriver:
    """A NeoPixel-like driver with only buf and write(): MicroPython's
    neopixel order (G, R, B) and 3 bytes a pixel are assumed."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1


def test_a_driver_without_order_gets_grb():
    d = BareDriver(4)
    px = Pixels(None, 4, driver=d)
    frame = bytearray(12)
    frame[3:6] = b"\x01\x02\x03"   # cell 1: R, G, B
    assert px.show(frame) and d.writes == 1
    assert bytes(d.buf[3:6]) == b"\x02\x01\x03"


def test_what_pixels_refuse_says_why():
    assert message(Pixels, None, 4, b"\x00\x01\x02\x04", driver=BareDriver(4)) == \
        "led_map must give each of the 4 cells an LED below 4"
    px = Pixels(None, 4, driver=BareDriver(4))
    assert message(px.show, bytearray(11)) == "a frame is 12 bytes"


def test_what_the_reed_matrix_and_the_debouncer_refuse_says_why():
    rows = [FakePin("r%d" % i) for i in range(2)]
    cols = [FakePin("c%d" % i) for i in range(9)]
    assert message(ReedMatrix, rows, cols) == "at most 8 columns: one byte a row"
    assert message(Debouncer, 64, 256) == "ms must be 0-255"
    assert message(Debouncer, 64, -1) == "ms must be 0-255"
    assert message(Debouncer(8, 5).update, bytearray(7), 0) == "a scan of 8 cells is needed"
