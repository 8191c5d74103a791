"""The AI's heap on the device levels and no allocation per search, under
MicroPython (gc.mem_alloc; on CPython these tests have nothing to measure).
Apart from test_ai_games so that the virtual board's modules are not loaded."""
import gc

from vortex.engine.position import Position
from vortex.app.ai import Ai
from vortex.ai import zobrist

BATTLE = ("WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE/WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE"
          " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
MICROPYTHON = hasattr(gc, "mem_alloc")
# Level 5's tables: 8 KB of transposition table, 4 KB of history, an action
# buffer per ply and the keys; the board has ~175 KB free after boot (docs/ai.md).
DEVICE_HEAP = 26 * 1024


def test_a_search_allocates_nothing_after_construction():
    if not MICROPYTHON:
        return  # gc.mem_alloc is MicroPython's
    pos = Position(BATTLE)
    ai = Ai(level=5, seed=1)
    ai.choose(pos)  # the first search may grow nothing either, but warm it
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for seed_pos in range(3):
            ai.choose(pos)
        used = gc.mem_alloc() - before
    finally:
        gc.enable()
    assert used == 0, used


def test_device_levels_fit_their_heap():
    if not MICROPYTHON:
        return
    pos = Position(BATTLE)
    Ai(level=1).choose(pos)  # modules loaded: the AI's tables are counted, not its code
    for level in (1, 5):
        zobrist._shared = None  # its keys counted too
        gc.collect()
        before = gc.mem_alloc()
        ai = Ai(level=level)
        ai.choose(pos)  # the search is made on the first battle action
        gc.collect()
        assert gc.mem_alloc() - before <= DEVICE_HEAP, (level, gc.mem_alloc() - before)
        del ai
