"""A front end whose chain reads back wrong (issue 37) is reported on the
host link (a console line, and `status`'s nfc word) and on the LEDs (the
centre flashes the error colour) for as long as it lasts, and the game's
tiles stand in meanwhile; sound again, the board says so and reads its
tiles. The whole stack: Service, Board, Link, TileScanner, the readers'
driver, FrontEnd, against hal_fake_front's chain. Runs under MicroPython too."""
from vortex.app.service import Service, FRONT_SAYS
from vortex.app.session import Settings
from vortex.app import leds
from vortex.app.render import CENTRE
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import Readers
from vortex.hal.tiles import TileScanner
from vortex.link.link import Link
from hal_fake_rc522 import FakeRC522
from hal_fake_front import FakeBus
from link_pipe import Pipe
from test_app_idle import idle_board


class _Reeds:
    def __init__(self, occ):
        self.cells = occ

    def scan(self, now):
        return False


class _Pixels:
    def show(self, frame):
        pass


class Clock:
    t = 0

    def __call__(self):
        return self.t


def status(service, pipe):
    pipe.send("status\n")
    service.tick()
    line = [ln for ln in pipe.lines() if " ok status " in ln][-1]
    words = line.split()
    return words[words.index("nfc") + 1]


def centre_red(board):
    f = board.frame
    return all(f[3 * c] and not f[3 * c + 1] for c in CENTRE)


def test_a_chain_fault_is_said_shown_and_its_end_too():
    board, occ, tiles, ids, now = idle_board(Settings())
    bus = FakeBus([FakeRC522() for _ in range(8)])
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    clock = Clock()
    clock.t = now
    scanner = TileScanner(Readers(front, 8, clock=None), front, now)
    said = []
    pipe = Pipe()
    service = Service(board, _Reeds(occ), scanner, _Pixels(), lambda: 0, clock,
                      link=Link(board), port=pipe, say=said.append)

    def run(ms):
        end = clock.t + ms
        while clock.t < end:
            clock.t += 5
            service.tick()

    run(100)
    assert front.fault == 0 and said == [] and status(service, pipe) == "ok"
    assert not centre_red(board)
    bus.broken = True                        # the return line open
    run(50)
    assert front.fault == 1 and said[0] == FRONT_SAYS[1], said
    assert not any(c.running for c in bus.chips)          # every reader held in reset
    assert status(service, pipe) == "fault"
    reds = 0
    for _ in range(120):                     # 600 ms: the centre flashes
        run(5)
        reds += centre_red(board)
    assert 20 < reds < 100, reds
    assert scanner.view(board.pos.tiles)[0] == board.pos.tiles[0]   # the game's tiles stand in
    bus.broken = False
    run(2500)                                # the missing readers are asked again each second
    assert front.fault == 0 and FRONT_SAYS[0] in said, said
    assert status(service, pipe) == "ok" and scanner.missing == 0
    run(300)
    assert not centre_red(board)
