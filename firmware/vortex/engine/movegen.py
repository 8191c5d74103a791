"""Legal action generation: which actions a position allows.

These functions take the Position as their first argument; Position binds
them as methods. They live apart from it so that MicroPython compiles each
module within a small heap.
"""
from array import array

from ..native import micropython, ptr8, ptr16
from .defs import (WATER, FIRE, EARTH, AIR, AWAKENED, HEART, PLACE, SWAP, VORTEX,
                   ACTION_END, const)
from .tables import OFF, STEP, JUMP, SWAPS, BLOCKS

# Upper bound of legal actions in one position: 9 pieces with at most 36
# destinations each, 112 swaps and 98 Vortexes (battle); 256 placements.
MAX_ACTIONS = const(544)
MAX_DESTINATIONS = const(36)


def new_buffer(size=MAX_ACTIONS):
    """A reusable action buffer for legal_into() and destinations(): `size`
    16-bit entries. Filled from a range, not from bytes(2 * size), so that no
    second block of that size is needed for a moment (a fragmented heap may
    not have two)."""
    return array("H", range(size))


def legal_into(pos, buf):
    """Write every legal action into buf (see new_buffer); return the count.
    A finished game has none."""
    if pos.is_over():
        return 0
    if pos.filled < 64:
        return _placements(pos.tiles, pos.pool, buf)
    tiles = pos.tiles
    side = pos.side
    n = _pieces_moves(pos.pieces, tiles, side, buf)
    return _tile_actions(tiles, pos.ban, pos.vortexes[side], buf, n)


def has_legal(pos):
    """Has the side to act any legal action? Answers without listing them
    all (outcome() asks after every action: no 1 KB buffer for it)."""
    if pos.is_over():
        return False
    if pos.filled < 64:
        return True  # 64 - filled bare cells and as many tiles in the pool
    tiles = pos.tiles
    ban = pos.ban
    for code in SWAPS:
        a = code >> 1
        if tiles[a] != tiles[a + 8 if code & 1 else a + 1] and code != ban:
            return True
    side = pos.side
    if pos.vortexes[side]:
        for c in BLOCKS:
            t = tiles[c]
            if t != tiles[c + 1] or t != tiles[c + 8] or t != tiles[c + 9]:
                return True
    pieces = pos.pieces
    for c in range(64):
        p = pieces[c]
        if p and p >> 2 == side and _moves(pieces, tiles, c, pos._scratch, 0):
            return True
    return False


def destinations(pos, cell, buf):
    """Write the legal moves of the piece on `cell` into buf (at least
    MAX_DESTINATIONS long); return the count. 0 if it may not move now."""
    p = pos.pieces[cell]
    if not p or p >> 2 != pos.side or pos.filled < 64 or pos.is_over():
        return 0
    return _moves(pos.pieces, pos.tiles, cell, buf, 0)


# The hot loops, compiled to machine code by MicroPython (see vortex.native);
# plain Python on CPython. They take the position's arrays, not the position:
# a viper function reads no attributes cheaply.

@micropython.viper
def _placements(tiles, pool, buf) -> int:
    # Every terrain left in the pool on every bare cell.
    tl = ptr8(tiles)
    left = ptr8(pool)
    out = ptr16(buf)
    place = int(PLACE)
    n = 0
    for t in range(1, 5):
        if left[t]:
            base = place + ((t - 1) << 6)
            for c in range(64):
                if not tl[c]:
                    out[n] = base + c
                    n += 1
    return n


@micropython.viper
def _pieces_moves(pieces, tiles, side: int, buf) -> int:
    # The moves of every piece of `side`, from index 0; return the count.
    pc = ptr8(pieces)
    n = 0
    for c in range(64):
        p = pc[c]
        if p and (p >> 2) == side:
            n = int(_moves(pieces, tiles, c, buf, n))
    return n


