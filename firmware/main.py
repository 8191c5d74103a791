"""The board's main loop: wire the RP2040's parts to the board logic.

Deployed with tools/deploy.py next to pins.py (hardware/pins.py). Every
tick: one reed-matrix scan, the tile readers moved on (vortex.hal.tiles:
each of the eight is left working on its rank, none waited for), one step
of the board logic, the LEDs when the frame changed, and the host link on
the USB serial (docs/protocol.md; it never waits for the host, and Ctrl-C
still reaches the REPL). The loop allocates nothing while nothing happens.
With an NFC reader not answering, the loop goes on, says so on the console,
and plays on with the game's tiles on that reader's rank (.missing, view()).
"""
import gc
import sys
import time

from machine import Pin, SPI

import pins
from vortex.hal.reed import ReedMatrix, sio_columns
from vortex.hal.frontend import FrontEnd, Rp2FrontEnd
from vortex.hal.mfrc522 import Readers
from vortex.hal.tiles import TileScanner
from vortex.hal.pixels import Pixels, led_map
from vortex.hal.store import FileStore
from vortex.hal.watchdog import Watchdog
from vortex.app.board import Board
from vortex.app import buttons as btn
from vortex.link.link import Link
from vortex.link.port import StdioPort

SAVE = "/game.bin"
NO_READER = ("NFC reader not answering (ranks %s): their tiles are taken as the game has "
             "them, so pieces can be played but tile actions there cannot be seen; check the "
             "readers' wiring")
READER_BACK = "NFC readers all answering again: the tiles are read"


def buttons(a, b):
    # Two buttons to ground (pressed reads 0); what presses and holds mean
    # is the board logic's business (vortex/app/buttons.py).
    return (0 if a.value() else btn.A) | (0 if b.value() else btn.B)


def ranks(mask):
    """The ranks (1-8) of the readers in a bit mask, e.g. '1, 4'."""
    return ", ".join(str(r + 1) for r in range(8) if mask >> r & 1)


def build():
    """The parts, from the pin map."""
    reeds = ReedMatrix([Pin(n) for n in pins.REED_ROWS], [Pin(n) for n in pins.REED_COLS],
                       pins.DEBOUNCE_MS, sio_columns(pins.REED_COLS))
    spi = SPI(pins.NFC_SPI, baudrate=pins.NFC_BAUD, sck=Pin(pins.NFC_SCK),
              mosi=Pin(pins.NFC_MOSI), miso=Pin(pins.NFC_MISO))
    strobe = Pin(pins.NFC_STROBE, Pin.OUT)
    latch = Pin(pins.NFC_LATCH, Pin.OUT)
    if sys.platform == "rp2":  # its registers straight from machine code
        front = Rp2FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_SPI, pins.NFC_STROBE,
                            pins.NFC_LATCH)
    else:
        front = FrontEnd(spi, strobe, latch, pins.NFC_READERS)
    front.reset()
    tiles = TileScanner(Readers(front, pins.NFC_READERS), front, time.ticks_ms(),
                        clock=time.ticks_us)
    pixels = Pixels(Pin(pins.LED_PIN), pins.LED_COUNT, led_map(pins.LED_SERPENTINE))
    a = Pin(pins.BUTTON_A, Pin.IN, Pin.PULL_UP)
    b = Pin(pins.BUTTON_B, Pin.IN, Pin.PULL_UP)
    return reeds, tiles, pixels, a, b


def run(ticks=-1):
    """The loop; `ticks` bounds it for tests (-1: forever)."""
    reeds, tiles, pixels, a, b = build()
    board = Board(FileStore(SAVE))
    board.make_search()  # at boot, not as a stall at the AI's first action
    watchdog = Watchdog(pins.WATCHDOG_MS)
    link = Link(board)
    port = StdioPort()
    missing = 0

    def think(frame_changed):
        # While the AI searches (it calls this at every node): keep the
        # reeds debounced, the thinking light turning, the watchdog fed.
        reeds.scan(time.ticks_ms())
        if frame_changed:
            pixels.show(board.frame)
        watchdog.feed()
    board.on_think = think
    gc.collect()
    try:
        while ticks:
            ticks -= 1
            now = time.ticks_ms()
            reeds.scan(now)
            tiles.poll(now)
            if tiles.missing != missing:
                missing = tiles.missing
                print(NO_READER % ranks(missing) if missing else READER_BACK)
            # Without a reader, the game's own tiles stand in for its rank's readings.
            if board.step(now, reeds.cells, tiles.view(board.pos.tiles), tiles.ids,
                          buttons(a, b)):
                pixels.show(board.frame)
            board.hint(tiles)  # read first where tiles may change
            link.serve(port)  # the host's commands answered, events sent
            watchdog.feed()
    except KeyboardInterrupt:
        # Stopped from a computer (Ctrl-C, mpremote, tools/deploy.py): the
        # REPL takes over, and the watchdog, which cannot be stopped, is fed
        # from a timer until the next reset.
        watchdog.keep_fed()
        raise
    return board


if __name__ == "__main__":
    run()
