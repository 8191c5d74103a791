"""Playing actions: push() and pop() with a compact undo record.

Functions of the Position, which binds them as methods (kept apart from
position.py so that MicroPython compiles each module in a small heap).
Undo record, one small int per action: taken piece (bits 0-2), awakened
(bit 3), the previous ban (bits 4-11), the previous quiet count (bits 12-).
"""
from ..native import micropython, ptr8
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


# push and pop as machine code (native: Python semantics, no bytecode
# dispatch): on the RP2040 a move's push and pop take a third less time, a
# swap's 40% less (on the unix port's x64 they gain nothing).
@micropython.native
def push(pos, a):
    """Play action a (assumed legal: see is_legal).

        >>> from vortex.engine import Position
        >>> p = Position()
        >>> p.push(p.parse_action("F@a1"))
        >>> p.side, p.ply, p.pool[2], len(p.stack)  # Dark to act; Fire is terrain 2
        (1, 1, 15, 1)
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
    pos.ply += 1
    pos.stack.append(a)
    pos._undo.append(undo)

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
    undo = pos._undo.pop()
    side = pos.side ^ 1
    pos.side = side
    pos.ply -= 1
    pos.ban = (undo >> 4) & 255
    pos.quiet = undo >> 12
    tiles = pos.tiles
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
        c = a & 63
        pos.pool[tiles[c]] += 1
        tiles[c] = _NO_TILE
        pos.filled -= 1
    elif a < _VORTEX:
        _swap(tiles, a - _SWAP)  # its own inverse
    else:
        _turn(tiles, (a - _VORTEX) ^ 1)  # the opposite turn
        pos.vortexes[side] += 1
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
