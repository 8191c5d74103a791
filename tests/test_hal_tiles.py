"""TileScanner, AntennaMux and ShiftMux with a fake reader that answers
from a script of readings per cell and time. Runs under MicroPython too."""
import gc

from hal_fakes import FakePin
from hal_fake_tiles import READ_ERR, ENC, rig, run, full_board
from vortex import tag
from vortex.tag import NO_TILE, WATER, FIRE, EARTH, AIR, UNKNOWN, NOT_READ
from vortex.hal.tiles import TileScanner, AntennaMux, ShiftMux, BURST, DOUBT, RETRIES
from vortex.tag import OK, NOTAG, ERR
from vortex.ticks import ticks_add, ticks_diff

def test_starts_not_read_then_first_sweep_reads_everything():
    board = full_board()
    clock, mux, reader, sc = rig(board)
    assert sc.cells == bytearray([NOT_READ] * 64) and sc.unread == 64
    run(clock, sc, 2000)
    assert sc.cells == bytearray(board) and sc.unread == 0
    # Each cell confirmed by a second read right after the first.
    first = reader.cells_log(0, 128)
    for c in range(64):
        assert first[2 * c] == c and first[2 * c + 1] == c


def test_a_sweep_takes_about_half_a_second():
    clock, mux, reader, sc = rig(full_board())
    run(clock, sc, 3000)
    # Steady state: the sweep visits cells in order, one settle each.
    assert reader.cells_log(128, 192) == bytes(range(64))
    t_first = reader.time(128)
    t_64 = reader.time(128 + 64)
    assert 64 * 5 <= ticks_diff(t_64, t_first) <= 64 * 10


def test_empty_board_reads_no_tile():
    clock, mux, reader, sc = rig()
    run(clock, sc, 2000)
    assert sc.cells == bytearray(64)


def test_momentary_misreads_change_nothing():
    board = full_board()
    clock, mux, reader, sc = rig(board)
    run(clock, sc, 2000)
    reader.glitch[10] = [UNKNOWN]
    reader.glitch[20] = [READ_ERR]
    reader.glitch[30] = [NO_TILE]
    reader.glitch[40] = [AIR if board[40] != AIR else WATER]
    n0 = reader.nlog()
    assert run(clock, sc, 2000) == []
    assert sc.cells == bytearray(board)
    for c in (10, 20, 30, 40):
        seq = reader.codes_of(c, n0)
        assert seq[0] != board[c] and seq[1] == board[c]


def test_failed_reads_change_a_reading_only_when_doubt_of_them_agree():
    # A tag that fails now and then (no answer, a garbled frame) is what a
    # lifted tile or a foreign tag looks like for one read: it takes DOUBT
    # reads in a row, re-read at once, to believe it. At the simulator's
    # worst noise (half the reads fail, a quarter of them each way) a false
    # reading then starts once in 4**DOUBT reads: under once a minute.
    assert 4 ** DOUBT > 60 * 150 and RETRIES == DOUBT - 1
    board = full_board()
    clock, mux, reader, sc = rig(board)
    run(clock, sc, 2000)
    reader.glitch[10] = [NO_TILE] * 3
    reader.glitch[20] = [READ_ERR] * 3
    reader.glitch[30] = [NO_TILE, READ_ERR] * DOUBT
    sc.expect(10)
    sc.expect(20)
    sc.expect(30)
    assert run(clock, sc, 500) == [] and sc.cells == bytearray(board)
    reader.glitch[40] = [NO_TILE] * DOUBT
    reader.glitch[50] = [READ_ERR] * DOUBT
    sc.expect(40)
    sc.expect(50)
    n0 = reader.nlog()
    assert sorted(run(clock, sc, 60)) == [40, 50]  # a few ms: the re-reads come at once
    assert reader.codes_of(50, n0) == [READ_ERR] * DOUBT
    assert sc.cells[40] == NO_TILE and sc.cells[50] == UNKNOWN


def test_failed_reads_among_a_tiles_reads_do_not_hold_it_back():
    # A cell read as empty by mistake comes back at the second good read of
    # its tile, failed reads between them or not.
    board = full_board()
    clock, mux, reader, sc = rig(board)
    run(clock, sc, 2000)
    good = board[12]
    reader.glitch[12] = [NO_TILE] * DOUBT + [good, NO_TILE, READ_ERR, good] + [NO_TILE] * 3
    sc.expect(12)
    seen = []
    for _ in range(80):
        if sc.poll(clock.t):
            seen.append((sc.cells[12], len(reader.glitch[12])))
        clock.t += 1
    assert seen == [(NO_TILE, 7), (good, 3)]


