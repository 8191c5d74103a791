"""The simulator's page requests (host_sim/web), in this process: a bad
argument's answer names the argument, what it may be and the value given
(cut short); the hands' optional arguments (a tile rather than its piece,
which held thing) are obeyed; the sensors' noise is set as asked."""
import json

import pytest

import host_sim  # noqa: F401
from host_sim.web.game import Game
from host_sim.web.server import Server
from vortex.app.session import Settings
from vortex.engine.notation import parse_cell
from test_app_scenarios import BATTLE
from test_web_api import get, post


@pytest.fixture()
def server():
    s = Server(Game(Settings(), position=BATTLE))
    s.start()
    yield s
    s.stop()


def state(s):
    return json.loads(get(s, "/api/state")[1])


def test_a_bad_argument_is_named_with_what_it_may_be_and_the_value_cut_short(server):
    assert post(server, "lift", {"cell": "e2", "tile": "yes"}) == (
        400, {"error": "tile: true or false, not 'yes'"})
    assert post(server, "lift", {"cell": "e2", "tile": "y" * 40}) == (
        400, {"error": "tile: true or false, not '%s..." % ("y" * 20)})
    assert post(server, "lift", {"cell": "e2", "tile": "y" * 22}) == (
        400, {"error": "tile: true or false, not '%s'" % ("y" * 22)})  # 24 shown: whole
    assert post(server, "sensors", {"supply": "5a"}) == (
        400, {"error": "supply: usb, 1.5a, 3a, not '5a'"})
    assert post(server, "sensors", {"supply": 3}) == (400, {"error": "supply: usb, 1.5a, 3a, not 3"})


def test_lift_a_tile_rather_than_its_piece(server):
    assert post(server, "lift", {"cell": "e2", "tile": True}) == (
        200, {"error": "lift the piece off e2 first"})
    assert state(server)["hand"] == []
    assert post(server, "lift", {"cell": "e2"}) == (200, {})
    assert state(server)["hand"] == [["piece", 1]]


def test_put_and_set_aside_the_held_thing_asked_for(server):
    a3, d3 = parse_cell("a3"), parse_cell("d3")
    tiles = state(server)["tiles"]
    water, earth = tiles[a3], tiles[d3]
    assert water != earth
    post(server, "lift", {"cell": "a3"})
    post(server, "lift", {"cell": "d3"})
    assert state(server)["hand"] == [["tile", water], ["tile", earth]]
    assert post(server, "put", {"cell": "d3", "item": 0}) == (200, {})  # the first taken
    s = state(server)
    assert s["tiles"][d3] == water and s["hand"] == [["tile", earth]]
    post(server, "lift", {"cell": "d3"})
    assert post(server, "aside", {"item": 0}) == (200, {})  # the earth tile back in the box
    assert state(server)["hand"] == [["tile", water]]


def test_the_sensors_noise_is_set_as_asked(server):
    assert post(server, "sensors", {"bounce_ms": 5, "misread": 7}) == (200, {})
    s = state(server)["sensors"]
    assert (s["bounce_ms"], s["misread"]) == (5, 7)
