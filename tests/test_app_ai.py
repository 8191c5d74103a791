"""The AI on the board, on the virtual board: it thinks at the level set in
the menu while the board's passes go on (the LEDs show it thinking); a hold
of A shows a hint. Plain asserts (dual-run)."""
from host_sim.scenario import Rig
from vortex.app import leds, session
from vortex.app.board import HINT_LEVEL
from vortex.app.render import CENTRE
from vortex.app.session import Settings
from vortex.engine.defs import LIGHT, DARK
from test_app_scenarios import BATTLE


def test_ai_thinks_with_the_board_alive_and_its_action_is_checked():
    # Each node takes the device's time (about 0.3 ms), so passes run while it thinks.
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=2), node_us=3000)
    seen = [0, 0]  # frames while it thinks, and of them frames showing the thinking light

    def frame(f):
        if rig.board.thinking:
            seen[0] += 1
            if any(f[c * 3 + 1] for c in CENTRE):
                seen[1] += 1
    rig.on_frame = frame
    rig.run("play e2e4")
    board = rig.board
    assert board.pending >= 0 and board.pos.is_legal(board.pending)
    assert board.ai.level == 2 and seen[0] > 0 and seen[1] > 0
    assert not board.thinking
    rig.run("carry")
    assert board.pos.side == LIGHT and board.pending == -1


def test_hint_shows_the_best_action_for_the_human():
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK))
    rig.run("hold a")
    board = rig.board
    hint = board.hint_action
    assert hint >= 0 and board.pos.is_legal(hint) and board.ai.level == HINT_LEVEL
    rig.tick()
    assert rig.shows("abcdefgh"[(hint >> 6) & 7] + str((hint >> 9) + 1), leds.HINT)
    rig.play(hint)  # the human may follow it; the hint is gone after any action
    assert board.hint_action == -1 and board.pending >= 0 and board.ai.level == 3


def test_after_a_hint_the_ai_plays_at_its_own_level_not_the_hint_s():
    assert HINT_LEVEL != 1
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=1))
    rig.run("hold a")
    board = rig.board
    assert board.hint_action >= 0 and board.ai.level == HINT_LEVEL
    rig.play(board.hint_action)
    assert board.pending >= 0 and board.pos.is_legal(board.pending) and board.ai.level == 1


def test_ai_level_chosen_in_the_menu_and_saved():
    rig = Rig(BATTLE)
    rig.run("hold b, press b, press b, press b, press b, press b")  # to the AI level row
    assert rig.board.menu.item == 5
    rig.run("press a, hold b")  # level 3 -> 4, close
    s = rig.board.settings
    assert s.ai_level == 4
    text = session.dump(s, BATTLE, [], (0, 0))
    assert session.load(text)[0].ai_level == 4
    old = text.decode().replace(" 4 1\n" + BATTLE, "\n" + BATTLE)  # from before levels (and volume)
    assert old != text.decode()
    assert session.load(old.encode())[0].ai_level == 3


def test_the_search_fits_a_smaller_table_when_the_heap_has_no_block_for_its_own():
    # CircuitPython's heap can lack the level's 8 KB block at boot: the table
    # halves until one fits, and the board still gets its opponent.
    from vortex.ai import search
    from vortex.app.ai import searcher, MIN_TT_BITS
    real = search.Search

    class Tight(real):
        def __init__(self, max_ply=6, tt_bits=9, history=True, poll=None):
            if tt_bits > 8:
                raise MemoryError("no block for %d bytes" % (8 << tt_bits))
            real.__init__(self, max_ply, tt_bits, history, poll)

    class NoHistory(real):
        def __init__(self, max_ply=6, tt_bits=9, history=True, poll=None):
            if history or tt_bits > 9:
                raise MemoryError("no block for the history")
            real.__init__(self, max_ply, tt_bits, history, poll)

    class Starved(real):
        def __init__(self, max_ply=6, tt_bits=9, history=True, poll=None):
            raise MemoryError("nothing at all")

    try:
        search.Search = Tight
        s = searcher(5)
        assert len(s.tt) == 8 << 8 and s.tt_mask == 255 and s.history is not None
        search.Search = NoHistory
        s = searcher(5)
        assert s.history is None and len(s.tt) == 8 << 9
        search.Search = Starved
        try:
            searcher(5)
            assert False, "a heap with no room at all is not hidden"
        except MemoryError:
            pass
    finally:
        search.Search = real
    assert MIN_TT_BITS < 8


def test_the_search_leaves_the_heap_its_reserve():
    # CircuitPython makes the search last: its tables shrink until the game
    # keeps `reserve` bytes of heap to play on (main.py's HEAP_RESERVE).
    import gc
    if not hasattr(gc, "mem_free"):
        return  # MicroPython's heap only (tests/mpy_runner.py runs this too)
    from vortex.app.ai import searcher
    searcher(5)  # its modules and shared keys loaded: what follows is the search's own
    gc.collect()
    free = gc.mem_free()
    full = searcher(5)
    gc.collect()
    cost = free - gc.mem_free()
    size = len(full.tt)
    full = None
    gc.collect()
    # Room for the search's full tables and what must stay free: full size.
    s = searcher(5, reserve=1024)
    assert len(s.tt) == size and s.history is not None
    s = None
    gc.collect()
    # A reserve the full tables would eat into by a byte: smaller tables.
    s = searcher(5, reserve=gc.mem_free() - cost + 1)
    assert len(s.tt) < size or s.history is None
    s = None
    gc.collect()
    try:
        searcher(5, reserve=free + 1)
        assert False, "a reserve no search can leave is not hidden"
    except MemoryError:
        pass


def test_a_board_with_no_room_for_the_search_plays_on_with_the_quick_mover():
    # Where no search fits (CircuitPython's heap with every part of the
    # board loaded), the board says so and its AI plays at level 0.
    from vortex.app import board as board_module
    from vortex.app.board import NO_SEARCH
    real = board_module.searcher

    def starved(level, poll=None, reserve=0):
        raise MemoryError("no room")
    try:
        board_module.searcher = starved
        rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=5))
        rig.run("play e2e4")
        board = rig.board
        assert NO_SEARCH in board.messages
        assert board.ai.level == 0 and board.ai.search is None
        assert board.pending >= 0 and board.pos.is_legal(board.pending)
        rig.run("carry")
        assert board.pos.side == LIGHT and board.pending == -1
    finally:
        board_module.searcher = real

