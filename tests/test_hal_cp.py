"""The CircuitPython backends (firmware/vortex/hal/cp) with fakes of
CircuitPython's objects: keypad's event queue into .cells, the neopixel
library's slice assignment, busio.SPI and digitalio as machine.SPI and
machine.Pin, the watchdog, the USB console as the link's port, the store
when CIRCUITPY is the computer's. On the emulated CircuitPython Pico the
same code runs on the real modules (tests/test_device_circuitpython.py)."""
import sys
import types

import pytest

from vortex.app import buttons as btn
from vortex.hal.cp import keys, store as cp_store
from vortex.hal.cp.bus import SPIBus, Pin
from vortex.hal.cp.pixels import NeoPixelBuffer
from vortex.hal.cp.port import ConsolePort
from vortex.hal.cp.watchdog import Watchdog, MAX_MS
from vortex.hal.pixels import Pixels, led_map
from vortex.hal.store import FileStore
from hal_fake_fs import MemFS


# --- keypad ---------------------------------------------------------------------

class Event:
    def __init__(self):
        self.key_number = 0
        self.pressed = False


class EventQueue:
    """keypad.EventQueue: get_into(event) -> bool, clear(), overflowed (the
    oldest event dropped for a new one)."""

    def __init__(self, size=8):
        self.size = size
        self.queue = []
        self.overflowed = False

    def record(self, key, pressed):
        if len(self.queue) == self.size:
            self.queue.pop(0)
            self.overflowed = True
        self.queue.append((key, pressed))

    def get_into(self, ev):
        if not self.queue:
            return False
        ev.key_number, ev.pressed = self.queue.pop(0)
        return True

    def clear(self):
        self.queue = []
        self.overflowed = False


class Scanner:
    """A keypad scanner with debounce_threshold=1 over a set of pressed keys:
    step() is one background scan; reset() forgets and scans at once."""

    def __init__(self, n, pressed=(), size=8):
        self.pressed = set(pressed)
        self.events = EventQueue(size)
        self.known = set()  # what keypad believes is pressed

    def step(self):
        for k in sorted(self.pressed ^ self.known):
            self.events.record(k, k in self.pressed)
        self.known = set(self.pressed)

    def reset(self):
        self.known = set()
        self.step()


def test_keys_report_what_is_pressed_at_start_then_each_change():
    sc = Scanner(64, pressed={0, 9, 63})
    k = keys.Keys(sc, 64, Event())
    assert [c for c in range(64) if k.cells[c]] == [0, 9, 63]  # reset() at start
    assert not k.scan(5)
    sc.pressed -= {9}
    sc.pressed |= {10}
    sc.step()
    assert k.scan(10)
    assert [c for c in range(64) if k.cells[c]] == [0, 10, 63]
    assert not k.scan(15)


def test_events_apply_in_order():
    sc = Scanner(64, pressed={4})
    k = keys.Keys(sc, 64, Event())
    sc.pressed = set()
    sc.step()
    sc.pressed = {4}
    sc.step()
    sc.pressed = {4, 5}
    sc.step()
    k.scan(0)
    assert [c for c in range(64) if k.cells[c]] == [4, 5]


def test_after_an_overflow_the_cells_are_read_again():
    sc = Scanner(64, pressed={1}, size=16)
    k = keys.Keys(sc, 64, Event())
    for cell in range(20, 36):  # more changes than the queue holds
        sc.pressed.add(cell)
        sc.step()
    sc.pressed.discard(1)
    sc.step()
    assert sc.events.overflowed
    assert k.scan(0)
    assert [c for c in range(64) if k.cells[c]] == list(range(20, 36))
    assert not sc.events.overflowed


def test_scan_allocates_nothing_new_per_event():
    sc = Scanner(64, pressed={3})
    ev = Event()
    k = keys.Keys(sc, 64, ev)
    cells = k.cells
    sc.pressed = {3, 5}
    sc.step()
    k.scan(0)
    assert k.cells is cells and k._ev is ev


