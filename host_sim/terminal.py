"""The terrain game in a terminal: vortex game [options] (python3 -m host_sim game)

    --light human|random   who plays Light (default human)
    --dark human|random    who plays Dark (default random)
    --seed N               seed of the random mover (printed when not given)
    --position "<text>"    start from a position (docs/notation.md)
    --no-color             plain text, no ANSI escapes (also when NO_COLOR is set)

A human types an action in notation (W@d4, d2d4, d4~e4, V+d4) or a command
(see HELP). Standard library only: this runs with any python3, no .venv.
"""
import os
import random
import sys
import textwrap

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from . import cli
from vortex.engine import (Position, new_buffer, action_text, parse_cell, NotationError,
                           IllegalAction, LIGHT, DARK, WATER, FIRE, EARTH, AIR,
                           AWAKENED, cell_name)
from vortex.engine.position import HEART_TAKEN, NO_ACTION, QUIET_END
from vortex.engine.defs import (QUIET_LIMIT, PIECE_LETTERS, TERRAIN_LETTERS, SIDE_NAMES as SIDES,
                                KIND_NAMES as KINDS, TERRAIN_NAMES as TERRAINS, travellers)
from vortex.engine.codes import (is_move, is_swap, is_vortex, move_to, placement_cell, piece_side,
                                 piece_kind)

HUMAN = "human"
RANDOM = "random"
TILE_LETTERS = "." + TERRAIN_LETTERS[1:]  # a cell without a tile shows a dot

HELP = """\
Actions, in notation:
  W@d4      place a tile (W Water, F Fire, E Earth, A Air) on a cell without one
  d2d4      move the piece on d2 to d4 (a capture if an enemy stands there)
  d4~e4     swap two neighbouring tiles of different terrains
  V+d4      Vortex: turn the 2x2 block d4 e4 d5 e5 clockwise (V- counter-clockwise)
Commands:
  moves d2  where the piece on d2 can go (marked on the board)
  legal     every legal action
  undo      take back your last action (and the random mover's reply)
  board     draw the board again
  position  the position in notation, to save or paste into a bug report
  help      this text
  quit      leave the game"""

# --- drawing -----------------------------------------------------------------
# 256-colour backgrounds chosen so that a bold letter reads on every terrain.
ESC = "\x1b["
RESET = ESC + "0m"
BG = {WATER: ESC + "48;5;32m", FIRE: ESC + "48;5;160m", EARTH: ESC + "48;5;130m",
      AIR: ESC + "48;5;252m"}
# Light is bold white, Dark bold black; white does not read on the pale Air
# tile, so Light shows blue there (the letter's case still tells the sides).
FG_LIGHT = ESC + "1;38;5;231m"
FG_LIGHT_ON_AIR = ESC + "1;38;5;21m"
FG_DARK = ESC + "1;38;5;16m"
FG_NO_TILE = ESC + "1m"  # default colour: the terminal's own background shows
DOT = ESC + "38;5;240m"  # a cell without a tile: dark grey dot


class Screen:
    """Turns a position into text, with or without ANSI colour."""

    def __init__(self, color):
        self.color = color

    def board(self, pos, marks=None):
        """The board, rank 8 at the top. marks maps cell -> '*' (a
        destination) or '(' (the lifted piece)."""
        marks = marks or {}
        files = "  " + "".join(" %s " % f for f in "abcdefgh")
        lines = [files]
        for rank in range(7, -1, -1):
            row = ["%d " % (rank + 1)]
            for c in range(rank * 8, rank * 8 + 8):
                row.append(self.cell(pos.tiles[c], pos.pieces[c], marks.get(c)))
            row.append(" %d" % (rank + 1))
            lines.append("".join(row))
        lines.append(files)
        return "\n".join(lines)

    def cell(self, tile, piece, mark):
        # Three characters: a mark either side of the piece letter.
        if mark == "(":
            left, right = "(", ")"
        elif mark == "*":
            left, right = (">", "<") if piece else (" ", " ")
        else:
            left = right = " "
        if not self.color:
            # Plain text: terrain letter, piece letter, then the mark.
            m = {"(": "<", "*": "*"}.get(mark, " ")
            return TILE_LETTERS[tile] + PIECE_LETTERS[piece] + m
        if piece:
            if not tile:
                fg = FG_NO_TILE
            elif piece_side(piece) == DARK:
                fg = FG_DARK
            else:
                fg = FG_LIGHT_ON_AIR if tile == AIR else FG_LIGHT
            center = PIECE_LETTERS[piece]
        elif mark == "*":
            fg = FG_DARK if tile == AIR or not tile else FG_LIGHT
            center = "*"
        else:
            fg = DOT if not tile else ""
            center = "." if not tile else " "
        return "%s%s%s%s%s%s" % (BG.get(tile, ""), fg, left, center, right, RESET)

    def legend(self):
        if not self.color:
            return ("Cells: terrain (W Water, F Fire, E Earth, A Air, . none) then piece "
                    "(T S H Light, t s h Dark; S = Awakened).")
        words = " ".join("%s%s %s %s" % (BG[t], FG_DARK if t == AIR else FG_LIGHT, TERRAINS[t], RESET)
                         for t in (WATER, FIRE, EARTH, AIR))
        return "%s  %s.%s no tile   T S H Light, t s h Dark (S = Awakened)" % (words, DOT, RESET)


