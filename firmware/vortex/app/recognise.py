"""From sensor readings to game actions.

The board knows what it expects to see: a piece wherever the game has one
and each cell's terrain. compare() marks where the sensors differ; judge()
names what the differences mean: agreement, a piece in hand, a legal action
to commit, an illegal one, or a disagreement to show.

Reed switches tell only occupancy, so a capture (the taken piece lifted, the
mover put in its place) leaves the same occupancy as a lifted piece. The
order of events tells them apart: each cell keeps the sequence number of its
last fall (emptied) and last rise (filled), counted since the pieces last
stood as the game says. A capture is the mover's cell emptied and the
taken piece's cell filled again after that; a piece lifted and put back
before the mover was lifted is no capture.
"""
from array import array
from vortex.engine.defs import NO_TILE, placement, action_cells, tile_goes, const
from vortex.engine.codes import move, piece_side
from vortex.engine.movegen import new_buffer
from vortex.engine.shapes import tile_actions_over, MAX_OVER
from vortex.engine.setup import can_set_heart
from vortex.engine.tables import OFF
from vortex.tag import UNKNOWN, NOT_READ

# Per-cell difference flags.
GONE = const(1)       # a piece is expected and none is sensed
EXTRA = const(2)      # a piece is sensed and none is expected
TILE_AWAY = const(4)  # a tile is expected and none answers
TILE_NEW = const(8)   # a tile answers where none is expected
TILE_WRONG = const(16)  # another terrain (or an unknown tag) is read
_TILE_UNREAD = const(32)  # not read yet: nothing can be judged there
REPLACE = const(64)   # a piece stands where the game has one, but a takeback changed which:
                      # it is to be lifted and the game's piece put there (Sensing sets it)

# Verdicts of judge().
AGREE = const(0)
HAND = const(1)       # one own piece lifted: show where it may go
WAIT = const(2)       # an action under way: show what is missing, no error
ACTION = const(3)     # a legal action: commit it
ILLEGAL = const(4)    # a whole action that the rules refuse
DISAGREE = const(5)   # board and game differ: show what to restore
SETUP = const(6)      # before the first tile, a Heart moved along its back rank: cells[0] -> cells[1]
NOT_ASKED = const(7)  # a legal action, but not the one the board asks to be carried out
# Their names, indexed by verdict (the host link's and the page's words).
VERDICT_NAMES = (b"agree", b"hand", b"wait", b"action", b"illegal", b"disagree", b"setup",
                 b"not-asked")


