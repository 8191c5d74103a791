"""Per-cell symmetric deferred debounce (QMK's sym_defer_pk, in Python).

A cell's debounced state follows its raw state only once the raw state has
differed from it, without interruption, for `ms` milliseconds; a raw state
that returns to the debounced one cancels the count. Reed bounce is under
1 ms, so the default 5 ms hides it at the cost of 5 ms of latency.

    d = Debouncer(n=64, ms=5)
    if d.update(raw, time.ticks_ms()):   # raw: bytearray(64) of 0/1
        ...                              # d.state changed

Each cell has an 8-bit count of milliseconds left (0 = not counting); one
elapsed time per update, computed with ticks_diff so that the ticks_ms
wrap-around is harmless. update() allocates nothing, and its loop over the
cells is a viper function (machine code: see vortex/native.py), as it runs
on every scan while a cell settles.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from ..native import micropython, ptr8
from ..ticks import ticks_diff

DEBOUNCE_MS = const(5)


class Debouncer:
    """Debouncer(n=64, ms=5): `.state` is the debounced bytearray(n)."""

    def __init__(self, n=64, ms=DEBOUNCE_MS):
        if not 0 <= ms <= 255:
            raise ValueError("ms must be 0-255")
        self.n = n
        self.ms = ms
        self.state = bytearray(n)
        self._left = bytearray(n)  # ms left before a cell may change
        self._busy = 0             # cells counting down
        self._last = 0             # time of the previous update

    @micropython.native  # on the RP2040 the idle update takes 38 us instead of 100
    def update(self, raw, now_ms):
        """Feed one raw scan taken at now_ms; True if .state changed."""
        if self._busy:
            el = ticks_diff(now_ms, self._last)
            if el < 0:
                el = 0
            elif el > 255:
                el = 255
        else:
            # Nothing counting: the usual case, a cheap no-change exit.
            if raw == self.state:
                self._last = now_ms
                return False
            el = 0
        self._last = now_ms
        if len(raw) < self.n:  # viper reads it without bounds checks
            raise ValueError("a scan of %d cells is needed" % self.n)
        counted = _count(raw, self.state, self._left, self.n, self.ms, el)
        self._busy = counted >> 1
        return bool(counted & 1)

    def reset(self, state=None):
        """Forget the counts; set .state to `state` (or all zero)."""
        for i in range(self.n):
            self._left[i] = 0
            self.state[i] = state[i] if state is not None else 0
        self._busy = 0


@micropython.viper
def _count(raw, state, left, n: int, ms: int, el: int) -> int:
    # One update of n cells, el ms after the previous one: returns the
    # number of cells still counting times 2, plus 1 if a state changed.
    r = ptr8(raw)
    st = ptr8(state)
    lf = ptr8(left)
    busy = 0
    changed = 0
    for i in range(n):
        v = r[i]
        if v == st[i]:
            lf[i] = 0              # back to the debounced state: cancel
            continue
        c = lf[i]
        if c == 0:
            if ms == 0:
                st[i] = v
                changed = 1
            else:
                lf[i] = ms         # a new difference: start counting
                busy += 1
        elif c <= el:
            st[i] = v              # stable long enough
            lf[i] = 0
            changed = 1
        else:
            lf[i] = c - el
            busy += 1
    return busy << 1 | changed
