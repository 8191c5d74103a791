"""Negamax alpha-beta with iterative deepening, quiescence on captures and
Heart threats, and a transposition table in one bytearray.

Nothing is allocated per node: action buffers are made per ply at
construction, keys are 30-bit small ints, every table is a bytearray or an
array. While searching, the position's action stack and undo records are
lists of the search's own, pre-grown, so push() and pop() never resize them.

    s = Search(max_ply=6, tt_bits=9)
    action = s.run(pos, max_depth=3, max_nodes=2000)
"""
from array import array
import time

try:
    from typing import Any  # for mypy; MicroPython has no typing
except ImportError:
    pass

from vortex.engine.defs import PLACE, const
from vortex.engine.position import DRAW, UNDECIDED
from vortex.engine.movegen import reach, new_buffer, MAX_DESTINATIONS, MAX_ACTIONS
from vortex.ticks import ticks_diff
from vortex.ai.evaluate import Evaluator, WIN
from vortex.ai import zobrist

INF = const(30000)
MATE_BOUND = const(19000)  # scores beyond this are won or lost games
EXACT = const(1)
LOWER = const(2)
UPPER = const(3)
CHECK_EVERY = const(63)    # nodes between clock checks (mask)
MAX_CAPTURES = const(96)   # 9 pieces x 9 enemies, at most, in one position
VICTIM = b"\x00\x01\x03\x09"  # ordering weight of a taken piece by kind
STACK_SPARE = const(32)    # plies the pre-grown stacks hold before resizing
GOES_ON = const(32001)     # _over(): the game is not over


def _ms():  # CPython has no ticks_ms (nor do the rp2 stubs know monotonic)
    return int(getattr(time, "monotonic")() * 1000) & 0x3FFFFFFF


ticks_ms = getattr(time, "ticks_ms", _ms)


