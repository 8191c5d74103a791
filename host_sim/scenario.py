"""Scripted hands on the virtual board, for tests and demos.

    rig = Rig(position="...")
    rig.run("lift e2, place e4")        # then rig.board.pos, rig.frame_at("e4")
    rig.play("d7d5")                     # carry out an action as a tidy player would

Commands (comma, semicolon or newline separated):
    lift X | place X | drop | slide X Y [Z...] | knock X Y
    lay T X (a new tile of terrain T, or ? a tag that is not ours) | take-tile X | put-tile X
    wait MS | settle | press a|b | hold b|ab | play ACTION | carry (the board's pending action)
"""
from vortex.engine.defs import PLACE, SWAP, VORTEX, TERRAIN_LETTERS, block_cells
from vortex.engine.notation import parse_cell
from vortex.engine.position import Position
from vortex.app.board import Board, SETTLE_MS
from vortex.app.buttons import A, B, HOLD_MS
from vortex.app import leds
from host_sim.virtual import VirtualBoard, FOREIGN

TICK_MS = 5
BUTTONS = {"a": A, "b": B, "ab": A | B}


class Rig:
    """The firmware's Board fed by a VirtualBoard, tick by tick."""

    def __init__(self, position=None, settings=None, store=None, seed=0, bounce_ms=0,
                 misread=0, on_frame=None, on_tick=None, actions=()):
        self.board = Board(store, settings, seed=seed + 1)
        if position is not None and (self.board.start != position or actions):
            self.board.new_game(position)
        for a in actions:  # a game resumed from its record: the pieces stand as after them
            self.board.commit(self.board.pos.parse_action(a))
        self.virtual = VirtualBoard.from_position(Position(self.board.pos.text()), seed=seed,
                                                  bounce_ms=bounce_ms, misread=misread)
        self.now = 0
        self.buttons = 0
        self.frames = 0
        self.on_frame = on_frame  # called with each new frame (e.g. a budget check)
        self.on_tick = on_tick  # called after each step (e.g. the host link, as main.py does)
        self.settle()

    # --- time -----------------------------------------------------------------
    def tick(self, n=1):
        b, v = self.board, self.virtual
        for _ in range(n):
            self.now += TICK_MS
            v.sense(self.now)
            if b.step(self.now, v.occupancy, v.tile_cells, v.tile_ids, self.buttons):
                self.frames += 1
                if self.on_frame:
                    self.on_frame(b.frame)
            b.hint(v.scanner)  # as main.py does
            if self.on_tick:
                self.on_tick()

    def wait(self, ms):
        self.tick(max(1, ms // TICK_MS))

    def until(self, done, max_ms=5000):
        """Tick until done() is true (or max_ms pass); return done()."""
        for _ in range(max_ms // TICK_MS):
            if done():
                return True
            self.tick()
        return done()

    def settle(self):
        """Long enough for the debounce, two sweeps of tile reads and the settle time."""
        self.wait(SETTLE_MS + 2000)

    # --- hands ----------------------------------------------------------------
    def run(self, script):
        for line in script.replace(";", ",").replace("\n", ",").split(","):
            words = line.split()
            if words:
                self.do(*words)
        return self

    def do(self, verb, *args):
        v = self.virtual
        if verb == "lift":
            v.lift(args[0], self.now)
        elif verb == "place":
            v.place(args[0], self.now)
        elif verb == "drop":
            v.drop()
        elif verb == "slide":  # along the cells named, touching each on the way
            v.lift(args[0], self.now)
            for c in args[1:-1]:
                self.tick(2)
                v.place(c, self.now)
                self.tick(2)
                v.lift(c, self.now)
            self.tick(2)
            v.place(args[-1], self.now)
        elif verb == "knock":
            v.lift(args[0], self.now)
            v.place(args[1], self.now)
        elif verb == "lay":  # terrain letter, or ? for a tag that is not ours
            v.new_tile(FOREIGN if args[0] == "?" else TERRAIN_LETTERS.index(args[0]))
            v.place_tile(args[1], self.now)
        elif verb == "take-tile":
            v.lift_tile(args[0], self.now)
        elif verb == "put-tile":
            v.place_tile(args[0], self.now)
        elif verb == "wait":
            self.wait(int(args[0]))
            return
        elif verb == "settle":
            self.settle()
            return
        elif verb == "press" or verb == "hold":  # a short press, or held past HOLD_MS
            self.buttons = BUTTONS[args[0]]
            self.wait(HOLD_MS + 50 if verb == "hold" else 100)
            self.buttons = 0
        elif verb == "play":
            self.play(self.board.pos.parse_action(args[0]))
            return
        elif verb == "carry":
            self.play(self.board.pending)
            return
        else:
            raise ValueError("scenario: unknown command %r" % verb)
        self.tick(4)  # hands are not instant

    def play(self, a, capture_first=True, settle=True):
        """Carry out action a physically, as a tidy player would; then settle,
        or with settle=False only until the board has taken the action."""
        v = self.virtual
        pos = self.board.pos
        if a < PLACE:
            f, t = a >> 6, a & 63
            if pos.pieces[t]:
                if capture_first:
                    self.do("lift", t)
                    v.drop()
                    self.do("lift", f)
                else:
                    self.do("lift", f)
                    self.do("lift", t)
                    v.drop()
                self.do("place", t)
            else:
                self.do("lift", f)
                self.do("place", t)
        elif a < SWAP:
            c = a & 63
            under = v.pieces[c]
            if under:
                self.do("lift", c)
            self.do("lay", TERRAIN_LETTERS[((a - PLACE) >> 6) + 1], c)
            if under:
                self.do("place", c)
        else:
            if a < VORTEX:
                c = (a - SWAP) >> 1
                cells = (c, c + (8 if a & 1 else 1))
                dest = (cells[1], cells[0])
            else:
                code = a - VORTEX
                cells = block_cells(code >> 1)
                # clockwise: each tile to the next cell of the cycle
                k = 3 if code & 1 else 1
                dest = tuple(cells[(i + k) % 4] for i in range(4))
            held = [c for c in cells if v.pieces[c]]
            for c in held:
                self.do("lift", c)
            for c in cells:
                self.do("take-tile", c)
            # The hand holds the tiles in the order taken; lay each at its destination.
            for i in range(len(cells)):
                v.place_tile(dest[i], self.now, which=-len(cells) + i)
                self.tick(2)
            for c in reversed(held):
                self.do("place", c)
        if settle:
            self.settle()
        else:
            n = len(self.board.pos.stack)
            self.until(lambda: len(self.board.pos.stack) != n and self.board.judged)

    # --- what the player sees -------------------------------------------------
    def colour(self, cell):
        """The (r, g, b) the LED of a cell shows now."""
        c = parse_cell(cell) if isinstance(cell, str) else cell
        f = self.board.frame
        return (f[3 * c], f[3 * c + 1], f[3 * c + 2])

    def lit(self):
        """{cell: (r, g, b)} of every lit LED."""
        return {c: self.colour(c) for c in range(64) if any(self.colour(c))}

    def agrees(self):
        b, v = self.board, self.virtual
        occ = all(bool(b.pos.pieces[c]) == bool(v.pieces[c]) for c in range(64))
        return occ and bytes(b.pos.tiles) == bytes(v.tiles)


def scaled(colour, level=leds.LEVELS[2]):
    """A palette colour as the LEDs show it at a brightness level (before any budget cut)."""
    return tuple(x * level // 255 for x in colour)
