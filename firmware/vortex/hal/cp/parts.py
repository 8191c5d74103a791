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
from vortex.hal.mfrc522 import MFRC522
from vortex.hal.tiles import TileScanner, ShiftMux
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


def output(n):
    """GPIO n as a machine.Pin-like digital pin, for the MicroPython drivers."""
    import digitalio
    return Pin(digitalio.DigitalInOut(gpio(n)))


def build(save_path, say=print):
    """(reeds, tiles, pixels, buttons, clock, store, port, Watchdog class)."""
    import busio
    clock = supervisor.ticks_ms
    reeds = keys.reed_matrix([gpio(n) for n in pins.REED_ROWS],
                             [gpio(n) for n in pins.REED_COLS], pins.DEBOUNCE_MS)
    spi = SPIBus(busio.SPI(gpio(pins.NFC_SCK), MOSI=gpio(pins.NFC_MOSI), MISO=gpio(pins.NFC_MISO)),
                 pins.NFC_BAUD)
    # The front end's readers are reset from the 595 chain (NFC_RST's GPIO
    # is button B's now): the driver soft-resets them.
    reader = MFRC522(spi, output(pins.NFC_CS), None)
    tiles = TileScanner(reader, ShiftMux(spi, output(pins.MUX_LATCH)), clock())
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