def status(pos):
    """One line: phase, ply, who acts, pool or quiet count, Vortexes, last action."""
    parts = ["Building" if pos.is_building() else "Battle", "ply %d" % pos.ply,
             "%s to act" % SIDES[pos.side]]
    if pos.is_building():
        parts.append("pool " + " ".join("%s%d" % (TILE_LETTERS[t], pos.pool[t])
                                        for t in (WATER, FIRE, EARTH, AIR)))
    parts.append("Vortexes L%d D%d" % (pos.vortexes[LIGHT], pos.vortexes[DARK]))
    parts.append("quiet %d/%d" % (pos.quiet, QUIET_LIMIT))
    parts.append("last " + (action_text(pos.stack[-1]) if pos.stack else "-"))
    return " | ".join(parts)


def outcome_text(pos, outcome):
    head = outcome.name()
    if outcome.reason == HEART_TAKEN:
        why = "%s's Heart is taken" % SIDES[outcome.winner ^ 1]
    elif outcome.reason == NO_ACTION:
        why = "%s has no legal action" % SIDES[pos.side]
    elif outcome.reason == QUIET_END:
        why = "%d actions without a capture; Travellers: Light %d, Dark %d" % (
            QUIET_LIMIT, travellers(pos.pieces, LIGHT), travellers(pos.pieces, DARK))
    else:
        why = outcome.reason
    return "Game over: %s (%s)." % (head, why)


def describe(pos, a):
    """The action's notation, with what a move takes; call before pushing."""
    text = action_text(a)
    if is_move(a):
        notes = []
        taken = pos.pieces[move_to(a)]
        if taken:
            notes.append("takes %s's %s" % (SIDES[piece_side(taken)], KINDS[piece_kind(taken)]))
        if pos.awakens(a):
            notes.append("awakens")
        if notes:
            text += " (%s)" % ", ".join(notes)
    return text


def normalise(text):
    # Forgive case: 'w@D4' -> 'W@d4', 'v+D4' -> 'V+d4', 'D2D4' -> 'd2d4'.
    s = text.strip()
    if s[1:2] == "@":
        return s[:1].upper() + s[1:].lower()
    if s[:1] in "vV" and s[1:2] in ("+", "-"):
        return "V" + s[1:].lower()
    return s.lower()


def wrap(words, indent="  "):
    return textwrap.fill(" ".join(words), width=78, initial_indent=indent,
                         subsequent_indent=indent, break_on_hyphens=False)


# --- the game ----------------------------------------------------------------
class Quit(Exception):
    """The human left (quit or end of input)."""


