"""Legal action generation: which actions a position allows.

These functions take the Position as their first argument; Position binds
them as methods. They live apart from it so that MicroPython compiles each
module within a small heap.
"""
from array import array

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


def _lands(pieces, tiles, t, side):
    """May a piece of `side` end a move on cell t? Empty, or an enemy that is
    not protected: Travellers and Awakened on Earth are, the Heart never."""
    q = pieces[t]
    return not q or (q >> 2 != side and ((q & 3) == HEART or tiles[t] != EARTH))


def legal_into(pos, buf):
    """Write every legal action into buf (see new_buffer); return the count.
    A finished game has none."""
    if pos.is_over():
        return 0
    tiles = pos.tiles
    n = 0
    if pos.filled < 64:
        pool = pos.pool
        for t in range(1, 5):
            if pool[t]:
                base = PLACE + ((t - 1) << 6)
                for c in range(64):
                    if not tiles[c]:
                        buf[n] = base + c
                        n += 1
        return n
    pieces = pos.pieces
    side = pos.side
    for c in range(64):
        p = pieces[c]
        if p and p >> 2 == side:
            n = _moves_from(pos, c, buf, n)
    ban = pos.ban
    for code in SWAPS:
        a = code >> 1
        if tiles[a] != tiles[a + 8 if code & 1 else a + 1] and code != ban:
            buf[n] = SWAP + code
            n += 1
    if pos.vortexes[side]:
        for c in BLOCKS:
            t = tiles[c]
            if t != tiles[c + 1] or t != tiles[c + 8] or t != tiles[c + 9]:
                buf[n] = VORTEX + 2 * c
                buf[n + 1] = VORTEX + 2 * c + 1
                n += 2
    return n

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
        if p and p >> 2 == side and _moves_from(pos, c, pos._scratch, 0):
            return True
    return False


def destinations(pos, cell, buf):
    """Write the legal moves of the piece on `cell` into buf (at least
    MAX_DESTINATIONS long); return the count. 0 if it may not move now."""
    p = pos.pieces[cell]
    if not p or p >> 2 != pos.side or pos.filled < 64 or pos.is_over():
        return 0
    return _moves_from(pos, cell, buf, 0)


def reach(pos, cell, buf):
    """Write the moves the piece on `cell` would have if its side were to
    act (whoever acts now) into buf (at least MAX_DESTINATIONS long); return
    the count. What the AI's evaluation asks of either side's pieces: which
    cells they threaten, how mobile they are."""
    if not pos.pieces[cell] or pos.filled < 64:
        return 0
    return _moves_from(pos, cell, buf, 0)

def _moves_from(pos, s, buf, n):
    # The piece moves by the terrain under it; an Awakened one by all four.
    pieces = pos.pieces
    tiles = pos.tiles
    p = pieces[s]
    side = p >> 2
    base = s << 6
    s8 = s << 3
    terrain = 0 if (p & 3) == AWAKENED else tiles[s]
    if terrain == WATER:
        for d in range(4):
            n = _slide(pos, s8 + d, d, base, side, buf, n)
    elif terrain == FIRE:
        for d in range(4, 8):
            t = STEP[s8 + d]
            if t == OFF:
                continue
            if not pieces[t]:
                buf[n] = base + t
                n += 1
                t = JUMP[s8 + d]
                if t != OFF and _lands(pieces, tiles, t, side):
                    buf[n] = base + t
                    n += 1
            elif _lands(pieces, tiles, t, side):
                buf[n] = base + t
                n += 1
    elif terrain == EARTH or terrain == AIR or terrain == 0:
        # Earth steps once in 8 directions, Air leaps exactly twice over
        # anything; the Awakened do both, then slide on (Water) where
        # both cells are empty. Fire's and Water's first two steps are
        # covered by these, so no destination is listed twice.
        table = JUMP if terrain == AIR else STEP
        for d in range(8):
            t = table[s8 + d]
            if t != OFF and _lands(pieces, tiles, t, side):
                buf[n] = base + t
                n += 1
            if terrain == 0:
                t = JUMP[s8 + d]
                if t != OFF and _lands(pieces, tiles, t, side):
                    buf[n] = base + t
                    n += 1
                if d < 4 and t != OFF and not pieces[t] and not pieces[STEP[s8 + d]]:
                    n = _slide(pos, (t << 3) + d, d, base, side, buf, n)
    return n

def _slide(pos, i, d, base, side, buf, n):
    # Water: from STEP[i] on along direction d through empty cells; it may
    # end on the first piece only by taking it.
    pieces = pos.pieces
    t = STEP[i]
    while t != OFF:
        if pieces[t]:
            if _lands(pieces, pos.tiles, t, side):
                buf[n] = base + t
                n += 1
            return n
        buf[n] = base + t
        n += 1
        t = STEP[(t << 3) + d]
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
        for i in range(_moves_from(pos, f, buf, 0)):
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
