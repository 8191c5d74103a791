"""The LED frame: what the board shows, drawn from the game and the verdict.

Board.step() asks for a frame only when something changed (a verdict, a
commit, a button, a blink phase, the thinking light's step); draw() then
paints into a work buffer and copies it to `frame` only if it differs, so
an unchanged picture costs the device no NeoPixel write (4 ms a frame on
the RP2040). Allocates nothing.
"""
from vortex.engine.defs import (HEART, RANK_SHIFT, FILE_MASK, action_cells, tile_goes,
                                placed_terrain, back_rank)
from vortex.engine.codes import cell_at, is_swap, is_vortex, move_to, piece_side, piece_kind
from vortex.app import leds
from vortex.app.recognise import (HAND, WAIT, ILLEGAL, DISAGREE, NOT_ASKED, GONE, EXTRA,
                                  TILE_AWAY, TILE_NEW, TILE_WRONG, REPLACE)
from vortex.engine.position import new_buffer, MAX_DESTINATIONS

BLINK_MS = 250
SPIN_MS = 125  # the thinking light moves on to the next centre cell this often
CENTRE = b"\x1b\x23\x24\x1c"  # d4 d5 e5 e4: clockwise


class Renderer:
    """frame: the bytearray(192) to show. draw(...) -> True if it changed.

    Its contract: draw() reads what it is given and changes none of it; the
    frame is its own."""

    def __init__(self):
        self.frame = bytearray(leds.FRAME_BYTES)
        self._work = bytearray(leds.FRAME_BYTES)
        self._level = leds.LEVELS[2]
        self._dest = new_buffer(MAX_DESTINATIONS)
        self._cells = bytearray(4)
        self.blinking = False  # the last frame has a blinking part
        self._phase = -1

    def blink_due(self, now):
        """Has the blink phase turned since the last frame that blinks?"""
        return self.blinking and (now // BLINK_MS) & 1 != self._phase

    def draw(self, now, pos, sense, result, todo, hint, menu, low, settings, spin=-1,
             budget_ma=leds.DEFAULT_BUDGET_MA, away=-1, wait=-1, fault=0):
        """Paint a frame; True if it differs from the last one.
        pos: the game; sense: the Sensing (its verdict, differences, flash);
        result: the Outcome or None; todo: the action asked to be carried
        out (AI, remote opponent) or -1; hint: the action hinted or -1;
        menu: the settings Menu, or None; low: the side to act's clock is
        low; settings: the brightness; spin: while the AI thinks, the
        thinking light's step (-1 otherwise); budget_ma: the most the frame
        may draw (Board.budget_ma()); away: the side of a remote opponent
        that is gone (online play), whose colour the centre shows, or -1;
        wait: the side whose player the room's game is awaited from
        (online play), whose colour blinks in the centre, or -1; fault: the
        NFC front end is faulted (the centre flashes the error colour over
        the rest: the tiles are not read)."""
        self._level = leds.LEVELS[settings.brightness]
        self.blinking = False
        on = (now // BLINK_MS) & 1
        self._phase = on
        work = self._work
        leds.clear(work)
        if menu is not None:
            menu.draw(self._put)
        elif result is not None:
            self._draw_last(pos)
            self._draw_end(result)
        else:
            if pos.is_building():
                tiles = pos.tiles
                for c in range(64):
                    if not tiles[c]:
                        self._put(c, leds.PLACE)
            v = sense.verdict
            seen = sense.seen
            if seen >= 0:
                # Seen, not yet committed (the hands not still yet): drawn
                # as it will be once it is the last action.
                self._draw_cells(seen, leds.LAST)
            else:
                self._draw_last(pos)
            diff = v == WAIT or v == DISAGREE or v == ILLEGAL or v == NOT_ASKED
            if not diff:
                # Whose turn, in its side's colour; not while the board shows
                # what to put back, where that colour means a missing piece.
                self._draw_turn(pos.side, low, on)
            if todo >= 0:
                self._draw_pending(todo, on, leds.TODO)
            elif hint >= 0:
                self._draw_pending(hint, on, leds.HINT)
            if seen < 0:  # (an action seen is all the hands' part of the picture)
                if v == HAND:
                    self._draw_hand(pos, sense.rec.hand)
                elif diff:
                    self._draw_diff(pos, sense, on)
            if sense.flashing:
                self.blinking = True
                errors = sense.errors
                for i in range(sense.nerrors):
                    self._put(errors[i], leds.ERROR if on else leds.OFF)
            if away >= 0 or wait >= 0:
                if wait >= 0:
                    self.blinking = True
                for c in CENTRE:
                    self._put(c, leds.SIDE[away] if away >= 0 else leds.SIDE[wait] if on
                              else leds.OFF)
            if spin >= 0:
                self._put(CENTRE[spin & 3], leds.THINKING)
        if fault:
            self.blinking = True
            for c in CENTRE:
                self._put(c, leds.ERROR if on else leds.OFF)
        leds.finish(work, budget_ma)
        if work == self.frame:
            return False
        self.frame[:] = work
        return True

    def _put(self, cell, colour):
        leds.put(self._work, cell, colour, self._level)

    def _draw_last(self, pos):
        stack = pos.stack
        if stack:
            self._draw_cells(stack[-1], leds.LAST)

    def _draw_cells(self, a, colour):
        cells = self._cells
        for i in range(action_cells(a, cells)):
            self._put(cells[i], colour)

    def _draw_turn(self, side, low, on):
        # The side to act: the two corners of its home edge.
        colour = leds.SIDE[side]
        if low:
            self.blinking = True
            colour = leds.LOW_CLOCK if on else leds.OFF
        rank = back_rank(side)
        self._put(cell_at(0, rank), colour)
        self._put(cell_at(7, rank), colour)

    def _draw_pending(self, a, on, colour):
        # The action to carry out (TODO) or a hint (HINT). Steady where it
        # starts, blinking where it goes: a move's cells, a swap's, a
        # Vortex's block with the cell its lower-left tile turns to blinking
        # (up for clockwise, right for counter-clockwise); a tile to lay in
        # its terrain's colour.
        self.blinking = True
        cells = self._cells
        n = action_cells(a, cells)
        if n == 1:
            self._put(cells[0], leds.TERRAINS[placed_terrain(a)] if on else leds.OFF)
            return
        for i in range(n):
            self._put(cells[i], colour)
        self._put(cells[tile_goes(a, 0) if is_swap(a) or is_vortex(a) else 1],
                  colour if on else leds.OFF)

    def _draw_hand(self, pos, f):
        self._put(f, leds.LIFTED)
        buf = self._dest
        pieces = pos.pieces
        for i in range(pos.destinations(f, buf)):
            a = buf[i]
            t = move_to(a)
            if pieces[t]:
                colour = leds.CAPTURE
            elif pos.awakens(a):
                colour = leds.AWAKEN
            else:
                colour = leds.DEST
            self._put(t, colour)

    def _draw_diff(self, pos, sense, on):
        # Extra things in red. A missing tile in blue; a missing piece in its
        # side's colour, a Heart pulsing, so the cell says what to put back
        # (the tile first: the piece stands on it); so does a cell whose
        # piece a takeback changed, until it has been replaced. A new tile laid under a
        # lifted piece is a placement under way, not an error, when it is
        # the only tile out of place: that cell asks for its piece back.
        rec = sense.rec
        diff = rec.diff
        pieces = pos.pieces
        under_way = (pos.is_building() and rec.tiles == 1 and rec.new_tiles == 1
                     and not rec.extra and not sense.restoring)
        for c in range(64):
            f = diff[c]
            if f & (EXTRA | TILE_WRONG) or (f & TILE_NEW and not (under_way and f & GONE)):
                self._put(c, leds.EXTRA)
            elif f & TILE_AWAY:
                self._put(c, leds.MISSING)
            elif f & (GONE | REPLACE):  # the piece the game has here, to put (back)
                p = pieces[c]
                level = self._level
                if piece_kind(p) == HEART:
                    self.blinking = True
                    if not on:
                        level //= leds.PULSE
                leds.put(self._work, c, leds.SIDE[piece_side(p)], level)

    def _draw_end(self, result):
        if result.winner is None:  # a draw: both colours, checkered
            for c in range(64):
                self._put(c, leds.SIDE[((c >> RANK_SHIFT) + c) & 1])
            return
        colour = leds.SIDE[result.winner]
        for c in range(64):
            r = c >> RANK_SHIFT
            f = c & FILE_MASK
            if r == 0 or r == 7 or f == 0 or f == 7:
                self._put(c, colour)
