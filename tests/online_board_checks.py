"""The board online (vortex.online.client) with micropython-lib's
umqtt.simple, against the real mosquitto that tests/test_online_board.py
starts (its address and users in the environment): boards on virtual
boards (host_sim.scenario's Rig, the firmware's own pass) play each other
through the broker, the players' hands carrying out what each board asks,
and a stranger (an account with a guessed secret: what anyone can publish
on a broker without ACL) tries to break the game. Dual-run: the MicroPython
unix port (tests/mpy_runner.py), and CPython in pytest's process with
MicroPython's socket module over CPython's (tests/upy), where mutation
testing sees the client."""
import os
import time

from umqtt import simple
from host_sim.scenario import Rig
from vortex.ticks import ticks_add, ticks_diff
from vortex.hal.store import FileStore
from vortex.engine import LIGHT, DARK
from vortex.app import commands
from vortex.app.board import REMOTE_HERE, REMOTE_AWAY, REMOTE_WAIT
from vortex.engine.position import START
from vortex.online.client import Online, UP, DOWN
from vortex.online.room import Room
from vortex.online import protocol as p, sign

SECRET = "oak tree 7"
STALLS = []  # (what, ms) of the slowest passes, printed as figures


def broker(open_=False):
    """The broker with users and the project's ACL; open_: another, with
    neither (anyone may publish anything, as the embedded broker lets)."""
    if open_:
        return os.getenv("VORTEX_OPEN_BROKER") or broker()
    return os.getenv("VORTEX_BROKER") or "127.0.0.1:1883"


def users():
    return dict(u.split(":") for u in (os.getenv("VORTEX_USERS") or "").split(",") if u)


MASK = (1 << 30) - 1  # (CPython: a millisecond clock that wraps as the RP2040's)


def ms():
    return time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.monotonic() * 1000) & MASK


def us():
    return time.ticks_us() if hasattr(time, "ticks_us") else int(time.monotonic() * 1000000)


def sleep_ms(n):
    time.sleep(n / 1000)


def cache(name):
    """A board's flash for the room's game (its FileStore), in a folder of
    the test's (VORTEX_TMP), emptied first."""
    path = "%s/%s.bin" % (os.getenv("VORTEX_TMP") or "/tmp", name)
    for end in ("", ".bak", ".tmp", ".log", ".log.tmp"):
        try:
            os.remove(path + end)
        except OSError:
            pass
    return FileStore(path)


class Player:
    """A board on a virtual board, online in `room` as `side`."""

    def __init__(self, side, client, user=None, room="r1", secret=SECRET, cache=None):
        self.log = []
        self.rig = Rig()
        self.online = Online(self.rig.board, simple, clock=ms, say=self.log.append,
                             client=client, cache=cache)
        settings = [("broker", broker(user is None)), ("room", room), ("side", side),
                    ("secret", secret)]
        if user is not None:
            settings += [("user", user), ("password", users()[user])]
        for name, value in settings:
            self.online.command([name, value])
        self.online.state_wait_ms = 200  # the retained state comes in a millisecond on loopback
        self.online.command(["on"])
        self.rig.service.online = self.online  # served in every pass, as main.py's is
        self.worst = 0

    def tick(self):
        t = us()
        self.rig.tick()
        took = ticks_diff(us(), t)
        if took > self.worst:
            self.worst = took

    def said(self, words):
        return [line for line in self.log if words in line]

    def carry(self):
        """The player's hands carry out what the board asks (the opponent's action)."""
        b = self.rig.board
        n = len(b.pos.stack)
        self.rig.play(b.pending, settle=False)
        assert len(b.pos.stack) == n + 1

    def vanish(self):
        """The board loses its power: no goodbye (the broker sends its will)."""
        self.online.conn.sock.close()
        self.online.conn = None
        self.online.state = DOWN
        self.rig.service.online = None


class Stranger:
    """An MQTT client of its own that publishes what it likes and reads
    what the room keeps (retained), as anyone can on a broker without ACL
    (the open broker: no users, no ACL)."""

    def __init__(self, room, client="eve-1"):
        self.room = room
        host, port = broker(True).split(":")
        self.c = simple.MQTTClient(client, host, int(port))
        self.c.connect()
        self.got = {}
        self.c.set_callback(self._got)
        self.c.subscribe(p.room_filter(room), 1)

    def _got(self, topic, msg):
        self.got[bytes(topic).decode()] = bytes(msg)

    def publish(self, kind, payload, arg=None, retain=True):
        self.c.publish(p.topic(self.room, kind, arg), payload, retain, 1)

    def retained(self, ms_=1500):
        """What the room keeps now (a fresh subscription reads it)."""
        self.got = {}
        self.c.subscribe(p.room_filter(self.room), 1)
        end = ticks_add(ms(), ms_)
        while ticks_diff(end, ms()) > 0:
            if self.c.check_msg() is None:
                sleep_ms(5)
        return self.got

    def state(self):
        """The room's retained state: (its actions, the seat that signed it)."""
        got = self.retained().get(p.topic(self.room, p.STATE))
        if not got:
            return None
        _, actions, side, _, _, _ = p.read_state(got)
        return list(actions), side

    def listen(self):
        """Take what came (live, since the subscription): for done() in pump()."""
        for _ in range(8):
            if self.c.check_msg() is None:
                break
        return False

    def close(self):
        self.c.disconnect()


