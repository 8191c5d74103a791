"""Move ordering for the search, in place in an action buffer: machine code
on the board (one call per node that lists actions), plain Python on
CPython, the same order on both.

    k = order(buf, n, pieces, tt, far, killer1, killer2)
    n = captures(buf, piece_moves(0, side, 0, 64, pieces, tiles, buf), pieces)
    k = history(buf, k, n, table)
    sort_by(buf, keys, n)                 # the root, by its last scores

A capture's worth: VICTIM of the piece taken (the Heart first), then the
cheaper taker; an action that awakens (a Traveller's move onto `far`, the
enemy back rank: defs.back_rank) counts as a capture of nothing.
"""
from vortex.native import micropython, ptr8, ptr16
from vortex.engine.defs import const

VICTIM = b"\x00\x01\x03\x09"  # ordering weight of a taken piece by kind
NONE = const(0xFFFF)          # no table action, no killer

# defs' numbers as this module's const() for the machine code (checked
# against defs by tests/test_ai_track.py).
_PLACE = const(4096)
_TRAVELLER = const(1)
# The engine's code fields (vortex.engine.defs), as literals in this
# module's code (tests/test_ai_native.py checks they are the engine's).
_FROM_SHIFT = const(6)
_TO_MASK = const(63)
_KIND_MASK = const(3)
_RANK_SHIFT = const(3)


@micropython.viper
def _sort(buf, first: int, end: int, pieces):
    # Selection sort of buf[first:end] by worth, best first (the first of
    # equals): what picking the best capture at each step did.
    out = ptr16(buf)
    pc = ptr8(pieces)
    victim = ptr8(VICTIM)
    i = first
    while i < end:
        best = i
        best_v = -1
        j = i
        while j < end:
            a = out[j]
            v = ((int(victim[pc[a & _TO_MASK] & _KIND_MASK]) << 2)
                 - (pc[a >> _FROM_SHIFT] & _KIND_MASK))
            if v > best_v:
                best_v = v
                best = j
            j += 1
        if best != i:
            a = out[i]
            out[i] = out[best]
            out[best] = a
        i += 1


@micropython.viper
def order(buf, n: int, tt: int, pieces, far: int, k1: int, k2: int) -> int:
    """buf[:n] in place: the table's action tt, the captures and awakenings
    by worth, then the killers k1 and k2 (NONE or 0: none); the rest as
    they were. Returns how many lead (history() may order more after)."""
    out = ptr16(buf)
    pc = ptr8(pieces)
    k = 0
    if tt != NONE:
        i = 0
        while i < n:
            if out[i] == tt:
                out[i] = out[0]
                out[0] = tt
                k = 1
                break
            i += 1
    first = k
    i = k
    while i < n:
        a = out[i]
        if a < _PLACE:
            p = pc[a >> _FROM_SHIFT]
            if pc[a & _TO_MASK] or ((p & _KIND_MASK) == _TRAVELLER and
                                    ((a & _TO_MASK) >> _RANK_SHIFT) == far):
                out[i] = out[k]
                out[k] = a
                k += 1
        i += 1
    if k - first > 1:  # a call costs more than the sort of a few
        _sort(buf, first, k, pieces)
    kl = k1
    m = 0
    while m < 2:
        if kl and kl != NONE:
            i = k
            while i < n:
                if out[i] == kl:
                    out[i] = out[k]
                    out[k] = kl
                    k += 1
                    break
                i += 1
        kl = k2
        m += 1
    return k


@micropython.viper
def captures(buf, n: int, pieces) -> int:
    """Keep the moves of buf[:n] that take a piece, best first; return how
    many."""
    out = ptr16(buf)
    pc = ptr8(pieces)
    m = 0
    i = 0
    while i < n:
        a = out[i]
        if pc[a & _TO_MASK]:
            out[m] = a
            m += 1
        i += 1
    if m > 1:
        _sort(buf, 0, m, pieces)
    return m


@micropython.viper
def history(buf, k: int, n: int, table) -> int:
    """Bring the three moves of buf[k:n] with the most history (table: a
    bytearray by action code, > 0) to k, best first; return the new k."""
    out = ptr16(buf)
    h = ptr8(table)
    r = 0
    while r < 3:
        best = -1
        best_h = 0
        i = k
        while i < n:
            a = out[i]
            if a < _PLACE and int(h[a]) > best_h:
                best_h = h[a]
                best = i
            i += 1
        if best < 0:
            break
        a = out[best]
        out[best] = out[k]
        out[k] = a
        k += 1
        r += 1
    return k


@micropython.viper
def sort_by(buf, keys, n: int):
    """Insertion sort of buf[:n] by keys[:n] (an array('H'), moved along),
    highest first; equals keep their order."""
    out = ptr16(buf)
    kv = ptr16(keys)
    i = 1
    while i < n:
        a = out[i]
        s = kv[i]
        j = i - 1
        while j >= 0 and kv[j] < s:
            out[j + 1] = out[j]
            kv[j + 1] = kv[j]
            j -= 1
        out[j + 1] = a
        kv[j + 1] = s
        i += 1


@micropython.viper
def decay(table):
    """Quarter every entry of a history table (4096 bytes): old cut-offs
    count less in the next search."""
    h = ptr8(table)
    i = 0
    while i < 4096:
        h[i] = h[i] >> 2
        i += 1
