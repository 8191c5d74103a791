"""The board simulator: the firmware's board logic on a virtual board, in a
terminal. Left, the physical board (tiles and pieces); right, its 64 LEDs.
Type what hands do and watch the board answer.

    python3 -m host_sim board [--ai light|dark] [--clock MIN+INC] [--save FILE]
                              [--position "<text>"] [--no-color]
                              [--replay RECORD] [--serial [--auto] [--robot light|dark]]
--replay: start from a game record (docs/record.md), after its last action.
--serial: the board also speaks its protocol on a pseudo-terminal
(host_sim/serial_board.py, docs/protocol.md).
"""
import os
import sys

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from vortex.engine import NotationError, IllegalAction, LIGHT, DARK, parse_action
from vortex.engine.defs import TERRAIN_LETTERS, PIECE_LETTERS, SIDE_NAMES
from vortex.app.session import Settings, NO_AI
from vortex.app.leds import LEVELS
from vortex.hal.store import FileStore
from vortex import record
from .scenario import Rig
from .virtual import PhysicsError

HELP = """\
Actions, carried out by tidy hands:  W@d4  e2e4  c3~d3  V+c3  V-c3
  (an illegal move is carried out all the same, to see the board refuse it)
Hands, one at a time:  lift e2 | place e4 | drop | slide e2 e3 e4 | knock d7 d6
  lay W d4 | take-tile d4 | put-tile e4
Board:  carry (do the action the board shows) | wait MS | help | quit
Buttons:  undo (short A) | level (short B) | new (hold A+B) | menu (hold B)
  press a | press b | hold b | hold ab   (in the menu: A the next value,
  B the next item, hold B to close, hold A+B to close and start a new game)"""

SHORTCUTS = {"undo": ("press", "a"), "level": ("press", "b"), "new": ("hold", "ab"),
             "menu": ("hold", "b")}
ESC = "\x1b["
TERRAIN_BG = {0: (40, 40, 40), 1: (0, 70, 170), 2: (170, 30, 0), 3: (110, 70, 20),
              4: (150, 150, 150)}


def _bg(rgb):
    return ESC + "48;2;%d;%d;%dm" % rgb


