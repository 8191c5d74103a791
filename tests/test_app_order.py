"""The order of events (issue 6): reed switches tell only occupancy, so a
capture is told from a piece lifted and put back by when each cell emptied
and filled. Dual-run, like test_app_scenarios (kept apart so that each
module fits MicroPython's 128 KB beside the board)."""
from host_sim.scenario import Rig
from vortex.app import leds
from test_app_idle import BATTLE


def test_enemy_put_back_before_the_mover_is_lifted_is_no_capture():
    # Issue 6: e7 lifted and put back while a tile was away, then e2 lifted:
    # e7 was filled again before e2 emptied, so nothing was taken.
    rig = Rig(BATTLE)
    rig.run("take-tile a3, wait 1500, lift e7, wait 100, place e7, wait 100, lift e2, "
            "wait 100, put-tile a3, settle")
    assert rig.board.pos.stack == []
    assert rig.shows("e2", leds.LIFTED) and rig.shows("e7", leds.CAPTURE)
    rig.run("lift e7, drop, place e7, settle")  # now the capture, taken piece lifted last
    assert rig.played() == "e2e7" and rig.agrees()


def test_capture_then_another_enemy_nudged():
    # d7 lifted and put back after the capture: it too was filled after e2
    # emptied, but e2's piece cannot reach it; e7 is the capture.
    rig = Rig(BATTLE)
    rig.run("lift e7, drop, lift e2, place e7, lift d7, place d7, settle")
    assert rig.played() == "e2e7"


def test_enemy_put_back_before_the_mover_is_lifted_while_another_is_off():
    # a7 stays off the board the whole time, so the pieces' history is kept
    # (the board never agrees in between): e7 lifted and put back, then e2
    # lifted, then a7 put back. e7 was filled again before e2 emptied: no
    # capture of e7, whatever the history says of a7 (which e2 cannot reach).
    rig = Rig(BATTLE)
    rig.run("lift a7, drop, wait 100, lift e7, wait 100, place e7, wait 100, lift e2, "
            "wait 100, from-tray t a7, settle")
    assert rig.board.pos.stack == []
    rig.run("place e2, settle")
    assert rig.board.pos.stack == [] and rig.agrees()
