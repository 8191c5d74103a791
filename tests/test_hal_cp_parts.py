"""vortex/hal/cp/parts.py's build(): the board's parts made the CircuitPython
way from the pin map (hardware/pins.py), with fakes of CircuitPython's
modules that record what each part was made on. On the emulated
CircuitPython Pico the same build runs on the real modules
(tests/test_device_circuitpython.py); here each pin and setting is checked."""
import importlib
import sys
import types

import pytest

import pins
from vortex.hal.cp.bus import SPIBus
from vortex.hal.cp.store import ReadOnlyStore
from vortex.hal.cp.watchdog import Watchdog
from vortex.hal.frontend import FrontEnd
from vortex.hal.store import FileStore


class Made:
    """What the fakes were asked for, by kind."""

    def __init__(self):
        self.calls = []

    def of(self, kind):
        return [c[1:] for c in self.calls if c[0] == kind]


class FakeSPI:
    """busio.SPI on a bus with no chip on it: MISO reads 0."""

    def __init__(self, made, sck, MOSI, MISO):
        made.calls.append(("spi", sck, MOSI, MISO))
        self.made = made

    def try_lock(self):
        return True

    def configure(self, **kw):
        self.made.calls.append(("configure", kw))

    def write(self, buf):
        pass

    def write_readinto(self, out, into):
        for i in range(len(into)):
            into[i] = 0

    def unlock(self):
        pass


class DigitalInOut:
    def __init__(self, made, pin):
        self.pin = pin
        self.value = None
        self.direction = None
        made.calls.append(("dio", pin, self))

    def switch_to_output(self, value=False):
        self.direction = "out"
        self.value = self.first = value   # the level the pin drives from the start

    def switch_to_input(self, pull=None):
        self.direction = "in"


@pytest.fixture
def circuitpython(monkeypatch):
    """CircuitPython's modules as fakes; returns (made, supervisor, mount)."""
    made = Made()
    board = types.SimpleNamespace(**{"GP%d" % n: "GP%d" % n for n in range(30)})
    supervisor = types.SimpleNamespace(ticks_ms=lambda: 1234,
                                       runtime=types.SimpleNamespace(autoreload=True))
    mount = types.SimpleNamespace(readonly=False)

    class Event:
        key_number = 0
        pressed = False

    class Scanner:
        def __init__(self):
            self.events = types.SimpleNamespace(get_into=lambda ev: False, overflowed=False,
                                                clear=lambda: None)

        def reset(self):
            pass

    class KeyMatrix(Scanner):
        def __init__(self, rows, cols, columns_to_anodes, interval, max_events):
            made.calls.append(("matrix", tuple(rows), tuple(cols), interval))
            Scanner.__init__(self)

    class Keys(Scanner):
        def __init__(self, pins, value_when_pressed, pull, interval, max_events):
            made.calls.append(("keys", tuple(pins)))
            Scanner.__init__(self)

    class NeoPixel:
        def __init__(self, pin, n, brightness, auto_write, pixel_order):
            made.calls.append(("neopixel", pin, n, self))
            self.leds = bytearray(3 * n)

        def __setitem__(self, index, values):
            assert index == slice(0, len(self.leds) // 3)
            self.leds[:] = bytes(values)   # R, G, B a pixel

        def show(self):
            pass

    class PWMOut:
        def __init__(self, pin, **kw):
            made.calls.append(("pwm", pin, kw))
            self.frequency = kw.get("frequency")
            self.duty_cycle = kw.get("duty_cycle")

    class AnalogIn:
        def __init__(self, pin):
            made.calls.append(("adc", pin))
            self.value = 4321

    modules = {
        "board": board,
        "supervisor": supervisor,
        "busio": types.SimpleNamespace(SPI=lambda sck, MOSI, MISO: FakeSPI(made, sck, MOSI, MISO)),
        "digitalio": types.SimpleNamespace(DigitalInOut=lambda pin: DigitalInOut(made, pin),
                                           Pull=types.SimpleNamespace(UP="up", DOWN="down")),
        "pwmio": types.SimpleNamespace(PWMOut=PWMOut),
        "analogio": types.SimpleNamespace(AnalogIn=AnalogIn),
        "keypad": types.SimpleNamespace(KeyMatrix=KeyMatrix, Keys=Keys, Event=Event),
        "neopixel": types.SimpleNamespace(NeoPixel=NeoPixel, GRB="GRB"),
        "storage": types.SimpleNamespace(getmount=lambda path: mount),
        "usb_cdc": types.SimpleNamespace(console=types.SimpleNamespace(connected=False)),
    }
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "vortex.hal.cp.parts", raising=False)
    return made, supervisor, mount