class BoardSim:
    def __init__(self, rig, out, color):
        self.rig = rig
        self.out = out
        self.color = color

    def say(self, text=""):
        self.out.write(text + "\n")

    def draw(self):
        rig, v = self.rig, self.rig.virtual
        self.say("    physical board            LEDs")
        for rank in range(7, -1, -1):
            row = ["%d " % (rank + 1)]
            for f in range(8):
                c = rank * 8 + f
                cell = TERRAIN_LETTERS[v.tiles[c]].replace("-", ".") + PIECE_LETTERS[v.pieces[c]]
                row.append(self._cell(cell, TERRAIN_BG[v.tiles[c]]))
            row.append("   ")
            level = LEVELS[rig.board.settings.level]
            for f in range(8):
                rgb = rig.colour(rank * 8 + f)
                # Undo the brightness level for the screen; keep the
                # palette's own dim and bright apart.
                shown = tuple(min(255, x * 255 // level) for x in rgb)
                row.append(self._cell("  " if max(rgb) else " .", shown))
            self.say("".join(row))
        self.say("   a b c d e f g h          a b c d e f g h")
        b = rig.board
        pos = b.pos
        line = "%s to act" % SIDE_NAMES[pos.side]
        line += ", building (pool W%d F%d E%d A%d)" % tuple(pos.pool[1:5]) if pos.is_building() \
            else ", battle: Vortexes %d,%d, quiet %d" % (pos.vortexes[0], pos.vortexes[1], pos.quiet)
        if b.clock:
            line += ", clock %d:%02d / %d:%02d" % (b.clock.left[0] // 60000, b.clock.left[0] // 1000 % 60,
                                                  b.clock.left[1] // 60000, b.clock.left[1] // 1000 % 60)
        self.say(line)
        if b.pending >= 0:
            self.say("the board asks: %s" % pos.action_text(b.pending))
        for m in b.messages:
            self.say("board: " + m)
        del b.messages[:]
        if b.result() is not None:
            r = b.result()
            who = "a draw" if r.winner is None else ("Light wins", "Dark wins")[r.winner]
            self.say("game over: %s (%s)" % (who, r.reason))

    def _cell(self, text, rgb):
        return _bg(rgb) + text + ESC + "0m" if self.color else text

    def command(self, line):
        """Carry out one line; False to quit."""
        words = line.split()
        if not words:
            return True
        verb = words[0]
        rig = self.rig
        if verb in ("quit", "exit"):
            return False
        if verb == "help":
            self.say(HELP)
            return True
        try:
            if verb in SHORTCUTS:
                rig.do(*SHORTCUTS[verb])
            elif len(words) == 1 and verb != "carry" and verb != "drop":
                self.act(verb)
            else:
                rig.do(*words)
            rig.settle()
        except (NotationError, IllegalAction, PhysicsError, ValueError, IndexError) as e:
            self.say("? %s" % e)
            return True
        self.draw()
        return True

    def act(self, text):
        pos = self.rig.board.pos
        a = parse_action(text)
        if pos.is_legal(a):
            self.rig.play(a, settle=False)
        elif a < 4096:  # an illegal move: hands do it anyway, the board says no
            self.say("(illegal: %s; doing it anyway)" % pos.why_illegal(a))
            self.rig.do("lift", a >> 6)
            self.rig.do("place", a & 63)
        else:
            raise IllegalAction("illegal action %s: %s" % (text, pos.why_illegal(a)))


def parse_args(args):
    opts = {"ai": NO_AI, "clock": (0, 0), "save": None, "position": None, "color": True,
            "serial": False, "auto": False, "robot": None, "replay": None}
    it = iter(args)
    for a in it:
        if a == "--ai":
            opts["ai"] = {"light": LIGHT, "dark": DARK}[next(it)]
        elif a == "--clock":
            m, _, inc = next(it).partition("+")
            opts["clock"] = (int(float(m) * 60000), int(float(inc or 0) * 1000))
        elif a == "--save":
            opts["save"] = next(it)
        elif a == "--position":
            opts["position"] = next(it)
        elif a == "--no-color":
            opts["color"] = False
        elif a == "--replay":
            opts["replay"] = next(it)
        elif a == "--serial":
            opts["serial"] = True
        elif a == "--auto":
            opts["auto"] = True
        elif a == "--robot":
            opts["robot"] = {"light": LIGHT, "dark": DARK}[next(it)]
        else:
            raise ValueError("unknown option %s" % a)
    return opts


def main(args, stdin=None, stdout=None):
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    try:
        opts = parse_args(args)
    except (ValueError, KeyError, StopIteration) as e:
        out.write("usage: python3 -m host_sim board [--ai light|dark] [--clock MIN+INC] "
                  "[--save FILE] [--position TEXT] [--no-color] [--replay RECORD] "
                  "[--serial [--auto] [--robot light|dark]] (%s)\n" % e)
        return 2
    settings = Settings(ai_side=opts["ai"], clock_ms=opts["clock"][0], increment_ms=opts["clock"][1])
    store = FileStore(opts["save"]) if opts["save"] else None
    position, actions = opts["position"], ()
    try:
        if opts["replay"]:
            with open(opts["replay"]) as f:
                _, position, actions = record.read(f.read())
        rig = Rig(position, settings=settings, store=store, actions=actions)
    except (OSError, ValueError) as e:  # NotationError is a ValueError
        out.write("error: %s\n" % e)
        return 1
    color = opts["color"] and not os.environ.get("NO_COLOR")
    sim = BoardSim(rig, out, color)
    sim.say("The board simulator. Type help for the commands.")
    sim.draw()
    if opts["serial"]:
        from .serial_board import serve
        return serve(sim, opts["auto"], opts["robot"], stdin, out)
    tty = stdin.isatty()
    while True:
        if tty:
            out.write("> ")
            out.flush()
        line = stdin.readline()
        if not line:
            break  # end of input
        if not tty:
            sim.say("> " + line.rstrip())  # a transcript reads like a session
        if not sim.command(line.strip()):
            break
    return 0
