"""The board's parts on CircuitPython, from the pin map: what vortex/hal/mp.py
builds on MicroPython, each the CircuitPython way (see __init__.py).

    parts = build("/game.bin")    # a vortex.hal.parts.Parts

Also turns autoreload off while the game has CIRCUITPY (boot.py): a file
written by the game must not restart it. When the drive is the computer's
(A held at boot), autoreload stays on, as a maker editing code.py expects.
"""
import board
import supervisor

import pins
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import Readers
from vortex.hal.tiles import TileScanner
from vortex.hal.pixels import Pixels, led_map
from vortex.hal.parts import Parts
from vortex.hal.cp import keys
from vortex.hal.cp.bus import SPIBus, Pin
from vortex.hal.cp.pixels import NeoPixelBuffer
from vortex.hal.cp.port import ConsolePort
from vortex.hal.cp.store import store, ReadOnlyStore
from vortex.hal.cp.watchdog import Watchdog


def gpio(n):
    """The pin of GPIO n, board.GPn (pins.py numbers GPIOs, which both
    runtimes' pin names follow on the Pico)."""
    return getattr(board, "GP%d" % n)


def output(n, value=0):
    """GPIO n as a machine.Pin-like output pin at value, for the MicroPython drivers."""
    import digitalio
    return Pin(digitalio.DigitalInOut(gpio(n)), Pin.OUT, value=value)


def build(save_path, say=print):
    """The parts (vortex.hal.parts.Parts)."""
    import busio
    import pwmio
    import analogio
    clock = supervisor.ticks_ms
    reeds = keys.reed_matrix([gpio(n) for n in pins.REED_ROWS],
                             [gpio(n) for n in pins.REED_COLS], pins.DEBOUNCE_MS)
    spi = SPIBus(busio.SPI(gpio(pins.NFC_SCK), MOSI=gpio(pins.NFC_MOSI), MISO=gpio(pins.NFC_MISO)),
                 pins.NFC_BAUD)
    # The NFC front end as on MicroPython, in plain Python (no viper, no
    # register access; CircuitPython's time has no ticks_us, so the
    # readers are polled rather than timed: vortex.hal.tiles, clock=None).
    front = FrontEnd(spi, output(pins.NFC_STROBE, 1), output(pins.NFC_LATCH), pins.NFC_READERS,
                     pins.NFC_CHAIN_RETURN)
    front.reset()
    tiles = TileScanner(Readers(front, pins.NFC_READERS), front, clock())
    pixels = Pixels(None, pins.LED_COUNT, led_map(pins.LED_SERPENTINE),
                    driver=NeoPixelBuffer(gpio(pins.LED_PIN), pins.LED_COUNT))
    buttons = keys.buttons(gpio(pins.BUTTON_A), gpio(pins.BUTTON_B))
    saves = store(save_path, say)
    if not isinstance(saves, ReadOnlyStore):
        supervisor.runtime.autoreload = False
    # The buzzer's PWM needs its frequency changed per tone (variable_frequency).
    buzzer = PWM(pwmio.PWMOut(gpio(pins.BUZZER), frequency=440, duty_cycle=0,
                              variable_frequency=True))
    cc = ADC(analogio.AnalogIn(gpio(pins.CC_SENSE)))
    return Parts(reeds, tiles, pixels, buttons, clock, saves, ConsolePort(), Watchdog, buzzer, cc)


class PWM:
    """pwmio.PWMOut as machine.PWM's freq() and duty_u16() (vortex.hal.buzzer)."""

    def __init__(self, out):
        self.out = out

    def freq(self, hz):
        self.out.frequency = hz

    def duty_u16(self, duty):
        self.out.duty_cycle = duty if duty < 65536 else 65535


class ADC:
    """analogio.AnalogIn as machine.ADC's read_u16() (vortex.hal.supply):
    its .value is already 0-65535."""

    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        return self.pin.value