class Recogniser:
    """Compares sensors with the game and names what happened. Preallocated;
    compare() and judge() allocate nothing."""

    def __init__(self):
        self.diff = bytearray(64)
        self.fell = array("H", bytes(128))  # per cell: sequence number of its last fall, 0 none
        self.rose = array("H", bytes(128))  # ... and of its last rise
        self.seq = 0  # events since the pieces last stood as the game says
        self.last_occ = bytearray(64)  # occupancy seen at the last observe()
        self.cells = bytearray(4)  # the cells of the last verdict (up to 4)
        self._scratch = bytearray(4)
        self._over = new_buffer(MAX_OVER)  # the tile actions a change may have been
        self.ncells = 0
        self.action = -1
        self.gone = self.extra = self.tiles = self.new_tiles = 0
        self.gone_cell = self.extra_cell = self.hand = OFF
        self.own_gone = 0

    def forget(self):
        """Forget the pieces' history: they stand as the game says."""
        if self.seq:
            fell = self.fell
            rose = self.rose
            for c in range(64):
                fell[c] = 0
                rose[c] = 0
            self.seq = 0

    def observe(self, occ):
        """Follow occupancy: number each cell's falls and rises in order.
        True if any cell changed since the last call."""
        prev = self.last_occ
        changed = False
        for c in range(64):
            o = occ[c]
            if o != prev[c]:
                if self.seq == 0xFFFF:
                    self.forget()  # a disagreement that long: its history is stale anyway
                self.seq += 1
                if o:
                    self.rose[c] = self.seq
                else:
                    self.fell[c] = self.seq
                prev[c] = o
                changed = True
        return changed

    def compare(self, pos, occ, tiles):
        """Mark each cell's differences in self.diff; count them."""
        diff = self.diff
        pieces = pos.pieces
        want = pos.tiles
        side = pos.side
        gone = extra = tcount = new = own = 0
        for c in range(64):
            f = 0
            if pieces[c]:
                if not occ[c]:
                    f = GONE
                    gone += 1
                    self.gone_cell = c
                    if piece_side(pieces[c]) == side:
                        own += 1
                        self.hand = c
            elif occ[c]:
                f = EXTRA
                extra += 1
                self.extra_cell = c
            r = tiles[c]
            w = want[c]
            if r != w:
                if r == NOT_READ:
                    f |= _TILE_UNREAD
                elif r == NO_TILE:
                    f |= TILE_AWAY
                elif w == NO_TILE:
                    f |= TILE_NEW if r != UNKNOWN else TILE_NEW | TILE_WRONG
                    new += 1
                else:
                    f |= TILE_WRONG  # another terrain, or UNKNOWN on a laid tile
                tcount += 1
            diff[c] = f
        if not (gone or extra):
            self.forget()  # the pieces stand as the game says: what came before is no capture
        self.gone = gone
        self.extra = extra
        self.tiles = tcount
        self.new_tiles = new
        self.own_gone = own

    def judge(self, pos, tiles, ids, known_ids, asked=-1):
        """The verdict on the last compare(). ACTION sets self.action; ILLEGAL
        sets self.cells/ncells to the cells to flash. asked: the action the
        board asks to be carried out (-1: none), which wins among tile
        actions that what was read cannot tell apart."""
        self.action = -1
        self.ncells = 0
        if not (self.gone or self.extra or self.tiles):
            return AGREE
        if self.tiles:
            if self.extra:
                return DISAGREE
            if self.gone:
                return WAIT  # pieces lifted off tiles that are being laid or moved
            if pos.is_building():
                return self._placement(pos, tiles)
            return self._tile_action(pos, tiles, ids, known_ids, asked)
        if pos.is_building():
            # No piece moves while the board is built; but before the first
            # tile a Heart may be set on another file of its back rank.
            f, t = self.gone_cell, self.extra_cell
            if self.gone == 1 and self.extra == 1 and can_set_heart(pos, f, t):
                self._flag(f, t)
                return SETUP
            return DISAGREE
        if self.gone == 1 and self.extra == 1:
            f = self.gone_cell
            return self._move(pos, f, self.extra_cell)
        if self.own_gone == 1 and not self.extra:
            if self.gone == 1:
                t = self._taken(pos)
                if t != OFF:
                    return self._move(pos, self.hand, t)
            return HAND  # other pieces lifted are enemies: a capture under way
        return DISAGREE

    def _taken(self, pos):
        # The cell of a capture, or OFF: an enemy's cell filled again after
        # the mover's emptied. Of several, the one the mover may take; of
        # those, the last filled.
        f = self.hand
        after = self.fell[f]
        rose = self.rose
        pieces = pos.pieces
        side = pos.side
        best = OFF
        legal = False
        for c in range(64):
            r = rose[c]
            if r > after and pieces[c] and piece_side(pieces[c]) != side:
                ok = pos.is_legal(move(f, c))
                if best == OFF or (ok and not legal) or (ok == legal and r > rose[best]):
                    best = c
                    legal = ok
        return best

    def _flag(self, a, b=OFF):
        self.cells[0] = a
        self.cells[1] = b
        self.ncells = 1 if b == OFF else 2

    def _move(self, pos, f, t):
        a = move(f, t)
        if pos.is_legal(a):
            self.action = a
            return ACTION
        self._flag(f, t)
        return ILLEGAL

    def _placement(self, pos, tiles):
        diff = self.diff
        cell = OFF
        for c in range(64):
            if diff[c]:
                if diff[c] != TILE_NEW or cell != OFF:
                    return DISAGREE if not diff[c] & _TILE_UNREAD else WAIT
                cell = c
        a = placement(tiles[cell], cell)
        if pos.is_legal(a):
            self.action = a
            return ACTION
        self._flag(cell)
        return ILLEGAL

    def _tile_action(self, pos, tiles, ids, known_ids, asked):
        # A swap or a Vortex: 2 to 4 cells of one 2x2 block read other terrains.
        # Terrains decide which actions fit. Identical tiles may trade places
        # unseen by the rules, so serials only choose between candidates that
        # terrains cannot tell apart: the fewest serials out of place wins;
        # where serials cannot tell either, the action the board asked for,
        # else the legal candidate (a Vortex asked for and carried out is not
        # taken for a swap that leaves the same terrains while the tiles'
        # serials are still unread).
        diff = self.diff
        n = 0
        cells = self.cells
        for c in range(64):
            f = diff[c]
            if f:
                if f & (_TILE_UNREAD | TILE_AWAY):
                    return WAIT  # a tile in hand or not read yet
                if f != TILE_WRONG or n == 4 or tiles[c] == UNKNOWN:
                    return DISAGREE
                cells[n] = c
                n += 1
        self.ncells = n
        want = pos.tiles
        best = -1  # the candidate chosen so far
        fewest = 5  # its serials out of place
        legal = False
        # The engine's candidates, in its order of preference: the swap, then
        # the Vortexes, clockwise first.
        found = self._over
        for i in range(tile_actions_over(cells, n, found)):
            a = found[i]
            wrong = self._misplaced(a, want, tiles, ids, known_ids)
            if wrong < 0 or wrong > fewest:
                continue  # the terrains do not fit, or the serials fit worse
            ok = pos.is_legal(a)
            if wrong < fewest or (ok and not legal) or (wrong == fewest and a == asked and ok):
                best, fewest, legal = a, wrong, ok
        if best < 0:
            return DISAGREE
        if not legal:
            return ILLEGAL
        self.action = best
        return ACTION

    def _misplaced(self, a, want, tiles, ids, known):
        # Does the swap or Vortex a, applied to the expected tiles, give the
        # terrains read? -1 if not, else how many read serials differ from
        # those of the tiles it moves there (unknown serials do not count).
        cells = self._scratch
        n = action_cells(a, cells)
        wrong = 0
        for i in range(n):
            s = cells[i]
            d = cells[tile_goes(a, i)]
            if tiles[d] != want[s]:
                return -1
            if ids[d] and known[s] and ids[d] != known[s]:
                wrong += 1
        return wrong

