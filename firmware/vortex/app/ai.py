"""The board's opponent: Ai(level, seed).choose(pos) -> action.

Level 0 is the old quick mover (take the Heart, else the biggest capture or
an awakening, else at random): the tests' fast player and the match
ladder's "greedy". Levels 1-6 search (vortex.ai; see vortex/ai/levels.py).
Deterministic for a given seed.
"""
import gc

from vortex.engine.defs import HEART
from vortex.engine.codes import is_move, move_to, piece_kind
from vortex.engine.position import new_buffer
from vortex.ai.rng import Rng
from vortex.ai.levels import LEVELS, DEVICE_LEVELS
from vortex import heap

__all__ = ("Ai", "Rng", "searcher", "DEVICE_LEVELS")


MIN_TT_BITS = 6  # 512 bytes: below that the table no longer pays for itself
# The largest block the search's tables leave the game at least, of its
# reserve: a file opened to save an action takes about 600 bytes in one
# piece on CircuitPython (FatFs's sector buffer), what a pass makes less.
BLOCK = 1024


def wants(level):
    """(table bits, history) a level's search can use: its transposition
    table, and the history table if it searches deep enough to order by it."""
    from vortex.ai.search import HISTORY_FROM  # (the search's module: loaded when it is made)
    depth, _, _, _, _, _, bits, _ = LEVELS[level]
    return bits, depth >= HISTORY_FROM


def fit(search, level, free, reserve):
    """Size the search's tables for `level` to the heap before it runs:
    `free` is the heap free after a collection (vortex.heap.free(); -1, as
    on CPython: nothing to size by), `reserve` what must stay free beside
    the tables for the game to play on, a block of BLOCK bytes of it in
    one piece. Tables that serve the level and leave the reserve are kept
    (never made again without need); else they are given back and made
    anew, as large as the level uses and the reserve allows, smaller while
    the heap has no block for them or none of BLOCK beside them (the
    largest-block checks: asking for one), the history table given up
    before the table. False if not even the smallest could be had: the
    search has no table then and must not run."""
    if free < 0:
        return True
    from vortex.ai.search import HISTORY_BYTES
    bits, history = wants(level)
    have = search.table_bytes()
    room = free + have - reserve  # what the tables may take
    if have <= room and search.tt_bits >= bits and (search.history is not None or not history):
        if not reserve or heap.has(BLOCK):
            return True
        room = have - 1  # the heap in pieces: smaller tables, a larger piece
    for b in range(bits, MIN_TT_BITS - 1, -1):
        for h in ((True, False) if history else (False,)):
            need = (8 << b) + (HISTORY_BYTES if h else 0)
            last = b == MIN_TT_BITS and not h  # the smallest: asked for whatever the room
            if need > room and not last:
                continue
            if len(search.tt) != 8 << b or (search.history is not None) != h:
                try:
                    search.resize(b, h)
                except MemoryError:
                    continue
            if last or not reserve or heap.has(BLOCK):
                return True
            room = need - 1
    return False


def searcher(level, poll=None, reserve=0, smallest=False):
    """A Search sized for `level` (and every level below it). If the heap
    has no block for its tables (CircuitPython's heap is smaller and more
    broken up), or if with them less than `reserve` bytes of heap would be
    left for the game to play on (its saves, the link's lines), the
    transposition table halves until it fits, then the history table (4 KB)
    goes too: the search plays on, a little weaker, instead of the board
    failing to start or later. smallest: the smallest tables at once (the
    board sizes them to its heap before each search: fit())."""
    from vortex.ai.search import Search
    _, _, _, _, _, _, tt_bits, plies = LEVELS[level]
    # The history table for the levels that search 3 plies deep or more:
    # the search only uses it there (vortex.ai.search.HISTORY_FROM).
    history = level >= DEVICE_LEVELS and not smallest
    bits = MIN_TT_BITS if smallest else tt_bits
    while True:
        try:
            s = Search(max_ply=plies, tt_bits=bits, history=history, poll=poll)
            if reserve and 0 <= heap.free() < reserve:
                raise MemoryError
            return s
        except MemoryError:
            s = None
            gc.collect()
            if bits > MIN_TT_BITS:
                bits -= 1
            elif history:
                history = False
                bits = tt_bits
            else:
                raise


class Ai:
    """Ai(level=3, seed=1, poll=None, search=None): poll() is called at
    every node while it thinks (the board keeps scanning there). Opponents
    that never think at once may share one `search` (its tables: up to 26 KB),
    if it was made for a level at least as deep."""

    def __init__(self, level=3, seed=1, poll=None, search=None):
        if not 0 <= level < len(LEVELS):
            raise ValueError("AI level: 0 to %d" % (len(LEVELS) - 1))
        self.level = level
        self.rng = Rng(seed)
        self.search = search  # made on the first battle action: not needed to build
        self._poll = poll
        self._buf = None
        if level:
            self._bounds = LEVELS[level][:6]

    def choose(self, pos):
        """An action for the side to act, or -1 if it has none."""
        if not self.level:
            return self._greedy(pos)
        depth, nodes, ms, noise, bnoise, advance = self._bounds
        if pos.is_building():
            from vortex.ai import build
            buf = self._buffer()
            n = pos.legal_into(buf)
            return build.choose(pos, buf, n, self.rng, bnoise) if n else -1
        if self.search is None:
            self.search = searcher(self.level, self._poll)
        return self.search.run(pos, depth, nodes, ms, self.rng, noise, advance)

    def stop(self):
        """Stop a search under way (from its poll hook): it returns at once,
        with the best action found so far."""
        if self.search is not None:
            self.search.stop = True

    def _buffer(self):
        # An action buffer: the search's first, free between searches, or one's own.
        if self.search is not None:
            return self.search.bufs[0]
        if self._buf is None:
            self._buf = new_buffer()
        return self._buf

    def _greedy(self, pos):
        buf = self._buffer()
        n = pos.legal_into(buf)
        if not n:
            return -1
        best = -1
        best_score = 0
        pieces = pos.pieces
        for i in range(n):
            a = buf[i]
            if not is_move(a):
                continue
            score = 0
            taken = pieces[move_to(a)]
            if taken:
                score = 1000 if piece_kind(taken) == HEART else 10
            if pos.awakens(a):
                score += 5
            if score > best_score:
                best, best_score = a, score
        return best if best >= 0 else buf[self.rng.below(n)]
