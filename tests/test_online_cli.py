"""The ways into a game online as a person runs them, real processes on a
real broker (mosquitto, tests/conftest.py): the terminal (`vortex board
--online`) showing the opponent's action, the opponent gone and back; two
boards on USB (`vortex board --serial`, pseudo-terminals) bridged to one
room by `vortex link --online` and playing each other; a spectator
(`vortex watch`) following them; and two windows on one computer given no
broker (the embedded one, on a free port of the test's own: never this
machine's 1883), two pages, two terminals, a page and a terminal, playing
each other."""
import json
import queue
import re
import subprocess
import time
import urllib.request

import pytest

import host_sim  # noqa: F401
from vortex.engine import Position, DARK
from host_sim.online.client import Address
from host_sim.online.player import Player
from test_link_e2e import Proc, board, procs  # noqa: F401  (procs: the processes' fixture)

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed "
                    "(make test installs it from requirements-dev.txt)")


def typed(proc, line):
    proc.p.stdin.write(line + "\n")
    proc.p.stdin.flush()


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """The processes' device id (host_sim/online/player.py) kept here, not in ~."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))


def until(term, other, prefix, timeout=20):
    """The terminal's lines until one holds prefix; the other client (a
    Player in this process, with no loop of its own) polled meanwhile."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        other.poll(0.01)
        try:
            line = term.lines.get(timeout=0.05)
        except queue.Empty:
            continue
        assert line is not None, "ended early:\n" + "\n".join(term.seen[-30:])
        term.seen.append(line)
        if prefix in line:
            return line
    raise AssertionError("no %r in:\n%s" % (prefix, "\n".join(term.seen[-30:])))


def polled(player, test, timeout=10):
    end = time.monotonic() + timeout
    while not test() and time.monotonic() < end:
        player.poll(0.05)
    assert test()


def test_a_terminal_killed_mid_action_comes_back(procs, mosquitto):
    """SIGKILL as the terminal sends its action: the broker says it gone
    (its will); started again (the same computer: the same client id and
    session), it is laid out as the room's game and plays on."""
    args = ("board", "--no-color", "--online", "kill-room", "--broker", mosquitto.address,
            "--seat", "light")
    dark = Player(Address.parse(mosquitto.address), "kill-room", "kill-room", DARK,
                  device="dddddddd", settle_s=0.3).start()
    term = Proc(*args, stdin=subprocess.PIPE)
    procs.append(term)
    until(term, dark, "your opponent (dark) is here")
    polled(dark, dark.ready)
    typed(term, "W@d4")
    term.p.kill()
    polled(dark, lambda: dark.opponent() == "gone")
    again = Proc(*args, stdin=subprocess.PIPE)
    procs.append(again)
    until(again, dark, "your opponent (dark) is here")
    if len(dark.room.actions) == 0:  # killed before the action left: played again
        typed(again, "W@d4")
    polled(dark, lambda: dark.room.actions == ["W@d4"])
    dark.act("F@e5")
    until(again, dark, "your opponent plays F@e5")
    typed(again, "quit")
    assert again.finish() == 0 and "Traceback" not in "\n".join(again.seen)
    dark.close()


def test_the_terminal_online(procs, mosquitto):
    term = Proc("board", "--no-color", "--online", "cli-room", "--broker", mosquitto.address,
                "--seat", "light", stdin=subprocess.PIPE)
    procs.append(term)
    dark = Player(Address.parse(mosquitto.address), "cli-room", "cli-room", DARK,
                  device="dddddddd", settle_s=0.3).start()

    def until_(prefix):
        return until(term, dark, prefix)

    until_("you play light; your opponent (dark) is here")
    typed(term, "W@d4")
    end = time.monotonic() + 10
    while not (dark.ready() and dark.room.actions == ["W@d4"]) and time.monotonic() < end:
        dark.poll(0.05)
    assert dark.room.actions == ["W@d4"]
    dark.act("F@e5")
    until_("your opponent plays F@e5: carry it out on the board")
    until_("the board asks: F@e5")
    typed(term, "carry")
    until_("board: played F@e5")
    dark.conn.kill()
    until_("your opponent (dark) is gone")
    dark = Player(Address.parse(mosquitto.address), "cli-room", "cli-room", DARK,
                  device="dddddddd", settle_s=0.3).start()
    until_("your opponent (dark) is here")
    typed(term, "A@a1")
    until_("board: played A@a1")
    typed(term, "W@h1")  # dark's turn: the board takes it, the room does not
    until_("refused W@h1: not your turn: dark to act")
    until_("board: takeback")
    typed(term, "quit")
    assert term.finish() == 0
    assert "Traceback" not in "\n".join(term.seen)
    dark.close()