@micropython.viper
def _moves(pieces, tiles, s: int, buf, n: int) -> int:
    # Write the moves of the piece on cell s into buf from index n; return
    # the new count. The piece moves by the terrain under it; an Awakened
    # one by all four. A move may end on an empty cell or on an enemy that
    # is not protected: Travellers and Awakened on Earth are, a Heart never.
    pc = ptr8(pieces)
    tl = ptr8(tiles)
    out = ptr16(buf)
    step = ptr8(STEP)
    jump = ptr8(JUMP)
    off = int(OFF)
    earth = int(EARTH)
    heart = int(HEART)
    p = pc[s]
    side = p >> 2
    base = s << 6
    s8 = s << 3
    terrain = tl[s]
    if (p & 3) == int(AWAKENED):
        terrain = 0
    water = terrain == int(WATER)
    fire = terrain == int(FIRE)
    first = 4 if fire else 0
    last = 4 if water else 8
    for d in range(first, last):
        i = s8 + d
        slide = off  # where a slide along d goes on from, if it does
        if water:
            slide = step[i]
        elif fire:
            # A diagonal step; on into the next cell only over an empty one.
            t = step[i]
            if t == off:
                continue
            q = pc[t]
            if q:
                if (q >> 2) != side and ((q & 3) == heart or tl[t] != earth):
                    out[n] = base + t
                    n += 1
                continue
            out[n] = base + t
            n += 1
            t = jump[i]
            if t == off:
                continue
            q = pc[t]
            if not q or ((q >> 2) != side and ((q & 3) == heart or tl[t] != earth)):
                out[n] = base + t
                n += 1
        else:
            # Earth steps once in 8 directions, Air leaps exactly twice over
            # anything; the Awakened do both, then slide on (Water) where
            # both cells are empty. Fire's and Water's first two steps are
            # covered by these, so no destination is listed twice.
            t = jump[i] if terrain == int(AIR) else step[i]
            if t != off:
                q = pc[t]
                if not q or ((q >> 2) != side and ((q & 3) == heart or tl[t] != earth)):
                    out[n] = base + t
                    n += 1
            if terrain == 0:
                t = jump[i]
                if t != off:
                    q = pc[t]
                    if not q or ((q >> 2) != side and ((q & 3) == heart or tl[t] != earth)):
                        out[n] = base + t
                        n += 1
                    if d < 4 and not q and not pc[step[i]]:
                        slide = step[(t << 3) + d]
        # Water: on along d through empty cells; it may end on the first
        # piece only by taking it.
        t = slide
        while t != off:
            q = pc[t]
            if q:
                if (q >> 2) != side and ((q & 3) == heart or tl[t] != earth):
                    out[n] = base + t
                    n += 1
                break
            out[n] = base + t
            n += 1
            t = step[(t << 3) + d]
    return n


@micropython.viper
def _tile_actions(tiles, ban: int, vortexes: int, buf, n: int) -> int:
    # The swaps of two different tiles (but the banned one), then, if the
    # side has a Vortex left, both turns of every block of mixed terrain.
    tl = ptr8(tiles)
    out = ptr16(buf)
    swaps = ptr8(SWAPS)
    blocks = ptr8(BLOCKS)
    swap = int(SWAP)
    vortex = int(VORTEX)
    for k in range(int(len(SWAPS))):
        code = swaps[k]
        a = code >> 1
        b = a + 1
        if code & 1:
            b = a + 8
        if tl[a] != tl[b] and code != ban:
            out[n] = swap + code
            n += 1
    if vortexes:
        for k in range(int(len(BLOCKS))):
            c = blocks[k]
            t = tl[c]
            if t != tl[c + 1] or t != tl[c + 8] or t != tl[c + 9]:
                out[n] = vortex + 2 * c
                out[n + 1] = vortex + 2 * c + 1
                n += 2
    return n


def why_illegal(pos, a):
    """'' if action a is legal here, else a short reason."""
    if not 0 <= a < ACTION_END:
        return "not an action"
    if pos.is_over():
        return "the game is over"
    tiles = pos.tiles
    building = pos.filled < 64
    if a >= PLACE and a < SWAP:
        if not building:
            return "the board is built"
        if tiles[a & 63]:
            return "the cell has a tile"
        if not pos.pool[((a - PLACE) >> 6) + 1]:
            return "none of that terrain is left"
        return ""
    if building:
        return "the building phase allows only placements"
    if a < PLACE:
        f = a >> 6
        p = pos.pieces[f]
        if not p:
            return "no piece there"
        if p >> 2 != pos.side:
            return "not your piece"
        buf = pos._scratch
        for i in range(_moves(pos.pieces, tiles, f, buf, 0)):
            if buf[i] == a:
                return ""
        return "the piece cannot move there"
    if a < VORTEX:
        code = a - SWAP
        if code not in SWAPS:
            return "not two neighbouring cells"
        c = code >> 1
        if tiles[c] == tiles[c + 8 if code & 1 else c + 1]:
            return "the tiles have the same terrain"
        if code == pos.ban:
            return "it undoes the swap just played"
        return ""
    c = (a - VORTEX) >> 1
    if c not in BLOCKS:
        return "not a 2x2 block on the board"
    if not pos.vortexes[pos.side]:
        return "no Vortex left"
    t = tiles[c]
    if t == tiles[c + 1] and t == tiles[c + 8] and t == tiles[c + 9]:
        return "the four tiles have one terrain"
    return ""

# --- push and pop -------------------------------------------------------
