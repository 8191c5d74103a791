"""The engine's vocabulary: cells, terrains, pieces, sides and action codes.

Cells are ints 0-63, index = rank*8 + file (a1 = 0, h1 = 7, h8 = 63).
Actions are small ints in four ranges, so they fit an array('H'):

    move       from*64 + to                        0 .. 4095
    placement  PLACE + (terrain-1)*64 + cell    4096 .. 4351
    swap       SWAP + cell*2 + (0 east, 1 north) 4352 .. 4479
    vortex     VORTEX + cell*2 + (0 cw, 1 ccw)   4480 .. 4607
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]
        return x

# Sides. A piece code's bit 2 is its side.
LIGHT = const(0)
DARK = const(1)

# Terrains, as stored in Position.tiles. 0 is a cell without a tile.
NO_TILE = const(0)
WATER = const(1)
FIRE = const(2)
EARTH = const(3)
AIR = const(4)

# Pieces, as stored in Position.pieces: side << 2 | kind. 0 is an empty cell.
TRAVELLER = const(1)
AWAKENED = const(2)
HEART = const(3)

# Action code bases.
PLACE = const(4096)
SWAP = const(4352)
VORTEX = const(4480)
ACTION_END = const(4608)

# The codes' fields, named for code that must inline them (viper, the
# search's inner loops): a move is from << FROM_SHIFT | to, a piece is
# side << SIDE_SHIFT | kind, a cell is rank << RANK_SHIFT | file. Everything
# else reads them through the functions of codes.py.
FROM_SHIFT = const(6)
TO_MASK = const(63)
SIDE_SHIFT = const(2)
KIND_MASK = const(3)
RANK_SHIFT = const(3)
FILE_MASK = const(7)

# Battle rules' numbers.
QUIET_LIMIT = const(80)
VORTEXES = (3, 4)  # Light's and Dark's, for the whole game
POOL_EACH = const(16)

TERRAIN_LETTERS = "-WFEA"  # indexed by terrain
PIECE_LETTERS = ".TSH.tsh"  # indexed by piece code
SIDE_NAMES = ("Light", "Dark")
KIND_NAMES = ("", "Traveller", "Awakened", "Heart")  # indexed by piece code & 3
TERRAIN_NAMES = ("no tile", "Water", "Fire", "Earth", "Air")  # indexed by terrain


def back_rank(side):
    """The rank (0-7) a side's pieces start on: Light's 0, Dark's 7. A
    Traveller awakens on the enemy's."""
    return 7 if side else 0


def travellers(pieces, side):
    """A side's Travellers, Awakened included (Hearts are not Travellers),
    in a pieces array: what the 80-quiet-actions rule and the setup count."""
    n = 0
    for p in pieces:
        if p and p >> SIDE_SHIFT == side and (p & KIND_MASK) != HEART:
            n += 1
    return n


def cell_name(c):
    """The name of cell index c.

        >>> cell_name(12), cell_name(63)
        ('e2', 'h8')
    """
    return "abcdefgh"[c & FILE_MASK] + str((c >> RANK_SHIFT) + 1)


def placement(terrain, cell):
    """The placement of a tile of a terrain on a cell."""
    return PLACE + ((terrain - 1) << 6) + cell


def placed_terrain(a):
    """The terrain a placement action lays."""
    return ((a - PLACE) >> 6) + 1


def swap(a, b):
    """The swap of two cells sharing a side, in either order.

        >>> swap(28, 27) == swap(27, 28) == SWAP + 27 * 2  # e4 and d4
        True
    """
    if a > b:
        a, b = b, a
    return SWAP + a * 2 + (1 if b - a == 8 else 0)


def action_cells(a, out):
    """Write the cells action a touches into out (4 bytes); return how many.
    A move: from, to. A placement: its cell. A swap: its two cells, lower
    first. A Vortex: its block clockwise from the lower-left, so that a
    clockwise turn moves each tile to the next of these cells.
    Allocates nothing (the board draws with it every frame)."""
    if a < PLACE:
        out[0] = a >> FROM_SHIFT
        out[1] = a & TO_MASK
        return 2
    if a < SWAP:
        out[0] = a & TO_MASK
        return 1
    if a < VORTEX:
        c = (a - SWAP) >> 1
        out[0] = c
        out[1] = c + (8 if a & 1 else 1)
        return 2
    c = (a - VORTEX) >> 1
    out[0] = c
    out[1] = c + 8
    out[2] = c + 9
    out[3] = c + 1
    return 4


def tile_goes(a, i):
    """Where a swap or a Vortex sends the tile on the i-th cell of
    action_cells(a): the index of the cell it ends on."""
    if a < VORTEX:
        return i ^ 1  # a swap: each tile to the other cell
    return (i + (3 if a & 1 else 1)) & 3  # clockwise: the next cell; counter: the previous