def actions(lines):
    return [m.groups() for m in (re.match(r"action (\d+) (\S+)$", line) for line in lines) if m]


def test_two_boards_on_usb_play_through_a_room_and_a_spectator_watches(procs, mosquitto):
    n = 8
    pty_l = board(procs, "--robot", "light", "--auto")
    pty_d = board(procs, "--robot", "dark", "--auto")
    links = []
    for side, pty in (("light", pty_l), ("dark", pty_d)):
        link = Proc("link", "--port", pty, "--quiet", "--online", "usb-room", "--broker",
                    mosquitto.address, "--seat", side, "--secret", "pine")
        procs.append(link)
        links.append(link)
    watch = Proc("watch", "usb-room", "--broker", mosquitto.address, "--no-color")
    procs.append(watch)
    for link in links:
        link.until("action %d " % n)  # the boards' own events: the game went on
    for link in links:
        link.stop()
    seen = [dict(actions(link.seen)) for link in links]
    played = [seen[0][str(i)] for i in range(1, n + 1)]
    assert [seen[1][str(i)] for i in range(1, n + 1)] == played  # both boards, the same game
    pos = Position()
    for text in played:
        pos.push(pos.parse_action(text))  # and a legal one
    while not re.match(r"%d (light|dark) \S+$" % n, watch.next()):
        pass  # (the board's rank 8 starts "8 " too)
    assert watch.seen[-1].split()[2] == played[n - 1]
    watched = [line.split()[2] for line in watch.seen if re.match(r"\d+ (light|dark) \S+$", line)]
    assert watched[:n] == played
    assert not [line for link in links for line in link.seen if "Traceback" in line]


@pytest.fixture
def local_port(monkeypatch):
    """This machine's broker for a game given none (options.local()): on a
    free port of the test's own, not 1883 (a user's own broker may be
    there, and the test's workers would share it)."""
    pytest.importorskip("amqtt", reason="amqtt is not installed (make test installs it)")
    from host_sim.online.broker import free_port
    port = free_port()
    monkeypatch.setenv("VORTEX_LOCAL_PORT", str(port))
    return port


def test_a_local_game_needs_no_broker_given(procs, local_port):
    """No --broker: this machine's port (1883; here the test's), an embedded
    broker (amqtt) started there when nothing listens; the room's name is
    its secret."""
    term = Proc("board", "--no-color", "--online", "local-room", stdin=subprocess.PIPE)
    procs.append(term)
    assert "connected to mqtt://127.0.0.1:%d" % local_port in term.until("online: connected")
    term.until("online: room local-room: you play")
    typed(term, "quit")
    assert term.finish() == 0 and "Traceback" not in "\n".join(term.seen)


class Page:
    """`vortex play --online ROOM` given no broker: its page's server, read
    and driven over HTTP as the page does (GET /api/state, POST /api/act)."""

    def __init__(self, procs, room):
        self.proc = Proc("play", "--online", room, "--no-browser")
        procs.append(self.proc)
        self.url = self.proc.until("The Vortex simulator").split(": ", 1)[1].split()[0]

    def state(self):
        with urllib.request.urlopen(self.url + "api/state", timeout=5) as r:
            return json.loads(r.read())

    def act(self, action=None):
        body = json.dumps({} if action is None else {"action": action}).encode()
        req = urllib.request.Request(self.url + "api/act", data=body, method="POST")
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())

    def line(self):
        return (self.state()["online"] or {}).get("line", "")


