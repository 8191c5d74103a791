"""Board.due_in(now): how long a host may leave the board without a pass,
the sensors and buttons unchanged, and still show everything on time (the
simulator's page steps it that often when nothing happens). Never later
than the next change the board makes by itself: the clock's shown second
(whole seconds; the time-out at 0), an error flash's end, the sensors
settled, a blink, the thinking light (the AI's, or a remote opponent's
turn); a board passed only then shows what one passed every tick shows.
Plain asserts."""
from host_sim.scenario import Rig, TICK_MS
from vortex.app.board import NOTHING_DUE, REMOTE_HERE, REMOTE_AWAY
from vortex.app.render import BLINK_MS, SPIN_MS
from vortex.app.sensing import SETTLE_MS
from vortex.app.session import Settings
from vortex.engine.defs import LIGHT, DARK
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


def _frames(rig, ms, by_due):
    """ms of board time from now: [(time, frame)] of each frame the board
    shows, passed every TICK_MS, or (by_due) only when due_in() says."""
    shown = []
    rig.on_frame = lambda frame: shown.append((rig.now, bytes(frame)))
    end = rig.now + ms
    while rig.now < end:
        if by_due:
            rig.pass_at(min(end, rig.now + max(1, rig.board.due_in(rig.now))))
        else:
            rig.tick()
    return shown


def _a_remote_opponents_turn():
    rig = Rig()
    rig.board.set_remote(REMOTE_HERE, DARK)
    rig.act("W@a1")
    rig.wait(20)
    return rig


def _the_ais_action_to_carry_out():
    rig = Rig(None, settings=Settings(ai_side=LIGHT))
    assert rig.until(lambda: rig.board.pending >= 0, 20000)
    return rig


def _an_error_flash():
    return Rig(BATTLE).run("lift e2, place d4, wait 100")


def _a_clock_near_its_end():
    rig = Rig(BATTLE, settings=Settings(clock_ms=60000))
    rig.board.clock.left[LIGHT] = 2600
    rig.tick()  # (the board shows the clock low from its next pass)
    return rig


def _a_remote_opponent_gone():
    rig = _a_remote_opponents_turn()
    rig.board.set_remote(REMOTE_AWAY, DARK)
    rig.wait(20)
    return rig


def test_a_board_passed_only_when_due_shows_what_one_passed_every_tick_shows_when_it_does():
    # Whatever the board changes by itself (the thinking light turning for a
    # remote opponent, a blink, a flash's end, the clock's second), a host
    # that passes it only when due_in() says (the page, when nobody acts)
    # shows the same frames, each no later than a board passed every tick.
    for make in (_a_remote_opponents_turn, _the_ais_action_to_carry_out, _an_error_flash,
                 _a_clock_near_its_end, _a_remote_opponent_gone):
        every, due = make(), make()
        assert every.now == due.now, make.__name__
        want = _frames(every, 3000, False)
        got = _frames(due, 3000, True)
        assert [f for _, f in got] == [f for _, f in want], (make.__name__, len(got), len(want))
        for (t_got, _), (t_want, _) in zip(got, want):
            assert t_want - TICK_MS < t_got <= t_want, (make.__name__, t_got, t_want)
    assert len(_frames(_a_remote_opponents_turn(), 1000, True)) >= 1000 // SPIN_MS - 1
