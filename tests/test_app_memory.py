"""The board's AI and the heap (CircuitPython's is 160 KB): the search's
tables sized to what is free before each search, and a MemoryError in the
AI's turn met by giving the tables back and playing on with less, said on
the host link and with the memory sound. The errors are forced here, as a
long game on CircuitPython met them (tests/test_device_circuitpython.py
forces one on the emulated boards). Plain asserts (dual-run)."""
from vortex.link.link import Link
from link_pipe import Pipe
from host_sim.scenario import Rig
from vortex.app.session import Settings
from vortex.engine.defs import LIGHT, DARK
from test_app_idle import BATTLE


def test_the_tables_are_sized_to_the_heap_before_each_search():
    # fit(search, level, free, reserve): what the level uses, as large as
    # leaves `reserve` free beside them; kept when they already serve it.
    from vortex.app.ai import searcher, fit, wants, MIN_TT_BITS, BLOCK
    s = searcher(5)  # 1,024 entries and the history: 12 KB
    tt = s.tt
    assert wants(5) == (10, True) and wants(3) == (8, False) and s.table_bytes() == 12288
    small = searcher(5, smallest=True)  # CircuitPython's at boot: grown before a search
    assert (small.table_bytes(), small.history, small.max_ply) == (8 << MIN_TT_BITS, None, 4)
    small = None
    assert fit(s, 3, 100000, 6144) and s.tt is tt  # room: kept, not made again
    assert fit(s, 5, -1, 6144) and s.tt is tt  # a heap that cannot be measured (CPython)
    # Short of room: made anew, as large as the level uses and the room allows.
    assert fit(s, 3, 1000, 6144)  # room 1000 + 12288 - 6144: level 3's 2 KB table
    assert len(s.tt) == 2048 and s.tt_mask == 255 and s.history is None
    assert fit(s, 5, 20000, 6144)  # room again: level 5's whole tables back
    assert s.table_bytes() == 12288 and s.history is not None and s.tt_bits == 10
    assert fit(s, 5, 0, 6144)  # 6 KB of room: the history goes before the table halves
    assert (s.tt_bits, s.history) == (9, None)
    assert fit(s, 5, 0, 100000)  # no room at all: the smallest table, asked for anyway
    assert s.table_bytes() == 8 << MIN_TT_BITS
    # The heap in pieces: with the tables, no block of BLOCK bytes left for
    # the game: smaller tables, until there is one (the smallest at worst).
    from vortex import heap
    has = heap.has
    pieces = [2]

    def broken_up_beside(n):
        assert n == BLOCK
        if pieces[0]:
            pieces[0] -= 1
            return False
        return has(n)
    heap.has = broken_up_beside
    try:
        assert fit(s, 5, 100000, 6144) and (s.tt_bits, s.history) == (9, None) and not pieces[0]
        pieces[0] = 100
        assert fit(s, 5, 100000, 6144) and s.table_bytes() == 8 << MIN_TT_BITS
        assert fit(s, 3, 100000, 0) and s.table_bytes() == 2048  # no reserve: not asked
    finally:
        heap.has = has
    # The largest-block check: a heap with no block for a table gets a smaller one.
    real = s.resize
    asked = []

    def broken_up(bits, history):
        asked.append((bits, history))
        if bits > 7 or history:
            real(MIN_TT_BITS, False)  # given back, as resize() does, then no block
            s.tt = bytearray(0)
            raise MemoryError("no block of %d bytes" % (8 << bits))
        real(bits, history)
    s.resize = broken_up
    assert fit(s, 5, 100000, 0) and s.tt_bits == 7 and s.history is None
    assert asked == [(10, True), (10, False), (9, True), (9, False), (8, True), (8, False),
                     (7, True), (7, False)]

    def starved(bits, history):
        s.tt = bytearray(0)
        s.history = None
        raise MemoryError("nothing")
    s.resize = starved
    assert not fit(s, 3, 100000, 0)  # not even the smallest: the board plays without it
    assert s.table_bytes() == 0


