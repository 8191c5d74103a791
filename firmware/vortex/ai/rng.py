"""xorshift32 on 30 bits: the same sequence on CPython and MicroPython, no
`random`, and every value a small int on the RP2040 (31-bit small ints)."""

MASK = 0x3FFFFFFF


class Rng:
    def __init__(self, seed=1):
        self.state = (seed & MASK) or 1

    def next(self):
        """The next value, 1 .. 2**30 - 1."""
        x = self.state
        x ^= (x << 13) & MASK
        x ^= x >> 17
        x ^= (x << 5) & MASK
        self.state = x or 1
        return self.state

    def below(self, n):
        """A value in 0 .. n-1."""
        return self.next() % n
