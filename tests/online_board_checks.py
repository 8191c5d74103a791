"""The board online (vortex.online.client) under the MicroPython unix port,
with micropython-lib's umqtt.simple, against the real mosquitto that
tests/test_online_board.py starts (its address and users in the
environment): two boards on virtual boards (host_sim.scenario's Rig, the
firmware's own pass) play each other through the broker, the players'
hands carrying out what each board asks. Run by tests/mpy_runner.py."""
import os
import time

from umqtt import simple
from host_sim.scenario import Rig
from vortex.engine import LIGHT, DARK
from vortex.app import commands
from vortex.app.board import REMOTE_HERE, REMOTE_AWAY
from vortex.online.client import Online, UP, DOWN
from vortex.online import protocol as p, sign

BROKER = os.getenv("VORTEX_BROKER") or "127.0.0.1:1883"
USERS = dict(u.split(":") for u in (os.getenv("VORTEX_USERS") or "").split(",") if u)
SECRET = "oak tree 7"
STALLS = []  # (what, ms) of the slowest passes, printed as figures


class Player:
    """A board on a virtual board, online in `room` as `side`."""

    def __init__(self, side, client, user, room="r1", secret=SECRET):
        self.log = []
        self.rig = Rig()
        self.online = Online(self.rig.board, simple, clock=time.ticks_ms, say=self.log.append,
                             client=client)
        for name, value in (("broker", BROKER), ("room", room), ("side", side),
                            ("secret", secret), ("user", user), ("password", USERS[user])):
            self.online.command([name, value])
        self.online.state_wait_ms = 200  # the retained state comes in a millisecond on loopback
        self.online.command(["on"])
        self.rig.service.online = self.online  # served in every pass, as main.py's is
        self.worst = 0

    def tick(self):
        t = time.ticks_us()
        self.rig.tick()
        us = time.ticks_diff(time.ticks_us(), t)
        if us > self.worst:
            self.worst = us

    def said(self, words):
        return [line for line in self.log if words in line]

    def carry(self):
        """The player's hands carry out what the board asks (the opponent's action)."""
        b = self.rig.board
        n = len(b.pos.stack)
        self.rig.play(b.pending, settle=False)
        assert len(b.pos.stack) == n + 1


def pump(players, done, ms=8000):
    """Every board's pass in turn until done() (or fail after ms)."""
    end = time.ticks_add(time.ticks_ms(), ms)
    while not done():
        assert time.ticks_diff(end, time.ticks_ms()) > 0, [pl.log for pl in players]
        for pl in players:
            pl.tick()
        time.sleep_ms(1)


def connected(players):
    return lambda: all(pl.online.state == UP and pl.online.room.pos is not None
                       for pl in players)


