"""Sensing and judging: follow the sensors, judge them against the game once
they are still, and report what was found.

The contract (as KMK's module hooks state theirs): step() reads the game
and never changes it; it returns a finding, and the Board, which owns the
game, applies it (commits the action, sets the Heart) and then tells
accepted(). The verdict, the differences and the error cells are Sensing's
own state, which the renderer and the link only read.

Quick verdicts (agreement, a piece in hand) count at once; actions, errors
and disagreements wait until the sensors have been still SETTLE_MS, so that
hands in motion are never mistaken for an action. An action the board would
accept is shown at once all the same (.seen: a laid tile lights as soon as
it is read, issue 16's 300 ms), and committed once they are still.
Allocates nothing unless something happened; an idle tick is two C
compares of 64 bytes.
"""
from vortex.ticks import ticks_add, ticks_diff
from vortex.engine.defs import action_cells, const
from vortex.engine.codes import is_move, is_placement
from vortex.engine.tables import OFF, STEP
from vortex.app.recognise import (Recogniser, AGREE, HAND, ACTION, ILLEGAL, DISAGREE, SETUP,
                                  NOT_ASKED, REPLACE)

SETTLE_MS = const(300)   # sensors unchanged this long before an action is judged
ERROR_MS = const(2000)   # an illegal action flashes this long

# What step() found.
_NOTHING = const(0)   # nothing new to show
SEEN = const(1)      # the view changed (a verdict, a flash): draw again
FOUND = const(2)     # an action to commit: .action
HEART_SET = const(3)  # the Heart moved along its back rank before the first tile: .cells[0] -> [1]
REFUSED = const(4)   # a whole action the rules refuse: it flashes
UNASKED = const(5)   # a legal action, but not the one the board asks for: it flashes

# What step() may accept (its `pending`), besides one action asked for.
ANY = const(-1)      # any legal action of the side to act
CLOSED = const(-2)   # none: the game is over, or the AI is thinking


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
        self.action = -1  # the action FOUND
        self.seen = -1  # an action seen while the hands move, shown before it is judged, or -1
        self.cells = self.rec.cells  # a HEART_SET's cells: from, to
        # Cells whose piece a takeback changed while they stay occupied (the
        # taker stands where the taken piece goes back): reeds cannot tell,
        # so each must be seen emptied (1) then filled again (2 -> done).
        self.replace = bytearray(64)
        self.nreplace = 0

    def expect_new(self, restore):
        """The game changed: judge the sensors against it afresh; with
        restore, only agreement counts until the board shows the game."""
        self.flashing = False
        self.judged = False
        self.seen = -1
        if restore:
            self.restoring = True
            if self.nreplace:
                self.replace[:] = bytes(64)
                self.nreplace = 0

    def must_replace(self, cell):
        """After a takeback: the piece on this occupied cell is not the
        game's; the board is not put back until it has been lifted and a
        piece put there again."""
        if not self.replace[cell]:
            self.replace[cell] = 1
            self.nreplace += 1

    def accepted(self, pos, tiles, ids):
        """The Board applied the finding (committed the action, set the
        Heart): the sensors show the game as it now is."""
        self.rec.forget()
        self._learn_ids(pos, tiles, ids)
        self.seen = -1
        self.restoring = False
        self.verdict = AGREE
        self._update_watch(pos)

    def step(self, pos, pending, setup, now, occ, tiles, ids):
        """One tick: follow the sensors, judge when due; return a finding.
        pending: ANY, CLOSED, or the one action accepted (asked for by the
        AI or a remote opponent); setup: may a Heart be set (HEART_SET)."""
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
            if self.nreplace:
                self._follow_replace(occ)
            return self._judge(pos, pending, setup, now, occ, tiles, ids, False)
        if self.judged or ticks_diff(now, self.changed_at) < SETTLE_MS:
            return _NOTHING
        return self._judge(pos, pending, setup, now, occ, tiles, ids, True)

    def flash_over(self, now):
        """Has an illegal action's flash just ended?"""
        if self.flashing and ticks_diff(now, self.error_until) >= 0:
            self.flashing = False
            return True
        return False

    def _judge(self, pos, pending, setup, now, occ, tiles, ids, settled):
        if pending == CLOSED:
            self.judged = True  # nothing to recognise now
            return _NOTHING
        rec = self.rec
        rec.compare(pos, occ, tiles)
        v = rec.judge(pos, tiles, ids, self.known_ids, pending)
        if self.nreplace:
            replace = self.replace
            for c in range(64):
                if replace[c]:
                    rec.diff[c] |= REPLACE
            v = DISAGREE
        if self.restoring and v != AGREE:
            # After a takeback, a new game or a resume, the board is put
            # back as the game says before any action counts.
            v = DISAGREE
        found = _NOTHING
        if self.seen >= 0 and (settled or v == AGREE or v == HAND):
            self.seen = -1
            found = SEEN
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
            self._update_watch(pos)
            if v == ACTION and (pending < 0 or rec.action == pending):
                if rec.action != self.seen:
                    self.seen = rec.action  # to commit when the hands are still: shown now
                    return SEEN
                return _NOTHING
            if self.seen >= 0:
                self.seen = -1  # the hands went on: no longer that action
                return SEEN
            # Keep the last view until the hands are still, but have the
            # differences read again now: a tile misread goes away before
            # it could be judged, instead of showing SETTLE_MS later.
            return _NOTHING
        else:
            self.judged = True
            if v == SETUP:
                if setup:
                    return HEART_SET
                v = ILLEGAL  # the option is off: the Heart goes back
            if v == ACTION:
                a = rec.action
                if pending < 0 or a == pending:
                    self.action = a
                    return FOUND
                v = NOT_ASKED
                self.action = a
                if is_move(a) or is_placement(a):  # a tile action's cells are set
                    rec.ncells = action_cells(a, rec.cells)
            if v == ILLEGAL or v == NOT_ASKED:
                if v != self.verdict:
                    found = REFUSED if v == ILLEGAL else UNASKED
                self.errors[:] = rec.cells
                self.nerrors = rec.ncells
                self.error_until = ticks_add(now, ERROR_MS)
                self.flashing = True
        if found == _NOTHING and (v != self.verdict or v != AGREE):
            found = SEEN
        self.verdict = v
        self._update_watch(pos)
        return found

    def _follow_replace(self, occ):
        replace = self.replace
        for c in range(64):
            r = replace[c]
            if r == 1 and not occ[c]:
                replace[c] = 2  # lifted
            elif r == 2 and occ[c]:
                replace[c] = 0  # a piece put back: the player's word that it is the right one
                self.nreplace -= 1

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

    def read_first(self, reader):
        """Tell the tile reader (its expect(cell)) where to read first, when
        that has changed: where tiles are laid, lifted or moved."""
        if self._watch_news:
            self._watch_news = False
            w = self.watch
            for c in range(64):
                if w[c]:
                    reader.expect(c)
