"""The building phase: where to lay which tile. Each placement is scored by
what the tile will do in battle for the pieces that stand on or near it:

- Earth under one's own Travellers shelters them (they cannot be taken on
  Earth); never Earth under an enemy Traveller;
- lanes toward the enemy Heart: Air two cells from it, Fire on its
  diagonals, Water on its rank or file, Earth next to it; the same lanes
  around one's own Heart are avoided;
- Fire where the enemy would walk: on the cells ahead of enemy Travellers
  a piece cannot stand protected.

The geometry is read from the engine's STEP and JUMP tables.
"""
from vortex.engine.defs import FIRE, EARTH, HEART, const, placed_terrain
from vortex.engine.codes import piece_side, piece_kind, placement_cell
from vortex.engine.shapes import in_pattern
from vortex.engine.tables import OFF

_SHELTER = const(24)   # Earth under an own Traveller
_EXPOSE = const(30)    # Earth under an enemy Traveller (a penalty)
_LANE = const(10)      # a tile from which its terrain reaches the enemy Heart
_OWN_LANE = const(7)   # the same toward one's own Heart (a penalty)
PATH = const(4)       # Fire ahead of enemy Travellers


def lane(terrain, heart, c):
    """Does a piece standing on c, on this terrain, reach the Heart's cell
    by the pattern of that terrain (pieces in between aside)? The engine's
    patterns decide (movegen.in_pattern)."""
    return heart != OFF and in_pattern(terrain, c, heart)


def score(pos, side, terrain, c):
    """The worth of laying `terrain` on cell c for `side`."""
    s = 0
    p = pos.pieces[c]
    if p and piece_kind(p) != HEART:
        if piece_side(p) == side:
            s += _SHELTER if terrain == EARTH else 0
        elif terrain == EARTH:
            s -= _EXPOSE
    if lane(terrain, pos.hearts[side ^ 1], c):
        s += _LANE
    if lane(terrain, pos.hearts[side], c):
        s -= _OWN_LANE
    if terrain == FIRE:
        # Ahead of an enemy Traveller: one or two ranks toward us.
        ahead = 8 if side else -8  # the enemy's forward step
        for k in (1, 2):
            b = c - ahead * k
            if 0 <= b < 64:
                q = pos.pieces[b]
                if q and piece_side(q) != side and piece_kind(q) != HEART:
                    s += PATH
    return s


def choose(pos, buf, n, rng, noise):
    """The best of the n placements in buf for the side to act; rng adds up
    to `noise` to each score (variety, gentler levels)."""
    side = pos.side
    best = buf[0]
    best_s = -1 << 20
    for i in range(n):
        a = buf[i]
        s = score(pos, side, placed_terrain(a), placement_cell(a)) * 4
        if noise:
            s += rng.below(noise + 1)
        if s > best_s:
            best_s = s
            best = a
    return best
