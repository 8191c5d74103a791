"""End to end: `python3 -m host_sim link` against `python3 -m host_sim board
--serial` over a pseudo-terminal, real processes, real pyserial: a whole
game followed and recorded; a remote opponent's actions (typed into the
host tool) requested and carried out; two simulated boards playing each
other through two links over loopback TCP."""
import os
import queue
import socket
import subprocess
import sys
import threading
import time

import pytest

from mpy import ROOT
from vortex import record
from vortex.engine import Position, new_buffer, action_text

TIMEOUT = 90
START = Position().text()  # whole games from the empty board, Vortexes and all


class Proc:
    """A host_sim command, its output lines read into a queue as they come."""

    def __init__(self, *args, stdin=subprocess.DEVNULL):
        self.p = subprocess.Popen([sys.executable, "-m", "host_sim"] + list(args), cwd=ROOT,
                                  stdin=stdin, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1,
                                  env=dict(os.environ, NO_COLOR="1"))
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self):
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, "ended early:\n" + "\n".join(self.seen[-30:])
        self.seen.append(line)
        return line

    def until(self, prefix):
        while True:
            line = self.next()
            if line.startswith(prefix):
                return line

    def finish(self):
        code = self.p.wait(timeout=TIMEOUT)
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                return code
            self.seen.append(line)

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            self.p.wait(timeout=10)


@pytest.fixture
def procs():
    made = []
    yield made
    for p in made:
        p.stop()


def board(procs, *args):
    b = Proc("board", "--serial", "--no-color", *args)
    procs.append(b)
    return b.until("serial: ").split(": ", 1)[1]


def actions_printed(lines):
    got = [l.split() for l in lines if l.startswith("action ")]
    return [w[2] for w in got], [int(w[1]) for w in got]


def test_a_whole_game_followed_and_recorded(procs, tmp_path):
    pty = board(procs, "--ai", "dark", "--robot", "light", "--auto")
    rec = str(tmp_path / "game.txt")
    link = Proc("link", "--port", pty, "--record", rec, "--until-over", "--quiet",
                "--light", 'Ana "the robot"')
    procs.append(link)
    assert link.finish() == 0, "\n".join(link.seen[-20:])
    tags, start, actions = record.read(open(rec).read())
    assert start == START
    assert tags["Result"] in ("1-0", "0-1", "1/2-1/2") and tags["Dark"] == "board AI"
    assert tags["Light"] == 'Ana "the robot"' and tags["Date"]
    assert len(actions) > 64  # built, then fought over
    printed, numbers = actions_printed(link.seen)
    assert printed == actions and numbers == list(range(1, len(actions) + 1))
    assert link.seen[-1].startswith("result ")


def test_a_remote_opponents_actions_are_requested_and_carried_out(procs):
    pty = board(procs, "--ai", "dark", "--auto")
    import serial  # a host before: it leaves a half line and answers it never read
    with serial.Serial(pty, timeout=0) as s:
        s.write(b"hello\nstatus\nposition\nreq")
        time.sleep(0.3)
    link = Proc("link", "--port", pty, stdin=subprocess.PIPE)  # (positions drawn too)
    procs.append(link)
    assert link.until("following the board").startswith(
        "following the board on %s, firmware dev (" % pty)  # the simulated board runs from source
    pos = Position()
    buf = new_buffer()
    sent = []
    while len(sent) < 8:
        if pos.side == 0:  # Light: the remote opponent, typed into the host tool
            a = action_text(buf[(len(sent) * 7) % pos.legal_into(buf)])
            link.p.stdin.write(a + "\n")
            link.p.stdin.flush()
            sent.append(a)
            assert link.until("ok request") == "ok request " + a
        line = link.until("action ")
        n, a = line.split()[1:]
        assert int(n) == len(pos.stack) + 1
        if pos.side == 0:
            assert a == sent[-1]  # what was requested is what the board took
        pos.push(pos.parse_action(a))
    link.p.stdin.write("takeback\n")
    link.p.stdin.flush()
    # Back to the remote side's turn, whether or not the AI has answered yet.
    assert link.until("ok takeback") == "ok takeback %d" % (len(pos.stack) - 1)
    link.p.stdin.write("e2e9\n")  # not an action, not a command: one error line
    link.p.stdin.flush()
    assert link.until("error").startswith("error unknown command e2e9")
    # The hands put the board back as the game now has it, then carry out
    # the next request as before.
    pos.pop()
    a = action_text(buf[3 % pos.legal_into(buf)])
    link.p.stdin.write(a + "\n")
    link.p.stdin.flush()
    assert link.until("ok request") == "ok request " + a
    assert link.until("action ") == "action %d %s" % (len(pos.stack) + 1, a)
    link.p.stdin.close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_two_boards_play_each_other_over_loopback_tcp(procs, tmp_path):
    port = free_port()
    light = board(procs, "--ai", "light", "--auto")
    dark = board(procs, "--ai", "dark", "--auto")
    # Light's AI has played already, through a link that has gone since: the
    # link that connects later sends that action from the board's record.
    first = Proc("link", "--port", light, "--quiet")
    procs.append(first)
    first.until("action 1 ")
    first.stop()
    ra, rb = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    b = Proc("link", "--port", dark, "--listen", "127.0.0.1:%d" % port, "--record", rb,
             "--until-over", "--quiet")
    procs.append(b)
    b.until("following the board")
    a = Proc("link", "--port", light, "--connect", "127.0.0.1:%d" % port, "--record", ra,
             "--until-over", "--quiet")
    procs.append(a)
    assert a.finish() == 0, "\n".join(a.seen[-20:])
    assert b.finish() == 0, "\n".join(b.seen[-20:])
    ta, sa, game_a = record.read(open(ra).read())
    tb, sb, game_b = record.read(open(rb).read())
    assert game_a == game_b and len(game_a) > 64
    assert ta["Result"] == tb["Result"] != "*"
    assert ta["Light"] == "board AI" and tb["Dark"] == "board AI"


