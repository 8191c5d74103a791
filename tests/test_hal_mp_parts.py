"""vortex/hal/mp.py's build(): the board's parts made the MicroPython way
from the pin map (hardware/pins.py), with a fake machine module that records
what each part was made on (test_hal_cp_parts does the same for
CircuitPython). On the emulated Pico the same build runs on the real
modules; here each pin and setting is checked."""
import importlib
import sys
import time
import types

import pytest

import pins
from vortex.app import buttons as btn
# Imported before the fixture gives time its ticks_*: mfrc522 takes its
# default clock from time at import, and the other hal tests expect none.
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import MFRC522  # noqa: F401
from vortex.hal.tiles import TileScanner  # noqa: F401
from vortex.hal.reed import SIO_GPIO_IN
from vortex.hal.store import FileStore
from vortex.hal.watchdog import Watchdog
from vortex.link.port import StdioPort


class Board:
    """The GPIOs' levels and what the fakes were asked for."""

    def __init__(self):
        self.pins = {}        # GPIO -> the fake Pin last made on it
        self.spi = []
        self.pixels = []
        self.magnets = set()  # (row index, column index) of closed reed switches

    def pin(self, n):
        return self.pins[n]

    def gpio_in(self):
        """SIO GPIO_IN: a column reads high through a closed switch on a high row."""
        bits = 0
        for r, f in self.magnets:
            if self.pins[pins.REED_ROWS[r]].level:
                bits |= 1 << pins.REED_COLS[f]
        return bits


def machine_module(board):
    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 1
        PULL_DOWN = 2

        def __init__(self, n, mode=-1, pull=-1, value=None):
            self.id = n
            self.mode = self.pull = None
            self.level = 0
            self.rises = 0
            board.pins[n] = self
            self.init(mode, pull, value)

        def init(self, mode=-1, pull=-1, value=None):
            if mode != -1:
                self.mode = mode
            if pull != -1:
                self.pull = pull
                self.level = 1 if pull == Pin.PULL_UP else 0   # idle, pulled
            if value is not None:
                self.value(value)

        def value(self, v=None):
            if v is None:
                return self.level
            self.rises += 1 if v and not self.level else 0
            self.level = 1 if v else 0

    class SPI:
        def __init__(self, id, baudrate, sck, mosi, miso):
            self.id, self.baudrate, self.sck, self.mosi, self.miso = id, baudrate, sck, mosi, miso
            self.writes = self.readbacks = 0
            board.spi.append(self)

        def write(self, buf):
            self.writes += 1

        def write_readinto(self, out, into):
            if board.pins[pins.NFC_STROBE].level:   # no reader selected: the chain's return
                self.readbacks += 1
            for i in range(len(into)):
                into[i] = 0

    class PWM:
        def __init__(self, pin):
            self.pin = pin

    class ADC:
        def __init__(self, pin):
            self.pin = pin

        def read_u16(self):
            return 4321

    class Mem32:
        def __getitem__(self, addr):
            assert addr == SIO_GPIO_IN, hex(addr)
            return board.gpio_in()

    board.Pin = Pin
    return types.SimpleNamespace(Pin=Pin, SPI=SPI, PWM=PWM, ADC=ADC, mem32=Mem32())


class NeoPixel:
    """MicroPython's neopixel.NeoPixel: .buf in wire order, G, R, B."""
    ORDER = (1, 0, 2, 3)
    bpp = 3

    def __init__(self, board, pin, n):
        board.pixels.append((pin, n, self))
        self.buf = bytearray(3 * n)

    def write(self):
        pass


@pytest.fixture
def micropython(monkeypatch, tmp_path):
    """machine, neopixel and time's ticks_* as fakes; returns the Board."""
    board = Board()
    monkeypatch.setitem(sys.modules, "machine", machine_module(board))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(
        NeoPixel=lambda pin, n: NeoPixel(board, pin, n)))
    us = [0]

    def ticks_us():
        us[0] += 1            # counts its calls
        return us[0]

    monkeypatch.setattr(time, "ticks_ms", lambda: 1234, raising=False)
    monkeypatch.setattr(time, "ticks_us", ticks_us, raising=False)
    board.us = us
    # StdioPort polls stdin and stdout, which pytest's capture replaces.
    with open(tmp_path / "stdin", "wb"):
        pass
    stdin = open(tmp_path / "stdin", "rb")
    stdout = open(tmp_path / "stdout", "wb")
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.delitem(sys.modules, "vortex.hal.mp", raising=False)
    yield board
    monkeypatch.undo()
    sys.modules.pop("vortex.hal.mp", None)   # built on the fakes: no other test may get it
    stdin.close()
    stdout.close()


def build(path):
    mp = importlib.import_module("vortex.hal.mp")
    return mp, mp.build(str(path))