class Search:
    """A reusable searcher. max_ply bounds the full-width plies (one action
    buffer of ~1 KB each); 2**tt_bits entries of 8 bytes make the
    transposition table. `poll`, if given, is called at every node (the
    board scans its reeds there, at its own pace); `clock` returns ms."""

    def __init__(self, max_ply=6, tt_bits=9, history=True, poll=None, clock=ticks_ms):
        self.max_ply = max_ply
        self.bufs = [new_buffer() for _ in range(max_ply)]
        self.qbufs = [new_buffer(MAX_CAPTURES) for _ in range(max_ply + 2)]
        self.scratch = new_buffer(MAX_DESTINATIONS)
        self.root_scores = array("h", range(MAX_ACTIONS))  # ordering of the next depth
        self.killers = array("H", bytes(4 * (max_ply + 2)))
        self.history = bytearray(4096) if history else None
        self.tt = bytearray(8 << tt_bits)
        self.tt_mask = (1 << tt_bits) - 1
        self.keys = zobrist.shared()
        self.ev = Evaluator()
        self.poll = poll
        self.clock = clock
        self.stack = [0] * STACK_SPARE
        self.undo = [0] * STACK_SPARE
        self.stack.append(0)  # grow once now: appends stay within capacity
        self.stack.pop()
        self.undo.append(0)
        self.undo.pop()
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

    # --- the root -------------------------------------------------------
    def run(self, pos, max_depth, max_nodes, max_ms=0, rng=None, noise=0):
        """The best action found for the side to act within the bounds
        (nodes always; milliseconds if max_ms), or -1 if it has none.
        rng shuffles equal choices; noise adds up to that much at random to
        each root score (gentle levels)."""
        self.pos = pos
        self.nodes = 0
        self.stop = False
        self.max_nodes = max_nodes
        self.max_ms = max_ms
        self.start = self.clock()
        self.rng = rng
        self.noise = noise
        self.depth = 0
        killers = self.killers
        for i in range(len(killers)):
            killers[i] = 0
        hist = self.history
        if hist is not None:
            for i in range(4096):
                hist[i] >>= 2
        # The search pushes on lists of its own (see the module docstring).
        game_stack = pos.stack
        game_undo = pos._undo
        pos.stack = self.stack
        pos._undo = self.undo
        try:
            return self._root(max_depth)
        finally:
            pos.stack = game_stack
            pos._undo = game_undo

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
        key = self.keys.key(pos)
        best = buf[0]
        scores = self.root_scores
        self._order(buf, n, 0, self._tt_move(key))
        for depth in range(1, max_depth + 1):
            alpha = -INF
            found = -1
            for i in range(n):
                a = buf[i]
                k = self._make(a, key)
                # Gentle levels add noise to exact root scores: a full window.
                score = -self._search(depth - 1, 1, -INF, INF if self.noise else -alpha, k)
                pos.pop()
                if self.stop:
                    break
                if self.noise:
                    score += self.rng.below(self.noise + 1)
                scores[i] = score
                if score > alpha:
                    alpha = score
                    found = a
            if found >= 0:  # searched in full, even if the iteration was cut
                best = found
            if self.stop:
                break
            self.depth = depth
            self.score = alpha
            self._tt_store(key, depth, alpha, EXACT, best)
            if alpha >= MATE_BOUND or alpha <= -MATE_BOUND:
                break  # the game's end is in sight: deeper changes nothing
            _sort(buf, scores, n)  # the next depth looks at the best first
        return best

    # --- make and unmake ------------------------------------------------
    def _make(self, a, key):
        """Push a; return the new key. Counts the node, checks the bounds."""
        pos = self.pos
        keys = self.keys
        t = keys.touch(pos, a)
        pos.push(a)
        self._count()
        return key ^ t ^ keys.touch(pos, a)

    def _count(self):
        # One more node: poll(); stop at the budget; every 64 nodes, the clock.
        n = self.nodes + 1
        self.nodes = n
        if self.poll is not None:
            self.poll()
        if n >= self.max_nodes:
            self.stop = True
        if (not n & CHECK_EVERY and self.max_ms
                and ticks_diff(self.clock(), self.start) >= self.max_ms):
            self.stop = True

    def _over(self, ply):
        """The score of a game that has ended by itself (the engine's
        decided(): a Heart taken, the quiet count run out) for the side to
        act, or GOES_ON. Allocates nothing."""
        pos = self.pos
        w = pos.decided()
        if w == UNDECIDED:
            return GOES_ON
        if w == DRAW:
            return 0
        return WIN - ply if w == pos.side else -WIN + ply

    def _outcome(self, ply):
        o = self.pos.outcome()
        if o is None:
            return GOES_ON
        if o.winner is None:
            return 0
        return WIN - ply if o.winner == self.pos.side else -WIN + ply

    # --- the tree -------------------------------------------------------
    def _search(self, depth, ply, alpha, beta, key):
        if self.stop:
            return 0
        over = self._over(ply)
        if over != GOES_ON:
            return over
        if depth <= 0 or ply >= self.max_ply:
            return self._quiesce(ply, alpha, beta, 0)
        pos = self.pos
        tt_move = 0xFFFF
        e = self._tt_index(key)
        tt = self.tt
        if tt[e] | tt[e + 1] << 8 == key >> 14:
            tt_move = tt[e + 4] | (tt[e + 5] & 0x3F) << 8
            if tt[e + 6] >= depth:
                s = _score(tt, e, ply)
                flag = tt[e + 5] >> 6
                if flag == EXACT or (flag == LOWER and s >= beta) or (flag == UPPER and s <= alpha):
                    return s
        buf = self.bufs[ply]
        n = pos.legal_into(buf)
        if n == 0:
            return self._outcome(ply)  # no legal action
        self._order(buf, n, ply, tt_move)
        a0 = alpha
        best = -INF
        best_a = buf[0]
        for i in range(n):
            a = buf[i]
            k = self._make(a, key)
            score = -self._search(depth - 1, ply + 1, -beta, -alpha, k)
            pos.pop()
            if self.stop:
                return 0
            if score > best:
                best = score
                best_a = a
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if a < PLACE and not pos.pieces[a & 63]:
                            self._quiet_cutoff(a, ply, depth)
                        break
        self._tt_store(key, depth, best, UPPER if best <= a0 else LOWER if best >= beta else EXACT,
                       best_a, ply)
        return best

    def _quiesce(self, ply, alpha, beta, qd):
        """Captures only, after standing pat; but a side whose Heart is
        threatened looks at every action once (an evasion may not capture)."""
        if self.stop:
            return 0
        pos = self.pos
        ev = self.ev
        stand = ev.evaluate(pos)
        if stand >= WIN - 1:
            return WIN - ply - 1
        side = pos.side
        if ev.threats[side] and qd == 0 and ply < self.max_ply:
            return self._evade(ply, alpha, beta)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        buf = self.qbufs[ply] if ply < len(self.qbufs) else None
        if buf is None:
            return stand
        n = self._captures(buf)
        for i in range(n):
            self._pick(buf, i, n)
            a = buf[i]
            pos.push(a)
            self._count()
            over = self._over(ply + 1)
            if over != GOES_ON:
                score = -over
            else:
                score = -self._quiesce(ply + 1, -beta, -alpha, qd + 1)
            pos.pop()
            if self.stop:
                return 0
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
        return alpha

    def _evade(self, ply, alpha, beta):
        # Every action once, each answered by quiescence.
        pos = self.pos
        buf = self.bufs[ply]
        n = pos.legal_into(buf)
        if n == 0:
            return self._outcome(ply)
        self._order(buf, n, ply, 0xFFFF)
        best = -INF
        for i in range(n):
            a = buf[i]
            pos.push(a)
            self._count()
            over = self._over(ply + 1)
            if over != GOES_ON:
                score = -over
            else:
                score = -self._quiesce(ply + 1, -beta, -alpha, 1)
            pos.pop()
            if self.stop:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _captures(self, out):
        """The side to act's captures, by the engine's reach of each piece."""
        pos = self.pos
        pieces = pos.pieces
        side = pos.side
        scratch = self.scratch
        n = 0
        for c in range(64):
            p = pieces[c]
            if p and p >> 2 == side:
                m = reach(pos, c, scratch)
                for i in range(m):
                    a = scratch[i]
                    if pieces[a & 63]:
                        out[n] = a
                        n += 1
        return n

    # --- ordering -------------------------------------------------------
    def _pick(self, buf, i, n):
        """Bring the most valuable capture of buf[i:n] to i (victim first,
        then the cheaper taker)."""
        pieces = self.pos.pieces
        best = i
        best_v = -1
        for j in range(i, n):
            a = buf[j]
            v = VICTIM[pieces[a & 63] & 3] * 4 - (pieces[a >> 6] & 3)
            if v > best_v:
                best_v = v
                best = j
        if best != i:
            buf[i], buf[best] = buf[best], buf[i]

    def _order(self, buf, n, ply, tt_move):
        """In place: the table's action, captures by victim, actions that
        awaken, the killers, the best of history; then the rest as made."""
        pos = self.pos
        pieces = pos.pieces
        k = 0
        if tt_move != 0xFFFF:
            for i in range(n):
                if buf[i] == tt_move:
                    buf[i] = buf[0]
                    buf[0] = tt_move
                    k = 1
                    break
        first = k
        for i in range(k, n):
            a = buf[i]
            if a < PLACE and (pieces[a & 63] or pos.awakens(a)):
                buf[i] = buf[k]
                buf[k] = a
                k += 1
        for i in range(first, k):
            self._pick(buf, i, k)
        killers = self.killers
        for j in range(2 * ply, 2 * ply + 2):
            kl = killers[j]
            if kl:
                for i in range(k, n):
                    if buf[i] == kl:
                        buf[i] = buf[k]
                        buf[k] = kl
                        k += 1
                        break
        hist = self.history
        if hist is not None:
            for _ in range(3):  # a few best of history; the rest needs no order
                best = -1
                best_h = 0
                for i in range(k, n):
                    a = buf[i]
                    if a < PLACE and hist[a] > best_h:
                        best_h = hist[a]
                        best = i
                if best < 0:
                    break
                a = buf[best]
                buf[best] = buf[k]
                buf[k] = a
                k += 1

    def _quiet_cutoff(self, a, ply, depth):
        killers = self.killers
        j = 2 * ply
        if killers[j] != a:
            killers[j + 1] = killers[j]
            killers[j] = a
        hist = self.history
        if hist is not None:
            hist[a] = min(255, hist[a] + depth * depth)

    # --- the transposition table -----------------------------------------
    # Entry of 8 bytes: key check (16 bits: the key's top), action (14 bits)
    # with the bound (2 bits), depth, score + 32768 (16 bits, at bytes 2-3).
    def _tt_index(self, key):
        return (key & self.tt_mask) << 3

    def _tt_move(self, key):
        tt = self.tt
        e = self._tt_index(key)
        if tt[e] | tt[e + 1] << 8 == key >> 14:
            return tt[e + 4] | (tt[e + 5] & 0x3F) << 8
        return 0xFFFF

    def _tt_store(self, key, depth, score, flag, action, ply=0):
        tt = self.tt
        e = self._tt_index(key)
        check = key >> 14
        if tt[e] | tt[e + 1] << 8 != check and tt[e + 6] > depth:
            return  # keep the deeper entry of another position
        # Won and lost scores are stored from this node, not from the root.
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        s = score + 32768
        tt[e] = check & 255
        tt[e + 1] = check >> 8
        tt[e + 2] = s & 255
        tt[e + 3] = s >> 8
        tt[e + 4] = action & 255
        tt[e + 5] = (action >> 8) | flag << 6
        tt[e + 6] = depth


def _sort(buf, scores, n):
    """Insertion sort of buf[:n] by scores, best first; stable."""
    for i in range(1, n):
        a = buf[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            buf[j + 1] = buf[j]
            scores[j + 1] = scores[j]
            j -= 1
        buf[j + 1] = a
        scores[j + 1] = s


def _score(tt, e, ply):
    s = (tt[e + 2] | tt[e + 3] << 8) - 32768
    if s >= MATE_BOUND:
        return s - ply
    if s <= -MATE_BOUND:
        return s + ply
    return s

