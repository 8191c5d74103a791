"""The virtual board's tray: pieces taken off the board wait there, per side,
until a hand puts them back (after a takeback of a capture, a new game)."""
import pytest

from host_sim.scenario import Rig, scaled
from host_sim.virtual import PhysicsError, piece_code
from vortex.app import leds
from vortex.app.recognise import AGREE
from vortex.engine.notation import parse_cell

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def captured():
    """c2c7 takes the Dark Traveller of c7, which goes to Dark's tray."""
    rig = Rig(BATTLE)
    for a in ("e1f1", "a7b8", "c2c7"):
        rig.run("play " + a)
    assert rig.virtual.tray == ([], [piece_code("t")])
    return rig


def test_a_captured_piece_goes_to_its_sides_tray():
    rig = captured()
    assert rig.virtual.tray_text() == "Dark t"
    assert rig.board.pos.pieces[parse_cell("c7")] == piece_code("T")


def test_a_takeback_of_a_capture_is_restored_by_hand_from_the_tray():
    rig = captured()
    rig.run("press a, settle")  # the takeback: the Light Traveller goes back to c2
    assert rig.colour("c2") == scaled(leds.SIDE[0])
    rig.run("lift c7, place c2, settle")  # c7 must hold Dark's Traveller again
    assert rig.colour("c7") == scaled(leds.SIDE[1])
    rig.run("from-tray t c7, settle")
    assert rig.virtual.tray == ([], [])
    assert rig.board.verdict == AGREE and rig.agrees()
    assert rig.colour("c2") == rig.colour("c7") == (0, 0, 0)
    rig.run("play c2c3")  # and the game goes on
    assert rig.board.pos.stack[-1] == parse_cell("c2") << 6 | parse_cell("c3")


def test_tidy_hands_restore_the_board_after_a_takeback():
    rig = captured()
    rig.run("press a, tidy")
    assert rig.virtual.tray == ([], []) and rig.board.verdict == AGREE
    assert bytes(rig.virtual.pieces) == bytes(rig.board.pos.pieces)


def test_tidy_hands_clear_the_board_for_a_new_game():
    rig = captured()
    rig.run("hold ab, carry")  # a new game: tiles off, every piece home
    assert rig.board.verdict == AGREE and not any(rig.virtual.tiles)
    assert bytes(rig.virtual.pieces) == bytes(rig.board.pos.pieces)
    rig.run("play W@d4")
    assert len(rig.board.pos.stack) == 1


@pytest.mark.parametrize("script, why", [
    ("from-tray t c7", "no Dark Traveller in the tray (it is empty)"),
    ("from-tray x c2", "'x' is not a piece"),
    ("from-tray ... c2", "is not a piece"),
])
def test_the_tray_refuses_what_it_does_not_hold(script, why):
    rig = Rig(BATTLE)
    with pytest.raises(PhysicsError, match=why.replace("(", r"\(").replace(")", r"\)")):
        rig.run(script)


def test_a_piece_from_the_tray_is_not_lost_on_a_full_cell():
    rig = captured()
    with pytest.raises(PhysicsError, match="b8 already holds a piece"):
        rig.run("from-tray t b8")
    assert rig.virtual.tray_text() == "Dark t"
