"""Sensing and judging: follow the sensors, judge them against the game once
they are still, and hand the board what to commit.

Quick verdicts (agreement, a piece in hand) count at once; actions, errors
and disagreements wait until the sensors have been still SETTLE_MS, so that
hands in motion are never mistaken for an action. Allocates nothing unless
something happened; an idle tick is two C compares of 64 bytes.
"""
from vortex.ticks import ticks_add, ticks_diff
from vortex.engine.defs import SWAP, action_cells, const
from vortex.engine.tables import OFF, STEP
from vortex.app.recognise import Recogniser, AGREE, HAND, ACTION, ILLEGAL, DISAGREE, SETUP

SETTLE_MS = const(300)   # sensors unchanged this long before an action is judged
ERROR_MS = const(2000)   # an illegal action flashes this long


class Sensing:
    """The sensors' view of the game: verdict (recognise.py's), the cells of
    an illegal action flashing until error_until, the tile serials seen where
    the board agreed (known_ids), and where tiles are worth reading first
    (watch)."""

    def __init__(self):
        self.rec = Recogniser()
        self.known_ids = bytearray(64)
        self._tiles = bytearray(64)  # the tile readings last judged
        self.watch = bytearray(64)
        self._next_watch = bytearray(64)
        self._watch_news = False  # watch changed since hint() last passed it on
        self.verdict = AGREE
        self.restoring = True  # the board must agree with the game before anything is recognised
        self.judged = True  # the still sensors have been judged
        self.changed_at = 0
        self.flashing = False
        self.error_until = 0
        self.errors = bytearray(4)
        self.nerrors = 0

    def expect_new(self, restore):
        """The game changed: judge the sensors against it afresh; with
        restore, only agreement counts until the board shows the game."""
        self.flashing = False
        self.judged = False
        if restore:
            self.restoring = True

    def step(self, board, now, occ, tiles, ids):
        """One tick: follow the sensors, judge when due. True if the view changed."""
        changed = False
        if occ != self.rec.last_occ or tiles != self._tiles:  # idle: two C compares, no loop
            changed = self.rec.observe(occ)  # the recogniser follows the pieces' history
            seen = self._tiles
            for c in range(64):
                if tiles[c] != seen[c]:
                    seen[c] = tiles[c]
                    changed = True
        if changed:
            self.changed_at = now
            self.judged = False
            return self._judge(board, now, occ, tiles, ids, False)
        if self.judged or ticks_diff(now, self.changed_at) < SETTLE_MS:
            return False
        return self._judge(board, now, occ, tiles, ids, True)

    def flash_over(self, now):
        """Has an illegal action's flash just ended?"""
        if self.flashing and ticks_diff(now, self.error_until) >= 0:
            self.flashing = False
            return True
        return False

    def _judge(self, board, now, occ, tiles, ids, settled):
        if board.result() is not None:
            self.judged = True  # the game is over: nothing more to recognise
            return False
        rec = self.rec
        pos = board.pos
        rec.compare(pos, occ, tiles)
        v = rec.judge(pos, tiles, ids, self.known_ids)
        if self.restoring and v != AGREE:
            # After a takeback, a new game or a resume, the board is put
            # back as the game says before any action counts.
            v = DISAGREE
        if v == AGREE:
            self.restoring = False
            rec.forget()
            # The tiles' serials are learnt from still sensors only: hands
            # half way through a swap or a Vortex of identical terrains can
            # leave readings that agree by terrain with stale serials.
            if settled:
                self._learn_ids(pos, tiles, ids)
            self.judged = settled
        elif v == HAND:
            self.judged = settled  # its view is drawn; nothing more to wait for
        elif not settled:
            return False  # keep the last view until the hands are still
        else:
            self.judged = True
            if v == SETUP:
                if board.settings.free_hearts:
                    board.set_heart(rec.cells[0], rec.cells[1])
                    rec.forget()
                    v = AGREE
                else:
                    v = ILLEGAL  # the option is off: the Heart goes back
            if v == ACTION:
                a = rec.action
                if board.pending >= 0 and a != board.pending:
                    v = ILLEGAL  # not the action the board asked for
                    if a < SWAP:  # a move's or placement's cells; a tile action's are set
                        rec.ncells = action_cells(a, rec.cells)
                else:
                    board.commit(a)
                    rec.forget()
                    self._learn_ids(board.pos, tiles, ids)
                    v = AGREE
            if v == ILLEGAL:
                if v != self.verdict:
                    board.say("illegal action")
                self.errors[:] = rec.cells
                self.nerrors = rec.ncells
                self.error_until = ticks_add(now, ERROR_MS)
                self.flashing = True
        changed = v != self.verdict or v != AGREE
        self.verdict = v
        self._update_watch(board.pos)
        return changed

    def _learn_ids(self, pos, tiles, ids):
        known = self.known_ids
        want = pos.tiles
        for c in range(64):
            if ids[c] and tiles[c] == want[c]:
                known[c] = ids[c]

    def _update_watch(self, pos):
        # Read first where tiles may change: cells without a tile while the
        # board is built, and around every difference (a swap's or a
        # Vortex's other cells are neighbours of the first one that changed).
        w = self._next_watch
        diff = self.rec.diff
        want = pos.tiles
        building = pos.is_building()
        for c in range(64):
            w[c] = 1 if building and not want[c] else 0
        for c in range(64):
            if diff[c]:
                w[c] = 1
                i = c << 3
                for d in range(8):
                    n = STEP[i + d]
                    if n != OFF:
                        w[n] = 1
        if w != self.watch:
            self.watch[:] = w
            self._watch_news = True

    def hint(self, reader):
        """Tell the tile reader (its expect(cell)) where to read first, when
        that has changed: where tiles are laid, lifted or moved."""
        if self._watch_news:
            self._watch_news = False
            w = self.watch
            for c in range(64):
                if w[c]:
                    reader.expect(c)
