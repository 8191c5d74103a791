"""The virtual board on a pseudo-terminal, speaking the board's protocol
(docs/protocol.md) through the very firmware link the RP2040 runs:

    python3 -m host_sim board --serial [--auto] [--robot light|dark] [board options]

prints `serial: /dev/pts/N`; open that path as you would /dev/ttyACM0
(`python3 -m host_sim link --port /dev/pts/N`, picocom, your own client).
The board's time runs tick by tick in real time; the terminal's hands
commands (help) still work on stdin. --auto: hands carry out every action
the board asks for (its AI's, a requested one); --robot SIDE: hands play
that side too, with an AI of their own. Both start once a host has
subscribed to events, and wait until it has read what the board sent, as
players take their time.
"""
import os
import select
import tty

from vortex.app.ai import Ai
from vortex.app.recognise import AGREE
from vortex.link.link import Link

TICK_S = 0.005


class PtyPort:
    """The link's port on the master side of a pseudo-terminal, non-blocking."""
    CHUNK = 256

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)
        self._buf = b""
        self._at = 0

    def read_byte(self):
        if self._at == len(self._buf):
            try:
                self._buf = os.read(self.fd, 512)
            except (BlockingIOError, InterruptedError):
                return -1
            except OSError:  # no host has the other end open
                return -1
            self._at = 0
            if not self._buf:
                return -1
        self._at += 1
        return self._buf[self._at - 1]

    def write(self, data):
        try:
            return os.write(self.fd, data)
        except (BlockingIOError, InterruptedError):
            return 0  # nobody reads: the outbox keeps it (or drops the oldest)
        except OSError:
            return 0


def open_pty():
    """(master fd, slave fd, slave path): the slave in raw mode, as a USB
    serial port is (no echo, no line editing, bytes as sent)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def serve(sim, auto, robot, stdin, out):
    """Run the board on a pty until quit is typed, Ctrl-C or SIGTERM (the
    end of stdin only stops the hands commands)."""
    rig = sim.rig
    board = rig.board
    master, slave, path = open_pty()
    link = Link(board)
    port = PtyPort(master)
    rig.service.link, rig.service.port = link, port
    robot_ai = Ai(seed=7) if robot is not None else None
    out.write("serial: %s\n" % path)
    out.flush()
    reading = True
    typed = b""
    try:
        while True:
            ready = select.select([stdin] if reading else [], [], [], TICK_S)[0]
            if ready:  # (os.read: a buffered readline would hide the lines after the first)
                data = os.read(stdin.fileno(), 4096)
                if not data:
                    reading = False  # the port goes on serving: quit, Ctrl-C or a signal ends it
                typed += data
                while b"\n" in typed:
                    line, typed = typed.split(b"\n", 1)
                    if not sim.command(line.decode(errors="replace").strip()):
                        return 0
                out.flush()
            rig.tick()
            idle = (link.events and link.out.used == 0 and board.judged and board.verdict == AGREE
                    and board.result() is None)
            if idle and auto and board.pending >= 0:
                rig.play(board.pending, settle=False)
            elif idle and robot_ai is not None and board.pending < 0 \
                    and board.pos.side == robot:
                rig.play(robot_ai.choose(board.pos), settle=False)
    except KeyboardInterrupt:
        return 0
    finally:
        os.close(master)
        os.close(slave)
