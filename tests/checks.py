"""Small helpers shared by the dual-run test modules (CPython and MicroPython).

No pytest here: plain functions and asserts only.
"""
from vortex.engine import Position, new_buffer, action_text, parse_cell, cell_name


def raises(exc_type, fn, *args):
    """Call fn(*args); return the exc_type it raises, fail if it raises none."""
    try:
        fn(*args)
    except exc_type as e:
        return e
    raise AssertionError("%s not raised by %r%r" % (exc_type.__name__, fn, args))


def expand(board):
    """A board field ('8/3E4/...', ranks 8 down to 1) as 64 one-letter strings
    by cell index (a1 = 0), '' for an empty cell."""
    cells = [""] * 64
    ranks = board.split("/")
    assert len(ranks) == 8, board
    for i in range(8):
        c = (7 - i) * 8
        for ch in ranks[i]:
            if "1" <= ch <= "8":
                c += ord(ch) - 48
            else:
                cells[c] = ch
                c += 1
        assert c == (7 - i) * 8 + 8, board
    return cells


def fill(tiles):
    """Complete a partial tile field into a full board (16 of each terrain):
    the cells it leaves empty get the terrains still in stock, in a fixed
    order. Tests name every tile that matters (under pieces, in a swap or a
    Vortex); the filler only makes the board complete."""
    cells = expand(tiles)
    left = {"W": 16, "F": 16, "E": 16, "A": 16}
    for t in cells:
        if t:
            left[t] -= 1
    for t in "WFEA":
        assert left[t] >= 0, "more than 16 " + t
    k = 0
    for c in range(64):
        if not cells[c]:
            for j in range(4):
                t = "WFEA"[(k + j) % 4]
                if left[t]:
                    break
            cells[c] = t
            left[t] -= 1
            k += 1
    out = []
    for r in range(7, -1, -1):
        out.append("".join(cells[r * 8:r * 8 + 8]))
    return "/".join(out)


def battle(tiles, pieces, rest="l 3,4 - 0 64"):
    """A battle Position: the partial tiles completed by fill(). Every cell
    holding a piece must have its tile named, so that the filler never
    decides a rule (Earth protects, the terrain moves the piece)."""
    named = expand(tiles)
    on = expand(pieces)
    for c in range(64):
        assert not on[c] or named[c], "name the tile under %s" % cell_name(c)
    return Position(fill(tiles) + " " + pieces + " " + rest)


def dest_list(pos, cell):
    """The destinations of the piece on `cell` ('d4'), as cell names in the
    engine's order (repeats kept, to be checked)."""
    buf = new_buffer(64)
    n = pos.destinations(parse_cell(cell), buf)
    return [cell_name(buf[i] & 63) for i in range(n)]


def dests(pos, cell):
    """Sorted destination names of the piece on `cell`."""
    return sorted(dest_list(pos, cell))


def legal_texts(pos):
    """Every legal action as text, in the engine's order."""
    buf = new_buffer()
    return [action_text(buf[i]) for i in range(pos.legal_into(buf))]


def play(pos, *texts):
    """Push the actions named by texts (each must be legal) on pos."""
    for t in texts:
        pos.push(pos.parse_action(t))
    return pos


def tile(pos, cell):
    """The terrain letter on `cell` ('d4')."""
    return "-WFEA"[pos.tiles[parse_cell(cell)]]


def piece(pos, cell):
    """The piece letter on `cell` ('d4'), '.' if empty."""
    return ".TSH.tsh"[pos.pieces[parse_cell(cell)]]