def test_buttons_are_the_raw_bits(monkeypatch):
    made = []

    class FakeKeys(Scanner):
        def __init__(self, pins, value_when_pressed, pull, interval, max_events):
            assert (value_when_pressed, pull) == (False, True)  # to ground, pulled up
            Scanner.__init__(self, 2)
            made.append(self)

    monkeypatch.setitem(sys.modules, "keypad", types.SimpleNamespace(Keys=FakeKeys, Event=Event))
    state = keys.buttons("A", "B")
    sc = made[0]
    assert state() == 0
    sc.pressed = {0}
    sc.step()
    assert state() == btn.A
    sc.pressed = {0, 1}
    sc.step()
    assert state() == btn.A | btn.B
    sc.pressed = {1}
    sc.step()
    assert state() == btn.B


def test_the_reed_matrix_is_scanned_rows_high_columns_pulled_down(monkeypatch):
    made = {}

    class FakeMatrix(Scanner):
        def __init__(self, rows, cols, columns_to_anodes, interval, max_events):
            made.update(rows=rows, cols=cols, columns_to_anodes=columns_to_anodes,
                        interval=interval, max_events=max_events)
            Scanner.__init__(self, len(rows) * len(cols), pressed={2 * 8 + 5})

    monkeypatch.setitem(sys.modules, "keypad", types.SimpleNamespace(KeyMatrix=FakeMatrix,
                                                                     Event=Event))
    reeds = keys.reed_matrix(list(range(8)), list(range(8, 16)), 5)
    # Anodes on the rows: keypad drives a row high, the columns pulled down.
    assert made["columns_to_anodes"] is False and made["interval"] == 0.005
    assert made["max_events"] >= 64 and len(reeds.cells) == 64
    assert [c for c in range(64) if reeds.cells[c]] == [21]  # f3: rank 3 (row 2), file f


# --- the LEDs through the neopixel library ------------------------------------------

class Strip:
    """adafruit-circuitpython-neopixel's NeoPixel: flat slice assignment
    (3 ints a pixel, as R, G, B), show()."""

    def __init__(self, n):
        self.pixels = [(0, 0, 0)] * n
        self.shows = 0

    def __setitem__(self, index, values):
        assert isinstance(index, slice)
        values = list(values)
        for i, led in enumerate(range(*index.indices(len(self.pixels)))):
            self.pixels[led] = tuple(values[3 * i:3 * i + 3])

    def show(self):
        self.shows += 1


def test_frames_reach_the_library_by_chain_position():
    strip = Strip(64)
    px = Pixels(None, 64, led_map(True), driver=NeoPixelBuffer(None, 64, strip))
    frame = bytearray(192)
    frame[0:3] = bytes((10, 20, 30))      # a1: LED 0
    frame[24:27] = bytes((1, 2, 3))       # a2: LED 15 (rank 2 runs back)
    frame[189:192] = bytes((7, 8, 9))     # h8: LED 56
    assert px.show(frame)
    assert strip.shows == 1
    assert (strip.pixels[0], strip.pixels[15], strip.pixels[56]) == \
        ((10, 20, 30), (1, 2, 3), (7, 8, 9))
    assert sum(map(sum, strip.pixels)) == 10 + 20 + 30 + 1 + 2 + 3 + 7 + 8 + 9
    assert not px.show(frame) and strip.shows == 1  # already shown: nothing sent


def test_the_library_is_made_without_auto_write_at_full_brightness(monkeypatch):
    made = {}

    class NeoPixel(Strip):
        def __init__(self, pin, n, brightness, auto_write, pixel_order):
            made.update(pin=pin, n=n, brightness=brightness, auto_write=auto_write,
                        order=pixel_order)
            Strip.__init__(self, n)

    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel,
                                                                       GRB="GRB"))
    NeoPixelBuffer("GP22", 64)
    # The app scales each frame to the current budget: the library must not again.
    assert made == dict(pin="GP22", n=64, brightness=1.0, auto_write=False, order="GRB")


# --- busio.SPI and digitalio as machine.SPI and machine.Pin -----------------------------

