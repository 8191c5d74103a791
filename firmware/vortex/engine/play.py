"""Playing actions: push() and pop() with a compact undo record; make()
and unmake(), the same without the action stack, for searches.

Functions of the Position, which binds them as methods (kept apart from
position.py so that MicroPython compiles each module in a small heap).
Undo record, one small int per action: taken piece (bits 0-2), awakened
(bit 3), the previous ban (bits 4-11), the previous quiet count (bits 12-).
"""
from ..native import micropython, ptr8, COMPILED
from .defs import const

# defs' and tables' numbers again, as this module's own const(): MicroPython
# writes a module's const() names into its code as literals, but looks an
# imported name up in a dict at every use (several a push on the RP2040).
# tests/test_engine_native.py checks that they equal defs' and tables'.
_NO_TILE = const(0)
_TRAVELLER = const(1)
_HEART = const(3)
_PLACE = const(4096)
_SWAP = const(4352)
_VORTEX = const(4480)
_OFF = const(255)


# make() and unmake() in two forms, one chosen at import. On MicroPython,
# viper machine code: the board's bytes through pointers, ints unboxed; on
# the RP2040 a move's make and unmake take 53 us instead of 89 as native
# code (a swap's 62 instead of 74). On CPython, where the viper form's
# casts would only cost, the same steps as plain Python. They are one
# function in two spellings: tests/test_engine_native.py plays seeded games
# with both (on CPython) and compares every position and undo record, and
# the engine's trace runs the viper form under the unix port.
def make_plain(pos, a):
    """Play action a (assumed legal) on the board and the counts, and return
    its undo record for unmake(); the action stack and ply are push()'s.
    What a search calls at every node (make() is this or make_viper()).

        >>> from vortex.engine import Position
        >>> p = Position()
        >>> a = p.parse_action("F@a1")
        >>> undo = make(p, a)
        >>> p.side, p.pool[2], len(p.stack)  # Dark to act; Fire is terrain 2
        (1, 15, 0)
        >>> unmake(p, a, undo); p == Position()
        True
    """
    tiles = pos.tiles
    side = pos.side
    undo = pos.ban << 4 | pos.quiet << 12
    if a < _PLACE:
        pieces = pos.pieces
        f = a >> 6
        t = a & 63
        p = pieces[f]
        taken = pieces[t]
        if (p & 3) == _TRAVELLER and (t >> 3) == (0 if side else 7):
            p += 1  # Traveller -> Awakened on the enemy back rank
            undo |= 8
        elif (p & 3) == _HEART:
            pos.hearts[side] = t
        pieces[f] = 0
        pieces[t] = p
        if taken:
            undo |= taken
            pos.quiet = 0
            if (taken & 3) == _HEART:
                pos.hearts[side ^ 1] = _OFF
        else:
            pos.quiet += 1
        pos.ban = _OFF
    elif a < _SWAP:
        c = a & 63
        t = ((a - _PLACE) >> 6) + 1
        tiles[c] = t
        pos.pool[t] -= 1
        pos.filled += 1
        pos.ban = _OFF
    elif a < _VORTEX:
        _swap(tiles, a - _SWAP)
        pos.ban = a - _SWAP
        pos.quiet += 1
    else:
        _turn(tiles, a - _VORTEX)
        pos.vortexes[side] -= 1
        pos.ban = _OFF
        pos.quiet += 1
    pos.side = side ^ 1
    return undo


def unmake_plain(pos, a, undo):
    """Take back action a, the last one made, given make()'s undo record."""
    side = pos.side ^ 1
    pos.side = side
    pos.ban = (undo >> 4) & 255
    pos.quiet = undo >> 12
    if a < _PLACE:
        pieces = pos.pieces
        f = a >> 6
        t = a & 63
        p = pieces[t]
        if undo & 8:
            p -= 1
        elif (p & 3) == _HEART:
            pos.hearts[side] = f
        pieces[f] = p
        taken = undo & 7
        pieces[t] = taken
        if (taken & 3) == _HEART:
            pos.hearts[side ^ 1] = t
    elif a < _SWAP:
        tiles = pos.tiles
        c = a & 63
        pos.pool[tiles[c]] += 1
        tiles[c] = _NO_TILE
        pos.filled -= 1
    elif a < _VORTEX:
        _swap(pos.tiles, a - _SWAP)  # its own inverse
    else:
        _turn(pos.tiles, (a - _VORTEX) ^ 1)  # the opposite turn
        pos.vortexes[side] += 1


