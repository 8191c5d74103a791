"""Text forms of positions and actions (docs/notation.md).

    <tiles> <pieces> <side> <vortexes> <ban> <quiet> <ply>

Actions: `W@d4` placement, `d2d4` move, `d4~e4` swap, `V+d4` / `V-d4` Vortex.
Every error is a NotationError whose message starts with the field at fault.
"""
from .defs import (TERRAIN_LETTERS, PIECE_LETTERS, SIDE_NAMES, HEART, PLACE, SWAP,
                   VORTEX, VORTEXES, POOL_EACH, QUIET_LIMIT, cell_name, swap, placed_terrain,
                   travellers, action_cells)
from .tables import OFF, BLOCKS

FIELDS = ("tiles", "pieces", "side", "vortexes", "ban", "quiet", "ply")


class NotationError(ValueError):
    """Bad position or action text; the message names the field at fault."""


def parse_cell(text, field="cell"):
    """A cell's index from its name.

    >>> parse_cell("e2")
    12
    """
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise NotationError("%s: %r is not a cell a1..h8" % (field, text))
    return (ord(text[1]) - 49) * 8 + ord(text[0]) - 97


def _neighbours(a, b):
    # Do cells a and b share a side?
    d = a - b if a > b else b - a
    return d == 8 or (d == 1 and a >> 3 == b >> 3)


def _parse_board(text, field, letters, out):
    # Ranks 8 down to 1, '/'-separated; letters[i] is code i; digits skip cells.
    ranks = text.split("/")
    if len(ranks) != 8:
        raise NotationError("%s: expected 8 ranks separated by '/', got %d" % (field, len(ranks)))
    for i in range(8):
        rank = 7 - i
        f = 0
        for ch in ranks[i]:
            if "1" <= ch <= "8":
                f += ord(ch) - 48
            elif ch in letters and ch not in "-.":
                if f < 8:
                    out[rank * 8 + f] = letters.index(ch)
                f += 1
            else:
                raise NotationError("%s: rank %d has %r, expected one of %s or a digit 1-8"
                                    % (field, rank + 1, ch, letters.replace("-", "").replace(".", "")))
        if f != 8:
            raise NotationError("%s: rank %d has %d cells, expected 8" % (field, rank + 1, f))


def _parse_int(text, field, low, high):
    # ASCII digits only: CPython's isdigit() also takes "\u00b2" and Arabic-Indic digits.
    if not text or [ch for ch in text if ch not in "0123456789"] or not low <= int(text) <= high:
        raise NotationError("%s: %r is not a number from %d to %d" % (field, text, low, high))
    return int(text)


def parse_position(text, pos):
    """Fill Position pos from text, or raise NotationError and leave pos as it was."""
    if not isinstance(text, str):
        raise NotationError("position: expected text, got %s" % type(text).__name__)
    parts = text.split()
    if not 4 <= len(parts) <= 7:
        raise NotationError("position: expected 7 fields (%s), got %d"
                            % (" ".join(FIELDS), len(parts)))
    parts += ["-", "0", "0"][len(parts) - 4:]
    tiles = bytearray(64)
    pieces = bytearray(64)
    _parse_board(parts[0], "tiles", TERRAIN_LETTERS, tiles)
    _parse_board(parts[1], "pieces", PIECE_LETTERS, pieces)
    pool = bytearray(5)
    for t in range(1, 5):
        pool[t] = POOL_EACH
    for t in tiles:
        if t:
            if not pool[t]:
                raise NotationError("tiles: more than %d %s tiles"
                                    % (POOL_EACH, ("Water", "Fire", "Earth", "Air")[t - 1]))
            pool[t] -= 1
    filled = sum(1 for t in tiles if t)
    hearts = bytearray((OFF, OFF))
    for c in range(64):
        p = pieces[c]
        if (p & 3) == HEART:
            if hearts[p >> 2] != OFF:
                raise NotationError("pieces: %s has two Hearts" % SIDE_NAMES[p >> 2])
            hearts[p >> 2] = c
    for side in (0, 1):
        n = travellers(pieces, side)
        if n > 8:
            raise NotationError("pieces: %s has %d Travellers, at most 8" % (SIDE_NAMES[side], n))
    if hearts[0] == OFF and hearts[1] == OFF:
        raise NotationError("pieces: neither side has a Heart")
    if parts[2] not in ("l", "d"):
        raise NotationError("side: %r is not l (Light) or d (Dark)" % parts[2])
    vx = parts[3].split(",")
    if len(vx) != 2:
        raise NotationError("vortexes: %r is not Light's and Dark's count, as 3,4" % parts[3])
    vortexes = bytearray((_parse_int(vx[0], "vortexes", 0, VORTEXES[0]),
                          _parse_int(vx[1], "vortexes", 0, VORTEXES[1])))
    ban = OFF
    if parts[4] != "-":
        b = parts[4]
        if len(b) != 4:
            raise NotationError("ban: %r is not two cells, as d4e4, or -" % b)
        a, c = parse_cell(b[:2], "ban"), parse_cell(b[2:], "ban")
        if not _neighbours(a, c):
            raise NotationError("ban: %s and %s do not share a side" % (b[:2], b[2:]))
        if filled < 64:
            raise NotationError("ban: there is no swap in the building phase")
        ban = swap(a, c) - SWAP
    quiet = _parse_int(parts[5], "quiet", 0, QUIET_LIMIT)
    if quiet and filled < 64:
        raise NotationError("quiet: placements do not count, so it is 0 while the board is built")
    ply = _parse_int(parts[6], "ply", 0, 1 << 30)
    # All checked: fill the position.
    pos.tiles[:] = tiles
    pos.pieces[:] = pieces
    pos.pool[:] = pool
    pos.hearts[:] = hearts
    pos.vortexes[:] = vortexes
    pos.filled = filled
    pos.side = 0 if parts[2] == "l" else 1
    pos.ban = ban
    pos.quiet = quiet
    pos.ply = ply
    pos.stack = []
    pos._undo = []