class BusioSPI:
    def __init__(self):
        self.calls = []
        self.tries = 0

    def try_lock(self):
        self.tries += 1
        return self.tries > 2  # someone else held it a moment

    def configure(self, **kw):
        self.calls.append(("configure", kw))

    def write(self, buf):
        self.calls.append(("write", bytes(buf)))

    def readinto(self, buf, write_value=0):
        self.calls.append(("readinto", len(buf), write_value))
        for i in range(len(buf)):
            buf[i] = 0xA0 + i

    def write_readinto(self, out, into):
        assert len(out) == len(into)
        self.calls.append(("write_readinto", bytes(out)))
        for i in range(len(into)):
            into[i] = out[i] ^ 0xFF

    def unlock(self):
        self.calls.append(("unlock",))

    def deinit(self):
        self.calls.append(("deinit",))


def test_spi_bus_is_locked_and_configured_once_then_passes_transfers_through():
    bus = BusioSPI()
    spi = SPIBus(bus, 4_000_000)
    assert bus.calls == [("configure", dict(baudrate=4_000_000, polarity=0, phase=0, bits=8))]
    spi.write(b"\x12\x34")
    into = bytearray(2)
    spi.write_readinto(memoryview(bytearray(b"\x0f\xf0\x00"))[:2], memoryview(into))
    assert into == b"\xf0\x0f"
    buf = bytearray(3)
    spi.readinto(buf, 0xFF)
    assert buf == b"\xa0\xa1\xa2"
    spi.readinto(buf)
    assert bus.calls[1:] == [("write", b"\x12\x34"), ("write_readinto", b"\x0f\xf0"),
                             ("readinto", 3, 0xFF), ("readinto", 3, 0)]


class DigitalInOut:
    def __init__(self):
        self.direction = None
        self.pull = None
        self.value = False

    def switch_to_output(self, value=False):
        self.direction = "out"
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = "in"
        self.pull = pull


@pytest.fixture
def digitalio(monkeypatch):
    pull = types.SimpleNamespace(UP="up", DOWN="down")
    monkeypatch.setitem(sys.modules, "digitalio", types.SimpleNamespace(Pull=pull))


def test_pin_speaks_machine_pin(digitalio):
    d = DigitalInOut()
    p = Pin(d)
    p.init(p.OUT, value=1)
    assert (d.direction, d.value) == ("out", True)
    p.value(0)
    assert d.value is False and p.value() == 0
    p(1)
    assert d.value is True and p() == 1
    p.off()
    assert p.value() == 0
    p.on()
    assert p.value() == 1
    p.init(p.IN, p.PULL_UP)
    assert (d.direction, d.pull) == ("in", "up")
    Pin(d, Pin.IN, Pin.PULL_DOWN)
    assert d.pull == "down"
    Pin(d, Pin.IN)
    assert d.pull is None


def test_the_nfc_front_end_and_its_driver_run_unchanged_on_the_adapter(digitalio):
    # The front end's chain, a reader's whole set-up and a tile read, on an
    # SPI bus with no chip (MISO low): it finds no reader, as on the
    # emulated Pico with its readers dead.
    from vortex.hal.frontend import FrontEnd
    from vortex.hal.mfrc522 import MFRC522
    from vortex.tag import NOREADER

    class Silent(BusioSPI):
        # No chip answers (MISO low), but the chain comes back while the
        # strobe is high (pins.NFC_CHAIN_RETURN): what the last 9 bytes left.
        held = bytes(9)

        def write(self, buf):
            BusioSPI.write(self, buf)
            self.held = (self.held + bytes(buf))[-9:]

        def write_readinto(self, out, into):
            BusioSPI.write_readinto(self, out, into)
            back = self.held if strobe.value and len(out) == 9 else bytes(len(into))
            for i in range(len(into)):
                into[i] = back[i]
            self.held = (self.held + bytes(out))[-9:]

    bus = Silent()
    strobe, latch = DigitalInOut(), DigitalInOut()
    front = FrontEnd(SPIBus(bus, 4_000_000), Pin(strobe, Pin.OUT, value=1), Pin(latch, Pin.OUT),
                     8)
    front.reset(0, 0)
    rdr = MFRC522(front, 3)
    assert (strobe.direction, strobe.value) == ("out", True)  # no reader between transactions
    assert (latch.direction, latch.value) == ("out", False)
    assert not rdr.present and rdr.read_tile(bytearray(16)) == NOREADER
    chains = [c[1] for c in bus.calls if c[0] == "write" and len(c[1]) == 9]
    assert chains and chains[-1][8] & 7 == 3               # the decoder addresses reader 3
    assert any(c[0] == "write_readinto" for c in bus.calls) and front.fault == 0


