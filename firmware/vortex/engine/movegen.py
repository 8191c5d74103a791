"""Legal action generation: which actions a position allows.

These functions take the Position as their first argument; Position binds
them as methods. They live apart from it so that MicroPython compiles each
module within a small heap.
"""
from array import array

from ..native import micropython, ptr8, ptr16
from .defs import PLACE, SWAP, VORTEX, ACTION_END, const
from .tables import STEP, JUMP, SWAPS, BLOCKS

# defs' and tables' numbers as this module's own const(), for the machine
# code: MicroPython writes a module's const() names into its code as
# literals, but an imported name is a dict look-up at every use (they were
# most of the cost of a call for one piece on the RP2040).
# tests/test_engine_native.py checks that they equal defs' and tables'.
_OFF = const(255)
_WATER = const(1)
_FIRE = const(2)
_EARTH = const(3)
_AIR = const(4)
_AWAKENED = const(2)
_HEART = const(3)
_PLACE = const(4096)
_SWAP = const(4352)
_VORTEX = const(4480)

# Upper bound of legal actions in one position: 9 pieces with at most 36
# destinations each, 112 swaps and 98 Vortexes (battle); 256 placements.
MAX_ACTIONS = const(544)
MAX_DESTINATIONS = const(36)
# Viper code writes without bounds checks: before writing a piece's moves,
# the swaps and turns, or the placements, it makes sure that the buffer has
# room for as many as there can be, and raises this instead of writing past
# its end.
_FULL = const("action buffer too short (new_buffer)")
_TILE_ACTIONS = len(SWAPS) + 2 * len(BLOCKS)  # at most: every swap, both turns of every block


def new_buffer(size=MAX_ACTIONS):
    """A reusable action buffer for legal_into() and destinations(): `size`
    16-bit entries. Filled from a range, not from bytes(2 * size), so that no
    second block of that size is needed for a moment (a fragmented heap may
    not have two)."""
    return array("H", range(size))


def legal_into(pos, buf):
    """Write every legal action into buf (see new_buffer); return the count.
    A finished game has none.

        >>> from vortex.engine import Position
        >>> legal_into(Position(), new_buffer())
        256
    """
    if pos.is_over():
        return 0
    if pos.filled < 64:
        return _placements(pos.tiles, pos.pool, buf)
    tiles = pos.tiles
    side = pos.side
    n = _moves(0, side, 0, 64, pos.pieces, tiles, buf)
    return _tile_actions(n, pos.ban, pos.vortexes[side], tiles, buf)


def has_legal(pos):
    """Has the side to act any legal action? Answers without listing them
    all (outcome() asks after every action: no 1 KB buffer for it)."""
    if pos.is_over():
        return False
    if pos.filled < 64:
        return True  # 64 - filled bare cells and as many tiles in the pool
    # No need to look at the Vortexes: a 2x2 block of mixed terrain has two
    # differing pairs of neighbours (its sides make a ring), of which the ban
    # forbids one swap at most; so a swap is legal wherever a turn is. (In
    # play, 16 tiles of each terrain always leave a swap: the pieces are
    # asked only on boards of one terrain, written by hand.)
    tiles = pos.tiles
    ban = pos.ban
    for code in SWAPS:
        a = code >> 1
        if tiles[a] != tiles[a + 8 if code & 1 else a + 1] and code != ban:
            return True
    side = pos.side
    pieces = pos.pieces
    for c in range(64):
        p = pieces[c]
        if p and p >> 2 == side and _moves(0, side, c, c + 1, pieces, tiles, pos._scratch):
            return True
    return False


def destinations(pos, cell, buf):
    """Write the legal moves of the piece on `cell` into buf (at least
    MAX_DESTINATIONS long); return the count. 0 if it may not move now."""
    p = pos.pieces[cell]
    if not p or p >> 2 != pos.side or pos.filled < 64 or pos.is_over():
        return 0
    return _moves(0, p >> 2, cell, cell + 1, pos.pieces, pos.tiles, buf)


def reach(pos, cell, buf):
    """Write the moves the piece on `cell` would have if its side were to
    act (whoever acts now) into buf (at least MAX_DESTINATIONS long); return
    the count. What the AI's evaluation asks of either side's pieces: which
    cells they threaten, how mobile they are."""
    p = pos.pieces[cell]
    if not p or pos.filled < 64:
        return 0
    return _moves(0, p >> 2, cell, cell + 1, pos.pieces, pos.tiles, buf)