class Game:
    def __init__(self, pos, players, rng, screen, stdin, stdout):
        self.pos = pos
        self.players = players  # indexed by side: HUMAN or RANDOM
        self.rng = rng
        self.screen = screen
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not _isatty(stdin)  # a piped command shows in the transcript
        self.buf = new_buffer()
        self.humans = HUMAN in players
        self.redraw = True

    def say(self, text=""):
        self.stdout.write(text + "\n")

    def draw(self, marks=None):
        self.say(self.screen.board(self.pos, marks))
        self.say(status(self.pos))
        self.redraw = False

    def run(self):
        """Play to the end (or until the human leaves); returns an exit code."""
        try:
            while True:
                outcome = self.pos.outcome()
                if outcome is not None:
                    self.draw()
                    self.say(outcome_text(self.pos, outcome))
                    if not self.humans:
                        return 0
                    # A human may take the end back, or leave.
                    self.say("Type undo to take it back, or quit.")
                    while self.pos.outcome() is not None:
                        self.command(self.ask("game over> "))
                    continue
                if self.players[self.pos.side] == RANDOM:
                    self.random_action()
                else:
                    if self.redraw:
                        self.draw()
                    self.command(self.ask("%s> " % SIDES[self.pos.side]))
        except Quit:
            return 0

    def ask(self, prompt):
        while True:
            line = self._read(prompt)
            if line is None:  # end of input: leave cleanly
                self.say()
                raise Quit
            line = line.strip()
            if self.echo:
                self.say(line)
            if line and not line.startswith("#"):
                return line

    def _read(self, prompt):
        # At a terminal, input() gives line editing and history (readline).
        if self.stdin is sys.stdin and self.stdout is sys.stdout and not self.echo:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        return line if line else None

    def random_action(self):
        pos = self.pos
        n = pos.legal_into(self.buf)
        a = self.buf[self.rng.randrange(n)]
        text = describe(pos, a)
        side = SIDES[pos.side]
        ply = pos.ply + 1
        pos.push(a)
        if self.humans:
            self.say("%s (random) plays %s" % (side, text))
            self.redraw = True
        else:
            self.say("%4d. %-5s %s" % (ply, side, text))

    def command(self, line):
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            self.say(HELP)
            self.say(self.screen.legend())
        elif word == "board":
            self.draw()
        elif word == "position":
            self.say(self.pos.text())
        elif word == "legal":
            self.list_legal()
        elif word == "moves":
            self.list_moves(rest)
        elif word == "undo":
            self.undo()
        else:
            self.play(line)

    def play(self, text):
        pos = self.pos
        try:
            a = pos.parse_action(normalise(text))
        except (NotationError, IllegalAction) as e:
            self.say("error: %s (type help for the commands)" % e)
            return
        said = describe(pos, a)
        pos.push(a)
        if said != action_text(a):
            self.say("%s plays %s" % (SIDES[pos.side ^ 1], said))
        self.redraw = True

    def undo(self):
        # Take back actions until a human is to act again: one in a game of
        # two humans, the pair (reply and own action) against the random mover.
        pos = self.pos
        for k in range(1, len(pos.stack) + 1):
            if self.players[pos.side ^ (k & 1)] == HUMAN:
                taken = [action_text(pos.pop()) for _ in range(k)]
                self.say("undone: %s" % ", ".join(reversed(taken)))
                self.redraw = True
                return
        self.say("error: nothing to undo")

    def list_moves(self, text):
        pos = self.pos
        try:
            c = parse_cell(text.lower(), "moves")
        except NotationError as e:
            self.say("error: %s (as in: moves d2)" % e)
            return
        p = pos.pieces[c]
        if pos.outcome() is not None:
            self.say("error: the game is over")
        elif pos.is_building():
            self.say("error: pieces move in the battle; the board is still being built")
        elif not p:
            self.say("error: no piece on %s" % cell_name(c))
        elif piece_side(p) != pos.side:
            self.say("error: the piece on %s is %s's; %s is to act"
                     % (cell_name(c), SIDES[piece_side(p)], SIDES[pos.side]))
        else:
            n = pos.destinations(c, self.buf)
            how = "every terrain" if piece_kind(p) == AWAKENED else TERRAINS[pos.tiles[c]]
            name = "%s %s on %s (moves by %s)" % (SIDES[piece_side(p)], KINDS[piece_kind(p)],
                                                 cell_name(c), how)
            if not n:
                self.say("%s: no legal move" % name)
                return
            dests = [move_to(self.buf[i]) for i in range(n)]
            marks = {t: "*" for t in dests}
            marks[c] = "("
            self.draw(marks)
            self.say("%s: %d move%s, x = capture" % (name, n, "" if n == 1 else "s"))
            self.say(wrap(cell_name(t) + ("x" if pos.pieces[t] else "") for t in dests))

    def list_legal(self):
        pos = self.pos
        n = pos.legal_into(self.buf)
        acts = [self.buf[i] for i in range(n)]
        self.say("%d legal action%s" % (n, "" if n == 1 else "s"))
        if not n:
            return
        if pos.is_building():
            terrains = [TILE_LETTERS[t] for t in (WATER, FIRE, EARTH, AIR) if pos.pool[t]]
            cells = sorted(set(placement_cell(a) for a in acts))
            self.say("placements: %s on any of these %d cells:" % (
                ", ".join(t + "@" for t in terrains), len(cells)))
            self.say(wrap(cell_name(c) for c in cells))
            return
        groups = (("moves", [a for a in acts if is_move(a)]),
                  ("swaps", [a for a in acts if is_swap(a)]),
                  ("Vortexes", [a for a in acts if is_vortex(a)]))
        for name, group in groups:
            if group:
                self.say("%s (%d):" % (name, len(group)))
                self.say(wrap(action_text(a) for a in group))


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def add_arguments(ap):
    """The options of `vortex game`."""
    ap.add_argument("--light", choices=(HUMAN, RANDOM), default=HUMAN,
                    help="who plays Light (default human)")
    ap.add_argument("--dark", choices=(HUMAN, RANDOM), default=RANDOM,
                    help="who plays Dark (default random)")
    ap.add_argument("--seed", type=cli.int_in(0, 2 ** 32 - 1, "seed"),
                    help="seed of the random mover (printed when not given)")
    ap.add_argument("--position", type=cli.position, help="start from this position (notation)")
    ap.add_argument("--no-color", action="store_true",
                    help="plain text, no ANSI colour (also when NO_COLOR is set)")


def run(opts, stdin=None, stdout=None):
    """Run a game; returns an exit code (0 at the end, on quit and at end of input)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    pos = opts.position or Position()
    seed = opts.seed
    if seed is None:
        seed = random.randrange(1 << 31)
    if _isatty(stdin):
        try:
            import readline  # noqa: F401  (line editing for input(), where there is one)
        except ImportError:
            pass
    color = not opts.no_color and not os.environ.get("NO_COLOR")
    screen = Screen(color)
    game = Game(pos, (opts.light, opts.dark), random.Random(seed), screen, stdin, stdout)
    game.say("Light: %s, Dark: %s, seed %d" % (opts.light, opts.dark, seed))
    game.say(screen.legend())
    if game.humans:
        game.say("Type an action (W@d4, d2d4, d4~e4, V+d4) or help.")
    return game.run()
