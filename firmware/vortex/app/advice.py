"""What to do, in words, when the board and the game disagree.

The LEDs show it (blue: something missing, red: something extra); a screen
(the simulators, a phone) can say it too, from the same state:

    todo(board)  -> "take the tiles off the board; put a Dark Traveller on c7"

Made for a screen, not the scan loop: it builds strings, so call it when the
frame changes, not every tick.
"""
from vortex.engine.defs import (SIDE_NAMES, KIND_NAMES, TERRAIN_NAMES, TRAVELLER, AWAKENED, HEART,
                                LIGHT, DARK, cell_name)
from vortex.engine.codes import piece_at
from vortex.app.recognise import (DISAGREE, ILLEGAL, NOT_ASKED, GONE, EXTRA, TILE_AWAY,
                                  TILE_NEW, TILE_WRONG, REPLACE)

MAX_CELLS = 4  # more cells than this are counted, not named: the LEDs show which


def todo(board):
    """What to put right, or "" when the board shows no disagreement."""
    v = board.verdict
    if v != DISAGREE and v != ILLEGAL and v != NOT_ASKED:
        return ""
    return differences(board.pos, board.rec.diff)


def differences(pos, diff):
    """The recogniser's differences (diff[64], its per-cell flags) as steps
    a player follows in order: pieces off, tiles off, tiles on, pieces on."""
    steps = []  # type: list[str]
    _add(steps, "take the piece off %s", "take the pieces off %s", _cells(diff, EXTRA, 0))
    new = _cells(diff, TILE_NEW, 0)
    if len(new) > 1 and not pos.filled:
        steps.append("take the tiles off the board")
    else:
        _add(steps, "take the tile off %s", "take the tiles off %s", new)
    for t in range(1, len(TERRAIN_NAMES)):
        name = TERRAIN_NAMES[t]
        _add(steps, "swap the tile on %s for " + _a(name) + " one",
             "swap the tiles on %s for " + name + " ones",
             _cells(diff, TILE_WRONG, TILE_NEW, pos.tiles, t))
        _add(steps, "lay " + _a(name) + " tile on %s", "lay " + name + " tiles on %s",
             _cells(diff, TILE_AWAY, 0, pos.tiles, t))
    for side in (LIGHT, DARK):
        for kind in (TRAVELLER, AWAKENED, HEART):
            who, what = SIDE_NAMES[side], KIND_NAMES[kind]
            _add(steps, "put a %s %s on %%s" % (who, what),
                 "put %s %s on %%s" % (who, what if kind == AWAKENED else what + "s"),
                 _cells(diff, GONE, 0, pos.pieces, piece_at(side, kind)))
            _add(steps, "swap the piece on %%s for a %s %s" % (who, what),
                 "swap the pieces on %%s for %s %s" % (who, what if kind == AWAKENED
                                                      else what + "s"),
                 _cells(diff, REPLACE, GONE, pos.pieces, piece_at(side, kind)))
    return "; ".join(steps)


def _a(word):
    return ("an " if word[0] in "AEIOU" else "a ") + word


def _cells(diff, flag, unless, what=None, value=0):
    # The cells with flag set (and not `unless`), where what[c] == value if given.
    return [c for c in range(64)
            if diff[c] & flag and not diff[c] & unless and (what is None or what[c] == value)]


def _add(steps, one, many, cells):
    # one, many: the step for one cell and for several, %s where the cells go.
    if len(cells) == 1:
        steps.append(one % cell_name(cells[0]))
    elif len(cells) > MAX_CELLS:
        steps.append(many % ("%d cells (lit)" % len(cells)))
    elif cells:
        steps.append(many % ", ".join(cell_name(c) for c in cells))
