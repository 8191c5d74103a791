"""A MemoryError forced into the AI's turn on the emulated Pico (either
runtime), in the raw REPL: main.py's own loop (main.run) on a saved game
where the board's AI is to act, its search's first run asking the real
heap for a block it cannot have (1 MB). The board must give its tables
back, search again, say so on its link (the `memory` event: its Link made
subscribed) and with the memory sound, and ask for its action: the game
goes on. tests/test_device.py (MicroPython) and
tests/test_device_circuitpython.py run it."""
import re

from vortex.app import session
from vortex.engine.defs import DARK
from vortex.engine.position import Position
from vortex.hal.store import pack
from test_app_idle import BATTLE

# The built board, Light's e2e4 played: the board's AI (Dark) to act.
GAME = pack(session.dump(session.Settings(ai_side=DARK), BATTLE,
                         [Position(BATTLE).parse_action("e2e4")], (0, 0)))
SCRIPT = """
import %s as main
from vortex.ai import search
from vortex.link import link
real = search.Search.run
tables = []
def starved(self, *args):
    if not tables:
        tables.append(self.table_bytes())
        bytearray(1 << 20)  # the real heap says no
    return real(self, *args)
search.Search.run = starved
made = link.Link.__init__
def subscribed(self, *args):
    made(self, *args)
    self.events = link.ALL
link.Link.__init__ = subscribed
board = main.run(ticks=%d)
print("forced", tables[0], board.short, board.table_bytes(), board.ai.level,
      board.pos.action_text(board.pending) if board.pending >= 0 else "-")
"""
FORCED = re.compile(r"forced (\d+) (\d+) (\d+) (\d+) (\S+)")
EVENT = re.compile(r"\d+ memory (.*)\r?\n")


def forced(dev, module="main", ticks=60, timeout=600):
    """Run the script on dev (a pico.Pico at its raw REPL, a game saved as
    /game.bin where the AI is to act, such as GAME; module: main.py's name
    there, "code" on CircuitPython): (the tables' bytes before,
    shortfalls, the tables' bytes after, the AI's level, the action it
    asks for, the memory events' texts, the pico.Result)."""
    r = dev.exec(SCRIPT % (module, ticks), timeout)
    m = FORCED.search(r.output)
    assert r.status == 0 and m, r
    before, short, after, level = (int(g) for g in m.groups()[:4])
    return before, short, after, level, m.group(5), EVENT.findall(r.output), r
