"""A small opponent: take the Heart if it can, else the best capture or
awakening, else a random action. Deterministic for a given seed."""
from vortex.engine.defs import PLACE, HEART
from vortex.engine.position import new_buffer


class Rng:
    """xorshift32: the same sequence on CPython and MicroPython, no `random`."""

    def __init__(self, seed=1):
        self.state = (seed & 0x3FFFFFFF) or 1

    def below(self, n):
        x = self.state
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        self.state = x or 1
        return x % n


class Ai:
    def __init__(self, seed=1):
        self.rng = Rng(seed)
        self._buf = new_buffer()

    def choose(self, pos):
        """An action for the side to act, or -1 if it has none."""
        buf = self._buf
        n = pos.legal_into(buf)
        if not n:
            return -1
        best = -1
        best_score = 0
        pieces = pos.pieces
        for i in range(n):
            a = buf[i]
            if a >= PLACE:
                continue
            score = 0
            taken = pieces[a & 63]
            if taken:
                score = 1000 if (taken & 3) == HEART else 10
            if pos.awakens(a):
                score += 5
            if score > best_score:
                best, best_score = a, score
        return best if best >= 0 else buf[self.rng.below(n)]
