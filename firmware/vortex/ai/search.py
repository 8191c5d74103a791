"""Negamax alpha-beta with iterative deepening, quiescence on captures and
Heart threats, and a transposition table in one bytearray.

Nothing is allocated per node: action buffers are made per ply at
construction, keys are 30-bit small ints, every table is a bytearray or an
array. Actions are played with the engine's make() and unmake(), which
leave the position's action stack alone (each loop keeps its undo record).

Per node: the cells' key and each side's weight sum follow the action
(vortex.ai.track, before and after the engine's make), the evaluation asks
the engine which pieces reach each Heart (movegen.watch_hearts), ordering
and capture lists are machine code (vortex.ai.order); the full key is made
only where the table is read.

    s = Search(max_ply=6, tt_bits=9)
    action = s.run(pos, max_depth=3, max_nodes=2000)
"""
from array import array
import gc
import time

try:
    from typing import Any  # for mypy; MicroPython has no typing
except ImportError:
    pass

from vortex.native import micropython, ptr8
from vortex.engine.defs import PLACE, back_rank, const
from vortex.engine.position import DRAW, UNDECIDED
from vortex.engine.movegen import new_buffer, piece_moves, watch_hearts, MAX_ACTIONS
from vortex.engine.play import make, unmake
from vortex.ticks import ticks_diff
from vortex.ai.evaluate import WIN, static, advance_weights
from vortex.ai import zobrist
from vortex.ai.track import new_state, start, touch, STATE
from vortex.ai.order import order, captures, history, decay, sort_by, NONE

_INF = const(30000)
_MATE_BOUND = const(19000)  # scores beyond this are won or lost games
_EXACT = const(1)
_LOWER = const(2)
_UPPER = const(3)
_EVERY = const(7)           # poll(), the clock and the budget every 8 nodes (mask)
_QPLIES = const(2)          # capture plies past max_ply (one buffer each)
_GOES_ON = const(32001)     # _over(): the game is not over
_BIAS = const(32768)        # root scores as unsigned 16 bits (order.sort_by)
HISTORY_FROM = const(3)    # searches at least this deep use the history table
HISTORY_BYTES = const(4096)  # the history table: a byte per action code
_TO_MASK = const(63)       # defs.TO_MASK, a move's destination (tests/test_ai_native.py)


def _ms():  # CPython has no ticks_ms (nor do the rp2 stubs know monotonic)
    return int(getattr(time, "monotonic")() * 1000) & 0x3FFFFFFF


ticks_ms = getattr(time, "ticks_ms", _ms)