@micropython.viper
def make_viper(pos, a: int) -> int:
    # make_plain(), step for step, as viper code.
    side = int(pos.side)
    quiet = int(pos.quiet)
    undo = int(pos.ban) << 4 | quiet << 12
    if a < _PLACE:
        pieces = ptr8(pos.pieces)
        f = a >> 6
        t = a & 63
        p = pieces[f]
        taken = pieces[t]
        back = 7  # the enemy back rank
        if side:
            back = 0
        if (p & 3) == _TRAVELLER and (t >> 3) == back:
            p += 1
            undo |= 8
        elif (p & 3) == _HEART:
            hearts = ptr8(pos.hearts)
            hearts[side] = t
        pieces[f] = 0
        pieces[t] = p
        if taken:
            undo |= taken
            pos.quiet = 0
            if (taken & 3) == _HEART:
                hearts = ptr8(pos.hearts)
                hearts[side ^ 1] = _OFF
        else:
            pos.quiet = quiet + 1
        pos.ban = _OFF
    elif a < _SWAP:
        tiles = ptr8(pos.tiles)
        c = a & 63
        t = ((a - _PLACE) >> 6) + 1
        tiles[c] = t
        pool = ptr8(pos.pool)
        pool[t] -= 1
        pos.filled = int(pos.filled) + 1
        pos.ban = _OFF
    elif a < _VORTEX:
        _swap(pos.tiles, a - _SWAP)
        pos.ban = a - _SWAP
        pos.quiet = quiet + 1
    else:
        _turn(pos.tiles, a - _VORTEX)
        vortexes = ptr8(pos.vortexes)
        vortexes[side] -= 1
        pos.ban = _OFF
        pos.quiet = quiet + 1
    pos.side = side ^ 1
    return undo


@micropython.viper
def unmake_viper(pos, a: int, undo: int):
    # unmake_plain(), step for step, as viper code.
    side = int(pos.side) ^ 1
    pos.side = side
    pos.ban = (undo >> 4) & 255
    pos.quiet = undo >> 12
    if a < _PLACE:
        pieces = ptr8(pos.pieces)
        f = a >> 6
        t = a & 63
        p = pieces[t]
        if undo & 8:
            p -= 1
        elif (p & 3) == _HEART:
            hearts = ptr8(pos.hearts)
            hearts[side] = f
        pieces[f] = p
        taken = undo & 7
        pieces[t] = taken
        if (taken & 3) == _HEART:
            hearts = ptr8(pos.hearts)
            hearts[side ^ 1] = t
    elif a < _SWAP:
        tiles = ptr8(pos.tiles)
        c = a & 63
        pool = ptr8(pos.pool)
        pool[tiles[c]] += 1
        tiles[c] = _NO_TILE
        pos.filled = int(pos.filled) - 1
    elif a < _VORTEX:
        _swap(pos.tiles, a - _SWAP)
    else:
        _turn(pos.tiles, (a - _VORTEX) ^ 1)
        vortexes = ptr8(pos.vortexes)
        vortexes[side] += 1


if COMPILED:
    make = make_viper
    unmake = unmake_viper
else:
    make = make_plain
    unmake = unmake_plain


def copy_into(pos, p):
    """Make Position p the same as pos, without the action stack, and return
    it: the state's bytes copied in place, nothing allocated, no notation
    (Position.copy; kept here so that position.py compiles in a small heap)."""
    p.tiles[:] = pos.tiles
    p.pieces[:] = pos.pieces
    p.pool[:] = pos.pool
    p.vortexes[:] = pos.vortexes
    p.hearts[:] = pos.hearts
    p.side = pos.side
    p.ban = pos.ban
    p.quiet = pos.quiet
    p.ply = pos.ply
    p.filled = pos.filled
    if p.stack:
        del p.stack[:]
        del p._undo[:]
    return p


@micropython.native
def push(pos, a):
    """Play action a (assumed legal: see is_legal).

        >>> from vortex.engine import Position
        >>> p = Position()
        >>> p.push(p.parse_action("F@a1"))
        >>> p.side, p.ply, p.pool[2], len(p.stack)  # Dark to act; Fire is terrain 2
        (1, 1, 15, 1)
    """
    undo = make(pos, a)  # first: a swap or Vortex off the board raises, nothing changed
    pos.stack.append(a)
    pos._undo.append(undo)
    pos.ply += 1


@micropython.native
def pop(pos):
    """Take back the last action pushed; return it.

        >>> from vortex.engine import Position, action_text
        >>> p = Position()
        >>> p.push(p.parse_action("F@a1"))
        >>> action_text(p.pop()), p == Position()
        ('F@a1', True)
    """
    a = pos.stack.pop()
    unmake(pos, a, pos._undo.pop())
    pos.ply -= 1
    return a


@micropython.viper
def _swap(cells, code: int):
    # Exchange the tiles of swap code: cell code >> 1 and its east (even
    # code) or north (odd) neighbour.
    tiles = ptr8(cells)
    c = code >> 1
    d = c + 1
    if code & 1:
        d = c + 8
    if d > 63:  # a viper pointer has no bounds check: refuse a cell off the board
        raise IndexError("swap off the board")
    t = tiles[c]
    tiles[c] = tiles[d]
    tiles[d] = t


@micropython.viper
def _turn(cells, code: int):
    # Rotate the block code >> 1 a quarter turn: clockwise if code is even.
    # Cells in clockwise order: c, c+8, c+9, c+1 (see defs.action_cells).
    tiles = ptr8(cells)
    c = code >> 1
    if c > 54:  # a viper pointer has no bounds check: refuse a cell off the board
        raise IndexError("Vortex off the board")
    x0 = tiles[c]
    x1 = tiles[c + 8]
    x2 = tiles[c + 9]
    x3 = tiles[c + 1]
    if code & 1:
        tiles[c] = x1
        tiles[c + 8] = x2
        tiles[c + 9] = x3
        tiles[c + 1] = x0
    else:
        tiles[c + 8] = x0
        tiles[c + 9] = x1
        tiles[c + 1] = x2
        tiles[c] = x3
