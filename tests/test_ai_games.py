"""A whole game AI against AI at level 2, committed through the board's
logic (vortex.app.board: the rest of the firmware, loaded beside the AI).
Plain asserts: run by pytest and, under MicroPython in a 152 KB heap, by
tests/mpy_runner.py (tests/test_ai_micropython.py)."""
from vortex.app.board import Board
from vortex.app.ai import Ai, searcher
from vortex.app.session import Settings


def test_whole_game_ai_against_ai_level_2_through_the_board():
    search = searcher(2)  # made first, as the board would at start, on an unfragmented heap
    board = Board(None, Settings())
    players = (Ai(level=2, seed=11, search=search), Ai(level=2, seed=12, search=search))
    pos = board.pos
    for i in range(600):
        if board.result() is not None:
            break
        a = players[pos.side].choose(pos)
        assert pos.is_legal(a), (i, pos.action_text(a))
        board.commit(a)
    assert board.result() is not None and len(pos.stack) > 64
