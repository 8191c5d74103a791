"""The feed lanes: each coil's two feed nets laid as a pair along the strip
below the coils, by construction, before the maze router runs.

Why not leave them to the router: a feed pair's loop is what adds to its
coil's inductance (feeds.py), and a coil's two feeds routed one by one took
whatever rows were free, once in different strips, a loop around every coil
between them. And the strips are the board's only long way: rows laid in
order at the router's pitch hold the seven pairs that pass the last coil,
where the router's detours had left pads walled in.

The strip below the coils has rows every two grid cells, from the
keep-outs' edge to the board's edge, on both layers. The pairs alternate
between the layers, the file nearest the electronics end first, each pair
on the two rows nearest the coils that are left: a pair leaves the strip
upward into its channel, so the rows it crosses there have ended already.
In a pair, side B's row is the upper one: side B's capacitors sit further
from the coil, so side A's drops pass where B's row has ended.

Each lane runs from its capacitors' feed pads (its west end) to the end of
the last coil (its east end); the router joins the capacitors and the
switch's pin to it, so a lane is one more terminal of its net. A pair whose
capacitors lie past that end (the last coil's) is left to the router.
"""
import math

LANE_CELLS = 2          # rows two grid cells apart: a track and its clearance


class Lane:
    """One net's row: layer (0 top, 1 bottom), y and its x span (mm)."""
    __slots__ = ("net", "layer", "y", "x0", "x1")

    def __init__(self, net, layer, y, x0, x1):
        self.net, self.layer, self.y, self.x0, self.x1 = net, layer, y, x0, x1


def rows(first, last, pitch):
    """The rows' y from first to last (the bounds a track centre may take),
    on the grid, LANE_CELLS apart."""
    y = math.ceil(first / pitch - 1e-9) * pitch
    out = []
    while y <= last + 1e-9:
        out.append(round(y, 6))
        y += LANE_CELLS * pitch
    return out


def plan(groups, strip_rows, east, layers):
    """Lanes for groups of nets that run together ([(net, west x)]: a feed
    pair, a single line) in a strip whose rows' y are given from the coils
    outwards, all ending at east; the groups take the layers in turn, the one
    leaving first (westmost end furthest east) on the rows nearest the coils,
    and in a group likewise. Returns (lanes, groups left to the router: they
    leave the strip past east, or no rows are left)."""
    lanes, left = [], []
    used = {layer: 0 for layer in layers}
    k = 0
    for group in sorted(groups, key=lambda g: (-min(x for _n, x in g), g[0][0])):
        layer = layers[k % len(layers)]
        if min(x for _n, x in group) >= east or used[layer] + len(group) > len(strip_rows):
            left.append(group)
            continue
        for net, x in sorted(group, key=lambda m: (-m[1], m[0])):
            lanes.append(Lane(net, layer, strip_rows[used[layer]], x, east))
            used[layer] += 1
        k += 1
    return lanes, left
