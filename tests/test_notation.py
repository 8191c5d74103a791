"""Notation tests (docs/notation.md): positions and actions, text to codes and
back, and an error naming its field for every kind of bad text. Runs under
pytest and under MicroPython (tests/mpy_runner.py).
"""
from vortex.engine import (Position, NotationError, IllegalAction, START, parse_action,
                           action_text, parse_cell, cell_name)
from vortex.engine.defs import PLACE, SWAP, VORTEX, ACTION_END
from vortex.engine import notation
from checks import raises

REFERENCES = (
    "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0",
    "AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
    "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64",
    "WFAFEFFF/FEFEAAFA/WWWEWAWE/EWFAEWWA/FEWEAAFE/AFEFWAAA/EWEEAEFE/AAWWFWWF "
    "2tth3/2t2ttt/2tt3T/2T5/5T2/1T6/5TT1/1TT1H3 l 3,4 h1h2 30 94",
    "WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
    "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 78 140",
)
BUILT = REFERENCES[1].split()[0]  # a full board, 16 of each terrain
PIECES = "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3"


# --- Positions -----------------------------------------------------------------

def test_reference_positions_round_trip():
    for text in REFERENCES:
        assert Position(text).text() == text
        assert Position(Position(text).text()).text() == text
        assert str(Position(text)) == text


def test_start_text():
    assert START == REFERENCES[0]
    assert Position().text() == START
    assert Position(START) == Position()


def test_fields_read_into_the_state():
    p = Position(REFERENCES[3])
    assert p.tiles[0] == 1 and p.tiles[63] == 4  # a1 Water, h8 Air
    assert p.pieces[parse_cell("c1")] == 3 and p.pieces[parse_cell("h1")] == 6  # H, s
    assert p.pieces[parse_cell("c8")] == 2 and p.pieces[parse_cell("e8")] == 7  # S, h
    assert p.side == 0 and list(p.vortexes) == [0, 2]
    assert p.ban == parse_cell("d4") * 2  # a swap code: d4 and its east neighbour
    assert p.quiet == 78 and p.ply == 140 and p.filled == 64
    assert list(p.hearts) == [parse_cell("c1"), parse_cell("e8")]
    p = Position(REFERENCES[2])
    assert p.ban == parse_cell("h1") * 2 + 1  # h1 north
    assert list(Position(REFERENCES[0]).pool)[1:] == [16, 16, 16, 16]


def test_last_three_fields_are_optional():
    full = START
    for text in ("8/8/8/8/8/8/8/8 %s l 3,4" % PIECES,
                 "8/8/8/8/8/8/8/8 %s l 3,4 -" % PIECES,
                 "8/8/8/8/8/8/8/8 %s l 3,4 - 0" % PIECES):
        assert Position(text).text() == full
    p = Position("%s %s d 2,4 e2f2" % (BUILT, PIECES))
    assert p.text() == "%s %s d 2,4 e2f2 0 0" % (BUILT, PIECES)


def test_digits_and_letters_mix_in_a_rank():
    text = "W1F1E1A1/8/8/8/8/8/8/1W6 h6H/8/8/8/8/8/8/8 d 1,0 - 0 5"
    assert Position(text).text() == text
    p = Position(text)
    assert p.tiles[parse_cell("a8")] == 1 and p.tiles[parse_cell("g8")] == 4
    assert p.pieces[parse_cell("h8")] == 3 and p.filled == 5


def bad(text, field):
    # A NotationError whose message starts with "<field>:".
    e = raises(NotationError, Position, text)
    assert str(e).startswith(field + ":"), (text, str(e))
    return e


