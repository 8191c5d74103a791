"""The board simulator: the firmware's board logic on a virtual board, in a
terminal. Left, the physical board (tiles and pieces); right, its 64 LEDs.
Type what hands do and watch the board answer.

    python3 -m host_sim board [--ai light|dark] [--clock MIN+INC] [--save FILE]
                              [--position "<text>"] [--supply usb|1.5a|3a]
                              [--no-color] [--quiet]

The board's sounds ring the terminal's bell; without colour they are said
in words instead (plain text holds no control character); --quiet: neither.
"""
import argparse
import os
import sys

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from vortex.engine import NotationError, IllegalAction, LIGHT, DARK
from vortex.engine.defs import TERRAIN_LETTERS, PIECE_LETTERS, SIDE_NAMES
from vortex.app.session import Settings
from vortex.app import leds, commands
from .usb import SUPPLIES, SUPPLY, WORDS as SUPPLY_WORDS
from vortex.app.commands import CommandError
from vortex.app.advice import todo
from vortex.hal.store import FileStore, MAGIC, JOURNAL
from . import cli
from vortex import record
from .scenario import Rig, BUTTONS
from .virtual import PhysicsError

HELP = """\
Actions, carried out by tidy hands:  W@d4  e2e4  c3~d3  V+c3  V-c3
  (an illegal move is carried out all the same, to see the board refuse it)
Hands, one at a time:  lift e2 | place e4 | drop (into the tray) | from-tray T e5
  slide e2 e3 e4 | knock d7 d6 | lay W d4 | take-tile d4 | put-tile e4
Board:  tidy (put the board back as the game has it) | carry (tidy, then do the
  action the board shows) | wait MS | help | quit
Buttons:  undo (short A) | hint (hold A) | level (short B) | new (hold A+B) | menu (hold B)
  press a | hold a | press b | hold b | hold ab   (in the menu: A the next value,
  B the next item, hold B to close, hold A+B to close and start a new game)
Commands (as the host link's):  takeback | ask-hint | new-game [POSITION] | settings
  set NAME VALUE   (ai off|light|dark, level 1-5, clock MIN+INC, brightness 0-3,
  budget auto|300|500|900|1500, hearts fixed|free, volume off|soft|loud)"""

SHORTCUTS = {"undo": ("press", "a"), "hint": ("hold", "a"), "level": ("press", "b"),
             "new": ("hold", "ab"), "menu": ("hold", "b")}
ESC = "\x1b["
TERRAIN_BG = {0: (40, 40, 40), 1: (0, 70, 170), 2: (170, 30, 0), 3: (110, 70, 20),
              4: (150, 150, 150)}


# Without colour, each lit LED shows the symbol of its nearest palette colour.
SYMBOLS = ((leds.LIFTED, "o"), (leds.DEST, "+"), (leds.CAPTURE, "x"), (leds.AWAKEN, "^"),
           (leds.LAST, "~"), (leds.TODO, "!"), (leds.MISSING, "_"), (leds.EXTRA, "X"),
           (leds.PLACE, ":"), (leds.SIDE[0], "L"), (leds.SIDE[1], "D")) + tuple(
    (leds.TERRAINS[t], TERRAIN_LETTERS[t]) for t in range(1, len(leds.TERRAINS)))
LEGEND = ("LEDs: o lifted, + may go, x may take, ^ awakens, ~ last action, ! to carry out, "
          "_ tile missing, X extra or illegal, : a tile may go, L D whose turn or a Light or Dark "
          "piece missing (a Heart pulses), W F E A a tile to lay")


COMMANDS = ("takeback", "ask-hint", "new-game", "settings", "set")
MAX_WAIT_MS = 60000  # a longer wait is several: each takes real time to simulate
# What each hand's command takes after its verb, as told when the words are wrong.
USAGE = {"lift": "CELL", "place": "CELL", "drop": "", "from-tray": "PIECE CELL",
         "slide": "CELL CELL [CELL...]", "knock": "CELL CELL", "lay": "TERRAIN CELL",
         "take-tile": "CELL", "put-tile": "CELL", "wait": "MS", "settle": "", "press": "a|b|ab",
         "hold": "a|b|ab", "play": "ACTION", "tidy": "", "carry": ""}


