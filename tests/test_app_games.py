"""Whole games, building phase and battle to a result, played through the
virtual sensors: every action carried out by hand and recognised by the
board. Plain asserts: run by pytest and, under MicroPython with a 128 KB
heap, by tests/mpy_runner.py."""
from host_sim.scenario import Rig
from vortex.app import leds
from vortex.app.ai import Ai
from vortex.app.session import Settings

START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"


def play_game(seed, sloppy, max_actions=400):
    worst = [0]

    def budget(frame):
        ma = leds.current_ma(frame)
        if ma > worst[0]:
            worst[0] = ma

    rig = Rig(START, settings=Settings(brightness=3), seed=seed, on_frame=budget,
              bounce_ms=3 if sloppy else 0, misread=30 if sloppy else 0)
    players = (Ai(level=0, seed=seed * 2 + 1), Ai(level=0, seed=seed * 2 + 2))
    pos = rig.board.pos
    for i in range(max_actions):
        if rig.board.result() is not None:
            break
        a = players[pos.side].choose(pos)
        rig.play(a, capture_first=not (sloppy and i & 1), settle=False)
        assert pos.stack[-1] == a, (i, pos.action_text(a))
        assert rig.agrees()
    return rig, worst[0]


def test_whole_game_tidy_hands():
    rig, worst = play_game(1, False)
    result = rig.board.result()
    assert result is not None
    assert len(rig.board.pos.stack) > 64  # the board was built, then fought over
    assert worst <= leds.DEFAULT_BUDGET_MA


def test_whole_game_bouncing_reeds_and_misreading_tags():
    rig, worst = play_game(2, True)
    assert rig.board.result() is not None
    assert worst <= leds.DEFAULT_BUDGET_MA