def test_a_placed_tile_needs_two_reads():
    clock, mux, reader, sc = rig()
    run(clock, sc, 1500)
    reader.timeline[27] = [(ticks_add(clock.t, 100), EARTH)]
    sc.expect(27)
    ch = []
    n0 = reader.nlog()
    for _ in range(200):
        if sc.poll(clock.t):
            ch.append(clock.t)
            break
        clock.t = ticks_add(clock.t, 2)
    assert sc.cells[27] == EARTH
    reads27 = reader.codes_of(27, n0)
    assert reads27[-2:] == [EARTH, EARTH]
    # Seen within a few ms of the placement, not a sweep later.
    assert ticks_diff(ch[0], reader.timeline[27][0][0]) < 40


def test_swap_of_two_expected_cells():
    board = bytearray(full_board())
    clock, mux, reader, sc = rig(board)
    run(clock, sc, 2000)
    a, b = 35, 36
    ta, tb = board[a], board[b]
    # The player lifts both tiles, then puts them down exchanged.
    t = clock.t
    reader.timeline[a] = [(ticks_add(t, 200), NO_TILE), (ticks_add(t, 900), tb)]
    reader.timeline[b] = [(ticks_add(t, 300), NO_TILE), (ticks_add(t, 800), ta)]
    sc.expect(a)
    sc.expect(b)
    run(clock, sc, 1000)
    assert sc.cells[a] == tb and sc.cells[b] == ta


def test_expected_cells_do_not_starve_the_sweep():
    clock, mux, reader, sc = rig(full_board())
    run(clock, sc, 2000)
    for c in range(8):
        sc.expect(c, hold_ms=100000)
    n0 = reader.nlog()
    run(clock, sc, 3000)
    log = reader.cells_log(n0)
    hot = sum(1 for c in log if c < 8)
    assert hot >= len(log) * BURST // (BURST + 1) - 2
    # The sweep still gets round: every cell read in these 3 s.
    assert set(log) == set(range(64))


def test_hold_expires():
    clock, mux, reader, sc = rig(full_board())
    run(clock, sc, 2000)
    sc.expect(50, hold_ms=200)
    n0 = reader.nlog()
    run(clock, sc, 200)
    during = sum(1 for c in reader.cells_log(n0) if c == 50)
    n1 = reader.nlog()
    run(clock, sc, 2000)
    after = sum(1 for c in reader.cells_log(n1) if c == 50)
    assert during >= 10
    assert after <= 5               # back to once a sweep


def test_expect_moves_a_waiting_cell_to_the_front():
    clock, mux, reader, sc = rig(full_board(), settle=0)
    run(clock, sc, 400)
    for c in (1, 2, 3, 4):
        sc.expect(c)                # ring: 4 3 2 1
    sc.expect(2)                    # ring: 2 4 3 1
    n0 = reader.nlog()
    run(clock, sc, 40, step=1)
    order = list(reader.cells_log(n0))
    # Maybe one read of the antenna chosen before the expect() calls.
    if order[0] not in (1, 2, 3, 4):
        order = order[1:]
    assert order[:3] == [2, 4, 3]


def test_a_flapping_tag_is_retried_a_bounded_number_of_times():
    board = full_board()
    clock, mux, reader, sc = rig(board, settle=0)
    run(clock, sc, 400)
    reader.glitch[5] = [WATER, FIRE, WATER, FIRE, WATER, FIRE]
    before = bytearray(sc.cells)
    run(clock, sc, 200, step=1)
    # After the first sweep, never more than 1 + RETRIES reads in a row of a cell.
    longest = run_len = 0
    cells = reader._lc
    for i in range(128, len(cells)):
        run_len = run_len + 1 if cells[i] == cells[i - 1] else 1
        longest = max(longest, run_len)
    assert longest <= 1 + RETRIES
    assert sc.cells == before


