"""The simulator's serial board (host_sim/serial_board.py), in process: the
firmware's link on a real pseudo-terminal, a host that opens it, writes and
goes away as pyserial or picocom do; and the virtual hands of --auto and
--robot that answer a host's commands."""
import os
import time

from host_sim.scenario import Rig
from host_sim.serial_board import PtyPort, Hands, open_pty
from vortex.app.session import Settings
from vortex.engine import DARK, action_text
from vortex.link.link import Link
from link_pipe import Pipe


def next_byte(port, wait_s=2.0):
    """The port's next byte, waiting a little for the pty to pass it on (-1: none)."""
    end = time.monotonic() + wait_s
    while True:
        b = port.read_byte()
        if b != -1 or time.monotonic() > end:
            return b
        time.sleep(0.001)


def host(path):
    """A host opening the port, as pyserial does."""
    return os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)


def test_the_pty_port_sees_each_host_go_once_and_drops_what_it_left_unread():
    master, path = open_pty()
    port = PtyPort(master)
    try:
        assert port.read_byte() == -1 and not port.gone()  # no host yet: nothing to say
        fd = host(path)
        os.write(fd, b"hel")
        assert next_byte(port) == ord("h")
        os.close(fd)  # gone, "el" unread
        assert port.gone() and not port.gone()  # once per departure
        assert port.read_byte() == -1  # what it left went with it
        fd = host(path)
        os.write(fd, b"lo\n")
        assert [next_byte(port) for _ in range(3)] == [ord("l"), ord("o"), 10]
        assert port.read_byte() == -1 and not port.gone()  # there, silent
        os.close(fd)
        assert port.gone()
        fd = host(path)
        os.write(fd, b"subscribe\n")
        os.close(fd)  # come and gone between two looks: none of it is read
        assert port.gone() and port.read_byte() == -1 and not port.gone()
    finally:
        os.close(master)


class SerialHost:
    """A board with its link on a pty, ticked by hand, and hosts that come and go."""

    def __init__(self):
        self.rig = Rig()
        self.link = Link(self.rig.board)
        self.master, self.path = open_pty()
        self.rig.service.link, self.rig.service.port = self.link, PtyPort(self.master)
        self.fd = None
        self.text = b""

    def open(self):
        self.fd = host(self.path)
        self.text = b""

    def close(self):
        os.close(self.fd)
        self.rig.tick(4)  # the board notices in a tick

    def ask(self, data, answer):
        """Write data; tick until a line of the protocol holding `answer` comes."""
        os.write(self.fd, data)
        for _ in range(200):
            self.rig.tick()
            try:
                self.text += os.read(self.fd, 4096)
            except BlockingIOError:
                pass
            for line in self.text.decode().split("\n"):
                if answer in line:
                    return line.split(" ", 1)[1]
        raise AssertionError("no %r in %r" % (answer, self.text))


def test_a_host_gone_before_the_board_read_its_subscribe_leaves_it_nothing():
    b = SerialHost()
    try:
        b.open()
        os.write(b.fd, b"subscribe\n")
        b.close()  # gone before the board's next tick
        assert b.link.events == 0
        b.open()  # the next host gets what it asks for, and nothing else
        b.ask(b"\nping new\nhello\n", " ok hello")
        lines = b.text.decode().splitlines()
        assert [l.split(" ")[1:3] for l in lines] == [["ok", "ping"], ["ok", "hello"]], lines
        b.close()
    finally:
        os.close(b.master)


def test_a_host_gone_mid_line_leaves_nothing_for_the_next_one():
    b = SerialHost()
    try:
        b.open()
        assert b.ask(b"subscribe\nhel", " ok subscribe") == "ok subscribe " \
            "action lift verdict asks clock result memory"
        b.close()  # half a line written, and gone
        b.open()
        assert b.ask(b"lo\n", " error") == "error unknown command lo (help lists them)"
        # Its subscriptions went with it: this host has only what it asks for.
        assert b.ask(b"subscribe verdict\n", " ok subscribe") == "ok subscribe verdict"
        b.close()
    finally:
        os.close(b.master)


def test_auto_hands_put_the_board_back_after_a_takeback_or_a_new_game():
    rig = Rig(settings=Settings(ai_side=DARK))
    board = rig.board
    link = Link(board)
    pipe = Pipe()
    rig.service.link, rig.service.port = link, pipe
    hands = Hands(rig, link, auto=True)

    def until(n, command=None):
        # The host's command, then the hands at work until n actions stand.
        if command:
            pipe.send(command + "\n")
        for _ in range(400):
            rig.tick()
            pipe.lines()  # a host that reads what it is sent
            hands.step()
            if len(board.pos.stack) == n and board.judged and rig.agrees():
                return
        raise AssertionError("%s: %d actions, verdict %d" % (command, len(board.pos.stack),
                                                             board.verdict))

    pipe.send("subscribe\n")
    until(2, "request W@d4")  # carried out, and the board's AI's answer too
    until(0, "takeback")  # back to Light's turn: the hands take the AI's tile and ours off
    until(2, "request E@e5")
    until(0, "new")
    until(2, "request A@a1")
    assert action_text(board.pos.stack[0]) == "A@a1"