ms_now = ms


def pump(players, done, ms=8000):
    """Every board's pass in turn until done() (or fail after ms)."""
    end = ticks_add(ms_now(), ms)
    while not done():
        assert ticks_diff(end, ms_now()) > 0, [pl.log for pl in players]
        for pl in players:
            pl.tick()
        sleep_ms(1)


def connected(players):
    return lambda: all(pl.online.state == UP and pl.online.room.pos is not None
                       for pl in players)


def pair(room, open_=False):
    """Two boards in room, each keeping the room's game on its flash (main.py's)."""
    light = Player("light", "vx-l-" + room, None if open_ else "alice", room,
                   cache=cache("l-" + room))
    dark = Player("dark", "vx-d-" + room, None if open_ else "bob", room, cache=cache("d-" + room))
    t = ms()
    pump((light, dark), connected((light, dark)))
    STALLS.append(("connect and join, slowest pass", max(light.worst, dark.worst) // 1000))
    light.worst = dark.worst = 0
    return light, dark, ticks_diff(ms(), t)


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
    t = ms()
    pump((light, dark), lambda: light.rig.board.pending >= 0)
    STALLS.append(("back after a drop: from the backoff's end to the action asked, ms",
                   ticks_diff(ms(), t)))
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
    eve = simple.MQTTClient("eve-1", broker().split(":")[0], int(broker().split(":")[1]), "bob",
                            users()["bob"])
    eve.connect()
    key = sign.seat_key("guessed secret", "game-c", LIGHT)
    eve.publish(p.topic("game-c", p.ACTION), p.action_message("game-c", 1, LIGHT, "W@d4", "eve-1",
                                                              key), False, 1)
    pump((light, dark), lambda: light.said("bad signature") and dark.said("bad signature"))
    # A spectator's account (no ACL block): the broker drops what it publishes.
    watcher = simple.MQTTClient("watch-1", broker().split(":")[0], int(broker().split(":")[1]),
                                "carol", users()["carol"])
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
    assert "online: W@g2 taken back: it is for dark to play, from the room" in light.log
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
    assert "online: the board started a new game: the board follows the room (action 3)" \
        in dark.log
    assert dark.online.room.number() == 3
    # and the game goes on, once the players have put their boards as the LEDs show
    dark.rig.tidy()
    again.rig.tidy()
    move(dark, again, "A@f6")
    for pl in (light, dark, again):
        pl.online.command(["off"])


def play(light, dark, texts):
    for text in texts:
        me, other = (light, dark) if light.rig.board.pos.side == LIGHT else (dark, light)
        move(me, other, text)


def settle(players, ms_):
    """Every board's passes for ms_ (a repair is published at most every 2 s)."""
    end = ticks_add(ms(), ms_)
    pump(players, lambda: ticks_diff(end, ms()) <= 0, ms_ + 2000)


def test_what_a_stranger_puts_over_the_room_is_put_back():
    """On a broker without ACL a stranger can replace or take off what the
    room keeps: its state, the seats' claims, a player's presence. The
    boards refuse it and put back their own, so that a later joiner reads
    the room as it is; an ask is answered with the state."""
    room = "game-s"
    light, dark, _ = pair(room, True)
    first = None
    for text in ("W@d4", "F@e5", "E@c3"):
        play(light, dark, (text,))
        first = first or bytes(light.online.room.state())
    texts = ["W@d4", "F@e5", "E@c3"]
    eve = Stranger(room)
    guess = Room(room, START, "guessed secret", LIGHT, "eve-1")
    guess_dark = Room(room, START, "guessed secret", DARK, "eve-1")
    lid, did = light.online.room.client, dark.online.room.client
    # A forged state, forged claims over both seats, light said offline.
    eve.publish(p.STATE, guess.state())
    eve.publish(p.SEAT, guess.seat(), LIGHT)
    eve.publish(p.SEAT, guess_dark.seat(), DARK)
    eve.publish(p.PRESENCE, p.OFFLINE, lid)
    pump((light, dark), lambda: light.said("bad signature") and dark.said("bad signature")
         and light.said("light's seat is held by eve-1") and dark.said("dark's seat is held by"))
    settle((light, dark), 300)
    kept = eve.retained()
    assert p.read_state(kept[p.topic(room, p.STATE)])[1] == texts
    assert p.read_seat(kept[p.topic(room, p.SEAT, LIGHT)]) == (lid, sign.proof(
        light.online.room.keys[LIGHT]))
    assert p.read_seat(kept[p.topic(room, p.SEAT, DARK)]) == (did, sign.proof(
        dark.online.room.keys[DARK]))
    assert kept[p.topic(room, p.PRESENCE, lid)] == b"online light"
    # The state and dark's claim taken off (empty retained publishes).
    settle((light, dark), 2000)
    eve.publish(p.STATE, b"")
    eve.publish(p.SEAT, b"", DARK)
    settle((light, dark), 300)
    kept = eve.retained()
    assert p.read_state(kept[p.topic(room, p.STATE)])[1] == texts
    assert p.read_seat(kept[p.topic(room, p.SEAT, DARK)])[0] == did
    # An old state of the game itself, replayed: behind ours, replaced.
    settle((light, dark), 2000)
    eve.publish(p.STATE, first)
    settle((light, dark), 300)
    assert eve.state() == (texts, LIGHT) or eve.state() == (texts, DARK)
    # An ask: whoever holds the game publishes it (live, and retained).
    settle((light, dark), 2000)
    eve.got = {}
    eve.publish(p.ASK, b"eve-1", retain=False)
    pump((light, dark), lambda: eve.listen() or p.topic(room, p.STATE) in eve.got)
    assert p.read_state(eve.got[p.topic(room, p.STATE)])[1] == texts
    assert light.online.room.actions == dark.online.room.actions == texts
    # Online off: offline said, and kept by the broker for whoever comes later.
    light.online.command(["off"])
    assert eve.retained()[p.topic(room, p.PRESENCE, lid)] == p.OFFLINE
    eve.close()
    dark.online.command(["off"])


def test_a_restarted_board_reads_its_own_copy_and_never_starts_a_new_game():
    """A stranger forges the room's state while dark's player is away, and
    light's board is restarted: it reads the room's game as it kept it
    (its flash), refuses the forgery and puts the state back; it never
    starts a new game over the room; dark comes back to the same game."""
    room = "game-r"
    light = Player("light", "vx-l-" + room, None, room, cache=cache("light-r"))
    dark = Player("dark", "vx-d-" + room, None, room, cache=cache("dark-r"))
    pump((light, dark), connected((light, dark)))
    texts = ["W@d4", "F@e5", "E@c3"]
    play(light, dark, texts)
    dark.online.command(["off"])
    eve = Stranger(room)
    forged = Room(room, START, "guessed secret", LIGHT, light.online.room.client).state()
    light.vanish()
    eve.publish(p.STATE, forged)
    again = Player("light", "vx-l-" + room, None, room, cache=light.online.cache)
    pump((again,), lambda: again.said("its game as kept here, 3 actions"))
    pump((again,), lambda: again.online.state == UP and again.online.room.number() == 3
         and again.said("bad signature"))
    settle((again,), 500)
    assert not again.said("started with the board's game") and again.online.room.actions == texts
    assert eve.state() == (texts, LIGHT)  # the room's game back on the broker
    again.rig.tidy()
    dark.online.command(["on"])
    pump((again, dark), connected((again, dark)))
    dark.rig.tidy()
    play(again, dark, ["A@f6"])
    assert again.online.room.actions == dark.online.room.actions == texts + ["A@f6"]
    eve.close()
    for pl in (again, dark):
        pl.online.command(["off"])


def test_a_board_without_a_copy_waits_for_the_rooms_game():
    """The state taken off the broker, nobody there to put it back, and
    light's player on another board that has no copy: it waits for the
    game from the seat that has it (dark's, away), says so and blinks
    dark's colour in the centre, and publishes no game; dark's board back,
    it takes the room's game. A board with a game answers an ask."""
    room = "game-w"
    light, dark, _ = pair(room, True)
    texts = ["W@a1", "F@h8"]
    play(light, dark, texts)
    light.online.command(["off"])
    dark.online.command(["off"])
    eve = Stranger(room)
    eve.publish(p.STATE, b"")
    other = Player("light", "vx-l2-" + room, None, room)  # no copy of the room's game
    did = "vx-d-" + room
    pump((other,), lambda: "waiting for its game from dark (%s away)" % did
         in other.online.status())
    pump((other,), lambda: eve.listen() or p.topic(room, p.ASK) in eve.got)
    assert eve.got[p.topic(room, p.ASK)] == b"vx-l2-" + room.encode()
    settle((other,), 1000)
    assert other.rig.board.remote == REMOTE_WAIT and other.rig.board.remote_side == DARK
    assert other.online.room.pos is None and not other.said("started")
    assert eve.state() is None  # nothing published over the room
    dark.online.command(["on"])
    pump((other, dark), lambda: other.online.room.number() == 2
         and len(other.rig.board.pos.stack) == 2)
    assert other.online.room.actions == texts, other.online.room.actions
    pump((other, dark), lambda: other.rig.board.remote == REMOTE_HERE)
    eve.close()
    for pl in (other, dark):
        pl.online.command(["off"])


def test_zz_figures():
    for what, ms in STALLS:
        print("figure: %s: %d ms" % (what, ms))
