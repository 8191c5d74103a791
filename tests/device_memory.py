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


# --- the qstr pool -------------------------------------------------------------
# Every name the board's code uses is interned once, as a qstr, in pools the
# runtime grows by doubling: CircuitPython 10's pools of 10, 20, ... 640
# entries hold the first 1,270; the 1,271st asks for a pool of 1,280 entries
# (7.7 KB) in one block, which a board that has played for a while no longer
# has ("allocating 1280 bytes": the count is entries). The board must boot
# with room in its pool for every name it can still intern: the modules its
# functions import on demand (a record, the AI's building) and the single
# characters a string index makes (docs/device.md, the qstr pool).
ROOM_CAP = 400  # the names tried at most (each costs its bytes)
PROBE = """
import gc
def headroom():
    # Fresh names until one cannot be made (MemoryError: the pool must grow
    # and finds no block for it), at most %d: how many more names the
    # board can make now.
    o = object()
    for i in range(%d):
        try:
            getattr(o, "zq%%d" %% i, None)
        except MemoryError:
            return i
    return i + 1
""" % (ROOM_CAP, ROOM_CAP)
# The loop's Service kept, so that its watchdog, which cannot be stopped, is
# fed from a timer once main.run() returns (as after Ctrl-C).
KEEP_FED = """
from vortex.app import service
services = []
made = service.Service.__init__
def kept(self, *args, **kw):
    made(self, *args, **kw)
    services.append(self)
service.Service.__init__ = kept
"""
ON_DEMAND = re.compile(r"^[ \t]+(?:from (vortex[\w.]*) import (\w+)|import (vortex[\w.]*))", re.M)
# Imported only on MicroPython (its parts, the RP2040's register code):
# CircuitPython never loads them.
MICROPYTHON_ONLY = ("vortex.hal.mp", "vortex.hal.rp2nfc")
# Online play, loaded only on a Pico W with umqtt (vortex.online.wifi): the
# emulated Pico, like the board's, has no radio.
RADIO_ONLY = ("vortex.online.",)


def on_demand_modules(runtime, root=None):
    """The firmware's modules that a function imports when it runs (not at
    its module's import), for runtime: each one's names are interned then."""
    import os
    from mpy import ROOT
    top = os.path.join(root or ROOT, "firmware", "vortex")
    found = set()
    for folder, _, files in os.walk(top):
        for name in files:
            if not name.endswith(".py"):
                continue
            with open(os.path.join(folder, name)) as f:
                text = f.read()
            for base, member, plain in ON_DEMAND.findall(text):
                module = plain or base
                if member and os.path.exists(os.path.join(root or ROOT, "firmware",
                                                          *(base + "." + member).split(".")) + ".py"):
                    module = base + "." + member  # from vortex import record
                if module.startswith(RADIO_ONLY) or (runtime == "circuitpython"
                                                     and module.startswith(MICROPYTHON_ONLY)):
                    continue
                found.add(module)
    return sorted(found)


def headroom_script(runtime, ticks=60):
    """main.run() on the saved game, then every module imported on demand
    and each letter and digit a string index can make, then PROBE: prints
    `headroom <names> free <bytes>`."""
    import string
    mods = on_demand_modules(runtime)
    return (PROBE + KEEP_FED + "import main\nboard = main.run(ticks=%d)\nservices[0].watchdog.keep_fed()\n" % ticks
            + "".join("import %s\n" % m for m in mods)
            + "for c in %r:\n    getattr(board, c, None)\n" % (string.ascii_letters + string.digits)
            + "gc.collect()\nf = gc.mem_free()\nprint('headroom', headroom(), 'free', f)\n"
            + "import sys\nprint('online', [k for k in sys.modules if k.startswith('vortex.online.')])\n")


HEADROOM = re.compile(r"headroom (\d+) free (\d+)")
ONLINE = re.compile(r"online (\[.*\])")


def headroom(runtime, ticks=60, timeout=900):
    """(names the qstr pool has room for, free heap, the online modules
    loaded) after headroom_script on an emulated Pico: CircuitPython's runs
    as code.py (its REPL has less heap than code.py), MicroPython's at its
    raw REPL."""
    import pico
    script = headroom_script(runtime, ticks)
    if runtime == "circuitpython":
        with pico.Pico({"game.bin": GAME, "code.py": script.encode()}, runtime=runtime) as dev:
            assert dev.wait(lambda: ONLINE.search(dev.output) or "Error" in dev.output,
                            timeout), dev.output[-1500:]
            out = dev.output
    else:
        with pico.Pico({"game.bin": GAME}) as dev:
            dev.repl()
            r = dev.exec(script, timeout)
            assert r.status == 0, r
            out = r.output
    m, online = HEADROOM.search(out), ONLINE.search(out)
    assert m and online, out[-1500:]
    return int(m.group(1)), int(m.group(2)), eval(online.group(1))