def test_unknown_tag_is_reported_after_doubt_reads():
    clock, mux, reader, sc = rig(full_board())
    run(clock, sc, 2000)
    reader.timeline[7] = [(clock.t, UNKNOWN)]
    sc.expect(7)
    run(clock, sc, 100)
    assert sc.cells[7] == UNKNOWN


def test_across_the_ticks_wrap():
    t0 = ticks_add(0, -700)
    board = full_board()
    clock, mux, reader, sc = rig(board, t0=t0)
    run(clock, sc, 2000)
    assert sc.cells == bytearray(board)
    reader.timeline[9] = [(clock.t, NO_TILE)]
    sc.expect(9)
    run(clock, sc, 100)
    assert sc.cells[9] == NO_TILE


def test_antenna_mux_gpio():
    sel = [FakePin("s%d" % i) for i in range(4)]
    en = [FakePin("e%d" % i) for i in range(4)]
    m = AntennaMux(sel, en)
    assert all(p.mode == FakePin.OUT for p in sel + en)
    assert all(p.v == 1 for p in en)
    for c in range(64):
        m.select(c)
        assert [p.v for p in sel] == [c >> i & 1 for i in range(4)]
        assert [p.v for p in en] == [0 if i == c >> 4 else 1 for i in range(4)]
        assert m.cell == c
    m.off()
    assert all(p.v == 1 for p in en) and m.cell == -1
    # A decoder tree: six select lines, no enables.
    sel6 = [FakePin() for i in range(6)]
    m6 = AntennaMux(sel6)
    m6.select(45)
    assert [p.v for p in sel6] == [1, 0, 1, 1, 0, 1]


def test_shift_mux_595():
    class Spi:
        def __init__(self):
            self.out = []

        def write(self, b):
            self.out.append(bytes(b))

    spi = Spi()
    latch = FakePin("latch")
    m = ShiftMux(spi, latch)
    assert spi.out == [b"\xf0"] and latch.v == 0 and latch.writes == 2
    for c in range(64):
        m.select(c)
        v = spi.out[-1][0]
        assert v & 0x0F == c & 15
        assert v >> 4 == 0x0F ^ (1 << (c >> 4))
    m.off()
    assert spi.out[-1] == b"\xf0"


def test_poll_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only

    class Mux:
        cell = -1

        def select(self, c):
            self.cell = c

    class Reader:
        def __init__(self, mux):
            self.mux = mux
            self.n = 0

        def read_tile(self, buf):
            self.n += 1
            c = self.mux.cell
            if c & 3 == 0:
                return NOTAG
            if self.n % 11 == 0:
                return ERR
            src = ENC[c & 3]
            for i in range(16):
                buf[i] = src[i]
            return OK

    mux = Mux()
    sc = TileScanner(Reader(mux), mux, 0)
    t = 0
    for _ in range(300):
        sc.poll(t)
        t += 3
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for i in range(300):
            if i % 50 == 0:
                sc.expect(i % 64)
            sc.poll(t)
            t += 3
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used


def test_ids_follow_the_tile_serial():
    # The Fire tile on b1 replaced by another Fire tile, serial 0x1234: the
    # terrain stays, the id (the serial's low byte) changes, poll() says so.
    import hal_fake_tiles
    clock, mux, reader, sc = rig(full_board())
    run(clock, sc, 2000)
    assert sc.cells[1] == FIRE and sc.ids[1] == FIRE   # fake serial = terrain
    before = bytearray(sc.cells)
    saved = hal_fake_tiles.ENC[FIRE]
    hal_fake_tiles.ENC[FIRE] = tag.encode(FIRE, 0x1234)
    try:
        sc.expect(1)
        reported = False
        for _ in range(50):
            reported = sc.poll(clock.t) or reported
            clock.t = ticks_add(clock.t, 2)
    finally:
        hal_fake_tiles.ENC[FIRE] = saved
    assert reported and sc.ids[1] == 0x34 and sc.cells == before


def test_a_missing_reader_is_asked_again_once_a_second_and_found_again():
    board = full_board()
    clock, mux, reader, sc = rig(board)
    reader.absent = True
    run(clock, sc, 3000)
    assert sc.missing and sc.cells == bytearray([NOT_READ] * 64)
    assert reader.calls <= 4          # once a second, not once a poll
    reader.absent = False
    run(clock, sc, 3000)
    assert not sc.missing and sc.cells == bytearray(board)
