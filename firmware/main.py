"""The board's main loop: wire the RP2040's parts to the board logic.

Deployed with tools/deploy.py next to pins.py (hardware/pins.py). The loop
is vortex.app.service's pass, over and over: one reed-matrix scan, at most
one step of tile reading, one step of the board logic, the LEDs when the
frame changed, the host link on the USB serial (docs/protocol.md; it never
waits for the host, and Ctrl-C still reaches the REPL), the watchdog. The
AI's search runs the same pass while it thinks. The loop allocates nothing
while nothing happens. The tile readers are eight MFRC522s, one per rank,
behind the front end's 595 chain and decoder (vortex.hal.frontend); a pass
moves each on without waiting for any (vortex.hal.tiles). With an NFC
reader not answering, the loop goes on, says so on the console, and plays
on with the game's tiles on that reader's rank. At boot it prints the
firmware's version (vortex.version, written by the build), reads what the
USB-C source offers and budgets the LEDs to it (power.py, deployed next to
pins.py; the host link's `power` says what it read); the buzzer sounds
what the board decides.

On a Pico W with umqtt.simple installed (tools/deploy.py --online), the
board also plays online with no computer: vortex.online.client joins the
room set over the link (`online ...`, docs/online.md) through the WiFi, a
few of its messages a pass, never waiting long.

The same file runs on CircuitPython (deployed as code.py): build() then
makes the parts from CircuitPython's modules (vortex/hal/cp), and the
game, the board logic and the link are the same code.
"""
import gc
import sys

CIRCUITPYTHON = sys.implementation.name == "circuitpython"

import pins
import power
from vortex.hal.buzzer import Buzzer
from vortex.hal.supply import CCSense
from vortex.app.board import Board, NO_SEARCH
from vortex.app.ai import searcher, DEVICE_LEVELS
from vortex.app.service import Service
from vortex.app import sounds
from vortex.link.link import Link
from vortex.version import VERSION

SAVE = "/game.bin"
ONLINE_SAVE = "/online.bin"  # the online settings (vortex.online.settings)
ROOM_SAVE = "/room.bin"  # the room's last verified game (vortex.online.client's cache)
HEAP_RESERVE = 6144  # the heap the search's tables leave the game (docs/device.md)


def build():
    """The parts, from the pin map, for the runtime found (vortex.hal.parts)."""
    if CIRCUITPYTHON:
        from vortex.hal.cp import parts
    else:
        from vortex.hal import mp as parts
    return parts.build(SAVE)


def online_client(board):
    """The Pico W's online play (vortex.online.wifi), or None: CircuitPython,
    a Pico without the radio, or without umqtt.simple (mip)."""
    if CIRCUITPYTHON:
        return None
    from vortex.online import wifi
    return wifi.start(board, ONLINE_SAVE, ROOM_SAVE)


def supply(board, cc):
    """What the USB-C source offers, read once at boot from the CC line:
    the LEDs' budget from now on (hardware/power.py)."""
    source = power.source(CCSense(cc).read_u16())
    board.set_supply(source, power.LED_BUDGET_MA[source])  # the link's `power` says it


def run(ticks=-1):
    """The loop; `ticks` bounds it for tests (-1: forever)."""
    print("Vortex firmware", VERSION)
    # The AI's search first: its tables (8, 4 and 3.9 KB) and its ply
    # buffers are the largest blocks the board keeps, and the heap has whole
    # blocks only now. Made after the parts and a resumed game, they found
    # none (the free memory was there, in pieces: MemoryError at boot, and
    # on CircuitPython a board with 8 KB free and no 3.9 KB block playing at
    # level 0). vortex.app.ai.searcher makes the tables smaller if it must.
    # CircuitPython's heap (162 KB, not 240) cannot hold them at full size
    # beside the rest: its search starts with the smallest, and before each
    # search the board sizes them to what is free, leaving HEAP_RESERVE
    # (Board.think, vortex.app.ai.fit; docs/device.md).
    gc.collect()
    try:
        search = searcher(DEVICE_LEVELS, smallest=CIRCUITPYTHON)
    except MemoryError:
        search = None  # make_search() tries again, and says so
    parts = build()
    gc.collect()  # the parts' set-up garbage gone
    buzzer = Buzzer(parts.buzzer, sounds.NOTES)
    board = Board(parts.store)
    link = Link(board)  # its outbox (2 KB) before the pieces get smaller
    link.client = online = online_client(board)  # the link's `online` sets it up
    supply(board, parts.cc)
    if not board.make_search(search, HEAP_RESERVE):  # at boot, not at the AI's first action
        print(NO_SEARCH)
    service = Service(board, parts.reeds, parts.tiles, parts.pixels, parts.buttons, parts.clock,
                      link=link, port=parts.port, watchdog=parts.watchdog(pins.WATCHDOG_MS),
                      say=print, buzzer=buzzer, online=online)
    gc.collect()
    try:
        while ticks:
            ticks -= 1
            service.tick()
    except KeyboardInterrupt:
        # Stopped from a computer (Ctrl-C, mpremote, tools/deploy.py): the
        # REPL takes over, and the watchdog, which cannot be stopped, is fed
        # from a timer until the next reset. A tone playing would go on.
        buzzer.stop()
        service.watchdog.keep_fed()
        raise
    return board


if __name__ == "__main__":
    run()
