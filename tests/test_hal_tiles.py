"""TileScanner with a fake front end and fake readers (one per rank) that
answer from a script of readings per cell and time. Runs under MicroPython
too."""
import gc

from hal_fake_tiles import READ_ERR, OTHER, ENC, rig, run, full_board
from vortex import tag
from vortex.tag import NO_TILE, WATER, FIRE, AIR, UNKNOWN, NOT_READ
from vortex.hal.tiles import TileScanner, BURST, RETRY_MS, DOUBT, RETRIES, SWEEP_MS, CONFIRM
from vortex.tag import OK, NOTAG, ERR, BUSY
from vortex.ticks import ticks_add, ticks_diff


def test_starts_not_read_then_first_sweep_reads_everything():
    board = full_board()
    clock, truth, sc = rig(board)
    assert sc.cells == bytearray([NOT_READ] * 64) and sc.unread == 64
    run(clock, sc, 300)
    assert sc.cells == bytearray(board) and sc.unread == 0
    # Each cell confirmed by a second read right after the first, in its rank.
    for r in range(8):
        first = [c for c in truth.cells_log() if c >> 3 == r][:16]
        assert first == [r * 8 + f for f in range(8) for _ in (0, 1)], (r, first)


def test_the_ranks_are_read_at_once_and_a_sweep_takes_eight_settles():
    clock, truth, sc = rig(full_board(), read_ms=3)
    run(clock, sc, 500)
    assert truth.most_busy == 8                 # every reader at work together
    n0 = truth.nlog()
    t0 = clock.t
    run(clock, sc, 200)
    # Steady state: each rank goes round its 8 cells, a settle and a read each.
    per_s = (truth.nlog() - n0) * 1000 // 200
    assert 64 * 1000 // (8 * (5 + 3 + 2)) <= per_s <= 64 * 1000 // (8 * (5 + 3)), per_s
    assert ticks_diff(clock.t, t0) == 200


def test_empty_board_reads_no_tile():
    clock, truth, sc = rig()
    run(clock, sc, 300)
    assert sc.cells == bytearray(64)


def test_momentary_misreads_change_nothing():
    board = full_board()
    clock, truth, sc = rig(board)
    run(clock, sc, 300)
    truth.glitch[10] = [UNKNOWN]
    truth.glitch[20] = [READ_ERR]
    truth.glitch[30] = [NO_TILE]
    truth.glitch[40] = [AIR if board[40] != AIR else WATER]
    n0 = truth.nlog()
    assert run(clock, sc, 300) == []
    assert sc.cells == bytearray(board)
    for c in (10, 20, 30, 40):
        seq = truth.codes_of(c, n0)
        assert seq[0] != board[c] and seq[1] == board[c]


def test_failed_reads_change_a_reading_only_when_doubt_of_them_agree():
    # A tag that fails now and then (no answer, a garbled frame) is what a
    # lifted tile or a foreign tag looks like for one read: it takes DOUBT
    # reads in a row, re-read at once, to believe it. At the simulator's
    # worst noise (half the reads fail, a quarter of them each way) a false
    # reading then starts once in 4**DOUBT reads: under once a minute.
    assert 4 ** DOUBT > 60 * 150 and RETRIES == DOUBT - 1
    board = full_board()
    clock, truth, sc = rig(board)
    run(clock, sc, 300)
    truth.glitch[10] = [NO_TILE] * 3
    truth.glitch[20] = [READ_ERR] * 3
    truth.glitch[30] = [NO_TILE, READ_ERR] * DOUBT
    sc.expect(10)
    sc.expect(20)
    sc.expect(30)
    assert run(clock, sc, 500) == [] and sc.cells == bytearray(board)
    truth.glitch[40] = [NO_TILE] * DOUBT
    truth.glitch[50] = [READ_ERR] * DOUBT
    sc.expect(40)
    sc.expect(50)
    n0 = truth.nlog()
    seen = {}
    for _ in range(60):                  # a few ms: the re-reads come at once
        if sc.poll(clock.t):
            for c in (40, 50):
                if sc.cells[c] != board[c]:
                    seen.setdefault(c, sc.cells[c])
        clock.t += 1
    assert seen == {40: NO_TILE, 50: UNKNOWN}
    assert truth.codes_of(50, n0)[:DOUBT] == [READ_ERR] * DOUBT