# --- the watchdog, the console port, the store ------------------------------------------

class WatchDogTimer:
    def __init__(self):
        self.timeout = None
        self.mode = None
        self.fed = 0

    def feed(self):
        self.fed += 1


def test_watchdog_is_armed_fed_and_stopped():
    t = WatchDogTimer()
    wd = Watchdog(5000, wdt=t, mode="RESET")
    assert (t.timeout, t.mode) == (5.0, "RESET")
    wd.feed()
    wd.feed()
    assert t.fed == 2
    wd.keep_fed()
    assert t.mode is None  # stopped: the REPL outlives the timeout
    assert Watchdog(60000, wdt=WatchDogTimer(), mode="RESET").timeout_ms == MAX_MS == 8000


class Serial:
    """usb_cdc.Serial: in_waiting, readinto(), write() (what fits), connected."""

    def __init__(self, data=b"", room=1000, connected=True):
        self.data = bytearray(data)
        self.room = room
        self.connected = connected
        self.sent = bytearray()
        self.timeout = self.write_timeout = None

    @property
    def in_waiting(self):
        return len(self.data)

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        del self.data[:n]
        return n

    def reset_input_buffer(self):
        del self.data[:]

    def write(self, data):
        n = min(len(data), self.room)
        self.sent += bytes(data[:n])
        self.room -= n
        return n


def test_console_port_reads_and_writes_without_waiting():
    s = Serial(b"hi", room=3)
    port = ConsolePort(s)
    assert (s.timeout, s.write_timeout) == (0, 0)  # never waits for the host
    assert [port.read_byte(), port.read_byte(), port.read_byte()] == [ord("h"), ord("i"), -1]
    assert port.write(b"hello") == 3 and s.sent == b"hel"
    assert port.write(b"lo") == 0  # full: the link keeps the rest queued


def test_console_port_sees_its_host_go_and_drops_what_it_left_unread():
    s = Serial(b"subscribe\n")
    port = ConsolePort(s)
    assert port.read_byte() == ord("s") and not port.gone()
    s.connected = False  # the host closed the port: DTR dropped
    assert port.gone() and not port.gone()  # once per departure
    assert port.read_byte() == -1  # "ubscribe" went with it
    s.connected = True
    s.data += b"hello\n"
    assert not port.gone() and port.read_byte() == ord("h")


def test_console_port_drops_what_it_writes_while_no_host_listens():
    s = Serial(connected=False)
    port = ConsolePort(s)
    assert port.write(b"event") == 5 and s.sent == b""


def test_the_store_saves_when_circuitpy_is_the_games(monkeypatch):
    mount = types.SimpleNamespace(readonly=False)
    monkeypatch.setitem(sys.modules, "storage", types.SimpleNamespace(getmount=lambda p: mount))
    said = []
    assert isinstance(cp_store.store("/game.bin", said.append), FileStore) and not said


def test_the_store_resumes_but_saves_nothing_when_circuitpy_is_the_computers(monkeypatch):
    mount = types.SimpleNamespace(readonly=True)
    monkeypatch.setitem(sys.modules, "storage", types.SimpleNamespace(getmount=lambda p: mount))
    said = []
    st = cp_store.store("/game.bin", said.append)
    assert said == [cp_store.READ_ONLY]
    fs = MemFS()
    FileStore("/game.bin", fs=fs).save(b"a game")
    ro = cp_store.ReadOnlyStore(FileStore("/game.bin", fs=fs))
    before = dict(fs.files)
    assert ro.load() == b"a game" and ro.records() == []
    ro.save(b"another")
    ro.append(b"a move")
    assert fs.files == before
    assert isinstance(st, cp_store.ReadOnlyStore)
