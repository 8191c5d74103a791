"""The LED frame: what the board shows, drawn from the game and the verdict.

Board.step() asks for a frame only when something changed (a verdict, a
commit, a button, a blink phase); draw() then paints into a work buffer and
copies it to `frame` only if it differs, so an unchanged picture costs the
device no NeoPixel write (4 ms a frame on the RP2040). Allocates nothing.
"""
from vortex.engine.defs import (HEART, RANK_SHIFT, FILE_MASK, action_cells, tile_goes,
                                placed_terrain, back_rank)
from vortex.engine.codes import cell_at, is_swap, is_vortex, move_to, piece_side, piece_kind
from vortex.app import leds
from vortex.app.recognise import (HAND, WAIT, ILLEGAL, DISAGREE, GONE, EXTRA, TILE_AWAY,
                                  TILE_NEW, TILE_WRONG)
from vortex.engine.position import new_buffer, MAX_DESTINATIONS

BLINK_MS = 250
SPIN_NODES = 16  # search nodes the thinking light stays on a cell
CENTRE = b"\x1b\x23\x24\x1c"  # d4 d5 e5 e4: clockwise


class Renderer:
    """frame: the bytearray(192) to show. draw(board, now) -> True if it changed."""

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

    def draw(self, board, now):
        """Paint the board's state; True if the frame differs from the last one."""
        settings = board.settings
        self._level = leds.LEVELS[settings.level]
        self.blinking = False
        on = (now // BLINK_MS) & 1
        self._phase = on
        work = self._work
        leds.clear(work)
        sense = board.sense
        result = board.result()
        if board.menu is not None:
            board.menu.draw(self._put)
        elif result is not None:
            self._draw_last(board.pos)
            self._draw_end(result)
        else:
            pos = board.pos
            if pos.is_building():
                tiles = pos.tiles
                for c in range(64):
                    if not tiles[c]:
                        self._put(c, leds.PLACE)
            self._draw_last(pos)
            self._draw_turn(board, on)
            if board.pending >= 0:
                self._draw_pending(board.pending, on, leds.TODO)
            elif board.hint_action >= 0:
                self._draw_pending(board.hint_action, on, leds.HINT)
            v = sense.verdict
            if v == HAND:
                self._draw_hand(pos, sense.rec.hand)
            elif v == WAIT or v == DISAGREE or v == ILLEGAL:
                self._draw_diff(pos, sense, on)
            if sense.flashing:
                self.blinking = True
                errors = sense.errors
                for i in range(sense.nerrors):
                    self._put(errors[i], leds.ERROR if on else leds.OFF)
        leds.finish(work, settings.budget_ma)
        if work == self.frame:
            return False
        self.frame[:] = work
        return True

    def _put(self, cell, colour):
        leds.put(self._work, cell, colour, self._level)

    def _draw_last(self, pos):
        stack = pos.stack
        if stack:
            cells = self._cells
            for i in range(action_cells(stack[-1], cells)):
                self._put(cells[i], leds.LAST)

    def _draw_turn(self, board, on):
        # The side to act: the two corners of its home edge.
        side = board.pos.side
        colour = leds.SIDE[side]
        clock = board.clock
        if clock and clock.is_low(side):
            self.blinking = True
            colour = leds.LOW_CLOCK if on else leds.OFF
        rank = back_rank(side)
        self._put(cell_at(0, rank), colour)
        self._put(cell_at(7, rank), colour)

    def spin(self, node, settings):
        """While the AI thinks (called at every search node): a light turns
        round the four centre cells, drawn straight into the frame, which the
        main loop shows. True when the frame changed."""
        if node % SPIN_NODES:
            return False
        i = node // SPIN_NODES
        level = leds.LEVELS[settings.level]
        leds.put(self.frame, CENTRE[(i - 1) & 3], leds.OFF, level)
        leds.put(self.frame, CENTRE[i & 3], leds.THINKING, level)
        leds.finish(self.frame, settings.budget_ma)
        return True

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
        # (the tile first: the piece stands on it). A new tile laid under a
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
            elif f & GONE:
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
