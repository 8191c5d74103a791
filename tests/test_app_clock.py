"""The game clock across the millisecond counter's wrap: the RP2040's
ticks_ms runs from 0 to 2**30 - 1 and starts again, and a board left on
for 12.4 days crosses it mid-game. Plain asserts (dual-run)."""
from vortex.ticks import ticks_add
from vortex.app.clock import Clock
from vortex.app.board import Board
from vortex.app.session import Settings
from test_app_idle import BATTLE


def test_clock_charges_the_time_across_the_wrap():
    c = Clock(60000, 0)
    before = ticks_add(0, -400)  # 400 ms before the wrap
    c.start(before)
    assert not c.tick(ticks_add(before, 1000), 0)  # 600 ms after it
    assert c.left == [59000, 60000]
    c.pause()
    assert not c.tick(ticks_add(before, 5000), 0)  # paused: charges nothing, starts again
    assert not c.tick(ticks_add(before, 5250), 0)
    assert c.left == [58750, 60000]


def test_board_clock_runs_out_across_the_wrap():
    board = Board(None, Settings(clock_ms=60000))
    board.new_game(BATTLE)
    occ = bytearray(board.pos.pieces[c] and 1 for c in range(64))
    tiles, ids = bytearray(board.pos.tiles), bytearray(64)
    now = ticks_add(0, -30000)  # half a minute before the wrap
    for _ in range(10):  # the board agrees with the game: Light's time runs
        board.step(now, occ, tiles, ids)
        now = ticks_add(now, 500)
    left = board.clock.left[0]
    assert 55000 <= left <= 56500, left  # the first steps put the board in agreement
    for _ in range(130):  # on over the wrap, 500 ms a step
        board.step(now, occ, tiles, ids)
        now = ticks_add(now, 500)
    assert board.result() is not None and board.result().winner == 1  # Light's time ran out
    assert board.clock.left[0] == 0
