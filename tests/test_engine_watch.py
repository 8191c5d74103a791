"""movegen.watch(): which enemy pieces reach each Heart, and which of its
own pieces stand beside it, read backwards from the Heart's cell (the AI
asks it at every node, so it lists nobody's moves). Checked here against a
straightforward recount made with the engine's own move generation, piece
by piece (reach()): on positions made for each way a piece can reach a
Heart, then move by move over random games. CPython runs watch_hearts as
plain Python; tests/test_engine_native.py compares its machine code with
this plain form under MicroPython."""
from vortex.engine import Position, MAX_DESTINATIONS, new_buffer, parse_cell
from vortex.engine.movegen import watch, reach
from vortex.engine.notation import board_text
from vortex.engine.tables import OFF, STEP

import engine_trace
from checks import battle


def recount(pos):
    """What watch() must say, from the moves themselves: for each side s,
    [enemy pieces with a move onto s's Heart, s's pieces on the 8 cells
    around it] as watch()'s 4 bytes (0, 0 for a Heart taken)."""
    buf = new_buffer(MAX_DESTINATIONS)
    out = [0, 0, 0, 0]
    for side in (0, 1):
        h = pos.hearts[side]
        if h == OFF:
            continue
        for c in range(64):
            p = pos.pieces[c]
            if p and p >> 2 != side:
                n = reach(pos, c, buf)
                out[side] += any(buf[i] & 63 == h for i in range(n))
        for d in range(8):
            t = STEP[h * 8 + d]
            out[2 + side] += t != OFF and pos.pieces[t] != 0 and pos.pieces[t] >> 2 == side
    return out


def field(cells):
    """A board field (ranks 8 down to 1) from {cell name: letter}."""
    letters = [""] + sorted(set(cells.values()))
    codes = bytearray(64)
    for name, letter in cells.items():
        codes[parse_cell(name)] = letters.index(letter)
    return board_text(codes, letters)