# The hot loops, compiled to machine code by MicroPython (see vortex.native);
# plain Python on CPython. They take the position's arrays, not the position
# (a viper function reads no attributes cheaply), hot ints first (viper code
# for the RP2040 keeps its first three locals, the arguments first, in
# registers).

@micropython.viper
def _placements(tiles, pool, buf) -> int:
    # Every terrain left in the pool on every bare cell.
    tl = ptr8(tiles)
    left = ptr8(pool)
    out = ptr16(buf)
    if int(len(buf)) < 256:
        raise IndexError(_FULL)
    place = _PLACE
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
def _moves(n: int, side: int, first: int, end: int, pieces, tiles, buf) -> int:
    # Write the moves of side's pieces on cells first..end-1 into buf from
    # index n; return the new count. (One call for the whole board: a call
    # into viper code costs as much as a piece's moves.) A piece moves by
    # the terrain under it; an Awakened one by all four. A move may end on
    # an empty cell or on an enemy that is not protected: Travellers and
    # Awakened on Earth are, a Heart never.
    pc = ptr8(pieces)
    tl = ptr8(tiles)
    out = ptr16(buf)
    step = ptr8(STEP)
    jump = ptr8(JUMP)
    room = int(len(buf)) - MAX_DESTINATIONS
    for s in range(first, end):
        p = pc[s]
        if not p or (p >> 2) != side:
            continue
        if n > room:
            raise IndexError(_FULL)
        base = s << 6
        s8 = s << 3
        terrain = tl[s]
        if (p & 3) == _AWAKENED:
            terrain = 0
        on_water = terrain == _WATER
        on_fire = terrain == _FIRE
        for d in range(4 if on_fire else 0, 4 if on_water else 8):
            i = s8 + d
            slide = _OFF  # where a slide along d goes on from, if it does
            if on_water:
                slide = step[i]
            elif on_fire:
                # A diagonal step; on into the next cell only over an empty one.
                t = step[i]
                if t == _OFF:
                    continue
                q = pc[t]
                if q:
                    if (q >> 2) != side and ((q & 3) == _HEART or tl[t] != _EARTH):
                        out[n] = base + t
                        n += 1
                    continue
                out[n] = base + t
                n += 1
                t = jump[i]
                if t == _OFF:
                    continue
                q = pc[t]
                if not q or ((q >> 2) != side and ((q & 3) == _HEART or tl[t] != _EARTH)):
                    out[n] = base + t
                    n += 1
            else:
                # Earth steps once in 8 directions, Air leaps exactly twice over
                # anything; the Awakened do both, then slide on (Water) where
                # both cells are empty. Fire's and Water's first two steps are
                # covered by these, so no destination is listed twice.
                t = jump[i] if terrain == _AIR else step[i]
                if t != _OFF:
                    q = pc[t]
                    if not q or ((q >> 2) != side and ((q & 3) == _HEART or tl[t] != _EARTH)):
                        out[n] = base + t
                        n += 1
                if terrain == 0:
                    t = jump[i]
                    if t != _OFF:
                        q = pc[t]
                        if not q or ((q >> 2) != side and ((q & 3) == _HEART or tl[t] != _EARTH)):
                            out[n] = base + t
                            n += 1
                        if d < 4 and not q and not pc[step[i]]:
                            slide = step[(t << 3) + d]
            # Water: on along d through empty cells; it may end on the first
            # piece only by taking it.
            t = slide
            while t != _OFF:
                q = pc[t]
                if q:
                    if (q >> 2) != side and ((q & 3) == _HEART or tl[t] != _EARTH):
                        out[n] = base + t
                        n += 1
                    break
                out[n] = base + t
                n += 1
                t = step[(t << 3) + d]
    return n


