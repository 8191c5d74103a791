"""Board.due_in(now): how long a host may leave the board without a pass,
the sensors and buttons unchanged, and still show everything on time (the
simulator's page steps it that often when nothing happens). Never later
than the next change the board makes by itself: the clock's shown second
(whole seconds; the time-out at 0), an error flash's end, the sensors
settled. Plain asserts."""
from host_sim.scenario import Rig
from vortex.app.board import NOTHING_DUE
from vortex.app.render import BLINK_MS
from vortex.app.sensing import SETTLE_MS
from vortex.app.session import Settings
from vortex.engine.defs import LIGHT
from vortex.ticks import ticks_diff
from test_app_scenarios import BATTLE


def test_a_still_board_without_a_clock_waits_for_nothing():
    rig = Rig(BATTLE)
    assert rig.board.due_in(rig.now) == NOTHING_DUE


def test_the_running_clock_is_due_when_its_shown_second_changes_and_at_the_time_out():
    rig = Rig(BATTLE, settings=Settings(clock_ms=60000))
    board = rig.board
    left = board.clock.left
    for ms in (59321, 5000, 1001, 1000, 999, 1):
        left[LIGHT] = ms
        d = board.due_in(rig.now)
        if ms > 1000:  # shown in whole seconds: due as the second shown changes
            assert (ms - d) // 1000 < ms // 1000 == (ms - d + 1) // 1000, (ms, d)
        else:  # the last second: the time-out itself
            assert d == ms, (ms, d)


def test_an_error_flash_is_due_when_it_ends_or_sooner():
    rig = Rig(BATTLE)
    rig.run("lift e2, place d4, wait 400")  # e2 is on Water: no diagonal, it flashes
    board, sense = rig.board, rig.board.sense
    assert sense.flashing
    d = board.due_in(rig.now)
    assert 0 < d <= ticks_diff(sense.error_until, rig.now) and d <= BLINK_MS


def test_the_pass_the_flash_s_end_is_due_for_ends_it():
    rig = Rig(BATTLE)
    rig.run("lift e2, place d4, wait 400")
    board, sense = rig.board, rig.board.sense
    end = sense.error_until
    rig.pass_at(end - 1)
    assert sense.flashing and board.due_in(rig.now) == 1
    rig.pass_at(end)
    assert not sense.flashing


def test_sensors_still_settling_are_due_when_they_settle():
    rig = Rig(BATTLE)
    rig.run("lift e2, place e3")  # a move, not yet still for SETTLE_MS
    board, sense = rig.board, rig.board.sense
    assert not sense.judged
    d = board.due_in(rig.now)
    assert 0 < d <= SETTLE_MS - ticks_diff(rig.now, sense.changed_at)