class Search:
    """A reusable searcher. max_ply bounds the full-width plies (one action
    buffer of ~1 KB each, and _QPLIES more for captures); 2**tt_bits entries
    of 8 bytes make the transposition table. `poll`, if given, is called
    every 8 nodes (the board scans its reeds there, at its own pace);
    `clock` returns ms. resize() makes the tables anew, larger or smaller
    (vortex.app.ai.fit sizes them to the heap before each of the board's
    searches)."""

    def __init__(self, max_ply=6, tt_bits=9, history=True, poll=None, clock=ticks_ms):
        # The largest blocks first, while the heap is least broken up.
        self.tt = bytearray(8 << tt_bits)
        self.tt_bits = tt_bits
        self.tt_mask = (1 << tt_bits) - 1
        self.history = bytearray(HISTORY_BYTES) if history else None
        self.max_ply = max_ply
        self.bufs = [new_buffer() for _ in range(max_ply + _QPLIES)]
        self.qlimit = max_ply + _QPLIES  # plies with a buffer: quiescence stands pat past them
        self.st = new_state(max_ply + _QPLIES)  # weights, then key and sums per ply (track.py)
        self.advance = 1  # the awakening term's multiple in st's weights (run's advance)
        self.root_scores = array("H", range(MAX_ACTIONS))  # score + _BIAS: the next depth's order
        self.killers = array("H", bytes(4 * (max_ply + _QPLIES)))
        self.keys = zobrist.shared()
        self.z = self.keys.z
        self.threats = bytearray(4)  # movegen.watch_hearts' counts, at every node
        self.poll = poll
        self.clock = clock
        self.hist = None  # the history table while a deep search runs
        self.nodes = 0
        self.depth = 0      # depth of the last completed iteration
        self.score = 0      # its score, for the side to act
        self.stop = False
        self.pos = None  # type: Any  # the position searched, during run()
        self.noise = 0
        self.rng = None  # type: Any
        self.max_nodes = 0
        self.max_ms = 0
        self.start = 0

    # --- the tables -----------------------------------------------------
    def table_bytes(self):
        """The heap the tables take: the transposition table and the history."""
        return len(self.tt) + (HISTORY_BYTES if self.history is not None else 0)

    def resize(self, tt_bits, history):
        """Give the tables back and make them anew: 2**tt_bits entries, and
        the history table if `history`. MemoryError when the heap has no
        block for them: the search then has no table (tt empty) until a
        resize() that fits; it must not run meanwhile."""
        self.tt = bytearray(0)
        self.history = self.hist = None
        gc.collect()  # their blocks free now, so the new ones may take them
        self.tt = bytearray(8 << tt_bits)
        self.tt_bits = tt_bits
        self.tt_mask = (1 << tt_bits) - 1
        if history:
            self.history = bytearray(HISTORY_BYTES)

    # --- the root -------------------------------------------------------
    def run(self, pos, max_depth, max_nodes, max_ms=0, rng=None, noise=0, advance=1):
        """The best action found for the side to act within the bounds
        (nodes always; milliseconds if max_ms), or -1 if it has none.
        rng shuffles equal choices; noise adds up to that much at random to
        each root score (gentle levels); advance multiplies the evaluation's
        awakening term (the deep levels push harder: vortex.ai.levels)."""
        if advance != self.advance:  # another level's evaluation (the board shares one search)
            advance_weights(self.st, advance)
            self.advance = advance
            _clear(self.tt)  # its scores were the other evaluation's
        self.pos = pos
        self.nodes = 0
        self.stop = False
        self.max_nodes = max_nodes
        self.max_ms = max_ms
        self.start = self.clock()
        self.rng = rng
        self.noise = noise
        self.depth = 0
        # History orders the deep searches only (levels 5 and 6): a shared
        # search plays the gentle levels as if it had none.
        self.hist = self.history if max_depth >= HISTORY_FROM else None
        killers = self.killers
        for i in range(len(killers)):
            killers[i] = 0
        if self.hist is not None:
            decay(self.hist)
        return self._root(max_depth)

    def _root(self, max_depth):
        pos = self.pos
        buf = self.bufs[0]
        n = pos.legal_into(buf)
        if n == 0:
            return -1
        rng = self.rng
        if rng is not None:  # equal actions chosen by the seed
            for i in range(n - 1, 0, -1):
                j = rng.below(i + 1)
                buf[i], buf[j] = buf[j], buf[i]
        if n == 1:
            return buf[0]
        st = self.st
        start(pos, self.keys, st, STATE)
        key = st[STATE] ^ self.keys.state(pos)
        best = buf[0]
        scores = self.root_scores
        self._order(buf, n, 0, self._tt_move(key))
        pieces = pos.pieces
        tiles = pos.tiles
        z = self.z
        for depth in range(1, max_depth + 1):
            alpha = -_INF
            found = -1
            for i in range(n):
                a = buf[i]
                touch(a, STATE, 0, pieces, tiles, z, st)
                undo = make(pos, a)
                touch(a, STATE, 1, pieces, tiles, z, st)
                self._count()
                # Gentle levels add noise to exact root scores: a full window.
                score = -self._search(depth - 1, 1, -_INF, _INF if self.noise else -alpha)
                unmake(pos, a, undo)
                if self.stop:
                    break
                if self.noise:
                    score += self.rng.below(self.noise + 1)
                scores[i] = score + _BIAS
                if score > alpha:
                    alpha = score
                    found = a
            if found >= 0:  # searched in full, even if the iteration was cut
                best = found
            if self.stop:
                break
            self.depth = depth
            self.score = alpha
            self._tt_store(key, depth, alpha, _EXACT, best)
            if alpha >= _MATE_BOUND or alpha <= -_MATE_BOUND:
                break  # the game's end is in sight: deeper changes nothing
            sort_by(buf, scores, n)  # the next depth looks at the best first
        return best

    # --- counting -------------------------------------------------------
    def _count(self):
        # One more node: stop at the budget; every 8 nodes poll() and, if
        # there is a time cap, the clock.
        n = self.nodes + 1
        self.nodes = n
        if n >= self.max_nodes or not n & _EVERY:
            self._every(n)

    def _every(self, n):
        if n >= self.max_nodes:
            self.stop = True
        if not n & _EVERY:
            if self.poll is not None:
                self.poll()
            if self.max_ms and ticks_diff(self.clock(), self.start) >= self.max_ms:
                self.stop = True

    @micropython.native
    def _over(self, ply):
        """The score of a game that has ended by itself (the engine's
        decided(): a Heart taken, the quiet count run out) for the side to
        act, or _GOES_ON. Allocates nothing."""
        pos = self.pos
        w = pos.decided()
        if w == UNDECIDED:
            return _GOES_ON
        if w == DRAW:
            return 0
        return WIN - ply if w == pos.side else -WIN + ply

    def _outcome(self, ply):
        o = self.pos.outcome()
        if o is None:
            return _GOES_ON
        if o.winner is None:
            return 0
        return WIN - ply if o.winner == self.pos.side else -WIN + ply

    # --- the tree -------------------------------------------------------
    # The make/unmake of every loop below, written out (a call per node
    # costs as much as a sixth of a node on the RP2040):
    #     touch(a, i, 0, ...); undo = make(pos, a); touch(a, i, 1, ...); count
    #     ... the child at ply + 1 ...
    #     unmake(pos, a, undo)
    @micropython.native
    def _search(self, depth, ply, alpha, beta):
        if self.stop:
            return 0
        over = self._over(ply)
        if over != _GOES_ON:
            return over
        if depth <= 0 or ply >= self.max_ply:
            return self._quiesce(ply, alpha, beta, 0, self._static(ply))
        pos = self.pos
        st = self.st
        i = STATE + 3 * ply
        key = st[i] ^ self.keys.state(pos)
        tt_move = NONE
        e = (key & self.tt_mask) << 3
        tt = self.tt
        if tt[e] | tt[e + 1] << 8 == key >> 14:
            tt_move = tt[e + 4] | (tt[e + 5] & 0x3F) << 8
            if tt[e + 6] >= depth:
                s = _score(tt, e, ply)
                flag = tt[e + 5] >> 6
                if flag == _EXACT or (flag == _LOWER and s >= beta) or (flag == _UPPER and s <= alpha):
                    return s
        buf = self.bufs[ply]
        n = pos.legal_into(buf)
        if n == 0:
            return self._outcome(ply)  # no legal action
        self._order(buf, n, ply, tt_move)
        pieces = pos.pieces
        tiles = pos.tiles
        hearts = pos.hearts
        vortexes = pos.vortexes
        z = self.z
        t = self.threats
        a0 = alpha
        best = -_INF
        best_a = buf[0]
        leaves = depth <= 1 or ply + 1 >= self.max_ply  # children go straight to quiescence
        for j in range(n):
            a = buf[j]
            touch(a, i, 0, pieces, tiles, z, st)
            undo = make(pos, a)
            touch(a, i, 1, pieces, tiles, z, st)
            nodes = self.nodes + 1
            self.nodes = nodes
            if nodes >= self.max_nodes or not nodes & _EVERY:
                self._every(nodes)
            if not leaves:
                score = -self._search(depth - 1, ply + 1, -beta, -alpha)
            else:  # what _search would do there, without its call
                score = self._over(ply + 1)
                if score != _GOES_ON:
                    score = -score
                else:
                    # The child's evaluation, then its first lines (see
                    # _quiesce): most children stand pat here, without a call.
                    watch_hearts(hearts, pieces, tiles, t)
                    side = pos.side
                    stand = static(side, st[i + 4], st[i + 5], t, vortexes, pos.quiet)
                    if (stand < WIN - 1 and stand >= -alpha
                            and not (t[side] and ply + 1 < self.max_ply)):
                        score = -stand
                    else:
                        score = -self._quiesce(ply + 1, -beta, -alpha, 0, stand)
            unmake(pos, a, undo)
            if self.stop:
                return 0
            if score > best:
                best = score
                best_a = a
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if a < PLACE and not pieces[a & _TO_MASK]:
                            self._quiet_cutoff(a, ply, depth)
                        break
        self._tt_store(key, depth, best, _UPPER if best <= a0 else _LOWER if best >= beta else _EXACT,
                       best_a, ply)
        return best

    @micropython.native
    def _static(self, ply):
        # The evaluation at ply: the Heart counts into threats, then the score.
        pos = self.pos
        st = self.st
        i = STATE + 3 * ply
        t = self.threats
        watch_hearts(pos.hearts, pos.pieces, pos.tiles, t)
        return static(pos.side, st[i + 1], st[i + 2], t, pos.vortexes, pos.quiet)

    @micropython.native
    def _quiesce(self, ply, alpha, beta, qd, stand):
        """Captures only, after standing pat on `stand` (_static(ply), the
        Heart counts still in threats); but a side whose Heart is threatened
        looks at every action once (an evasion may not capture)."""
        if self.stop:
            return 0
        if stand >= WIN - 1:
            return WIN - ply - 1
        pos = self.pos
        side = pos.side
        t = self.threats
        if t[side] and qd == 0 and ply < self.max_ply:
            return self._evade(ply, alpha, beta)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        if ply >= self.qlimit:
            return stand
        buf = self.bufs[ply]
        st = self.st
        i = STATE + 3 * ply
        pieces = pos.pieces
        tiles = pos.tiles
        hearts = pos.hearts
        vortexes = pos.vortexes
        n = captures(buf, piece_moves(0, side, 0, 64, pieces, tiles, buf), pieces)
        z = self.z
        for j in range(n):
            a = buf[j]
            touch(a, i, 0, pieces, tiles, z, st)
            undo = make(pos, a)
            touch(a, i, 1, pieces, tiles, z, st)
            nodes = self.nodes + 1
            self.nodes = nodes
            if nodes >= self.max_nodes or not nodes & _EVERY:
                self._every(nodes)
            over = self._over(ply + 1)
            if over != _GOES_ON:
                score = -over
            else:  # as in _search's loop: the child's evaluation and first lines
                watch_hearts(hearts, pieces, tiles, t)
                stand = static(side ^ 1, st[i + 4], st[i + 5], t, vortexes, pos.quiet)
                if stand < WIN - 1 and stand >= -alpha:
                    score = -stand
                else:
                    score = -self._quiesce(ply + 1, -beta, -alpha, qd + 1, stand)
            unmake(pos, a, undo)
            if self.stop:
                return 0
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
        return alpha

    @micropython.native
    def _evade(self, ply, alpha, beta):
        # Every action once, each answered by quiescence.
        pos = self.pos
        buf = self.bufs[ply]
        n = pos.legal_into(buf)
        if n == 0:
            return self._outcome(ply)
        self._order(buf, n, ply, NONE)
        st = self.st
        i = STATE + 3 * ply
        pieces = pos.pieces
        tiles = pos.tiles
        z = self.z
        best = -_INF
        for j in range(n):
            a = buf[j]
            touch(a, i, 0, pieces, tiles, z, st)
            undo = make(pos, a)
            touch(a, i, 1, pieces, tiles, z, st)
            nodes = self.nodes + 1
            self.nodes = nodes
            if nodes >= self.max_nodes or not nodes & _EVERY:
                self._every(nodes)
            over = self._over(ply + 1)
            if over != _GOES_ON:
                score = -over
            else:
                score = -self._quiesce(ply + 1, -beta, -alpha, 1, self._static(ply + 1))
            unmake(pos, a, undo)
            if self.stop:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    # --- ordering -------------------------------------------------------
    def _order(self, buf, n, ply, tt_move):
        """In place: the table's action, captures by victim, actions that
        awaken, the killers, the best of history; then the rest as made."""
        pos = self.pos
        killers = self.killers
        k = order(buf, n, tt_move, pos.pieces, back_rank(pos.side ^ 1), killers[2 * ply],
                  killers[2 * ply + 1])
        if self.hist is not None:
            history(buf, k, n, self.hist)

    def _quiet_cutoff(self, a, ply, depth):
        killers = self.killers
        j = 2 * ply
        if killers[j] != a:
            killers[j + 1] = killers[j]
            killers[j] = a
        hist = self.hist
        if hist is not None:
            hist[a] = min(255, hist[a] + depth * depth)

    # --- the transposition table -----------------------------------------
    # Entry of 8 bytes: key check (16 bits: the key's top), action (14 bits)
    # with the bound (2 bits), depth, score + 32768 (16 bits, at bytes 2-3).
    def _tt_move(self, key):
        tt = self.tt
        e = (key & self.tt_mask) << 3
        if tt[e] | tt[e + 1] << 8 == key >> 14:
            return tt[e + 4] | (tt[e + 5] & 0x3F) << 8
        return NONE

    def _tt_store(self, key, depth, score, flag, action, ply=0):
        tt = self.tt
        e = (key & self.tt_mask) << 3
        check = key >> 14
        if tt[e] | tt[e + 1] << 8 != check and tt[e + 6] > depth:
            return  # keep the deeper entry of another position
        # Won and lost scores are stored from this node, not from the root.
        if score >= _MATE_BOUND:
            score += ply
        elif score <= -_MATE_BOUND:
            score -= ply
        s = score + 32768
        tt[e] = check & 255
        tt[e + 1] = check >> 8
        tt[e + 2] = s & 255
        tt[e + 3] = s >> 8
        tt[e + 4] = action & 255
        tt[e + 5] = (action >> 8) | flag << 6
        tt[e + 6] = depth


@micropython.viper
def _clear(table):
    t = ptr8(table)
    n = int(len(table))
    i = 0
    while i < n:
        t[i] = 0
        i += 1


def _score(tt, e, ply):
    s = (tt[e + 2] | tt[e + 3] << 8) - 32768
    if s >= _MATE_BOUND:
        return s - ply
    if s <= -_MATE_BOUND:
        return s + ply
    return s