def pair(room):
    light = Player("light", "vx-l-" + room, "alice", room)
    dark = Player("dark", "vx-d-" + room, "bob", room)
    t = time.ticks_ms()
    pump((light, dark), connected((light, dark)))
    STALLS.append(("connect and join, slowest pass", max(light.worst, dark.worst) // 1000))
    light.worst = dark.worst = 0
    return light, dark, time.ticks_diff(time.ticks_ms(), t)


def move(me, other, text):
    """`me` plays text on its board; `other`'s board asks for it; its hands carry it out."""
    me.rig.act(text)
    pump((me, other), lambda: other.rig.board.pending >= 0)
    assert other.rig.board.pos.action_text(other.rig.board.pending) == text
    other.carry()
    pump((me, other), lambda: me.online.room.number() == other.online.room.number()
         == len(me.rig.board.pos.stack) == len(other.rig.board.pos.stack))


def test_two_boards_play_through_the_broker():
    light, dark, ms = pair("game-a")
    for text in ("W@d4", "F@e5", "E@c3", "A@f6"):
        me, other = (light, dark) if light.rig.board.pos.side == LIGHT else (dark, light)
        move(me, other, text)
    assert light.rig.board.pos.text() == dark.rig.board.pos.text()
    assert light.online.room.actions == dark.online.room.actions == ["W@d4", "F@e5", "E@c3",
                                                                     "A@f6"]
    assert "opponent online" in light.online.status()
    STALLS.append(("a pass while playing, slowest", max(light.worst, dark.worst) // 1000))
    light.online.command(["off"])
    dark.online.command(["off"])


def test_a_board_that_drops_gets_the_action_sent_meanwhile():
    light, dark, _ = pair("game-b")
    move(light, dark, "W@a1")
    # Light's connection dies (no goodbye): the broker's will tells dark.
    light.online.conn.sock.close()
    pump((dark,), lambda: "opponent offline" in dark.online.status())
    pump((dark,), lambda: dark.rig.board.remote == REMOTE_AWAY)  # light's colour in the centre
    pump((light,), lambda: light.online.state == DOWN)
    pump((light,), lambda: light.rig.board.remote == REMOTE_AWAY)  # dark is out of reach too
    # Dark plays while light is away: the broker keeps it in light's session.
    dark.rig.act("F@h8")
    pump((dark,), lambda: dark.online.room.number() == 2)
    t = time.ticks_ms()
    pump((light, dark), lambda: light.rig.board.pending >= 0)
    STALLS.append(("back after a drop: from the backoff's end to the action asked, ms",
                   time.ticks_diff(time.ticks_ms(), t)))
    assert light.rig.board.pos.action_text(light.rig.board.pending) == "F@h8"
    pump((dark,), lambda: "opponent online" in dark.online.status())
    pump((dark,), lambda: dark.rig.board.remote == REMOTE_HERE)
    light.carry()
    move(light, dark, "E@b2")
    assert light.online.room.actions == dark.online.room.actions == ["W@a1", "F@h8", "E@b2"]
    light.online.command(["off"])
    dark.online.command(["off"])


def test_a_stranger_cannot_play_a_seat():
    light, dark, _ = pair("game-c")
    # Bob's account with a guessed secret: the broker lets it publish, the
    # boards refuse it, the game intact.
    eve = simple.MQTTClient("eve-1", BROKER.split(":")[0], int(BROKER.split(":")[1]), "bob",
                            USERS["bob"])
    eve.connect()
    key = sign.seat_key("guessed secret", "game-c", LIGHT)
    eve.publish(p.topic("game-c", p.ACTION), p.action_message("game-c", 1, LIGHT, "W@d4", "eve-1",
                                                              key), False, 1)
    pump((light, dark), lambda: light.said("bad signature") and dark.said("bad signature"))
    # A spectator's account (no ACL block): the broker drops what it publishes.
    watcher = simple.MQTTClient("watch-1", BROKER.split(":")[0], int(BROKER.split(":")[1]),
                                "carol", USERS["carol"])
    watcher.connect()
    watcher.publish(p.topic("game-c", p.ACTION), b"1 light W@d4 watch-1 " + b"0" * 32, False, 1)
    eve.publish(p.topic("game-c", p.ACTION), b"junk", False, 1)
    pump((light, dark), lambda: dark.said("expected number side"))
    assert not light.said("watch-1"), light.log  # the spectator's never arrived
    assert light.online.room.number() == dark.online.room.number() == 0
    eve.disconnect()
    watcher.disconnect()
    move(light, dark, "W@d4")  # the game goes on
    light.online.command(["off"])
    dark.online.command(["off"])


def test_the_opponents_side_played_here_is_taken_back():
    light, dark, _ = pair("game-d")
    move(light, dark, "A@c6")
    # Dark to act: light's player lays a tile for dark on light's board.
    light.rig.act("W@g2")
    pump((light, dark), lambda: light.said("taken back"))
    pump((light, dark), lambda: len(light.rig.board.pos.stack) == 1)
    assert dark.online.room.number() == 1 and dark.rig.board.pending < 0
    light.online.command(["off"])
    dark.online.command(["off"])


def test_a_board_joining_late_or_starting_afresh_takes_the_rooms_game():
    light, dark, _ = pair("game-e")
    for me, other, text in ((light, dark, "W@d4"), (dark, light, "F@e5"),
                            (light, dark, "E@c3")):
        move(me, other, text)
    # Light's player comes back on another board: it takes the room's game whole.
    again = Player("light", "vx-l2-game-e", "alice", "game-e")
    again.online.room.replay_max = 1  # the room's game replayed an action a pass
    pump((light, dark, again), lambda: len(again.rig.board.pos.stack) == 3)
    assert again.said("state by vx-l-game-e: 1 of 3 actions replayed")
    assert again.rig.board.pos.text() == light.rig.board.pos.text()
    assert again.said("the board follows the room")
    # A new game started on dark's board: the room's game comes back to it.
    commands.new_game(dark.rig.board)
    pump((light, dark, again), lambda: len(dark.rig.board.pos.stack) == 3)
    assert dark.rig.board.pos.text() == light.rig.board.pos.text()
    assert dark.online.room.number() == 3
    # and the game goes on, once the players have put their boards as the LEDs show
    dark.rig.tidy()
    again.rig.tidy()
    move(dark, again, "A@f6")
    for pl in (light, dark, again):
        pl.online.command(["off"])


def test_zz_figures():
    for what, ms in STALLS:
        print("figure: %s: %d ms" % (what, ms))
