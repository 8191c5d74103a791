"""What the LEDs show while the board is built, on the virtual board: a tile
the AI asks for blinks in its terrain's colour, and a new tile laid under a
lifted piece is a placement under way, not an error, only while it is the
one tile out of place. Plain asserts."""
from host_sim.scenario import Rig
from vortex.app import leds
from vortex.app.render import BLINK_MS
from vortex.app.session import Settings
from vortex.engine.codes import placement_cell
from vortex.engine.defs import LIGHT, DARK, placed_terrain
from test_app_scenarios import START


def to_phase(rig, on):
    """Wait until the blink is in its on (1) or off (0) phase, a pass into it."""
    while (rig.now // BLINK_MS) & 1 != on or rig.now % BLINK_MS < 40:
        rig.wait(20)


def test_a_tile_the_ai_asks_for_blinks_in_its_terrain_s_colour():
    rig = Rig(START, settings=Settings(ai_side=LIGHT))
    want = rig.board.pending
    assert want >= 0
    cell = placement_cell(want)
    colour = leds.TERRAINS[placed_terrain(want)]
    for _ in range(2):
        to_phase(rig, 1)
        assert rig.shows(cell, colour)
        to_phase(rig, 0)
        assert rig.colour(cell) == (0, 0, 0)


def test_a_tile_laid_under_a_lifted_piece_is_under_way_until_another_is_out_of_place():
    rig = Rig(START)
    rig.run("play W@d4")  # Dark to place
    rig.run("lift d7, lay F d7")  # its Traveller lifted, a Fire tile laid under it
    rig.wait(1500)
    assert rig.shows("d7", leds.SIDE[DARK])  # put the Traveller back on it
    rig.run("take-tile d4")  # and now Light's Water tile is away
    rig.wait(1500)
    assert rig.shows("d4", leds.MISSING)
    assert rig.shows("d7", leds.EXTRA)  # two tiles out of place: the new one is not asked for
