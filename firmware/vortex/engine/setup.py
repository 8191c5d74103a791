"""The setup option (docs/rules.md#board-and-setup): before the first tile,
a side may set its Heart on any file of its back rank. A setup, not an
action: nothing is pushed, the game starts from the new position. Kept
apart from position.py so that the engine alone does not compile it.

    >>> from vortex.engine import Position
    >>> p = Position()
    >>> can_set_heart(p, 4, 1), can_set_heart(p, 4, 12)    # e1 to b1; e1 to e2
    (True, False)
    >>> set_heart(p, 4, 1); p.text().split()[1]
    '4h3/tttttttt/8/8/8/8/TTTTTTTT/1H6'
"""
from .defs import HEART, SIDE_SHIFT, KIND_MASK, RANK_SHIFT, back_rank
from .position import IllegalAction


def can_set_heart(pos, f, t):
    """May the Heart on cell f be set on the empty cell t of its back rank?"""
    p = pos.pieces[f]
    return (not pos.filled and (p & KIND_MASK) == HEART and not pos.pieces[t]
            and f >> RANK_SHIFT == t >> RANK_SHIFT == back_rank(p >> SIDE_SHIFT))


def set_heart(pos, f, t):
    """Set the Heart on f on cell t; IllegalAction if can_set_heart says no."""
    if not can_set_heart(pos, f, t):
        raise IllegalAction("a Heart is set only along its back rank, before the first tile")
    p = pos.pieces[f]
    pos.pieces[t] = p
    pos.pieces[f] = 0
    pos.hearts[p >> SIDE_SHIFT] = t
