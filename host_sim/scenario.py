"""Scripted hands on the virtual board, for tests and demos.

    rig = Rig(position="...")
    rig.run("lift e2, place e4")        # then rig.board.pos, rig.frame_at("e4")
    rig.play("d7d5")                     # carry out an action as a tidy player would

Commands (comma, semicolon or newline separated):
    lift X | place X | drop (into the tray) | from-tray P X (P: T S H t s h) | slide X Y [Z...]
    knock X Y | lay T X (a new tile of terrain T, or ? a tag that is not ours) | take-tile X
    put-tile X | wait MS | settle | press a|b | hold b|ab | play ACTION
    tidy (put the board back as the game has it) | carry (tidy, then the board's pending action)
"""
from vortex.engine.defs import TERRAIN_LETTERS, action_cells, tile_goes, placed_terrain
from vortex.engine.codes import (is_move, is_placement, move_from, move_to, placement_cell,
                                 piece_side)
from vortex.engine.defs import cell_name
from vortex.engine.notation import parse_cell, parse_action, action_text
from vortex.engine.position import Position, IllegalAction
from vortex.app.board import Board, SETTLE_MS
from vortex.app.service import Service
from vortex.app.buttons import A, B, HOLD_MS
from vortex.app import leds
from vortex.app.leds import SUPPLY_NAMES
from host_sim.virtual import VirtualBoard, FOREIGN, PhysicsError

TICK_MS = 5
HAND_MS = 10  # a hand's step on the page is followed by this much board time: the reed debounce
BUTTONS = {"a": A, "b": B, "ab": A | B}


def _cell(cell):
    return parse_cell(cell) if isinstance(cell, str) else cell