def board_text(codes, letters):
    """One board field (tiles or pieces) of the notation: codes[64], letters by code."""
    out = []
    for rank in range(7, -1, -1):
        run = 0
        for c in range(rank * 8, rank * 8 + 8):
            v = codes[c]
            if v:
                if run:
                    out.append(str(run))
                    run = 0
                out.append(letters[v])
            else:
                run += 1
        if run:
            out.append(str(run))
        if rank:
            out.append("/")
    return "".join(out)


def position_text(pos):
    """The notation of Position pos, all seven fields."""
    ban = "-" if pos.ban == OFF else _pair(SWAP + pos.ban, "")
    return "%s %s %s %d,%d %s %d %d" % (
        board_text(pos.tiles, TERRAIN_LETTERS), board_text(pos.pieces, PIECE_LETTERS),
        "ld"[pos.side], pos.vortexes[0], pos.vortexes[1], ban, pos.quiet, pos.ply)


def action_text(a):
    """The notation of action code a.

    >>> action_text(parse_action("e4~d4"))
    'd4~e4'
    """
    if a < PLACE:
        return _pair(a, "")
    if a < SWAP:
        return TERRAIN_LETTERS[placed_terrain(a)] + "@" + cell_name(a & 63)
    if a < VORTEX:
        return _pair(a, "~")
    return ("V-" if a & 1 else "V+") + cell_name((a - VORTEX) >> 1)


def _pair(a, sep):
    # A move's or a swap's two cells, as action_cells gives them.
    cells = bytearray(4)
    action_cells(a, cells)
    return cell_name(cells[0]) + sep + cell_name(cells[1])


def parse_action(text):
    """The action code of text (its form only: legality is Position's job)."""
    if not isinstance(text, str):
        raise NotationError("action: expected text, got %s" % type(text).__name__)
    s = text.strip()
    if len(s) == 4 and s[1] == "@":
        t = "WFEA".find(s[0])
        if t < 0:
            raise NotationError("action: %r: %r is not a terrain W, F, E or A" % (s, s[0]))
        return PLACE + (t << 6) + parse_cell(s[2:], "action")
    if len(s) == 4 and s[0] == "V" and s[1] in "+-":
        c = parse_cell(s[2:], "action")
        if c not in BLOCKS:
            raise NotationError("action: %r: a Vortex block's lower-left cell is a1..g7" % s)
        return VORTEX + c * 2 + (1 if s[1] == "-" else 0)
    if len(s) == 5 and s[2] == "~":
        a, b = parse_cell(s[:2], "action"), parse_cell(s[3:], "action")
        if not _neighbours(a, b):
            raise NotationError("action: %r: a swap's two cells must share a side" % s)
        return swap(a, b)
    if len(s) == 4:
        a, b = parse_cell(s[:2], "action"), parse_cell(s[2:], "action")
        if a == b:
            raise NotationError("action: %r: a move must leave its cell" % s)
        return a << 6 | b
    raise NotationError("action: %r is not a placement (W@d4), move (d2d4), swap (d4~e4) "
                        "or Vortex (V+d4)" % s)

