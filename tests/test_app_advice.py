"""What to do, in words (vortex.app.advice), from the state that lights the
LEDs. Plain asserts: pytest runs them on CPython and tests/mpy_runner.py
under the MicroPython unix port."""
from host_sim.scenario import Rig
from vortex.app.advice import todo

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def test_nothing_to_do_when_the_board_agrees():
    rig = Rig(BATTLE)
    assert todo(rig.board) == ""
    rig.run("lift e2")  # a piece in hand is not a disagreement
    assert todo(rig.board) == ""


def test_a_new_game_with_the_tiles_down():
    rig = Rig(BATTLE)
    rig.run("hold ab, settle")
    steps = todo(rig.board)
    assert steps == "take the tiles off the board", steps


def test_a_takeback_of_a_capture_names_the_piece_and_its_cell():
    rig = Rig(BATTLE)
    rig.run("play e1f1, play a7b8, play c2c7, press a, settle")
    # The taker stands on c7, where the taken piece goes back: the reeds
    # cannot tell them apart, so the board asks for the swap in words.
    assert todo(rig.board) == ("put a Light Traveller on c2; "
                               "swap the piece on c7 for a Dark Traveller")
    rig.run("lift c7, place c2, settle")
    assert todo(rig.board) == "put a Dark Traveller on c7"
    rig.run("from-tray t c7, settle")
    assert todo(rig.board) == ""


def test_an_illegal_move_says_how_to_put_it_back():
    rig = Rig(BATTLE)
    rig.run("lift e2, place d4, settle")
    assert todo(rig.board) == "take the piece off d4; put a Light Traveller on e2"


def test_tiles_to_lay_and_to_change():
    rig = Rig(BATTLE)  # rank 1: Air Air Earth Water Water Air Water Air
    rig.run("take-tile a1, lay E a1, settle")
    assert todo(rig.board) == "swap the tile on a1 for an Air one"
    rig = Rig(BATTLE)
    rig.run("take-tile a1, take-tile b1, take-tile d1, lift a2, place a3, settle")
    assert todo(rig.board) == ("take the piece off a3; lay a Water tile on d1; "
                               "lay Air tiles on a1, b1; put a Light Traveller on a2")


def test_many_cells_are_counted_not_named():
    rig = Rig(BATTLE)
    rig.run("lift a2, lift b2, lift c2, lift d2, lift e2, drop, drop, drop, drop, drop, settle")
    assert todo(rig.board) == "put Light Travellers on 5 cells (lit)"


def test_each_step_for_one_cell_a_few_and_many():
    # differences() itself, on a built board with two Light Awakened (a2, b2).
    from vortex.engine import Position, parse_cell
    from vortex.app.advice import differences, MAX_CELLS
    from vortex.app.recognise import REPLACE, TILE_NEW
    pos = Position("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
                   "4h3/tttttttt/8/8/8/8/SSTTTTTT/4H3 l 3,4 - 0 64")

    def said(flag, cells):
        diff = bytearray(64)
        for c in cells:
            diff[parse_cell(c)] |= flag
        return differences(pos, diff)

    assert said(TILE_NEW, ["f1"]) == "take the tile off f1"
    files = "abcdefgh"
    assert MAX_CELLS == 4
    assert said(TILE_NEW, [f + "1" for f in files[:4]]) == "take the tiles off a1, b1, c1, d1"
    assert said(TILE_NEW, [f + "1" for f in files[:5]]) == "take the tiles off 5 cells (lit)"
    assert said(REPLACE, ["a2", "b2"]) == "swap the pieces on a2, b2 for Light Awakened"
    assert said(REPLACE, ["c2", "d2"]) == "swap the pieces on c2, d2 for Light Travellers"


def test_a_piece_lifted_off_a_tile_changed_under_it_names_both():
    rig = Rig(BATTLE)  # a2: Water
    rig.run("lift a2, place a3, take-tile a2, lay E a2, settle")
    assert todo(rig.board) == ("take the piece off a3; swap the tile on a2 for a Water one; "
                               "put a Light Traveller on a2")