def test_failed_reads_among_a_tiles_reads_do_not_hold_it_back():
    # A cell read as empty by mistake comes back at the second good read of
    # its tile, failed reads between them or not: a tile of every terrain.
    board = full_board()
    clock, truth, sc = rig(board)
    run(clock, sc, 300)
    for c in (12, 13, 14, 15):           # Water, Fire, Earth, Air
        good = board[c]
        truth.glitch[c] = [NO_TILE] * DOUBT + [good, NO_TILE, READ_ERR, good] + [NO_TILE] * 3
        sc.expect(c)
        seen = []
        for _ in range(80):
            if sc.poll(clock.t):
                seen.append((sc.cells[c], len(truth.glitch[c])))
            clock.t += 1
        assert seen == [(NO_TILE, 7), (good, 3)], (c, seen)
        truth.glitch[c] = []


def test_a_tile_replaced_by_another_of_its_terrain_takes_two_reads_in_a_row_to_change_its_id():
    # The id changes as the terrain does: CONFIRM reads of the new tile in a
    # row, failed reads between them not counting; one read of another
    # tile between reads of the old one is a misread. Every terrain.
    assert CONFIRM == 2
    board = full_board()
    clock, truth, sc = rig(board)
    run(clock, sc, 300)

    def follow(c, ms=40):
        """Poll for ms with c expected: [(reads of c so far, its id)] at each report."""
        n0 = truth.nlog()
        sc.expect(c)
        out = []
        for _ in range(ms):
            if sc.poll(clock.t):
                out.append((len(truth.codes_of(c, n0)), sc.ids[c]))
            clock.t += 1
        return out

    for c in (20, 21, 22, 23):           # Water, Fire, Earth, Air
        t = board[c]
        assert sc.ids[c] == t            # (the fake tiles' serial is their terrain)
        for misread in ([OTHER + t], [OTHER + t, t, OTHER + t], [OTHER + t, READ_ERR, t]):
            truth.glitch[c] = list(misread)
            assert follow(c) == [] and not truth.glitch[c], (c, misread)
            assert sc.ids[c] == t, (c, misread)
        truth.board[c] = OTHER + t        # replaced: the second read in a row changes the id
        truth.glitch[c] = [OTHER + t, READ_ERR]
        assert follow(c) == [(3, 0x80 + t)], c
        assert sc.cells == bytearray(board), c
        truth.board[c] = t                # the first tile back
        assert follow(c) == [(2, t)], c


def test_a_placed_tile_needs_two_reads_and_an_expected_cell_is_seen_at_once():
    clock, truth, sc = rig(read_ms=2)
    run(clock, sc, 300)
    truth.timeline[27] = [(ticks_add(clock.t, 100), tag.EARTH)]
    sc.expect(27)
    ch = []
    n0 = truth.nlog()
    for _ in range(300):
        if sc.poll(clock.t):
            ch.append(clock.t)
            break
        clock.t = ticks_add(clock.t, 1)
    assert sc.cells[27] == tag.EARTH
    assert truth.codes_of(27, n0)[-2:] == [tag.EARTH, tag.EARTH]
    # Seen within a few ms of the placement, not a sweep later.
    assert ticks_diff(ch[0], truth.timeline[27][0][0]) < 25


