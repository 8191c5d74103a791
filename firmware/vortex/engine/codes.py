"""The engine's codes by name: cells, pieces and actions made and read
(python-chess's square, square_file, square_rank and Move.from_square are
the model). Everything outside the engine decodes through these; code that
must inline the arithmetic (viper, the search's inner loop) uses defs.py's
field constants instead. Kept apart from defs.py so that the engine alone
(perft, the device's hot path) does not compile them.

    >>> m = move(cell_at(4, 1), cell_at(4, 3))    # e2e4
    >>> move_from(m), move_to(m), cell_file(move_to(m)), cell_rank(move_to(m))
    (12, 28, 4, 3)
"""
from .defs import (PLACE, SWAP, VORTEX, FROM_SHIFT, TO_MASK, SIDE_SHIFT, KIND_MASK, RANK_SHIFT,
                   FILE_MASK)


def cell_at(file, rank):
    """The cell on a file and a rank (0-7 each): cell_at(4, 1) is e2."""
    return rank << RANK_SHIFT | file


def cell_file(c):
    """A cell's file, 0 (a) to 7 (h)."""
    return c & FILE_MASK


def cell_rank(c):
    """A cell's rank, 0 (rank 1) to 7 (rank 8)."""
    return c >> RANK_SHIFT


def piece_at(side, kind):
    """The code of a side's piece of a kind (TRAVELLER, AWAKENED, HEART)."""
    return side << SIDE_SHIFT | kind


def piece_side(p):
    """The side (LIGHT or DARK) of a piece code (not 0)."""
    return p >> SIDE_SHIFT


def piece_kind(p):
    """The kind (TRAVELLER, AWAKENED, HEART) of a piece code; 0 for no piece."""
    return p & KIND_MASK


def move(f, t):
    """The move from cell f to cell t."""
    return f << FROM_SHIFT | t


def is_move(a):
    return a < PLACE


def is_placement(a):
    return PLACE <= a < SWAP


def is_swap(a):
    return SWAP <= a < VORTEX


def is_vortex(a):
    return a >= VORTEX


def move_from(a):
    """The cell a move starts from."""
    return a >> FROM_SHIFT


def move_to(a):
    """The cell a move ends on (a placement's cell too: its low bits)."""
    return a & TO_MASK


def placement_cell(a):
    """The cell a placement lays its tile on."""
    return a & TO_MASK
