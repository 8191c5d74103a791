"""The board's pass (vortex.app.service.Service) made as main.py makes it:
the host link given at its making is served every pass, and a tile reader
that stops answering is said with its ranks, then its return; while the
tile readers are waited for, the reeds are scanned every SCAN_MS and a
reed that changed ends the wait. Plain asserts."""
from host_sim.scenario import Rig
from vortex.app.service import Service, NO_READER, READER_BACK, SCAN_MS
from vortex.app.session import Settings
from vortex.link.link import Link
from link_pipe import Pipe
from test_app_idle import idle_board
from test_app_scenarios import BATTLE
from test_app_sounds import _Reeds, _Tiles, _Pixels


def test_the_link_given_at_its_making_is_served_each_pass():
    rig = Rig(BATTLE)
    pipe = Pipe()
    service = Service(rig.board, rig.virtual.reeds, rig.virtual.scanner, rig, lambda: 0,
                      lambda: rig.now, link=Link(rig.board), port=pipe)
    pipe.send("ping 1f2e\n")
    service.tick()
    assert [line.split(" ", 1)[1] for line in pipe.lines()] == ["ok ping 1f2e"]


def test_a_reader_not_answering_is_said_with_its_ranks_then_its_return():
    board, occ, tiles, ids, now = idle_board(Settings())
    readers = _Tiles(tiles, ids)
    said = []
    service = Service(board, _Reeds(occ), readers, _Pixels(), lambda: 0, lambda: now,
                      say=said.append)
    service.tick()
    assert said == []
    readers.missing = 0b10001001  # ranks 1, 4 and 8
    service.tick()
    service.tick()
    assert said == [NO_READER % "1, 4, 8"]
    readers.missing = 0
    service.tick()
    assert said == [NO_READER % "1, 4, 8", READER_BACK]


class _ChangingReeds(_Reeds):
    """Reeds that note when they are scanned; a debounced cell changes at
    the times given."""
    def __init__(self, occ, changes):
        super().__init__(occ)
        self.changes = changes
        self.scanned = []

    def scan(self, now):
        self.scanned.append(now)
        return now in self.changes


class _SlowTiles(_Tiles):
    """Tile readers whose exchanges end at the times given: the pass's
    between() is called at each, as hal/tiles.py's readers call it."""
    def __init__(self, tiles, ids, clock, times):
        super().__init__(tiles, ids)
        self.clock = clock
        self.times = times
        self.answers = []

    def poll(self, now, between=None, budget_us=None):
        for t in self.times:
            self.clock[0] = t
            self.answers.append(between())


def test_the_reeds_are_scanned_every_scan_ms_while_the_tile_readers_are_waited_for():
    board, occ, tiles, ids, _ = idle_board(Settings())
    clock = [0]
    start = 100
    times = [start + dt for dt in (1, SCAN_MS, SCAN_MS + 1, 2 * SCAN_MS)]
    reeds = _ChangingReeds(occ, changes=[start + 2 * SCAN_MS])
    readers = _SlowTiles(tiles, ids, clock, times)
    service = Service(board, reeds, readers, _Pixels(), lambda: 0, lambda: clock[0])
    clock[0] = start
    service.tick()
    # The pass's own scan, then one every SCAN_MS (none sooner), the last one's
    # change answered True: the readers stop waiting.
    assert reeds.scanned == [start, start + SCAN_MS, start + 2 * SCAN_MS]
    assert readers.answers == [False, False, False, True]
