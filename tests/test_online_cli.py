"""The ways into a game online as a person runs them, real processes on a
real broker (mosquitto, tests/conftest.py): the terminal (`vortex board
--online`) showing the opponent's action, the opponent gone and back; two
boards on USB (`vortex board --serial`, pseudo-terminals) bridged to one
room by `vortex link --online` and playing each other; a spectator
(`vortex watch`) following them."""
import queue
import re
import subprocess
import time

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


def test_a_local_game_needs_no_broker_given(procs):
    """No --broker: this machine's port 1883, an embedded broker (amqtt)
    started there when nothing listens; the room's name is its secret."""
    pytest.importorskip("amqtt", reason="amqtt is not installed (make test installs it)")
    term = Proc("board", "--no-color", "--online", "local-room", stdin=subprocess.PIPE)
    procs.append(term)
    assert "connected to mqtt://127.0.0.1:1883" in term.until("online: connected")
    term.until("online: room local-room: you play")
    typed(term, "quit")
    assert term.finish() == 0 and "Traceback" not in "\n".join(term.seen)