def test_each_part_is_made_on_its_pins(micropython, tmp_path):
    board = micropython
    mp, p = build(tmp_path / "game.bin")
    Pin = board.Pin
    # The reed matrix: rows driven, columns pulled down, read from the SIO
    # from the first column's GPIO; a magnet at rank 3, file f shows after
    # the debounce, at cell 2 * 8 + 5.
    assert all(board.pin(n).mode == Pin.OUT for n in pins.REED_ROWS)
    assert all((board.pin(n).mode, board.pin(n).pull) == (Pin.IN, Pin.PULL_DOWN)
               for n in pins.REED_COLS)
    board.magnets.add((2, 5))
    assert not p.reeds.scan(0) and not p.reeds.scan(pins.DEBOUNCE_MS - 1)
    assert p.reeds.scan(pins.DEBOUNCE_MS) and list(p.reeds.cells) == [
        1 if c == 2 * 8 + 5 else 0 for c in range(64)]
    # The NFC bus and its front end (not the RP2040's: CPython is no rp2).
    [spi] = board.spi
    assert (spi.id, spi.baudrate) == (pins.NFC_SPI, pins.NFC_BAUD)
    assert (spi.sck.id, spi.mosi.id, spi.miso.id) == (pins.NFC_SCK, pins.NFC_MOSI, pins.NFC_MISO)
    front = p.tiles.front
    assert type(front) is FrontEnd and front.spi is spi and front.readers == pins.NFC_READERS
    assert front.strobe is board.pin(pins.NFC_STROBE) and front.latch is board.pin(pins.NFC_LATCH)
    assert front.strobe.mode == front.latch.mode == Pin.OUT
    assert front.strobe.level == 1 and front.latch.rises >= 2            # reset(): latched
    # The chain read back only where the board has its return line (none yet).
    assert front.check is pins.NFC_CHAIN_RETURN and spi.writes >= 2
    assert spi.readbacks == 0 and front.fault == 0
    assert len(p.tiles.readers) == pins.NFC_READERS
    assert all(p.tiles.readers[r].front is front for r in range(pins.NFC_READERS))
    assert board.us[0] >= 1                      # the scanner times the reads in microseconds
    # The LEDs, the buzzer, the CC sense, the clock, the save file.
    [(led, n, strip)] = board.pixels
    assert (led.id, n) == (pins.LED_PIN, pins.LED_COUNT)
    assert p.buzzer.pin.id == pins.BUZZER and p.cc.pin.id == pins.CC_SENSE
    assert p.cc.read_u16() == 4321
    assert p.clock is time.ticks_ms and p.watchdog is Watchdog and isinstance(p.port, StdioPort)
    assert isinstance(p.store, FileStore)
    p.store.save(b"game")
    assert FileStore(str(tmp_path / "game.bin")).load() == b"game"


def test_the_buttons_pull_up_and_read_pressed_at_0(micropython, tmp_path):
    board = micropython
    mp, p = build(tmp_path / "game.bin")
    a, b = board.pin(pins.BUTTON_A), board.pin(pins.BUTTON_B)
    assert (a.mode, a.pull) == (b.mode, b.pull) == (board.Pin.IN, board.Pin.PULL_UP)
    for la, lb, state in ((1, 1, 0), (0, 1, btn.A), (1, 0, btn.B), (0, 0, btn.A | btn.B)):
        a.level, b.level = la, lb
        assert p.buttons() == state, (la, lb)


@pytest.mark.parametrize("serpentine", [False, True])
def test_the_leds_follow_the_pin_maps_chain(micropython, monkeypatch, tmp_path, serpentine):
    board = micropython
    monkeypatch.setattr(pins, "LED_SERPENTINE", serpentine)
    mp, p = build(tmp_path / "game.bin")
    strip = board.pixels[0][2]
    frame = bytearray(3 * pins.LED_COUNT)
    frame[3 * 8:3 * 8 + 3] = b"\x01\x02\x03"   # a2: LED 8, or 15 where rank 2 runs back
    assert p.pixels.show(frame)
    led = 15 if serpentine else 8
    assert strip.buf[3 * led:3 * led + 3] == b"\x02\x01\x03" and sum(strip.buf) == 6   # G, R, B


def test_on_the_rp2040_the_front_end_is_the_registers_one(micropython, monkeypatch, tmp_path):
    # vortex.hal.rp2nfc runs only on the RP2040: a stand-in records what
    # build() hands it (its SPI and pins' numbers for the registers).
    made = []

    class Rp2FrontEnd(FrontEnd):
        def __init__(self, spi, strobe, latch, readers, spi_id, strobe_gpio, latch_gpio,
                     check=True):
            made.append((spi_id, strobe_gpio, latch_gpio, check))
            FrontEnd.__init__(self, spi, strobe, latch, readers, check)

    monkeypatch.setitem(sys.modules, "vortex.hal.rp2nfc",
                        types.SimpleNamespace(Rp2FrontEnd=Rp2FrontEnd))
    monkeypatch.setattr(sys, "platform", "rp2")
    mp, p = build(tmp_path / "game.bin")
    front = p.tiles.front
    assert type(front) is Rp2FrontEnd and front.readers == pins.NFC_READERS
    assert made == [(pins.NFC_SPI, pins.NFC_STROBE, pins.NFC_LATCH, pins.NFC_CHAIN_RETURN)]
    assert front.strobe is micropython.pin(pins.NFC_STROBE)
    assert front.latch is micropython.pin(pins.NFC_LATCH)