# Light's Heart on d4 (Earth), Dark's on h8 (Earth), far from the rest;
# each case adds pieces on tiles ({cell: (piece, terrain)}) and says what
# watch() gives: [Dark pieces reaching d4, Light pieces reaching Dark's
# Heart, Light pieces beside d4, Dark pieces beside Dark's Heart].
CASES = (
    # A step: Earth in 8 directions, Water orthogonally, Fire diagonally,
    # the Awakened whatever their tile; never Air.
    ("Earth, orthogonal step", {"d5": "tE"}, [1, 0, 0, 0]),
    ("Earth, diagonal step", {"e5": "tE"}, [1, 0, 0, 0]),
    ("Water, orthogonal step", {"d5": "tW"}, [1, 0, 0, 0]),
    ("Water does not step diagonally", {"e5": "tW"}, [0, 0, 0, 0]),
    ("Fire, diagonal step", {"c3": "tF"}, [1, 0, 0, 0]),
    ("Fire does not step orthogonally", {"d5": "tF"}, [0, 0, 0, 0]),
    ("Air does not step", {"d5": "tA", "e3": "tA"}, [0, 0, 0, 0]),
    ("Awakened on Air, diagonal step", {"e5": "sA"}, [1, 0, 0, 0]),
    ("Awakened on Fire, orthogonal step", {"c4": "sF"}, [1, 0, 0, 0]),
    # A leap, two cells away: Air and the Awakened over anything, Fire
    # (diagonally) and Water (orthogonally) only over an empty cell.
    ("Air leaps orthogonally", {"d6": "tA"}, [1, 0, 0, 0]),
    ("Air leaps over a guard", {"d6": "tA", "d5": "TE"}, [1, 0, 1, 0]),
    ("Air leaps diagonally", {"b2": "tA"}, [1, 0, 0, 0]),
    ("Fire leaps diagonally over an empty cell", {"f6": "tF"}, [1, 0, 0, 0]),
    ("Fire stopped by a guard", {"f6": "tF", "e5": "TE"}, [0, 0, 1, 0]),
    ("Fire stopped by its own side", {"b6": "tF", "c5": "tA"}, [0, 0, 0, 0]),
    ("Fire never leaps orthogonally", {"d6": "tF", "f4": "tF"}, [0, 0, 0, 0]),
    ("Water over an empty cell", {"b4": "tW"}, [1, 0, 0, 0]),
    ("Water stopped by a piece", {"d2": "tW", "d3": "tA"}, [0, 0, 0, 0]),
    ("Water never leaps diagonally", {"f6": "tW"}, [0, 0, 0, 0]),
    ("Earth does not leap", {"d6": "tE"}, [0, 0, 0, 0]),
    ("Awakened leap over a guard", {"d6": "sE", "d5": "TE"}, [1, 0, 1, 0]),
    ("Awakened on Water, diagonal leap", {"b6": "sW"}, [1, 0, 0, 0]),
    # A slide, orthogonally past two empty cells: Water and the Awakened.
    ("Water slides north", {"d8": "tW"}, [1, 0, 0, 0]),
    ("Water slides south", {"d1": "tW"}, [1, 0, 0, 0]),
    ("Water slides west", {"a4": "tW"}, [1, 0, 0, 0]),
    ("Water slides east", {"h4": "tW"}, [1, 0, 0, 0]),
    ("A slide stops at the first piece", {"d8": "tW", "d7": "tE"}, [0, 0, 0, 0]),
    ("A slide stopped by a guard", {"h4": "tW", "f4": "TA"}, [0, 0, 0, 0]),
    ("Earth does not slide", {"d7": "tE"}, [0, 0, 0, 0]),
    ("Air does not slide", {"d8": "tA"}, [0, 0, 0, 0]),
    ("Fire does not slide", {"a4": "tF"}, [0, 0, 0, 0]),
    ("Awakened on Earth slides", {"d8": "sE"}, [1, 0, 0, 0]),
    ("Water never slides diagonally", {"g1": "tW", "a1": "tW"}, [0, 0, 0, 0]),
    # Many at once, guards, and Light's pieces on Dark's Heart.
    ("all four ways at once", {"d5": "tE", "f6": "tF", "h4": "tW", "d1": "sE", "c4": "TE",
                               "e3": "TW"}, [4, 0, 2, 0]),
    ("Light's pieces on Dark's Heart", {"h7": "TW", "f6": "TF", "g8": "tE", "h5": "TA"},
     [0, 2, 0, 1]),
)


def case_position(cells, light_heart="d4"):
    pieces = {"h8": "h"}
    tiles = {"h8": "E"}
    if light_heart:
        pieces[light_heart] = "H"
        tiles[light_heart] = "E"
    for name, (p, t) in cells.items():
        pieces[name] = p
        tiles[name] = t
    return battle(field(tiles), field(pieces))


def watched_as(pos, want, name):
    """watch() gives want, and so does the recount (the case says what it means)."""
    assert recount(pos) == want, (name, pos.text())
    out = bytearray(4)
    watch(pos, out)
    assert list(out) == want, (name, pos.text(), list(out))


def test_each_way_of_reaching_a_heart():
    for name, cells, want in CASES:
        watched_as(case_position(cells), want, name)


def test_hearts_on_the_edge_and_a_heart_taken():
    # Light's Heart in the corner: steps and leaps off the board are none.
    watched_as(case_position({"b2": "tE", "c3": "tA", "a3": "tA", "a2": "TE", "b1": "TF"},
                             light_heart="a1"), [3, 0, 2, 0], "corner")
    # Light's Heart taken: nothing counted for it, whatever stands around d4.
    watched_as(case_position({"d5": "tE", "c4": "TE", "g8": "TW"}, light_heart=None),
               [0, 1, 0, 0], "taken")


def test_watch_counts_what_the_moves_reach():
    # Move by move over random games from the start and from battles with
    # Awakened pieces, spent Vortexes and bans.
    out = bytearray(4)
    checked = 0
    for g in range(24):
        x = 7 + g
        pos = Position(engine_trace.STARTS[1 + g % 2])
        for _ in range(140):
            watch(pos, out)
            assert list(out) == recount(pos), pos.text()
            checked += 1
            actions = list(pos.legal_actions())
            if not actions:
                break
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            pos.push(actions[x % len(actions)])
    assert checked > 1500