def test_swap_of_two_expected_cells():
    board = bytearray(full_board())
    clock, truth, sc = rig(board)
    run(clock, sc, 300)
    a, b = 35, 44                    # two ranks
    ta, tb = board[a], board[b]
    t = clock.t
    truth.timeline[a] = [(ticks_add(t, 200), NO_TILE), (ticks_add(t, 900), tb)]
    truth.timeline[b] = [(ticks_add(t, 300), NO_TILE), (ticks_add(t, 800), ta)]
    sc.expect(a)
    sc.expect(b)
    run(clock, sc, 1000)
    assert sc.cells[a] == tb and sc.cells[b] == ta


def test_expected_cells_do_not_starve_their_ranks_sweep():
    clock, truth, sc = rig(full_board())
    run(clock, sc, 300)
    for c in (24, 25, 26):
        sc.expect(c, hold_ms=100000)
    n0 = truth.nlog()
    run(clock, sc, 800)
    log = [c for c in truth.cells_log(n0) if c >> 3 == 3]
    hot = sum(1 for c in log if c in (24, 25, 26))
    assert hot >= len(log) * BURST // (BURST + 1) - 2
    assert set(log) == set(range(24, 32))      # the sweep still gets round
    # The other ranks go on as if nothing were expected.
    other = [c for c in truth.cells_log(n0) if c >> 3 == 5]
    assert len(other) >= len(log) // 3


def sweep_waits(read_ms, hot, ms):
    """Rank 3 read for ms with the cells hot expected for ever: the longest
    any of its cells waited between two reads, and each cell's reads."""
    clock, truth, sc = rig(full_board(), read_ms=read_ms)
    run(clock, sc, 400)
    for c in hot:
        sc.expect(c, hold_ms=100000)
    last = {}
    count = {}
    worst = 0
    n = truth.nlog()
    end = ticks_add(clock.t, ms)
    while ticks_diff(end, clock.t) > 0:
        sc.poll(clock.t)
        for c in truth.cells_log(n):
            if c >> 3 == 3:
                if c in last:
                    worst = max(worst, ticks_diff(clock.t, last[c]))
                last[c] = clock.t
                count[c] = count.get(c, 0) + 1
        n = truth.nlog()
        clock.t = ticks_add(clock.t, 1)
    return worst, count


def test_expected_cells_leave_their_rank_its_sweep_time():
    # Reads as slow as on the board inside main.py (a settle and 8 ms): a
    # rank's round of eight takes about 110 ms, so three cells expected for
    # ever get only what is left of SWEEP_MS, and every cell is still read
    # within SWEEP_MS (BURST alone: a round of 32 reads, 450 ms).
    hot = (24, 25, 26)
    worst, count = sweep_waits(8, hot, 1500)
    assert worst <= SWEEP_MS, worst
    assert sorted(count) == list(range(24, 32))
    # ...and the expected cells are still read more often than the others.
    assert min(count[c] for c in hot) > max(count[c] for c in range(27, 32)), count


def test_no_cell_waits_more_than_sweep_ms_whatever_is_expected():
    # Faster reads, one to all eight cells expected: re-reads of a coil
    # already in (no settle) come between reads that switch coils, so the
    # rank's pace varies; the sweep must keep its time all the same.
    for read_ms in (3, 5):
        for hot in ((24,), (24, 25, 26, 27), (24, 26, 28, 30, 31), tuple(range(24, 32))):
            gc.collect()
            worst, count = sweep_waits(read_ms, hot, 700)
            assert worst <= SWEEP_MS, (read_ms, hot, worst)
            assert sorted(count) == list(range(24, 32))


def test_hold_expires():
    clock, truth, sc = rig(full_board())
    run(clock, sc, 300)
    sc.expect(50, hold_ms=200)
    n0 = truth.nlog()
    run(clock, sc, 200)
    during = truth.codes_of(50, n0)
    n1 = truth.nlog()
    run(clock, sc, 1000)
    after = truth.codes_of(50, n1)
    assert len(during) >= 10
    assert len(after) <= 1000 // 40 + 1          # back to once a sweep of the rank


