"""What the search keeps up to date action by action instead of recounting
the board at every node: the Zobrist key of the position's cells
(vortex.ai.zobrist) and each side's sum of the evaluation's per-piece
weights (vortex.ai.evaluate.WEIGHTS).

They live in one array('I'), `st`: the weights at [0:WEIGHTS_SIZE], then a
triple per ply at i = STATE + 3 * ply: [i] the cells' key, [i + 1] Light's
sum, [i + 2] Dark's. A child's triple is its parent's with the cells an
action touches taken out before the engine plays it and put back after,
so the engine alone decides what the action did (a capture, an awakening):

    touch(a, i, 0, pos.pieces, pos.tiles, z, st)   # triple i + 3 = i less a's cells
    undo = make(pos, a)                            # vortex.engine.play
    touch(a, i, 1, pos.pieces, pos.tiles, z, st)   # ... plus a's cells as they are now

One call each way: machine code on the board (a call costs about as much
as the work), plain Python on CPython, the same numbers on both.
"""
from array import array

from vortex.native import micropython, ptr8, ptr32
from vortex.engine.defs import const
from vortex.ai.evaluate import WEIGHTS_SIZE, weights, sums

STATE = WEIGHTS_SIZE

# The numbers of defs (action codes), zobrist (its layout) and evaluate
# (WEIGHTS' layout) as this module's const(), for the machine code;
# tests/test_ai_track.py checks them against theirs.
_PLACE = const(4096)
_SWAP = const(4352)
_VORTEX = const(4480)
_TILE_KEYS = const(512)
_RANKS = const(40)
# The engine's code fields (vortex.engine.defs), as literals in this
# module's code (tests/test_ai_native.py checks they are the engine's).
_FROM_SHIFT = const(6)
_TO_MASK = const(63)
_SIDE_SHIFT = const(2)
_RANK_SHIFT = const(3)


def new_state(plies):
    """The array for `plies` plies, the weights filled in."""
    st = array("I", range(STATE + 3 * (plies + 1)))  # no same-sized temporary (see new_buffer)
    weights(st)
    return st


def start(pos, keys, st, i):
    """Triple i from scratch: the key of pos's cells and each side's sum."""
    k = 0
    for c in range(64):
        k ^= keys.cell(pos, c)
    st[i] = k
    sums(pos, st, st, i)


@micropython.viper
def touch(a: int, i: int, add: int, pieces, tiles, z, st):
    # add 0: triple i + 3 = triple i less action a's cells; add 1: triple
    # i + 3 plus them. The cells, as defs.action_cells lists them.
    pc = ptr8(pieces)
    tl = ptr8(tiles)
    zk = ptr32(z)
    s = ptr32(st)
    j = i + 3
    if not add:
        s[j] = s[i]
        s[j + 1] = s[i + 1]
        s[j + 2] = s[i + 2]
    k = 2
    if a < _PLACE:
        c0 = a >> _FROM_SHIFT
        c1 = a & _TO_MASK
    elif a < _SWAP:
        c0 = a & _TO_MASK
        c1 = c0
        k = 1
    elif a < _VORTEX:
        c0 = (a - _SWAP) >> 1
        c1 = c0 + 1
        if a & 1:
            c1 = c0 + 8
    else:
        c0 = (a - _VORTEX) >> 1
        c1 = c0 + 1
        k = 4
    key = s[j]
    n = 0
    while n < k:
        c = c0
        if n == 1:
            c = c1
        elif n == 2:
            c = c0 + 8
        elif n == 3:
            c = c0 + 9
        p = pc[c]
        t = tl[c]
        key ^= zk[(p << 6) | c] ^ zk[_TILE_KEYS + (t << 6) + c]
        if p:
            w = s[p * 5 + t] + s[_RANKS + (p << 3) + (c >> _RANK_SHIFT)]
            side = j + 1 + (p >> _SIDE_SHIFT)
            if add:
                s[side] = s[side] + w
            else:
                s[side] = s[side] - w
        n += 1
    s[j] = key