def silent_port():
    """(master fd, path) of a serial port where nothing answers."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    os.set_blocking(master, False)
    return master, path


def link_fails(*args):
    """Run a link that must fail; its one line of error, and whether it wrote
    anything to its board (a silent port)."""
    master, path = silent_port()
    try:
        p = subprocess.run([sys.executable, "-m", "host_sim", "link", "--port", path] + list(args),
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
        try:
            wrote = os.read(master, 4096)
        except OSError:  # (EAGAIN, or EIO once nothing holds the port)
            wrote = b""
    finally:
        os.close(master)
    assert p.returncode == 1 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
    return p.stderr, wrote


def test_a_link_that_cannot_listen_or_connect_says_where_and_leaves_the_board_alone():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        err, wrote = link_fails("--listen", "127.0.0.1:%d" % port)
    finally:
        taken.close()
    assert err.startswith("python3 -m host_sim: error: cannot listen on 127.0.0.1:%d: " % port)
    assert "in use" in err and wrote == b""  # bound before the board was touched
    port = free_port()  # nobody listens there
    err, wrote = link_fails("--connect", str(port))
    assert err.startswith("python3 -m host_sim: error: cannot connect to localhost:%d: " % port)
    assert wrote == b""


def test_a_port_without_a_board_is_one_line_of_error(tmp_path):
    p = subprocess.run([sys.executable, "-m", "host_sim", "link", "--port",
                        str(tmp_path / "no-such-port")], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith("python3 -m host_sim: error: cannot open ")
    assert p.stderr.count("\n") == 1, p.stderr
    master, slave = os.openpty()  # a serial port where nothing answers
    try:
        p = subprocess.run([sys.executable, "-m", "host_sim", "link", "--port",
                            os.ttyname(slave)], cwd=ROOT, capture_output=True, text=True,
                           timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 1, p.stderr
    assert p.stderr.startswith("python3 -m host_sim: error: no answer from "), p.stderr


def test_the_simulator_resumes_a_recorded_game(tmp_path):
    import io
    from host_sim import board_sim, cli
    from host_sim.__main__ import build_parser

    def opts(*args):
        return build_parser().parse_args(("board",) + args)
    from test_record import random_game
    start, actions, pos = random_game(4, max_actions=70)
    path = tmp_path / "game.txt"
    path.write_text(record.write({"Event": "replayed"}, start, actions))
    out = io.StringIO()
    assert board_sim.run(opts("--replay", str(path), "--no-color"), io.StringIO(""), out) == 0
    assert "Light to act, battle: Vortexes %d,%d, quiet %d" % (
        pos.vortexes[0], pos.vortexes[1], pos.quiet) in out.getvalue()
    path.write_text("1. W@d4 W@d4\n")
    with pytest.raises(cli.Failure) as e:
        board_sim.run(opts("--replay", str(path)), io.StringIO(""), io.StringIO())
    assert str(e.value).endswith(": action 2: W@d4 is illegal: the cell has a tile")


def test_the_serial_board_keeps_its_hands_commands_and_quits(procs):
    b = Proc("board", "--serial", "--no-color", stdin=subprocess.PIPE)
    procs.append(b)
    b.until("serial: ")
    b.p.stdin.write("W@d4\nquit\n")
    b.p.stdin.flush()
    assert b.finish() == 0
    assert any(l.startswith("board: played W@d4") for l in b.seen), b.seen[-10:]
