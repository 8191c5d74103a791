"""The engine's texts that a person reads and its own tests only checked by
their first word: each refusal's whole message, Outcome.name() and the
legal actions' repr (a REPL), and the Awakened and Water's same-rank test of
shapes.in_pattern. Plain asserts."""
from vortex.engine import Position, Outcome, LegalActions, NotationError, LIGHT, DARK
from vortex.engine.defs import SWAP, WATER
from vortex.engine.notation import parse_action
from vortex.engine.play import make_plain
from vortex.engine.shapes import in_pattern
from checks import raises

STRIPES = "WWWWWWWW/WWWWWWWW/FFFFFFFF/FFFFFFFF/EEEEEEEE/EEEEEEEE/AAAAAAAA/AAAAAAAA"


def message(exc_type, fn, *args):
    return str(raises(exc_type, fn, *args))


def test_bad_cells_in_actions_name_the_field():
    assert message(NotationError, parse_action, "W@z9") == "action: 'z9' is not a cell a1..h8"
    assert message(NotationError, parse_action, "V+i1") == "action: 'i1' is not a cell a1..h8"
    assert message(NotationError, parse_action, "a0~a1") == "action: 'a0' is not a cell a1..h8"
    assert message(NotationError, parse_action, "a1~a9") == "action: 'a9' is not a cell a1..h8"


def test_bad_positions_say_what_is_wrong():
    assert message(NotationError, Position, "8/8/8/8/8/8/8/8 4x3/8/8/8/8/8/8/4H3 l 3,4") == \
        "pieces: rank 8 has 'x', expected one of TSHtsh or a digit 1-8"
    assert message(NotationError, Position, "EEEEEEEE/EEEEEEEE/EEEEEEEE/8/8/8/8/8 "
                   "4h3/8/8/8/8/8/8/4H3 l 3,4") == "tiles: more than 16 Earth tiles"
    big = 1 << 30
    assert Position(STRIPES + " 4h3/8/8/8/8/8/8/4H3 l 3,4 - 0 %d" % big).ply == big
    assert message(NotationError, Position, STRIPES + " 4h3/8/8/8/8/8/8/4H3 l 3,4 - 0 %d"
                   % (big + 1)) == "ply: '%d' is not a number from 0 to %d" % (big + 1, big)


def test_a_swap_off_the_board_says_so():
    p = Position(STRIPES + " 4h3/8/8/8/8/8/8/4H3 l 3,4 - 0 64")
    assert message(IndexError, make_plain, p, SWAP + 127) == "swap off the board"


def test_outcome_names_and_the_legal_actions_repr():
    assert Outcome(LIGHT, "heart taken").name() == "Light wins"
    assert Outcome(DARK, "no legal action").name() == "Dark wins"
    assert Outcome(None, "quiet end").name() == "draw"
    # As a record writes the result, Light's score first (python-chess's Outcome.result()).
    assert [Outcome(w, "x").result() for w in (LIGHT, DARK, None)] == ["1-0", "0-1", "1/2-1/2"]
    p = Position("8/8/8/8/8/8/8/8 7h/8/8/8/8/8/8/H7 l 3,4 - 0 0")
    p.pool[1:5] = bytes((0, 0, 1, 0))   # one Earth tile left: a placement on each bare cell
    acts = LegalActions(p)
    assert repr(acts).startswith("<LegalActions (E@a1, E@b1, ") and repr(acts).endswith("E@h8)>")


def test_water_and_the_awakened_go_along_any_rank():
    for terrain in (WATER, 0):
        assert in_pattern(terrain, 8, 15) and in_pattern(terrain, 63, 56)   # a2-h2, h8-a8
        assert in_pattern(terrain, 9, 49)                                    # b2-b7
    assert not in_pattern(WATER, 8, 17)