def test_bad_tiles():
    rest = " %s l 3,4 - 0 0" % PIECES
    bad("8/8/8/8/8/8/8" + rest, "tiles")  # 7 ranks
    bad("8/8/8/8/8/8/8/8/8" + rest, "tiles")  # 9 ranks
    bad("8/8/8/8/8/8/8/7" + rest, "tiles")  # 7 cells in a rank
    bad("8/8/8/8/8/8/8/WWWWWWWWW" + rest, "tiles")  # 9 cells
    bad("8/8/8/8/8/8/8/4W4" + rest, "tiles")
    bad("8/8/8/8/8/8/8/X7" + rest, "tiles")  # no such terrain
    bad("8/8/8/8/8/8/8/w7" + rest, "tiles")  # letters are upper case
    bad("8/8/8/8/8/8/8/9" + rest, "tiles")
    bad("8/8/8/8/8/8/8/08" + rest, "tiles")
    bad("8/8/8/8/8/8/8/-7" + rest, "tiles")
    bad("8/8/8/8/8/W7/WWWWWWWW/WWWWWWWW" + rest, "tiles")  # 17 Water tiles
    Position("8/8/8/8/8/8/WWWWWWWW/WWWWWWWW" + rest)  # 16 are fine


def test_bad_pieces():
    head = BUILT + " "
    tail = " l 3,4 - 0 64"
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT" + tail, "pieces")  # 7 ranks
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H4" + tail, "pieces")  # 9 cells
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT/4K3" + tail, "pieces")  # no such piece
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT/4.3" + tail, "pieces")
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT/3HH3" + tail, "pieces")  # two Hearts
    bad(head + "3hh3/tttttttt/8/8/8/8/TTTTTTTT/4H3" + tail, "pieces")
    bad(head + "4h3/tttttttt/8/8/8/8/TTTTTTTT/T3H3" + tail, "pieces")  # 9 Travellers
    bad(head + "s3h3/tttttttt/8/8/8/8/TTTTTTTT/4H3" + tail, "pieces")  # Awakened count
    bad(head + "8/tttttttt/8/8/8/8/TTTTTTTT/8" + tail, "pieces")  # no Heart at all


def test_bad_side():
    for side in ("x", "L", "D", "w", "ld", "0"):
        bad("%s %s %s 3,4 - 0 64" % (BUILT, PIECES, side), "side")


def test_bad_vortexes():
    for vx in ("4,4", "3,5", "3", "3,4,4", "a,4", "-1,4", "3;4", ",4", "3,"):
        bad("%s %s l %s - 0 64" % (BUILT, PIECES, vx), "vortexes")


def test_bad_ban():
    for ban in ("d4f4", "d4e5", "h1a2", "a2h1", "d4d4", "d4", "d4e4e5", "z9a1", "d4e9"):
        bad("%s %s l 3,4 %s 0 64" % (BUILT, PIECES, ban), "ban")
    # No swap has been played while the board is being built.
    bad("%s l 3,4 d4e4 0 10" % ("8/8/8/8/8/8/8/8 " + PIECES), "ban")


def test_bad_quiet_and_ply():
    for q in ("81", "-1", "x", "1.5", "0x1"):
        bad("%s %s l 3,4 - %s 64" % (BUILT, PIECES, q), "quiet")
    for ply in ("x", "-3", "1e3", "+4"):
        bad("%s %s l 3,4 - 0 %s" % (BUILT, PIECES, ply), "ply")


def test_only_ascii_digits_are_numbers():
    # Unicode digits pass str.isdigit() on CPython: they must still be refused
    # with the field's name, as MicroPython (ASCII only) refuses them.
    for q in ("\u00b2", "\u0663", "1\u0663"):  # superscript two, Arabic-Indic three
        bad("%s %s l 3,4 - %s 64" % (BUILT, PIECES, q), "quiet")
        bad("%s %s l 3,4 - 0 %s" % (BUILT, PIECES, q), "ply")
        bad("%s %s l %s,4 - 0 64" % (BUILT, PIECES, q), "vortexes")


def test_bad_position_shape():
    bad("", "position")
    bad("8/8/8/8/8/8/8/8 %s l" % PIECES, "position")  # 3 fields
    bad("%s %s l 3,4 - 0 0 0" % (BUILT, PIECES), "position")  # 8 fields
    for x in (None, 5, b"8/8"):
        e = raises(NotationError, Position, x)
        assert str(e).startswith("position:")


def test_a_bad_text_leaves_the_position_as_it_was():
    p = Position(REFERENCES[2])
    raises(NotationError, notation.parse_position, REFERENCES[3].replace(" 78 140", " 81 0"), p)
    raises(NotationError, notation.parse_position, "8/8/8/8/8/8/8/8 8/8/8/8/8/8/8/8 l 3,4", p)
    assert p.text() == REFERENCES[2]


