"""xorshift32 on 30 bits: the same sequence on CPython and MicroPython, no
`random`, and every value a small int on the RP2040 (31-bit small ints)."""

MASK = 0x3FFFFFFF
_LOW17 = 0x1FFFF      # the bits that stay under 2**30 once shifted by 13
_LOW25 = 0x1FFFFFF    # ... by 5


class Rng:
    def __init__(self, seed=1):
        self.state = (seed & MASK) or 1

    def next(self):
        """The next value, 1 .. 2**30 - 1."""
        x = self.state
        # (x << 13) & MASK, without the long int x << 13 would be on the
        # RP2040 (a heap allocation per call): mask first, then shift.
        x ^= (x & _LOW17) << 13
        x ^= x >> 17
        x ^= (x & _LOW25) << 5
        self.state = x or 1
        return self.state

    def below(self, n):
        """A value in 0 .. n-1."""
        return self.next() % n