def check(verb, args):
    """Raise ValueError, in words, if a typed command's words are not what it takes."""
    if verb not in USAGE:
        raise ValueError("unknown command %r (type help)" % verb)
    usage = USAGE[verb]
    n = len(usage.split())
    if len(args) != n and not (usage.endswith("...]") and len(args) >= n - 1):
        raise ValueError("usage: %s %s" % (verb, usage) if usage else "%s takes nothing more" % verb)
    if verb == "lay" and (len(args[0]) != 1 or args[0] not in TERRAIN_LETTERS[1:] + "?"):
        raise ValueError("lay: the terrain is W, F, E or A (or ? for a tag not ours), not %r"
                         % args[0])
    if verb == "wait" and not (args[0].isdigit() and int(args[0]) <= MAX_WAIT_MS):
        raise ValueError("wait: milliseconds, 0..%d, not %r" % (MAX_WAIT_MS, args[0]))
    if (verb == "press" or verb == "hold") and args[0] not in BUTTONS:
        raise ValueError("%s: a, b or ab, not %r" % (verb, args[0]))


def symbol(rgb, level):
    """The symbol of an LED's colour at a brightness level (see SYMBOLS)."""
    best, sym = None, " "
    for colour, s in SYMBOLS:
        d = sum(abs(c * level // 255 - x) for c, x in zip(colour, rgb))
        if best is None or d < best:
            best, sym = d, s
    return sym


def _bg(rgb):
    return ESC + "48;2;%d;%d;%dm" % rgb


class BoardSim:
    def __init__(self, rig, out, color, quiet=False):
        self.rig = rig
        self.out = out
        self.color = color
        self.quiet = quiet
        self.heard = rig.virtual.buzzer.count  # the sounds already rung

    def say(self, text=""):
        self.out.write(text + "\n")

    def draw(self):
        rig, v = self.rig, self.rig.virtual
        b = rig.board
        self.say("    physical board            LEDs ~%d mA of %d (%s)" % (
            leds.current_ma(b.frame), b.budget_ma(),
            SUPPLY_WORDS[leds.SUPPLY_NAMES[b.supply]] if b.supply >= 0 else "source not read"))
        for rank in range(7, -1, -1):
            row = ["%d " % (rank + 1)]
            for f in range(8):
                c = rank * 8 + f
                cell = TERRAIN_LETTERS[v.tiles[c]].replace("-", ".") + PIECE_LETTERS[v.pieces[c]]
                row.append(self._cell(cell, TERRAIN_BG[v.tiles[c]]))
            row.append("   ")
            level = leds.LEVELS[rig.board.settings.brightness]
            for f in range(8):
                rgb = rig.colour(rank * 8 + f)
                if not max(rgb):
                    row.append(" .")
                elif self.color:
                    # Undo the brightness level for the screen; keep the
                    # palette's own dim and bright apart.
                    shown = tuple(min(255, x * 255 // level) for x in rgb)
                    row.append(self._cell("  ", shown))
                else:
                    row.append(" " + symbol(rgb, level))
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
        if v.tray[0] or v.tray[1]:
            self.say("tray: " + v.tray_text())
        if b.pending >= 0:
            self.say("the board asks: %s" % pos.action_text(b.pending))
        for m in b.messages:
            self.say("board: " + m)
        del b.messages[:]
        steps = todo(b)
        if steps:
            self.say("to do: " + steps)
        if b.result() is not None:
            r = b.result()
            self.say("game over: %s (%s)" % (r.name(), r.reason))
        self.ring()

    def ring(self):
        """The sounds played since the last draw: the bell (once: a terminal
        rings them as one), or their names in plain text."""
        bz = self.rig.virtual.buzzer
        new = min(bz.count - self.heard, len(bz.played))
        self.heard = bz.count
        if new <= 0 or self.quiet:
            return
        if self.color:
            self.out.write("\a")
            self.out.flush()
        else:
            self.say("sound: " + ", ".join(name for _, name, _ in bz.played[-new:]))

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
            if not self.color:
                self.say(LEGEND)
            return True
        try:
            if verb in SHORTCUTS:
                rig.do(*SHORTCUTS[verb])
            elif verb in COMMANDS:
                self.board_command(verb, words[1:])
            elif len(words) == 1 and verb not in USAGE:
                why = rig.act(verb)
                if why:  # an illegal move: hands do it anyway, the board says no
                    self.say("(illegal: %s; done anyway)" % why)
            else:
                check(verb, words[1:])
                rig.do(*words)
            rig.settle()
        except (NotationError, IllegalAction, PhysicsError, ValueError, IndexError) as e:
            self.say("? %s" % e)
            return True
        self.draw()
        return True

    def board_command(self, verb, args):
        """A command of vortex.app.commands, as the host link takes it."""
        board = self.rig.board
        if verb == "settings" or verb == "set":
            if verb == "set":
                if len(args) != 2:
                    raise CommandError("usage: set NAME VALUE (help lists them)")
                commands.set_setting(board, args[0], args[1])
            self.say(commands.settings_text(board.settings))
        elif args and verb != "new-game":
            raise CommandError("%s takes nothing more" % verb)
        elif verb == "takeback":
            commands.takeback(board)
        elif verb == "ask-hint":
            commands.hint(board)
        else:
            commands.new_game(board, " ".join(args))


MAX_CLOCK_MIN = 600  # ten hours a side
MAX_INCREMENT_S = 600


def clock(text):
    """An argparse type: MIN+INC, minutes a side and seconds added a move."""
    m, plus, inc = text.partition("+")
    minutes = cli.float_in(0.1, MAX_CLOCK_MIN, "clock minutes")(m)
    seconds = cli.float_in(0, MAX_INCREMENT_S, "clock increment")(inc) if plus else 0
    return int(minutes * 60000), int(seconds * 1000)


def save_file(text):
    """An argparse type: a file to save the game in. Only a save of this
    program is ever written over: the file itself, the .tmp and .bak the
    store keeps beside it, and its journal (.log, .log.tmp)."""
    cli.text("save file")(text)
    store = FileStore(text)
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("save file: no folder %s" % folder)
    for path, magic in ((store.path, MAGIC), (store.tmp, MAGIC), (store.bak, MAGIC),
                        (store.log, JOURNAL), (store.log + ".tmp", JOURNAL)):
        if os.path.isdir(path):
            raise argparse.ArgumentTypeError("save file: %s is a folder" % path)
        if os.path.exists(path) and not is_save(path, magic):
            raise argparse.ArgumentTypeError(
                "save file: %s is not a save of this board; not writing over it" % path)
    return store


def is_save(path, magic=MAGIC):
    """Does the file begin as this program's saves (or journals) do?"""
    with open(path, "rb") as f:
        return f.read(len(magic)) == magic


def add_arguments(ap):
    """The options of `python3 -m host_sim board`."""
    ap.add_argument("--ai", choices=commands.AI_VALUES, default="off",
                    help="the side the board's AI plays (default off: two people)")
    ap.add_argument("--clock", type=clock, default=(0, 0), metavar="MIN+INC",
                    help="a chess clock: minutes a side + seconds added a move (e.g. 10+5)")
    ap.add_argument("--save", type=save_file, metavar="FILE",
                    help="save the game here after every action, and resume from it")
    ap.add_argument("--position", type=cli.position, help="start from this position (notation)")
    ap.add_argument("--supply", choices=SUPPLIES, default=SUPPLY,
                    help="the USB-C source the board is plugged into, which sets the LEDs' "
                         "budget (default %s)" % SUPPLY)
    ap.add_argument("--no-color", action="store_true",
                    help="plain text: LEDs as symbols, sounds in words (also when NO_COLOR "
                         "is set)")
    ap.add_argument("--quiet", action="store_true",
                    help="no bell and no word for the board's sounds")
    ap.add_argument("--replay", metavar="RECORD",
                    help="start from a game record (docs/record.md), after its last action")
    ap.add_argument("--serial", action="store_true",
                    help="also speak the board's protocol (docs/protocol.md) on a "
                         "pseudo-terminal, whose path is printed")
    ap.add_argument("--auto", action="store_true",
                    help="with --serial: hands carry out every action the board asks for")
    ap.add_argument("--robot", choices=("light", "dark"),
                    help="with --serial: hands play this side with an AI of their own")
    from .online.options import add_arguments as online_arguments
    online_arguments(ap)


def run(opts, stdin=None, stdout=None):
    """Run the simulator on stdin's commands; returns an exit code."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    from .online.options import room
    online = room(opts)
    if online and (opts.serial or opts.replay):
        raise cli.Failure("--online plays the room's game: not with --serial or --replay")
    settings = Settings(clock_ms=opts.clock[0], increment_ms=opts.clock[1])
    commands.change(settings, "ai", "off" if online else opts.ai)  # online: a person opposite
    position, actions = opts.position.text() if opts.position else None, ()
    if opts.replay:
        try:
            with open(opts.replay) as f:
                _, position, actions = record.read(f.read())
        except ValueError as e:
            raise cli.Failure("%s: %s" % (opts.replay, e))
    rig = Rig(position, settings=settings, store=opts.save, actions=actions, supply=opts.supply)
    color = not opts.no_color and not os.environ.get("NO_COLOR")
    sim = BoardSim(rig, out, color, opts.quiet)
    sim.say("The board simulator. Type help for the commands.")
    sim.draw()
    if opts.serial:
        from .serial_board import serve
        robot = {"light": LIGHT, "dark": DARK}.get(opts.robot)
        return serve(sim, opts.auto, robot, stdin, out)
    if online:
        return play_online(sim, opts, online, stdin, out)
    tty = stdin is sys.stdin and out is sys.stdout and stdin.isatty()
    if tty:
        try:
            import readline  # noqa: F401  (input() then edits lines and keeps a history)
        except ImportError:
            pass
    while True:
        if tty:
            try:
                line = input("> ") + "\n"
            except EOFError:
                break  # Ctrl-D
        else:
            line = stdin.readline()
        if not line:
            break  # end of input
        if not tty:
            sim.say("> " + line.rstrip())  # a transcript reads like a session
        if not sim.command(line.strip()):
            break
    return 0


def play_online(sim, opts, room, stdin, out):
    """The terminal in a room (host_sim/online): the typed commands as
    offline, and the room's news as they come (the opponent's action to
    carry out, who is here and who is gone)."""
    import select
    from .online.options import player as join
    from .online.follow import Follow
    from vortex.engine.notation import action_text

    def say(line):
        sim.say("online: " + line)
        out.flush()

    def lay_out(start, codes):
        sim.rig = Rig(start, settings=sim.rig.board.settings,
                      actions=[action_text(a) for a in codes], supply=opts.supply)

    start = opts.position.text() if opts.position else None
    player, embedded = join(opts, room, start, log=say)
    follow = Follow(player, lambda: sim.rig.board, lay_out, say)
    typed = b""
    tty = stdin.isatty()
    try:
        while True:
            ready = select.select([stdin, player], [], [], 0.25)[0]
            if follow.step() == "board":
                sim.draw()
                out.flush()
            if stdin in ready:  # (os.read: a buffered readline would hide later lines)
                data = os.read(stdin.fileno(), 4096)
                if not data:
                    return 0
                typed += data
                while b"\n" in typed:
                    line, typed = typed.split(b"\n", 1)
                    line = line.decode("ascii", "replace").strip()
                    if not tty:
                        sim.say("> " + line)  # a transcript reads like a session
                    if not sim.command(line):
                        return 0
                    if follow.sync():  # our action to the room at once, or taken back
                        sim.draw()
                    out.flush()
    finally:
        player.close()
        if embedded is not None:
            embedded.stop()
