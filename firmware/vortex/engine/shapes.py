"""The rules' shapes, for the board's parts that reason about actions
without playing them: where a terrain's pattern reaches, which tile actions
could have changed a set of cells. Kept apart from movegen.py so that the
engine alone (perft, the device's hot path) does not compile them.
"""
from .defs import WATER, FIRE, EARTH, AIR, VORTEX, swap, const
from .tables import STEP, JUMP, BLOCKS

MAX_OVER = const(5)  # tile actions over a set of cells: a swap and two blocks' turns


def in_pattern(terrain, f, t):
    """Could a piece moving by this terrain's pattern go from cell f to cell
    t on an empty board (what lies between aside)? NO_TILE stands for the
    Awakened, who move by all four. What the AI asks when it lays a tile to
    aim at a Heart.

        >>> in_pattern(WATER, 0, 56), in_pattern(FIRE, 0, 18), in_pattern(AIR, 0, 9)
        (True, True, False)
    """
    if f == t:
        return False
    if terrain == WATER or terrain == 0:
        if (f & 7) == (t & 7) or (f >> 3) == (t >> 3):
            return True
        if terrain == WATER:
            return False
    f8 = f << 3
    for d in range(4 if terrain == FIRE else 0, 8):
        if terrain != AIR and STEP[f8 + d] == t:
            return True
        if terrain != EARTH and JUMP[f8 + d] == t:
            return True
    return False


def tile_actions_over(cells, n, out):
    """Write into out (a new_buffer(MAX_OVER)) every swap and Vortex, legal
    or not, whose cells include all n cells given (2 to 4 cells, in
    increasing order); return the count. The swap first, then the Vortexes
    by block, clockwise before counter-clockwise: what a tile action seen on
    those cells may have been (the recogniser picks among them).

        >>> from vortex.engine.notation import action_text
        >>> from vortex.engine.movegen import new_buffer
        >>> out = new_buffer(MAX_OVER)
        >>> n = tile_actions_over(b"\\x1b\\x1c", 2, out)  # d4 and e4
        >>> [action_text(out[i]) for i in range(n)]
        ['d4~e4', 'V+d4', 'V-d4', 'V+d3', 'V-d3']
    """
    k = 0
    if n < 2:
        return 0
    lo = cells[0]
    if n == 2:
        d = cells[1] - lo
        if d == 8 or (d == 1 and (lo & 7) != 7):
            out[k] = swap(lo, cells[1])
            k += 1
    for corner in (0, 1, 8, 9):  # the blocks that hold the lowest cell
        b = lo - corner
        if b < 0 or b not in BLOCKS:
            continue
        inside = True
        for i in range(n):
            e = cells[i] - b
            if e != 0 and e != 1 and e != 8 and e != 9:
                inside = False
        if inside:
            out[k] = VORTEX + 2 * b
            out[k + 1] = VORTEX + 2 * b + 1
            k += 2
    return k
