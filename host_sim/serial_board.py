"""The virtual board on a pseudo-terminal, speaking the board's protocol
(docs/protocol.md) through the very firmware link the RP2040 runs:

    python3 -m host_sim board --serial [--auto] [--robot light|dark] [board options]

prints `serial: /dev/pts/N`; open that path as you would /dev/ttyACM0
(`python3 -m host_sim link --port /dev/pts/N`, picocom, your own client).
The board's time runs tick by tick in real time; the terminal's hands
commands (help) still work on stdin. --auto: hands carry out every action
the board asks for (its AI's, a requested one); --robot SIDE: hands play
that side too, with an AI of their own. Both start once a host has
subscribed to events, wait until it has read what the board sent, as
players take their time, and put the pieces back when a host's takeback or
new game changes the game under them. A host that closes the port is seen
to go (as the board's USB port sees it): what it sent and the board had not
read, its half line and its subscriptions go with it.
"""
import os
import select
import tty

from vortex.app.ai import Ai
from vortex.app.recognise import AGREE, DISAGREE
from vortex.link.link import Link

TICK_S = 0.005


class PtyPort:
    """The link's port on the master side of a pseudo-terminal, non-blocking.

    The board holds no end of the slave side itself (open_pty), so the
    master sees each host go, as a USB serial port sees its host go: once
    the last holder of the slave side closes it, poll reports a hang-up
    (and a read gives what the host wrote before it went, then EIO). What a
    host that went sent and the board has not read goes with it: gone()
    says True once per departure, having dropped it, and read_byte() gives
    nothing while no host is there."""
    CHUNK = 256

    def __init__(self, fd):
        self.fd = fd
        os.set_blocking(fd, False)
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)
        self._buf = b""
        self._at = 0
        self._host = False  # a host has the slave side open (as far as the reads tell)
        self._left = False  # a host went since gone() last said so

    def _hung_up(self):
        """True if no host holds the slave side now; what is left unread is dropped."""
        for _, events in self._poll.poll(0):
            if events & select.POLLHUP:
                dropped = self._at < len(self._buf)
                self._buf, self._at = b"", 0
                while True:
                    try:
                        data = os.read(self.fd, 4096)
                    except OSError:  # EIO: all read
                        break
                    if not data:
                        break
                    dropped = True
                if self._host or dropped:  # (a host may come and go between two looks)
                    self._left = True
                self._host = False
                return True
        return False

    def gone(self):
        self._hung_up()
        left, self._left = self._left, False
        return left

    def read_byte(self):
        if self._at == len(self._buf):
            if self._hung_up():
                return -1
            try:
                self._buf = os.read(self.fd, 512)
            except (BlockingIOError, InterruptedError):  # a host there, silent
                self._host = True
                return -1
            except OSError:  # EIO: the host went just now (gone() says so next)
                self._buf, self._at = b"", 0
                self._left = self._left or self._host
                self._host = False
                return -1
            self._at = 0
            if not self._buf:
                return -1
            self._host = True
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
    """(master fd, slave path): the slave set to raw mode, as a USB serial
    port is (no echo, no line editing, bytes as sent; the setting outlives
    its holders while the master is open), then closed: a host opens it by
    its path, and the master sees it go when it closes it."""
    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        path = os.ttyname(slave)
    finally:
        os.close(slave)
    return master, path


class Hands:
    """The virtual hands of --auto (carry out whatever the board asks for:
    its AI's actions, requested ones) and --robot SIDE (play that side with
    an AI of their own). They start once a host has subscribed to events,
    and wait until it has read what the board sent, as players take their
    time. When a host's command changes the game under the pieces
    (takeback, new), they put the board back as the game has it first.
    step() does what is due now, if anything."""

    def __init__(self, rig, link, auto=False, robot=None):
        self.rig = rig
        self.link = link
        self.auto = auto
        self.robot = robot
        self.ai = Ai(seed=7) if robot is not None else None

    def step(self):
        rig, link, board = self.rig, self.link, self.rig.board
        if not (self.auto or self.ai) or not link.events or link.out.used or not board.judged:
            return
        if board.verdict == DISAGREE:
            # A host's takeback or new game changed the game under the pieces:
            # the board asks to be put back as the game has it.
            rig.tidy()
        if board.verdict != AGREE or board.result() is not None:
            return
        if self.auto and board.pending >= 0:
            rig.play(board.pending, settle=False)
        elif self.ai is not None and board.pending < 0 and board.pos.side == self.robot:
            rig.play(self.ai.choose(board.pos), settle=False)


def serve(sim, auto, robot, stdin, out):
    """Run the board on a pty until quit is typed, Ctrl-C or SIGTERM (the
    end of stdin only stops the hands commands)."""
    rig = sim.rig
    board = rig.board
    master, path = open_pty()
    link = Link(board)
    port = PtyPort(master)
    rig.service.link, rig.service.port = link, port
    hands = Hands(rig, link, auto, robot)
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
            hands.step()
    except KeyboardInterrupt:
        return 0
    finally:
        os.close(master)