def test_expect_moves_a_waiting_cell_to_the_front():
    clock, truth, sc = rig(full_board(), settle=0)
    run(clock, sc, 100)
    for c in (1, 2, 3, 4):
        sc.expect(c)                # ring: 4 3 2 1
    sc.expect(2)                    # ring: 2 4 3 1
    n0 = truth.nlog()
    run(clock, sc, 20)
    order = [c for c in truth.cells_log(n0) if c < 8]
    # Maybe one read of the cell chosen before the expect() calls.
    assert order.index(2) <= 1, order
    order = order[order.index(2):]
    assert order[:3] == [2, 4, 3], order
    assert order[4] == 1, order      # after one read of the sweep's: the ring's last, kept


def test_a_cell_read_from_its_ring_can_be_expected_again():
    clock, truth, sc = rig(full_board(), settle=0)
    run(clock, sc, 100)
    sc.expect(5, 0)
    run(clock, sc, 10)              # read, and out of the ring
    sc.expect(6, 0)
    sc.expect(5, 0)                 # ring: 5 6
    n0 = truth.nlog()
    run(clock, sc, 10)
    order = [c for c in truth.cells_log(n0) if c < 8]
    assert order[1:3] == [5, 6], order   # (order[0]: the read chosen before)


def test_a_flapping_tag_is_retried_a_bounded_number_of_times():
    board = full_board()
    clock, truth, sc = rig(board, settle=0)
    run(clock, sc, 100)
    truth.glitch[5] = [WATER, FIRE, WATER, FIRE, WATER, FIRE]
    before = bytearray(sc.cells)
    n0 = truth.nlog()
    run(clock, sc, 100)
    rank0 = [c for c in truth.cells_log(n0) if c < 8]
    longest = run_len = 1
    for i in range(1, len(rank0)):
        run_len = run_len + 1 if rank0[i] == rank0[i - 1] else 1
        longest = max(longest, run_len)
    assert longest <= 1 + RETRIES
    assert sc.cells == before


def test_unknown_tag_is_reported_after_doubt_reads():
    clock, truth, sc = rig(full_board())
    run(clock, sc, 300)
    truth.timeline[7] = [(clock.t, UNKNOWN)]
    sc.expect(7)
    run(clock, sc, 60)
    assert sc.cells[7] == UNKNOWN


def test_across_the_ticks_wrap():
    t0 = ticks_add(0, -150)
    board = full_board()
    clock, truth, sc = rig(board, t0=t0)
    run(clock, sc, 300)
    assert sc.cells == bytearray(board)
    truth.timeline[9] = [(clock.t, NO_TILE)]
    sc.expect(9)
    run(clock, sc, 60)
    assert sc.cells[9] == NO_TILE


def test_across_a_wrap_of_ticks_with_another_period():
    # CircuitPython's supervisor.ticks_ms wraps at 2**29 (vortex.ticks):
    # poll()'s milliseconds are counted into the scheduler's own period.
    from vortex.hal import tiles as module
    half = 1 << 28
    saved = module.ticks_diff
    module.ticks_diff = lambda a, b: (a - b + half) % (2 * half) - half
    try:
        board = full_board()
        clock, truth, sc = rig(board, t0=(1 << 29) - 150)
        mask = (1 << 29) - 1
        for _ in range(300):
            sc.poll(clock.t & mask)
            clock.t += 1
        assert sc.cells == bytearray(board) and clock.t & mask < 200
        truth.timeline[9] = [(clock.t, NO_TILE)]
        sc.expect(9)
        for _ in range(60):
            sc.poll(clock.t & mask)
            clock.t += 1
        assert sc.cells[9] == NO_TILE
        n = sc.reads
        for _ in range(100):
            sc.poll(clock.t & mask)
            clock.t += 1
        assert sc.reads - n > 50
    finally:
        module.ticks_diff = saved


