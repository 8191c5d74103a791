"""The board's parts on MicroPython, from the pin map: vortex.hal.cp.parts
is the same on CircuitPython.

    parts = build("/game.bin")    # a vortex.hal.parts.Parts

Here rather than in main.py, which the board compiles from source at each
boot: compiled to .mpy, it costs the board no parse, and CircuitPython,
which also compiles main.py (as code.py), never interns the names of the
parts it does not use (docs/device.md, the qstr pool).
"""
import sys
import time

from machine import Pin, SPI, ADC, PWM

import pins
from vortex.app import buttons as btn
from vortex.hal.parts import Parts
from vortex.hal.reed import ReedMatrix, sio_columns
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import Readers
from vortex.hal.tiles import TileScanner
from vortex.hal.pixels import Pixels, led_map
from vortex.hal.store import FileStore
from vortex.hal.watchdog import Watchdog
from vortex.link.port import StdioPort


def read_buttons(a, b):
    """The buttons' raw state: two buttons to ground (pressed reads 0); what
    presses and holds mean is the board logic's business (vortex/app/buttons.py)."""
    def state():
        return (0 if a.value() else btn.A) | (0 if b.value() else btn.B)
    return state


def build(save_path):
    """The parts (vortex.hal.parts.Parts)."""
    reeds = ReedMatrix([Pin(n) for n in pins.REED_ROWS], [Pin(n) for n in pins.REED_COLS],
                       pins.DEBOUNCE_MS, sio_columns(pins.REED_COLS))
    spi = SPI(pins.NFC_SPI, baudrate=pins.NFC_BAUD, sck=Pin(pins.NFC_SCK),
              mosi=Pin(pins.NFC_MOSI), miso=Pin(pins.NFC_MISO))
    strobe = Pin(pins.NFC_STROBE, Pin.OUT)
    latch = Pin(pins.NFC_LATCH, Pin.OUT)
    if sys.platform == "rp2":  # its registers straight from machine code
        from vortex.hal.rp2nfc import Rp2FrontEnd
        front = Rp2FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_SPI, pins.NFC_STROBE,
                            pins.NFC_LATCH, pins.NFC_CHAIN_RETURN)
    else:
        front = FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_CHAIN_RETURN)
    front.reset()
    tiles = TileScanner(Readers(front, pins.NFC_READERS), front, time.ticks_ms(),
                        clock=time.ticks_us)
    pixels = Pixels(Pin(pins.LED_PIN), pins.LED_COUNT, led_map(pins.LED_SERPENTINE))
    a = Pin(pins.BUTTON_A, Pin.IN, Pin.PULL_UP)
    b = Pin(pins.BUTTON_B, Pin.IN, Pin.PULL_UP)
    return Parts(reeds, tiles, pixels, read_buttons(a, b), time.ticks_ms, FileStore(save_path),
                 StdioPort(), Watchdog, PWM(Pin(pins.BUZZER)), ADC(Pin(pins.CC_SENSE)))