def gp(n):
    return "GP%d" % n


def build(save_path="/game.bin"):
    parts = importlib.import_module("vortex.hal.cp.parts")
    said = []
    return parts, parts.build(save_path, said.append), said


def test_each_part_is_made_on_its_pins(circuitpython):
    made, supervisor, mount = circuitpython
    parts, p, said = build()
    assert made.of("matrix") == [(tuple(gp(n) for n in pins.REED_ROWS),
                                  tuple(gp(n) for n in pins.REED_COLS), pins.DEBOUNCE_MS / 1000)]
    assert made.of("spi") == [(gp(pins.NFC_SCK), gp(pins.NFC_MOSI), gp(pins.NFC_MISO))]
    assert made.of("configure")[0][0]["baudrate"] == pins.NFC_BAUD
    outputs = {pin: d for pin, d in made.of("dio")}
    strobe, latch = outputs[gp(pins.NFC_STROBE)], outputs[gp(pins.NFC_LATCH)]
    assert strobe.direction == latch.direction == "out"
    # No reader selected between transactions, not even while the pin is made.
    assert strobe.first is True and strobe.value and latch.first is False
    assert len(p.tiles.readers) == pins.NFC_READERS
    # The scanner schedules the readers' coils on the front end they talk through.
    assert isinstance(p.tiles.front, FrontEnd) and p.tiles.readers[0].front is p.tiles.front
    assert [c[:2] for c in made.of("neopixel")] == [(gp(pins.LED_PIN), pins.LED_COUNT)]
    assert made.of("keys") == [((gp(pins.BUTTON_A), gp(pins.BUTTON_B)),)]
    assert p.buttons() == 0
    assert made.of("pwm") == [(gp(pins.BUZZER), dict(frequency=440, duty_cycle=0,
                                                     variable_frequency=True))]
    assert made.of("adc") == [(gp(pins.CC_SENSE),)] and p.cc.read_u16() == 4321
    assert p.clock is supervisor.ticks_ms and p.watchdog is Watchdog
    assert isinstance(p.tiles.readers[0].front.spi, SPIBus)
    assert p.port is not None and p.port.write(b"x") == 1   # no host: dropped, as on the board
    assert said == []


@pytest.mark.parametrize("serpentine", [False, True])
def test_the_leds_follow_the_pin_maps_chain(circuitpython, monkeypatch, serpentine):
    made = circuitpython[0]
    monkeypatch.setattr(pins, "LED_SERPENTINE", serpentine)
    parts, p, said = build()
    strip = made.of("neopixel")[0][2]
    frame = bytearray(3 * pins.LED_COUNT)
    frame[3 * 8:3 * 8 + 3] = b"\x01\x02\x03"   # a2: LED 8, or 15 where rank 2 runs back
    assert p.pixels.show(frame)
    led = 15 if serpentine else 8
    assert strip.leds[3 * led:3 * led + 3] == b"\x01\x02\x03" and sum(strip.leds) == 6


def test_autoreload_is_off_only_while_circuitpy_is_the_games(circuitpython):
    made, supervisor, mount = circuitpython
    parts, p, said = build()
    assert isinstance(p.store, FileStore) and supervisor.runtime.autoreload is False
    supervisor.runtime.autoreload = True
    mount.readonly = True   # button A held at boot: the computer's drive
    parts, p, said = build()
    assert isinstance(p.store, ReadOnlyStore) and supervisor.runtime.autoreload is True
    assert len(said) == 1