def test_a_memory_error_in_the_ai_s_turn_gives_the_table_back_and_the_game_goes_on():
    # Forced: the search's first run finds no heap (as CircuitPython's did
    # in a long game). The board gives the tables back, searches again with
    # the smallest, says so on the link and with its memory sound, and asks
    # for its action; a second shortfall leaves the quick mover (level 0)
    # for the rest of the game, and the next game tries a search again.
    from vortex.app.board import SHORT_TABLE, NO_SEARCH
    from vortex.app.ai import MIN_TT_BITS
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=5))
    board = rig.board
    assert board.make_search() and board.table_bytes() == 12288  # first, as main.py does
    pipe = Pipe()
    rig.service.link = Link(board)
    rig.service.port = pipe
    pipe.send("subscribe memory\n")
    rig.tick(2)
    search = board._search
    real = search.run
    failures = [1]

    def short_of_heap(*args):
        if failures[0]:
            failures[0] -= 1
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real(*args)
    search.run = short_of_heap
    rig.run("play e2e4")
    assert board.pending >= 0 and board.pos.is_legal(board.pending)
    assert board.short == 1 and board.short_text == SHORT_TABLE % (8 << MIN_TT_BITS)
    assert board.table_bytes() == 8 << MIN_TT_BITS and board.ai.level == 5
    assert board.short_text in board.messages
    assert any(name == "memory" for _, name, _ in rig.virtual.buzzer.played)
    assert [line.split(" ", 1)[1] for line in pipe.lines() if " memory " in line] == [
        "memory " + board.short_text]
    rig.run("carry")
    # Twice in a turn: the smallest table runs short too; no search, the
    # quick mover plays.
    failures[0] = 2
    rig.play(next(a for a in board.pos.legal_actions()))
    assert board.pending >= 0 and board.pos.is_legal(board.pending)
    # (3 where the heap is measured and had room: the table was grown back
    # for the turn, then given back again; 2 on CPython, which keeps it.)
    assert board.short in (2, 3) and board.short_text == NO_SEARCH and board.ai.level == 0
    assert board.table_bytes() == 0
    rig.run("carry")
    assert board.pos.side == LIGHT and board.pending == -1
    board.new_game(BATTLE)  # a new game tries a search again
    rig.run("tidy, play e2e4")
    assert board.ai.level == 5 and board.table_bytes() > 0 and board.pending >= 0


def test_a_memory_error_in_a_pass_made_while_the_ai_thinks_is_the_ai_s_turn_s_too():
    import gc
    # The search runs the board's passes (the link, the LEDs): a block they
    # cannot get is met the same way, and the turn ends with an action.
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=3))
    board = rig.board
    board.make_search()
    hook = board.on_think
    calls = [0]

    def starved_pass():
        calls[0] += 1
        if calls[0] == 3:
            raise MemoryError("memory allocation failed")
        hook()
    board.on_think = starved_pass
    rig.run("play e2e4")
    assert calls[0] > 3 and board.short == 1 and board.pending >= 0
    # The heap measured before each search (-1 on CPython): the second's
    # had the tables given back.
    assert board.heap_low <= board.heap_before and (board.heap_low >= 0) == hasattr(gc, "mem_free")


def test_when_even_the_quick_mover_finds_no_heap_the_turn_waits_and_comes_back():
    from vortex.app.board import NO_HEAP
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=3))
    board = rig.board
    board._no_search()  # no search: the quick mover plays
    from vortex.app import board as board_module
    real = board_module.Ai.choose
    failures = [2]

    def starved(self, pos):
        if failures[0]:
            failures[0] -= 1
            raise MemoryError("nothing")
        return real(self, pos)
    board_module.Ai.choose = starved
    try:
        rig.run("play e2e4")
    finally:
        board_module.Ai.choose = real
    assert board.short == 1 and board.short_text == NO_HEAP  # said once
    assert board.pending >= 0 and board.pos.is_legal(board.pending)


def test_the_heap_as_the_firmware_measures_it():
    # vortex.heap: free after a collection, the largest block by asking for
    # blocks; -1 where the runtime has no such heap (CPython).
    import gc
    from vortex import heap
    if not hasattr(gc, "mem_free"):
        assert heap.free() == -1 and heap.largest(4096) == -1
        return
    free = heap.free()
    assert 0 < free == gc.mem_free()
    big = heap.largest(1 << 24)
    assert 0 < big <= free
    gc.collect()
    block = bytearray(big)  # it is had...
    block = None
    gc.collect()
    try:
        block = bytearray(big + 2 * heap.STEP)  # ...and one a little larger is not
        assert False, "a larger block was had: %d" % len(block)
    except MemoryError:
        pass
    assert heap.largest(1000) == 1000 and heap.largest(big // 2) == big // 2
