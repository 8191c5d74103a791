"""The LED palette (firmware/vortex/app/leds.py): the colours a player must
tell apart are at least colour.APART (CIEDE2000) apart, as LEDs show them
and as the page draws the tiles they shine through (issue 14). The page's
own drawing is checked in a real browser (test_web_browser.py)."""
import pytest

from colour import APART, de2000, led, srgb
from host_sim.scenario import Rig
from vortex.app import leds
from vortex.app.recognise import DISAGREE
from vortex.engine.defs import LIGHT, DARK, WATER, FIRE, EARTH, AIR
from test_app_idle import BATTLE

# The tiles' colours, as the page draws them (host_sim/web/static/style.css).
TILES = {WATER: "#1f5fc4", FIRE: "#e0582a", EARTH: "#7b5630", AIR: "#d9dee6"}


def test_ciede2000_gives_the_published_differences():
    # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 13, 19, 25, 31, 34.
    for lab1, lab2, want in (
            ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
            ((50, 0, 0), (50, -1, 2), 2.3669),
            ((50, 2.4900, -0.0010), (50, -2.4900, 0.0009), 7.1792),
            ((50, 2.5, 0), (50, 0, -2.5), 4.3065),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
            ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
            ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441)):
        assert de2000(lab1, lab2) == pytest.approx(want, abs=1e-4)
        assert de2000(lab2, lab1) == pytest.approx(want, abs=1e-4)
    assert de2000(srgb("#ff0000"), srgb("#ff8000")) == pytest.approx(21.2, abs=0.1)  # APART's anchor


def apart(a, b):
    return de2000(led(a), led(b))


def test_a_tile_asked_for_is_told_from_everything_lit_while_the_board_is_built():
    # A placement asked for blinks in its terrain's colour beside the last
    # action, the cells still free, whose turn it is, and what is to be put
    # back (an extra in red, a missing tile in blue, a missing piece in its
    # side's colour). Earth was amber, 6.8 from the last action's amber.
    around = {"last action": leds.LAST, "free cell": leds.PLACE, "extra": leds.EXTRA,
              "missing tile": leds.MISSING, "thinking": leds.THINKING,
              "Light": leds.SIDE[LIGHT], "Dark": leds.SIDE[DARK]}
    for terrain in (WATER, FIRE, EARTH):
        for name, other in around.items():
            assert apart(leds.TERRAINS[terrain], other) >= APART, (terrain, name)
    assert apart(leds.TERRAINS[EARTH], leds.LAST) >= APART


def test_red_is_told_on_every_tile_and_from_the_other_warm_colours():
    # Something that should not be there, an illegal action's flash, a
    # clock running out: red, seen through a tile's window. Pure red was
    # 8.0 from the Fire tile.
    for red in (leds.EXTRA, leds.ERROR, leds.LOW_CLOCK):
        for terrain, tile in TILES.items():
            assert de2000(led(red), srgb(tile)) >= APART, (red, terrain)
        for other in (leds.CAPTURE, leds.TERRAINS[FIRE], leds.HINT, leds.AWAKEN, leds.LAST):
            assert apart(red, other) >= APART, (red, other)


def test_a_missing_piece_is_told_on_every_tile():
    # Light's and Dark's colours through the window of any tile (Light's
    # on the Air tile was the one hard to read: the page drew it washed out).
    for side in (LIGHT, DARK):
        for terrain, tile in TILES.items():
            assert de2000(led(leds.SIDE[side]), srgb(tile)) >= APART, (side, terrain)


def test_lights_colour_is_told_from_the_whites_and_the_ambers_beside_it():
    # Light's turn or a missing Light piece beside the cell just lifted
    # (white), the cells free to build on (grey), an Air tile asked for
    # (white), the last action (amber), a capture (orange). Light's warm
    # white was 17.1 from white and 18.3 from the last action.
    for other in (leds.LIFTED, leds.PLACE, leds.TERRAINS[AIR], leds.LAST, leds.CAPTURE,
                  leds.TERRAINS[FIRE], leds.DEST, leds.TODO, leds.HINT):
        assert apart(leds.SIDE[LIGHT], other) >= APART, other


def test_whose_turn_is_not_shown_while_the_board_shows_what_to_put_back():
    # A missing piece and the corners of whose turn are both in a side's
    # colour: while the board asks for pieces back, the corners are dark,
    # so that colour then means only "a piece of this side here".
    rig = Rig(BATTLE)
    assert rig.shows("a1", leds.SIDE[LIGHT]) and rig.shows("h1", leds.SIDE[LIGHT])
    rig.run("lift b2, drop, lift g2, drop, settle")  # Light's Travellers beside a1 and h1 gone
    rig.wait(500)
    assert rig.board.verdict == DISAGREE
    assert rig.shows("b2", leds.SIDE[LIGHT]) and rig.shows("g2", leds.SIDE[LIGHT])
    assert rig.colour("a1") == rig.colour("h1") == (0, 0, 0)
    rig.run("from-tray T b2, from-tray T g2, settle")
    assert rig.shows("a1", leds.SIDE[LIGHT]) and rig.shows("b2", leds.OFF)