@micropython.viper
def _tile_actions(n: int, ban: int, vortexes: int, tiles, buf) -> int:
    # The swaps of two different tiles (but the banned one), then, if the
    # side has a Vortex left, both turns of every block of mixed terrain;
    # written from index n, in the order of their codes (tables.SWAPS and
    # BLOCKS list the same cells: walked here, they cost no table reads).
    tl = ptr8(tiles)
    out = ptr16(buf)
    if n + int(_TILE_ACTIONS) > int(len(buf)):
        raise IndexError(_FULL)
    swap = _SWAP
    for c in range(64):
        t = tl[c]
        code = c << 1
        if (c & 7) != 7 and t != tl[c + 1] and code != ban:  # east
            out[n] = swap + code
            n += 1
        if c < 56 and t != tl[c + 8] and code + 1 != ban:  # north
            out[n] = swap + code + 1
            n += 1
    if vortexes:
        vortex = _VORTEX
        for c in range(55):
            if (c & 7) != 7:
                t = tl[c]
                if t != tl[c + 1] or t != tl[c + 8] or t != tl[c + 9]:
                    out[n] = vortex + 2 * c
                    out[n + 1] = vortex + 2 * c + 1
                    n += 2
    return n


# The generator itself, for callers that list moves at every node (the AI's
# quiescence): piece_moves(n, side, first, end, pieces, tiles, buf) writes
# the moves of side's pieces on cells first..end-1 from buf[n]; returns the
# new count (buf: new_buffer(), room for a whole side's moves).
piece_moves = _moves


def watch(pos, out):
    """For each side s, whoever acts: out[s] = enemy pieces that reach s's
    Heart (would take it if their side were to act), out[2 + s] = s's own
    pieces next to it (4 bytes; 0 for a Heart taken). What the AI weighs at
    every node, so it answers without listing anyone's moves.

        >>> from vortex.engine import Position
        >>> out = bytearray(4)
        >>> tiles = "EEEEEEEE/EEEEEEEE/WWWWWWWW/WWWWWWWW/FFFFFFFF/FFFFFFFF/AAAAAAAA/AAAAAAAA"
        >>> watch(Position(tiles + " 4h3/3T4/8/8/8/8/4T3/4H3 l 0,0"), out)
        >>> list(out)  # d7 on Earth reaches e8; e2 stands beside e1
        [0, 1, 1, 0]
    """
    watch_hearts(pos.hearts, pos.pieces, pos.tiles, out)


@micropython.viper
def watch_hearts(hearts, pieces, tiles, out):
    # watch() on the position's arrays (the AI calls it at every node).
    # _moves read backwards from each Heart's cell: which enemy piece has a
    # move onto it. Along each direction from the Heart: the next cell (a
    # step: Earth, Fire diagonally, Water orthogonally, the Awakened), the
    # cell after (a leap: Air, the Awakened; Fire and Water only over an
    # empty cell), then, orthogonally, the first piece past two empty cells
    # (a slide: Water, the Awakened). A Heart is never protected.
    # tests/test_engine_watch.py checks it against _moves, case by case and
    # on random games.
    hs = ptr8(hearts)
    pc = ptr8(pieces)
    tl = ptr8(tiles)
    o = ptr8(out)
    step = ptr8(STEP)
    jump = ptr8(JUMP)
    for own in range(2):
        h = hs[own]
        n = 0
        g = 0
        if h != _OFF:
            enemy = own ^ 1
            h8 = h << 3
            for d in range(8):
                x = step[h8 + d]
                if x == _OFF:
                    continue
                straight = d < 4
                p = pc[x]
                if p:
                    if (p >> 2) != enemy:
                        g += 1
                    else:
                        t = tl[x]
                        if ((p & 3) == _AWAKENED or t == _EARTH or (straight and t == _WATER)
                                or (not straight and t == _FIRE)):
                            n += 1
                y = jump[h8 + d]
                if y == _OFF:
                    continue
                q = pc[y]
                if q:
                    if (q >> 2) == enemy:
                        t = tl[y]
                        if ((q & 3) == _AWAKENED or t == _AIR
                                or (not p and ((straight and t == _WATER)
                                               or (not straight and t == _FIRE)))):
                            n += 1
                elif straight and not p:
                    z = step[(y << 3) + d]
                    while z != _OFF:
                        r = pc[z]
                        if r:
                            if (r >> 2) == enemy and ((r & 3) == _AWAKENED or tl[z] == _WATER):
                                n += 1
                            break
                        z = step[(z << 3) + d]
        o[own] = n
        o[2 + own] = g


def why_illegal(pos, a):
    """'' if action a is legal here, else a short reason.

        >>> from vortex.engine import Position
        >>> why_illegal(Position(), 12 * 64 + 20)  # e2e3
        'the building phase allows only placements'
    """
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
        for i in range(_moves(0, pos.side, f, f + 1, pos.pieces, tiles, buf)):
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