# --- Actions -----------------------------------------------------------------

def test_cells():
    assert parse_cell("a1") == 0 and parse_cell("h1") == 7
    assert parse_cell("a2") == 8 and parse_cell("e2") == 12 and parse_cell("h8") == 63
    for c in range(64):
        assert parse_cell(cell_name(c)) == c
    for t in ("i1", "a0", "a9", "A1", "", "a", "a10", "1a"):
        raises(NotationError, parse_cell, t)


def test_action_forms():
    assert parse_action("d2d4") == parse_cell("d2") * 64 + parse_cell("d4")
    assert parse_action("W@d4") == PLACE + parse_cell("d4")
    assert parse_action("A@d4") == PLACE + 3 * 64 + parse_cell("d4")
    assert parse_action("d4~e4") == SWAP + parse_cell("d4") * 2
    assert parse_action("d4~d5") == SWAP + parse_cell("d4") * 2 + 1
    assert parse_action("V+d4") == VORTEX + parse_cell("d4") * 2
    assert parse_action("V-d4") == VORTEX + parse_cell("d4") * 2 + 1
    for t in ("d2d4", "W@d4", "F@a1", "E@h8", "d4~e4", "d4~d5", "V+d4", "V-g7", "h8a1"):
        assert action_text(parse_action(t)) == t


def test_swap_text_in_either_order():
    assert parse_action("e4~d4") == parse_action("d4~e4")
    assert parse_action("d5~d4") == parse_action("d4~d5")
    assert action_text(parse_action("e4~d4")) == "d4~e4"
    assert action_text(parse_action("d5~d4")) == "d4~d5"


def test_bad_actions():
    for t in ("", "x", "d2", "d2d", "d2d4d6", "Z@d4", "w@d4", "W@z9", "W@d", "W#d4",
              "V+h8", "V-h1", "V+a8", "V*d4", "Vd4", "d4~f4", "d4~e5", "h1~a2", "d4~d4",
              "d4d4", "d4d9", "i2d4", "d4-e4", "d4 e4", "e4~", "~e4"):
        e = raises(NotationError, parse_action, t)
        assert str(e).startswith("action:"), (t, str(e))
    for x in (None, 4096):
        e = raises(NotationError, parse_action, x)
        assert str(e).startswith("action:")


def test_bad_actions_say_what_is_wrong():
    for text, reason in (("Q@d4", "action: 'Q@d4': 'Q' is not a terrain W, F, E or A"),
                         ("W@z9", "action: 'z9' is not a cell a1..h8"),
                         ("z9d4", "action: 'z9' is not a cell a1..h8"),
                         ("d4z9", "action: 'z9' is not a cell a1..h8"),
                         ("W@d", "action: 'W@d' is not a placement (W@d4), move (d2d4), "
                                 "swap (d4~e4) or Vortex (V+d4)")):
        assert str(raises(NotationError, parse_action, text)) == reason, text


def test_position_parse_action_tells_bad_from_illegal():
    p = Position()
    raises(NotationError, p.parse_action, "W@z9")
    e = raises(IllegalAction, p.parse_action, "e2e4")  # well formed, not legal now
    assert str(e) == "illegal action e2e4: the building phase allows only placements"
    assert p.parse_action("W@e4") == parse_action("W@e4")


def valid_code(a):
    # Which codes name an action on the board, worked out by coordinates.
    if a < PLACE:
        return a >> 6 != a & 63
    if a < SWAP:
        return True
    if a < VORTEX:
        c, north = (a - SWAP) >> 1, (a - SWAP) & 1
        return c < 56 if north else c % 8 < 7
    c = (a - VORTEX) >> 1
    return c % 8 < 7 and c < 56


def test_every_action_code_round_trips():
    accepted = 0
    for a in range(ACTION_END):
        text = action_text(a)
        try:
            b = parse_action(text)
        except NotationError:
            assert not valid_code(a), (a, text)
            continue
        assert valid_code(a), (a, text)
        assert b == a, (a, text, b)
        accepted += 1
    # 64*63 moves, 256 placements, 112 swaps, 49 blocks x 2 turns.
    assert accepted == 4032 + 256 + 112 + 98
