"""The game from the empty board on the emulated Pico: 64 tiles laid one by
one through the modelled readers, then a move, a swap and a Vortex, as a
player and a host see them (the LEDs, the link). About 30 s of device time
(each tile waits out the board's 300 ms settle), the suite's longest test:
a file of its own, so that it runs beside the others (conftest.py)."""
import random

# (pytestmark: skipped, saying why, where the emulated Pico cannot run)
from test_device_game import agrees_on_the_link, device_rig, pytestmark  # noqa: F401
from vortex.app import session
from vortex.engine.codes import is_move, is_placement, is_swap, is_vortex, placement_cell
from vortex.engine.position import START


def test_a_game_from_the_empty_board_64_tiles_laid_then_a_battle():
    rig = device_rig(START, session.Settings())
    try:
        pos = rig.board.pos
        rng = random.Random(5)
        for n in range(64):
            # Any legal placement: a tile of a terrain the pool still has, on an empty cell.
            a = rng.choice([a for a in pos.legal_actions() if is_placement(a)])
            cell = placement_cell(a)
            before = rig.colour(cell)
            rig.play(a, settle=False)
            assert len(pos.stack) == n + 1 and pos.stack[-1] == a, (n, rig.status())
            assert rig.until(lambda: rig.colour(cell) != before, 500)   # the LEDs say so
        assert not pos.is_building()
        rig.settle()
        agrees_on_the_link(rig)
        assert rig.virtual.tiles == bytearray(pos.tiles) and all(pos.tiles)
        # The battle: a move, a swap, a Vortex, each shown on the LEDs.
        for kind in (is_move, is_swap, is_vortex):
            a = next(a for a in pos.legal_actions() if kind(a))
            rig.play(a, settle=False)
            assert pos.stack[-1] == a
            assert any(any(rig.colour(c)) for c in range(64))
        rig.settle()
        agrees_on_the_link(rig)
    finally:
        rig.close()
