"""The board's pass (vortex.app.service.Service) made as main.py makes it:
the host link given at its making is served every pass, and a tile reader
that stops answering is said with its ranks, then its return. Plain asserts."""
from host_sim.scenario import Rig
from vortex.app.service import Service, NO_READER, READER_BACK
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