def test_a_slow_reader_is_left_busy_while_the_others_read():
    clock, truth, sc = rig(full_board(), read_ms=1)
    readers = sc.readers
    slow = readers[4]
    step = slow.step
    calls = [0]

    def slow_step(now=None):
        calls[0] += 1
        return BUSY if calls[0] < 200 else step(now)
    slow.step = slow_step
    n0 = truth.nlog()
    polls = 150
    for _ in range(polls):
        sc.poll(clock.t)
        clock.t = ticks_add(clock.t, 1)
    log = truth.cells_log(n0)
    assert sum(1 for c in log if c >> 3 == 4) == 1          # the one it began
    assert sum(1 for c in log if c >> 3 == 6) >= 15
    assert calls[0] <= polls                                # looked at once a poll, no spinning


def test_ids_follow_the_tile_serial():
    # The Fire tile on b1 replaced by another Fire tile, serial 0x1234: the
    # terrain stays, the id (the serial's low byte) changes, poll() says so.
    import hal_fake_tiles
    clock, truth, sc = rig(full_board())
    run(clock, sc, 300)
    assert sc.cells[1] == FIRE and sc.ids[1] == FIRE   # fake serial = terrain
    before = bytearray(sc.cells)
    saved = hal_fake_tiles.ENC[FIRE]
    hal_fake_tiles.ENC[FIRE] = tag.encode(FIRE, 0x1234)
    try:
        sc.expect(1)
        reported = False
        for _ in range(50):
            reported = sc.poll(clock.t) or reported
            clock.t = ticks_add(clock.t, 1)
    finally:
        hal_fake_tiles.ENC[FIRE] = saved
    assert reported and sc.ids[1] == 0x34 and sc.cells == before


def test_a_missing_reader_is_asked_again_once_a_second_and_found_again():
    board = full_board()
    clock, truth, sc = rig(board)
    truth.absent = 0xFF
    run(clock, sc, 3000)
    assert sc.missing == 0xFF and sc.cells == bytearray([NOT_READ] * 64)
    assert truth.calls <= 8 * (3000 // RETRY_MS + 1)    # once a second, not once a poll
    truth.absent = 0
    run(clock, sc, 1500)
    assert not sc.missing and sc.cells == bytearray(board)


def test_one_missing_reader_leaves_its_rank_to_the_fallback():
    board = full_board()
    clock, truth, sc = rig(board)
    truth.absent = 1 << 2
    run(clock, sc, 500)
    assert sc.missing == 1 << 2
    assert sc.cells[:16] == bytearray(board[:16]) and sc.cells[24:] == bytearray(board[24:])
    assert sc.cells[16:24] == bytearray([NOT_READ] * 8)
    game = bytes((c * 7) % 5 for c in range(64))
    v = sc.view(game)
    assert v[16:24] == bytearray(game[16:24]) and v[:16] == bytearray(board[:16])
    truth.absent = 0
    run(clock, sc, 1500)
    assert sc.missing == 0 and sc.view(game) is sc.cells


def test_poll_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only

    class Front:
        def coil(self, r, f):
            pass

        def flush(self):
            pass

    class Reader:
        def __init__(self):
            self.n = 0
            self.st = OK
            self.buf = None

        def begin(self, buf, slot):
            self.n += 1
            if slot & 3 == 0:
                self.st = NOTAG
            elif self.n % 11 == 0:
                self.st = ERR
            else:
                src = ENC[slot & 3]
                for i in range(16):
                    buf[i] = src[i]
                self.st = OK

        due = None

        def step(self, now=None):
            if self.n % 3 == 0:
                self.n += 1
                return BUSY
            return self.st

    sc = TileScanner([Reader() for _ in range(8)], Front(), 0)
    t = 0
    for _ in range(300):
        sc.poll(t)
        t += 1
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for i in range(300):
            if i % 50 == 0:
                sc.expect(i % 64)
            sc.poll(t)
            t += 1
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used
