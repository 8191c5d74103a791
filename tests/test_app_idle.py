"""The idle tick allocates nothing: a scan loop that allocates would make
the garbage collector pause the board. Plain asserts (dual-run); the
allocation check itself needs MicroPython's gc.mem_alloc()."""
import gc

from vortex.app.board import Board
from vortex.app.session import Settings
from vortex.engine.position import Position

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def idle_board(settings):
    board = Board(None, settings)
    board.new_game(BATTLE)
    pos = Position(BATTLE)
    occ = bytearray(64)
    tiles = bytearray(64)
    ids = bytearray(64)
    for c in range(64):
        occ[c] = 1 if pos.pieces[c] else 0
        tiles[c] = pos.tiles[c]
        ids[c] = c + 1
    now = 0
    for _ in range(200):  # settle into agreement; the first frame is drawn
        now += 5
        board.step(now, occ, tiles, ids, 0)
    return board, occ, tiles, ids, now


def idle_growth(settings, ticks=1000):
    """gc.mem_alloc() growth over `ticks` idle ticks (None off MicroPython)."""
    board, occ, tiles, ids, now = idle_board(settings)
    step = board.step
    if not hasattr(gc, "mem_alloc"):
        redrawn = 0
        for _ in range(ticks):
            now += 5
            if step(now, occ, tiles, ids, 0):
                redrawn += 1
        assert redrawn == 0  # nothing changes, so nothing is drawn
        return None
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(ticks):
        now += 5
        step(now, occ, tiles, ids, 0)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def test_idle_tick_allocates_nothing():
    growth = idle_growth(Settings())
    assert growth is None or growth == 0, growth


def test_idle_tick_with_a_running_clock_allocates_nothing():
    growth = idle_growth(Settings(clock_ms=600000, increment_ms=5000))
    assert growth is None or growth == 0, growth


def test_lifting_and_putting_back_a_piece_allocates_nothing():
    # Not idle, but the commonest handling: compare, judge, destinations and
    # two full frames, a hundred times over, without a byte of garbage.
    board, occ, tiles, ids, now = idle_board(Settings())
    e2 = 12
    drawn = 0
    if hasattr(gc, "mem_alloc"):
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
    for _ in range(100):
        now += 5
        occ[e2] = 0
        drawn += board.step(now, occ, tiles, ids, 0)
        now += 5
        occ[e2] = 1
        drawn += board.step(now, occ, tiles, ids, 0)
    if hasattr(gc, "mem_alloc"):
        growth = gc.mem_alloc() - before
        gc.enable()
        assert growth == 0, growth
    assert drawn == 200  # every lift and every put-back redrew the frame
    assert board.pos.stack == []


def test_a_piece_held_still_is_drawn_once():
    # The view of a piece in hand does not change while it is held: one
    # frame for the lift, none for the seconds after (each costs the device
    # a NeoPixel write), and none allocated.
    board, occ, tiles, ids, now = idle_board(Settings())
    occ[12] = 0  # e2 lifted
    drawn = 0
    for _ in range(400):  # 2 s, past the settle time
        now += 5
        drawn += board.step(now, occ, tiles, ids, 0)
    assert drawn == 1 and board.judged


def test_a_redraw_that_changes_nothing_is_not_a_new_frame():
    board, occ, tiles, ids, now = idle_board(Settings())
    board.request(board.pos.parse_action("e2e4"))  # the pending action blinks
    shown = []
    for _ in range(200):
        now += 5
        if board.step(now, occ, tiles, ids, 0):
            shown.append(bytes(board.frame))
    assert len(shown) >= 2
    for a, b in zip(shown, shown[1:]):
        assert a != b  # a blink phase each time: no frame twice in a row
    board.dirty = True  # asked to draw again within the same blink phase
    assert not board.step(now + 1, occ, tiles, ids, 0)


def test_sensors_given_as_lists_are_judged_the_same():
    # The fast path compares bytearrays in C; other sequences take the loop
    # and must still settle into a verdict and a commit.
    board, occ, tiles, ids, now = idle_board(Settings())
    occ, tiles = list(occ), list(tiles)
    occ[12], occ[28] = 0, 1  # e2 to e4
    for _ in range(100):
        now += 5
        board.step(now, occ, tiles, ids, 0)
    assert board.pos.stack == [12 << 6 | 28]
