"""The board's parts on CircuitPython, from the pin map: what main.py's
build() makes on MicroPython, each the CircuitPython way (see __init__.py).

    reeds, tiles, pixels, buttons, clock, store, port, Watchdog = build("/game.bin")

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
    """(reeds, tiles, pixels, buttons, clock, store, port, Watchdog class)."""
    import busio
    clock = supervisor.ticks_ms
    reeds = keys.reed_matrix([gpio(n) for n in pins.REED_ROWS],
                             [gpio(n) for n in pins.REED_COLS], pins.DEBOUNCE_MS)
    spi = SPIBus(busio.SPI(gpio(pins.NFC_SCK), MOSI=gpio(pins.NFC_MOSI), MISO=gpio(pins.NFC_MISO)),
                 pins.NFC_BAUD)
    # The NFC front end as on MicroPython, in plain Python (no viper, no
    # register access; CircuitPython's time has no ticks_us, so the
    # readers are polled rather than timed: vortex.hal.tiles, clock=None).
    front = FrontEnd(spi, output(pins.NFC_STROBE, 1), output(pins.NFC_LATCH), pins.NFC_READERS)
    front.reset()
    tiles = TileScanner(Readers(front, pins.NFC_READERS), front, clock())
    pixels = Pixels(None, pins.LED_COUNT, led_map(pins.LED_SERPENTINE),
                    driver=NeoPixelBuffer(gpio(pins.LED_PIN), pins.LED_COUNT))
    buttons = keys.buttons(gpio(pins.BUTTON_A), gpio(pins.BUTTON_B))
    saves = store(save_path, say)
    if not isinstance(saves, ReadOnlyStore):
        supervisor.runtime.autoreload = False
    # The buzzer (pins.BUZZER, PWM slice 6 A): its MicroPython driver is not
    # written yet; its CircuitPython twin, on pwmio.PWMOut(gpio(pins.BUZZER),
    # frequency=..., variable_frequency=True) with the same calls, goes here
    # beside it and into this tuple when it lands (docs/device.md).
    return reeds, tiles, pixels, buttons, clock, saves, ConsolePort(), Watchdog
