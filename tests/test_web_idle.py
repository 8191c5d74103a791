"""The page's server while nobody acts: the board's passes come when
something may change what it shows (Board.due_in: a blink's next phase, an
error flash's end, the clock's next second, the sensors settling), not
every TICK_MS, and what the pages are told arrives at the board times it
would at the full rate. Driven by board time (Game.advance, what the
ticking thread calls), and the last test by the ticking thread itself."""
import threading
import time

import host_sim  # noqa: F401  (firmware/ on sys.path)
from host_sim.scenario import Rig, TICK_MS
from host_sim.usb import SUPPLY
from host_sim.web.game import Game, QUIET_MS, IDLE_MS
from vortex.app.session import Settings, NO_AI

RUN_MS = 10000


def follow(game, ms):
    """ms of board time as the ticking thread runs it, each pass at the time
    it asks for (a punctual sleeper): the passes made, and what the pages
    were told [(board time, frame, clock's seconds)]."""
    rig = game.rig
    end = rig.now + ms
    passes = rig.service.passes
    told = []
    at = rig.now
    while at <= end:
        version = game.version
        at = game.advance(at)
        if game.version != version:
            told.append(_shown(rig))
    return rig.service.passes - passes, told


def _shown(rig):
    clock = rig.board.clock
    return rig.now, bytes(rig.board.frame), clock and clock.left[rig.board.pos.side] // 1000


def full_rate(settings, start, ms):
    """The same board ticked every TICK_MS: what changed, and when, from start on."""
    rig = Rig(None, settings=settings, supply=SUPPLY)
    seen = _shown(rig)[1:]
    out = []
    while rig.now < start + ms:
        rig.tick()
        now = _shown(rig)
        if now[1:] != seen:
            seen = now[1:]
            if rig.now > start:
                out.append(now)
    return out


def changes(told):
    out, seen = [], None
    for t in told:
        if t[1:] != seen:
            seen = t[1:]
            out.append(t)
    return out


def test_an_idle_board_with_nothing_moving_is_passed_a_few_times_a_second():
    g = Game(Settings(ai_side=NO_AI))
    follow(g, QUIET_MS + 500)
    passes, told = follow(g, RUN_MS)
    assert passes <= RUN_MS // IDLE_MS + 1, passes  # the full rate: RUN_MS // TICK_MS
    assert told == []


def test_blinking_asks_reach_the_page_on_time_with_a_pass_a_phase():
    settings = Settings(ai_side=0)  # the AI plays light's first action: the board asks for it
    g = Game(settings)
    follow(g, QUIET_MS + 500)
    assert g.rig.board.view.blinking
    start = g.rig.now
    passes, told = follow(g, RUN_MS)
    assert passes <= RUN_MS // IDLE_MS + RUN_MS // 250 + 1, passes
    want = full_rate(settings, start, RUN_MS)
    got = [t for t in changes(told) if t[0] > start]
    assert len(want) >= RUN_MS // 250 - 1  # (a blink a phase: the test sees the animation)
    assert [t[1:] for t in got] == [t[1:] for t in want]
    assert max(abs(a[0] - b[0]) for a, b in zip(got, want)) < TICK_MS


def test_a_running_clock_reaches_the_page_each_second_on_time():
    settings = Settings(ai_side=NO_AI, clock_ms=5 * 60000)
    g = Game(settings)
    follow(g, QUIET_MS + 500)
    start = g.rig.now
    passes, told = follow(g, RUN_MS)
    assert passes <= RUN_MS // IDLE_MS + RUN_MS // 1000 + 1, passes
    want = full_rate(settings, start, RUN_MS)
    got = [t for t in changes(told) if t[0] > start]
    assert len(want) >= RUN_MS // 1000 - 1
    assert [t[1:] for t in got] == [t[1:] for t in want]
    assert max(abs(a[0] - b[0]) for a, b in zip(got, want)) < TICK_MS


def test_a_hand_brings_the_full_rate_back_at_once():
    g = Game(Settings(ai_side=NO_AI))
    follow(g, QUIET_MS + 500)
    assert g.advance(g.rig.now) > g.rig.now + TICK_MS  # idle
    g.command("lift", {"cell": "e2"})
    assert g.advance(g.rig.now) == g.rig.now + TICK_MS
    passes, _ = follow(g, QUIET_MS // 2)
    assert passes >= QUIET_MS // 2 // TICK_MS


def test_the_ticking_thread_sleeps_between_the_passes_it_needs(monkeypatch):
    # Game.run() on the wall clock, the quiet time cut to none: a blinking
    # board over 2 s is passed a few times a phase, not every TICK_MS, and
    # its blinks keep coming (8 phases: at least half of them, however busy
    # the machine).
    from host_sim.web import game as module
    monkeypatch.setattr(module, "QUIET_MS", 0)
    g = Game(Settings(ai_side=0))
    assert g.rig.board.view.blinking
    passes, version, now = g.rig.service.passes, g.version, g.rig.now
    thread = threading.Thread(target=g.run)
    thread.start()
    try:
        time.sleep(2)
    finally:
        g.stop()
        thread.join(10)
    assert not thread.is_alive()
    assert g.rig.service.passes - passes <= 2 * (1000 // IDLE_MS + 1000 // 250) + 2
    assert g.version - version >= 4 and g.rig.now - now >= 1000