class Rig:
    """The firmware's Board fed by a VirtualBoard, tick by tick: each tick is
    the firmware's own pass (vortex.app.service), with the virtual board's
    reeds and tile reader, a host link if given (link and port), and
    simulated time. node_us: simulated time each AI search node takes (the
    device's speed, to see what happens while it thinks; 0: none). supply:
    the USB-C source the board is plugged into ("usb", "1.5a", "3a": see
    plug()); None leaves the LEDs the budget of a board not told (500 mA).
    The buzzer is the virtual board's (virtual.buzzer: the sounds played)."""

    hand_ms = HAND_MS  # board time after each of the page's hand steps (pick, put, drag, ...)

    def __init__(self, position=None, settings=None, store=None, seed=0, bounce_ms=0,
                 misread=0, on_frame=None, actions=(), link=None, port=None, node_us=0,
                 supply=None):
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
        self.node_us = node_us
        self._node_us = 0
        self._nodes = 0  # the search's node count at the last look
        if supply is not None:
            self.plug(supply)
        self.service = Service(self.board, self.virtual.reeds, self.virtual.scanner, self,
                               self._buttons, self._clock, link=link, port=port,
                               buzzer=self.virtual.buzzer)
        self.settle()

    def plug(self, supply):
        """Plug the board into a USB-C source (vortex.app.leds.SUPPLY_NAMES:
        none, usb, 1.5a, 3a) and do what main.py does at boot: read the CC
        line, budget the LEDs to what the source offers (hardware/power.py).
        A board reads it at power-on only: this is a power cycle that keeps
        the game."""
        # On demand: a rig never plugged in holds none of this.
        import power  # hardware/power.py, on sys.path through host_sim
        from vortex.hal.supply import CCSense
        from host_sim.usb import VirtualCC
        if supply not in SUPPLY_NAMES:
            raise PhysicsError("no USB source %r: %s" % (supply, ", ".join(SUPPLY_NAMES)))
        v = self.virtual
        v.usb = VirtualCC(supply, v.rng)
        source = power.source(CCSense(v.usb).read_u16())
        self.board.set_supply(source, power.LED_BUDGET_MA[source])

    # --- the firmware's parts -------------------------------------------------
    def show(self, frame):
        """The LEDs (the service's pixels): a new frame."""
        self.frames += 1
        if self.on_frame:
            self.on_frame(frame)

    def _buttons(self):
        return self.buttons

    def _clock(self):
        # While the AI thinks, board time runs by the search's nodes (the
        # search asks the time every few nodes, through the service).
        b = self.board
        if self.node_us and b.thinking and b.ai is not None and b.ai.search is not None:
            nodes = b.ai.search.nodes
            if nodes < self._nodes:
                self._nodes = 0  # a new search
            self._node_us += (nodes - self._nodes) * self.node_us
            self._nodes = nodes
            self.now += self._node_us // 1000
            self._node_us %= 1000
        return self.now

    # --- time -----------------------------------------------------------------
    def tick(self, n=1):
        """n passes of the board, TICK_MS of simulated time apart."""
        for _ in range(n):
            self.now += TICK_MS
            self.service.tick()

    def pass_at(self, now):
        """One pass of the board at board time now (not before the last):
        the passes a host makes when nothing happens (Board.due_in)."""
        self.now = max(self.now, now)
        self.service.tick()

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
        elif verb == "from-tray":
            v.from_tray(args[0], args[1], self.now)
        elif verb == "knock":
            v.lift(args[0], self.now)
            v.place(args[1], self.now)
        elif verb == "lay":  # terrain letter, or ? for a tag that is not ours
            v.lay_new(FOREIGN if args[0] == "?" else TERRAIN_LETTERS.index(args[0]), args[1], self.now)
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
        elif verb == "tidy":
            self.tidy()
            return
        elif verb == "carry":
            tidied = self.tidy()
            if self.board.pending >= 0:
                self.play(self.board.pending)
            elif not tidied:
                raise ValueError("nothing to carry: the board agrees with the game and asks for "
                                 "no action")
            return
        else:
            raise ValueError("unknown command %r" % verb)
        self.tick(4)  # hands are not instant

    # --- hands, as the page moves them: each step followed by hand_ms of board time
    def pick(self, cell, tile=False):
        """Pick up the piece on a cell, or its tile (where there is no piece, or tile=True)."""
        v = self.virtual
        if v.pieces[_cell(cell)] and not tile:
            v.lift(cell, self.now)
        else:
            v.lift_tile(cell, self.now)
        self.wait(self.hand_ms)

    def put(self, cell, item=-1):
        """Put a held thing (hand index item, default the last taken) on a
        cell; a tile laid where a piece stands goes under it."""
        v = self.virtual
        held = self.held(item)
        if held[0] == "piece":
            v.hand.append(v.hand.pop(v.hand.index(held)))  # place() puts the last piece taken
            v.place(cell, self.now)
        else:
            which = [h for h in v.hand if h[0] == "tile"].index(held)
            self._under_piece(cell, lambda: v.place_tile(cell, self.now, which=which))
        self.wait(self.hand_ms)

    def lay_new(self, terrain, cell):
        """Lay a new tile of a terrain (engine code) from the box on a cell,
        under the piece standing there if any."""
        v = self.virtual
        c = _cell(cell)
        if v.tiles[c]:
            raise PhysicsError("%s already has a tile" % cell_name(c))
        self._under_piece(c, lambda: v.lay_new(terrain, c, self.now))
        self.wait(self.hand_ms)

    def _under_piece(self, cell, lay):
        # Whatever stands on the cell is lifted, the tile laid, the piece put back.
        v = self.virtual
        c = _cell(cell)
        if not v.pieces[c]:
            return lay()
        v.lift(c, self.now)
        self.wait(self.hand_ms)
        try:
            lay()
        finally:
            self.wait(self.hand_ms)
            v.place(c, self.now)

    def drag(self, f, t, tile=False):
        """A drag from one cell to another: the piece (or a lone tile, or
        with tile=True the tile) carried there. Onto an opponent's piece:
        that one is lifted and set aside first; a tile onto a tile: that one
        is lifted and laid where this one came from. Nothing moves if a hand
        could not do it."""
        v = self.virtual
        f, t = _cell(f), _cell(t)
        if f == t:
            return  # put back where it was: nothing happened
        if v.pieces[f] and not tile:
            mover, there = v.pieces[f], v.pieces[t]
            if there and piece_side(there) == piece_side(mover):
                raise PhysicsError("%s holds a piece of the same side" % cell_name(t))
            v.lift(f, self.now)
            self.wait(self.hand_ms)
            if there:
                v.lift(t, self.now)
                self.wait(self.hand_ms)
                v.drop()  # theirs, set beside the board
            v.place(t, self.now)
        else:
            if v.pieces[f] or v.pieces[t]:
                raise PhysicsError("lift the piece off %s first"
                                   % cell_name(t if v.pieces[t] else f))
            v.lift_tile(f, self.now)
            self.wait(self.hand_ms)
            if v.tiles[t]:
                v.lift_tile(t, self.now)
                self.wait(self.hand_ms)
                v.place_tile(t, self.now, which=-2)
                self.wait(self.hand_ms)
                v.place_tile(f, self.now)
            else:
                v.place_tile(t, self.now)
        self.wait(self.hand_ms)

    def aside(self, item=-1):
        """Set a held thing aside: a piece beside the board, a tile back in the box."""
        v = self.virtual
        held = self.held(item)
        v.hand.remove(held)
        if held[0] == "piece":
            v.hand.append(held)
            v.drop()  # the tray keeps it beside the board

    def held(self, item=-1):
        """What the hand holds as item (an index into it)."""
        hand = self.virtual.hand
        if not hand:
            raise PhysicsError("the hand is empty")
        try:
            return hand[int(item)]
        except (IndexError, ValueError):
            raise PhysicsError("nothing held as item %r" % (item,))

    def act(self, text):
        """Carry out an action typed in notation as tidy hands would; an
        illegal move is made all the same, to see the board refuse it (its
        reason is returned), anything else illegal raises IllegalAction."""
        pos = self.board.pos
        a = parse_action(text)
        if pos.is_legal(a):
            self.virtual.hand[:] = []
            self.play(a, settle=False)
            return ""
        why = pos.why_illegal(a)
        if not is_move(a):
            raise IllegalAction("illegal action %s: %s" % (text, why))
        self.do("lift", move_from(a))
        self.do("place", move_to(a))
        return why

    def arrange(self):
        """Put the board as the game has it at once (no hands: the page's
        "tidy the board"), hands emptied."""
        self.virtual.arrange(self.board.pos, self.now)
        self.wait(self.hand_ms)

    def play(self, a, capture_first=True, settle=True):
        """Carry out action a physically, as a tidy player would; then settle,
        or with settle=False only until the board has taken the action."""
        v = self.virtual
        pos = self.board.pos
        if is_move(a):
            f, t = move_from(a), move_to(a)
            awakens = pos.awakens(a)
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
            if awakens:
                v.awaken(t)  # the player turns the piece to its Awakened face
        elif is_placement(a):
            c = placement_cell(a)
            under = v.pieces[c]
            if under:
                self.do("lift", c)
            self.do("lay", TERRAIN_LETTERS[placed_terrain(a)], c)
            if under:
                self.do("place", c)
        else:
            buf = bytearray(4)
            cells = buf[:action_cells(a, buf)]
            dest = [cells[tile_goes(a, i)] for i in range(len(cells))]
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

    def tidy(self):
        """Tidy hands put the board back as the game has it: what is in hand
        is set aside, wrong tiles and pieces come off (pieces to the tray),
        then the missing tiles are laid and the missing pieces put back from
        the tray (a spare from the box if the tray has none). Then settle.
        False if there was nothing to do."""
        v = self.virtual
        want = self.board.pos
        if bytes(v.pieces) == bytes(want.pieces) and bytes(v.tiles) == bytes(want.tiles) \
                and not v.hand:
            return False
        while any(h[0] == "piece" for h in v.hand):
            v.drop()
        del v.hand[:]  # tiles in hand go back to the pool
        for c in range(64):
            if v.pieces[c] and (v.pieces[c] != want.pieces[c] or v.tiles[c] != want.tiles[c]):
                self.do("lift", c)
                v.drop()
        for c in range(64):
            if v.tiles[c] != want.tiles[c]:
                if v.tiles[c]:
                    self.do("take-tile", c)
                    del v.hand[:]
                if want.tiles[c]:
                    self.do("lay", TERRAIN_LETTERS[want.tiles[c]], c)
        for c in range(64):
            p = want.pieces[c]
            if p and not v.pieces[c]:
                if p not in v.tray[piece_side(p)]:
                    v.tray[piece_side(p)].append(p)  # a spare from the box
                v.from_tray(p, c, self.now)
                self.tick(4)
        self.settle()
        return True

    # --- what the player sees -------------------------------------------------
    def colour(self, cell):
        """The (r, g, b) the LED of a cell shows now."""
        c = parse_cell(cell) if isinstance(cell, str) else cell
        f = self.board.frame
        return (f[3 * c], f[3 * c + 1], f[3 * c + 2])

    def lit(self):
        """{cell: (r, g, b)} of every lit LED."""
        return {c: self.colour(c) for c in range(64) if any(self.colour(c))}

    def shows(self, cell, colour, level=leds.LEVELS[2]):
        """Does the cell show this palette colour (at a brightness level,
        the default one unless given, or scaled down evenly by the current
        budget)?"""
        got = self.colour(cell)
        want = scaled(colour, level)
        if got == want:
            return True
        top = max(got)
        if not top or not max(want):
            return False
        k = max(want) / top  # the budget scales every channel by one factor
        return all(abs(w - g * k) <= 2 * k + 1 for w, g in zip(want, got))

    def played(self):
        """The actions committed since the game's start, in notation."""
        return " ".join(action_text(a) for a in self.board.pos.stack)

    def agrees(self):
        """Do the game and the physical board hold the same tiles and pieces
        (side and kind, which the reed switches cannot tell)?"""
        b, v = self.board, self.virtual
        return bytes(b.pos.pieces) == bytes(v.pieces) and bytes(b.pos.tiles) == bytes(v.tiles)


def scaled(colour, level=leds.LEVELS[2]):
    """A palette colour as the LEDs show it at a brightness level (before any budget cut)."""
    return tuple(x * level // 255 for x in colour)
