"""The read scheduler as the board runs it (main.py's build): on the real
driver (vortex.hal.mfrc522.Readers, serve() for all the due readers at
once) and a microsecond clock (clock=time.ticks_us), here a fake one that
moves on as the code runs, with FakeRC522 chips and their tags behind the
fake front end. test_hal_tiles checks the scheduling itself on fake readers
without a clock."""
from vortex import tag
from vortex.tag import NOT_READ, NO_TILE
from vortex.hal import tiles as tiles_mod
from vortex.hal.tiles import TileScanner, RETRY_MS
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import Readers
from hal_fake_rc522 import FakeRC522
from hal_fake_front import FakeBus, tile


class Us:
    """ticks_us: each look at it moves it on by `step` us (the code's own time)."""

    def __init__(self, t=0, step=40):
        self.t = t
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t

    def ms(self):
        return self.t // 1000


TERRAINS = (tag.WATER, tag.FIRE, tag.EARTH, tag.AIR)


def board(dead=(), empty=()):
    """Eight readers with a tag on every coil but the cells in `empty`."""
    us = Us(5000)
    chips = [FakeRC522() for _ in range(8)]
    for c in range(64):
        if c not in empty:
            chips[c >> 3].tags[c & 7] = tile(TERRAINS[c % 4], c + 1, uid=bytes((4, c, 0, 0, 0, 0, 9)))
    for r in dead:
        chips[r].dead = True
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    readers = Readers(front, 8, clock=us)
    sc = TileScanner(readers, front, us.ms(), clock=us)
    return us, chips, sc


def run(us, sc, ms, every_us=2000):
    """The main loop: a poll each `every_us`, for `ms` of the clock."""
    end = us.t + ms * 1000
    while us.t < end:
        sc.poll(us.ms())
        if us.t < end:
            us.t += every_us


def want(c, empty=()):
    return NO_TILE if c in empty else TERRAINS[c % 4]


def test_the_whole_board_is_read_on_the_microsecond_clock():
    empty = (9, 30, 63)
    us, chips, sc = board(empty=empty)
    assert list(sc.cells) == [NOT_READ] * 64 and sc.unread == 64
    run(us, sc, 400)
    assert [sc.cells[c] for c in range(64)] == [want(c, empty) for c in range(64)]
    assert [sc.ids[c] for c in range(64) if c not in empty] == [c + 1 for c in range(64) if c not in empty]
    assert sc.unread == 0 and sc.missing == 0
    # A tile lifted: read as gone, and the count of cells never read stays 0.
    del chips[2].tags[5]
    sc.expect(21)
    run(us, sc, 100)
    assert sc.cells[21] == NO_TILE and sc.unread == 0


def test_a_missing_reader_is_known_at_once_and_asked_again_once_a_second():
    others = [c for c in range(64) if c >> 3 != 3]   # no tags elsewhere: quick reads
    us, chips, sc = board(dead=(3,), empty=others)
    assert sc.missing == 1 << 3          # before any poll: its chip did not answer at start
    run(us, sc, 150)
    assert sc.missing == 1 << 3 and [sc.cells[c] for c in range(24, 32)] == [NOT_READ] * 8
    asked = chips[3].transfers
    run(us, sc, RETRY_MS - 300)
    first = chips[3].transfers - asked
    run(us, sc, 300)
    assert first <= 1 and chips[3].transfers - asked >= 1   # about once a second, not at every poll
    chips[3].dead = False
    run(us, sc, RETRY_MS + 150)
    assert sc.missing == 0
    assert [sc.cells[c] for c in range(24, 32)] == [want(c) for c in range(24, 32)]


def test_a_cell_expected_before_the_first_poll_is_read_before_its_rank_s_others():
    # (the scanner's time starts at now_ms: had it started a period off, every
    # cell would look unread for 2**30 ms, late for the sweep, which would
    # then come first)
    us, chips, sc = board()
    sc.expect(13)                        # rank 2, file f
    for _ in range(100):                 # its first reading, within 200 ms
        if sc.cells[13] != NOT_READ:
            break
        sc.poll(us.ms())
        us.t += 2000
    assert sc.cells[13] == want(13)
    assert [sc.cells[c] for c in range(8, 16) if c != 13] == [NOT_READ] * 7


def test_the_lowest_bit_table():
    assert tiles_mod._lowest() == tiles_mod._LOWEST
    assert tiles_mod._LOWEST[0] == 0
    for b in range(1, 256):
        k = tiles_mod._LOWEST[b]
        assert b >> k & 1 and b & ((1 << k) - 1) == 0, b
