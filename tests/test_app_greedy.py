"""The board's level 0 opponent (Ai(level=0), the tests' fast player and the
match ladder's "greedy"): it takes the Heart if it can, else the biggest
gain (a capture that also awakens its Traveller, a capture, an awakening),
else a legal action at random, the same for the same seed. Plain asserts."""
from vortex.app.ai import Ai
from vortex.engine.notation import action_text, parse_position
from vortex.engine.position import Position

TILES = "AAAWAWEW/FFWEFEFF/FEWWFAEA/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEEEAWA "


def position(pieces):
    pos = Position()
    parse_position(TILES + pieces + " l 3,4 - 0 80", pos)
    return pos


def choices(pieces, seeds=range(1, 9)):
    pos = position(pieces)
    return [action_text(Ai(level=0, seed=s).choose(pos)) for s in seeds]


def test_the_heart_before_a_capture_that_awakens():
    # c6c8 takes a Traveller and awakens Light's; h6h1 takes Dark's Heart: the game.
    assert set(choices("1tt5/t7/2T4S/8/8/8/8/4H2h")) == {"h6h1"}


def test_a_capture_that_awakens_before_a_plain_capture():
    # d3e4 takes a Traveller; c6c8 takes one and awakens Light's Traveller.
    assert set(choices("2t4h/8/2T5/8/4t3/3T4/8/4H3")) == {"c6c8"}


def test_a_capture_before_an_awakening():
    # d3e4 takes a Traveller; c6c8 only awakens.
    assert set(choices("7h/8/2T5/8/4t3/3T4/8/4H3")) == {"d3e4"}


def test_an_awakening_before_a_quiet_action():
    assert set(choices("7h/8/2T5/8/8/3T4/8/4H3")) == {"c6c8"}


def test_with_nothing_to_gain_a_legal_action_at_random_the_same_for_a_seed():
    pieces = "7h/8/8/8/8/3T4/8/4H3"  # no capture, no awakening in reach
    pos = position(pieces)
    chosen = [Ai(level=0, seed=s).choose(pos) for s in range(1, 9)]
    assert all(pos.is_legal(a) for a in chosen)
    assert len(set(chosen)) >= 4  # swaps, vortexes, moves: not one favourite
    assert choices(pieces) == choices(pieces)


def test_no_action_when_the_game_is_over():
    # Dark's Heart is gone: Light has won, there is nothing left to play.
    assert Ai(level=0).choose(position("2t5/8/2T5/8/8/8/8/4H3")) == -1


def test_a_level_out_of_range_is_refused_with_the_range():
    for level in (-1, 7):
        try:
            Ai(level=level)
            assert False, level
        except ValueError as e:
            assert str(e) == "AI level: 0 to 6"
