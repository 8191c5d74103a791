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

# Battle rules' numbers.
QUIET_LIMIT = const(80)
VORTEXES = (3, 4)  # Light's and Dark's, for the whole game
POOL_EACH = const(16)

TERRAIN_LETTERS = "-WFEA"  # indexed by terrain
PIECE_LETTERS = ".TSH.tsh"  # indexed by piece code
SIDE_NAMES = ("Light", "Dark")
KIND_NAMES = ("", "Traveller", "Awakened", "Heart")  # indexed by piece code & 3
TERRAIN_NAMES = ("no tile", "Water", "Fire", "Earth", "Air")  # indexed by terrain


def cell_name(c):
    """cell_name(12) -> 'e2'."""
    return "abcdefgh"[c & 7] + str((c >> 3) + 1)


def piece(side, kind):
    return side << 2 | kind


def move(frm, to):
    return frm << 6 | to


def placement(terrain, cell):
    return PLACE + ((terrain - 1) << 6) + cell


def swap(a, b):
    """The swap of two cells sharing a side, in either order."""
    if a > b:
        a, b = b, a
    return SWAP + a * 2 + (1 if b - a == 8 else 0)


def vortex(cell, clockwise):
    """The Vortex of the 2x2 block whose lower-left cell is `cell`."""
    return VORTEX + cell * 2 + (0 if clockwise else 1)


def swap_cells(action):
    """The two cells of a swap action, lower index first."""
    code = action - SWAP
    a = code >> 1
    return a, a + (8 if code & 1 else 1)


def block_cells(cell):
    """A 2x2 block's cells in clockwise order from its lower-left: a clockwise
    Vortex moves each tile to the next cell of this tuple."""
    return cell, cell + 8, cell + 9, cell + 1