class Terminal:
    """`vortex board --online ROOM` given no broker, typed into."""

    def __init__(self, procs, room):
        self.proc = Proc("board", "--no-color", "--online", room, stdin=subprocess.PIPE)
        procs.append(self.proc)

    def type(self, line):
        typed(self.proc, line)

    def until(self, words, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.proc.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            assert line is not None, "ended early:\n" + "\n".join(self.proc.seen[-30:])
            self.proc.seen.append(line)
            if words in line:
                return line
        raise AssertionError("no %r in:\n%s" % (words, "\n".join(self.proc.seen[-30:])))


def eventually(test, what, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.1)
    raise AssertionError("waited for " + what)


def quiet(*procs):
    """Each program ended (stopped if it runs still): nothing lost the
    broker, nothing went wrong; their exit codes."""
    codes = []
    for p in procs:
        if p.p.poll() is None and p.p.stdin is None:
            p.stop()
        codes.append(p.finish())
        text = "\n".join(p.seen)
        assert "Traceback" not in text and "lost the broker" not in text, text[-3000:]
    return codes


def test_two_pages_on_one_computer_play_each_other(procs, local_port):
    """docs/simulator.md's promise: `vortex play --online friday-8` in one
    terminal, then in a second: the first takes light (and starts the
    embedded broker), the second is a player of its own and takes dark;
    each sees the other here, and an action on one is asked of the other."""
    one = Page(procs, "friday-8")
    eventually(lambda: "waiting for an opponent (dark)" in one.line(), "the first page seated")
    two = Page(procs, "friday-8")
    eventually(lambda: one.line() == "room friday-8: you play light; your opponent (dark) is here"
               and two.line() == "room friday-8: you play dark; your opponent (light) is here",
               "each page to see the other")
    assert "error" not in one.act("W@d4")
    eventually(lambda: two.state()["pending"] == "W@d4", "the second page to ask for W@d4")
    assert "error" not in two.act()  # the page's "Carry out the board's action"
    assert "error" not in two.act("F@e5")
    eventually(lambda: one.state()["pending"] == "F@e5", "the first page to ask for F@e5")
    one.act()
    eventually(lambda: one.state()["actions"] == two.state()["actions"] == ["W@d4", "F@e5"],
               "the same game on both")
    quiet(two.proc, one.proc)


def test_two_terminals_on_one_computer_play_each_other(procs, local_port):
    one = Terminal(procs, "friday-9")
    one.until("you play light; waiting for an opponent (dark)")
    two = Terminal(procs, "friday-9")
    two.until("you play dark; your opponent (light) is here")
    one.until("your opponent (dark) is here")
    one.type("W@d4")
    two.until("your opponent plays W@d4: carry it out on the board")
    two.type("carry")
    two.until("board: played W@d4")
    two.type("F@e5")
    one.until("your opponent plays F@e5")
    two.type("quit")
    one.type("quit")
    assert quiet(two.proc, one.proc) == [0, 0]


def test_the_window_that_ran_the_broker_closed_the_game_goes_on(procs, local_port):
    """The first window (which started the embedded broker) closed mid-game:
    the other starts one of its own and puts its state there; the first
    player, back in a new window (its player id again, free once it
    ended), resumes the game it kept, and the game goes on."""
    one = Terminal(procs, "friday-11")
    one.until("you play light; waiting for an opponent (dark)")
    two = Terminal(procs, "friday-11")
    two.until("you play dark; your opponent (light) is here")
    one.type("W@d4")
    two.until("your opponent plays W@d4")
    two.type("carry")
    two.until("board: played W@d4")
    one.type("quit")
    assert quiet(one.proc) == [0]
    two.until("one started here on mqtt://127.0.0.1:%d" % local_port)
    again = Terminal(procs, "friday-11")
    again.until("room friday-11 as this computer kept it: 1 action")
    again.until("you play light; your opponent (dark) is here")
    two.type("F@e5")
    again.until("your opponent plays F@e5")
    again.type("carry")
    again.until("board: played F@e5")
    again.type("quit")
    two.type("quit")
    assert [again.proc.finish(), two.proc.finish()] == [0, 0]
    assert not [line for p in (again.proc, two.proc) for line in p.seen if "Traceback" in line
                or "a new game" in line]


def test_a_page_and_a_terminal_on_one_computer_play_each_other(procs, local_port):
    page = Page(procs, "friday-10")
    eventually(lambda: "waiting for an opponent (dark)" in page.line(), "the page seated")
    term = Terminal(procs, "friday-10")
    term.until("you play dark; your opponent (light) is here")
    eventually(lambda: page.line().endswith("your opponent (dark) is here"), "the page to see dark")
    page.act("W@d4")
    term.until("your opponent plays W@d4")
    term.type("carry")
    term.type("F@e5")
    eventually(lambda: page.state()["pending"] == "F@e5", "the page to ask for F@e5")
    term.type("quit")
    assert quiet(term.proc)[0] == 0
    quiet(page.proc)
