"""Online play on the host against a real broker (Debian's mosquitto with
the project's configuration and no ACL, tests/conftest.py): two simulator
boards (host_sim.scenario.Rig) each kept in step with the room by Follow,
and the faults of issues 25 and 38: the broker restarted mid-game, a client
killed mid-action that comes back, both seats acting at once, a message
delivered twice, bad messages refused with one line, the game intact; and
what a stranger can publish on a broker without ACL (a forged or an empty
retained state, forged seat claims) or a broker that lost its retained
messages: no new game is ever published over the room's."""
import os
import time

import pytest

import host_sim  # noqa: F401  (firmware/ on sys.path)
from vortex.engine import Position, LIGHT, DARK
from vortex.engine.notation import action_text
from vortex.app.session import Settings, NO_AI
from vortex.online import protocol as p, sign
from vortex.online.protocol import WATCH, ProtocolError
from host_sim.scenario import Rig
from host_sim.online.client import Address, Connection
from host_sim.online.player import Player, RoomCache
from host_sim.online.follow import Follow
from vortex.app.board import REMOTE_WAIT, REMOTE_HERE, REMOTE_AWAY
from vortex.engine.position import START
from vortex.online.room import Room

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed "
                    "(make test installs it from requirements-dev.txt)")

ROOM = "t-room"
SECRET = "oak tree 7"
SETTLE_S = 0.3


class Seat:
    """A simulator board in the room: a Rig, a Player, a Follow; what it
    said and logged kept for the asserts."""

    def __init__(self, broker, seat, device, secret=SECRET, cache=None):
        self.said, self.logged = [], []
        self.rig = Rig(settings=Settings(ai_side=NO_AI))
        self.broker, self.seat, self.device, self.secret = broker, seat, device, secret
        self.cache = cache  # (None: the user's, in the test's own folder: tests/conftest.py)
        self.join()

    def join(self):
        self.player = Player(Address.parse(self.broker.address), ROOM, self.secret, self.seat,
                             log=self.logged.append, device=self.device,
                             settle_s=SETTLE_S, cache=self.cache).start()
        self.follow = Follow(self.player, lambda: self.rig.board, self.lay_out, self.said.append)

    def again(self):
        """The program started again (a new process: a fresh board, no --save)."""
        self.player.close()
        self.rig = Rig(settings=Settings(ai_side=NO_AI))
        self.said[:], self.logged[:] = [], []
        self.join()

    def lay_out(self, start, codes):
        self.rig = Rig(start, settings=self.rig.board.settings,
                       actions=[action_text(a) for a in codes])

    def play(self, text):
        """Hands carry out text on this board; the room hears of it."""
        assert self.rig.act(text) == ""
        self.rig.settle()
        self.follow.sync()

    def carry(self):
        """Hands carry out the action the board asks for (the opponent's)."""
        text = action_text(self.rig.board.pending)
        self.play(text)
        return text

    def actions(self):
        return [action_text(a) for a in self.rig.board.pos.stack]


def step(*seats, until=lambda: False, timeout=8.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in seats:
            s.follow.step(0.01)
        if until():
            return
    raise AssertionError("waited %.0f s: %s" % (timeout, [(s.actions(), s.logged[-3:], s.said[-3:])
                                                      for s in seats]))


def seated(broker, devices=("aaaaaaaa", "bbbbbbbb")):
    light = Seat(broker, LIGHT, devices[0])
    dark = Seat(broker, DARK, devices[1])
    step(light, dark, until=lambda: light.follow.presence().endswith("is here")
         and dark.follow.presence().endswith("is here"))
    return light, dark


def game(n, seed=11):
    """n legal actions from the start, picked by a small LCG."""
    pos = Position()
    out = []
    for _ in range(n):
        acts = list(pos.legal_actions())
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a = acts[seed % len(acts)]
        out.append(action_text(a))
        pos.push(a)
    return out


def exchange(light, dark, texts):
    """Each action played on the board whose side acts; the other carries it out."""
    for text in texts:
        me, them = (light, dark) if light.rig.board.pos.side == LIGHT else (dark, light)
        n = len(me.actions())
        me.play(text)
        step(me, them, until=lambda: them.rig.board.pending >= 0 or len(them.actions()) > n)
        if len(them.actions()) == n:
            assert them.carry() == text
        step(me, them, until=lambda: len(me.player.room.actions) == len(them.player.room.actions)
             == n + 1)


def converged(*seats):
    want = seats[0].player.room.actions
    for s in seats:
        assert s.player.room.actions == want, (s.player.room.actions, want)
        assert s.actions() == want
    return want


def raw(broker, cid="intruder"):
    c = Connection(Address.parse(broker.address), cid, clean=True).start()
    end = time.monotonic() + 5
    while not c.connected and time.monotonic() < end:
        c.events(0.05)
    return c


# --- a game --------------------------------------------------------------------------
def test_two_boards_play_and_converge(mosquitto):
    light, dark = seated(mosquitto)
    exchange(light, dark, game(6))
    assert converged(light, dark) == game(6)
    assert not light.logged[1:] or all("refused" not in line for line in light.logged)


def test_the_seat_is_chosen_and_the_opponent_seen(mosquitto):
    a = Seat(mosquitto, None, "aaaaaaaa")
    step(a, until=lambda: a.player.ready())
    b = Seat(mosquitto, None, "bbbbbbbb")
    step(a, b, until=lambda: b.player.ready() and a.follow.presence().endswith("is here"))
    assert (a.player.side, b.player.side) == (LIGHT, DARK)
    assert b.follow.presence() == "room %s: you play dark; your opponent (light) is here" % ROOM
    c = Seat(mosquitto, None, "cccccccc")  # both seats held: a spectator
    step(a, b, c, until=lambda: c.player.ready())
    assert c.player.side == WATCH and "both seats" in " ".join(c.logged)


def test_a_late_joiner_is_laid_out_as_the_room(mosquitto):
    light, dark = seated(mosquitto)
    exchange(light, dark, game(4))
    dark.player.close()
    late = Seat(mosquitto, DARK, "dddddddd")  # another computer, same secret: takes the seat
    step(light, late, until=lambda: late.actions() == game(4))
    assert "the room's game: 4 actions, laid out on the board" in late.said


def test_a_seat_whose_holder_is_gone_goes_to_a_player_choosing_one(mosquitto, tmp_path):
    """A player choosing a seat takes one whose holder has gone (offline),
    not one whose holder is here; its own seat first, when it played here
    (its claim, or where the broker lost the claims, the game it kept)."""
    def computer(name):
        return RoomCache(str(tmp_path / name))
    light = Seat(mosquitto, LIGHT, "aaaaaaaa", cache=computer("a"))
    dark = Seat(mosquitto, DARK, "bbbbbbbb", cache=computer("b"))
    step(light, dark, until=lambda: light.follow.presence().endswith("is here")
         and dark.follow.presence().endswith("is here"))
    exchange(light, dark, game(2))
    light.player.close()  # gone, with a goodbye
    new = Seat(mosquitto, None, "cccccccc", cache=computer("c"))
    step(new, dark, until=lambda: new.player.ready())
    assert new.player.side == LIGHT and new.actions() == game(2)
    assert new.follow.presence().endswith("you play light; your opponent (dark) is here")
    new.player.close()
    back = Seat(mosquitto, None, "bbbbbbbb", cache=computer("b"))  # its seat held by itself
    dark.player.conn.kill()
    step(back, until=lambda: back.player.ready())
    assert back.player.side == DARK and back.player.room.client == dark.player.room.client
    back.player.close()
    lose_the_retained_messages(mosquitto)  # no claims: the game kept says which seat
    again = Seat(mosquitto, None, "bbbbbbbb", cache=computer("b"))
    step(again, until=lambda: again.player.ready())
    assert again.player.side == DARK and again.actions() == game(2)


def test_each_program_of_a_user_is_a_player_of_its_own(tmp_path):
    """host_sim.online.player.player_id: the user's id for the first program,
    another for a second one running at once; a program started again once
    the first has ended (killed, whatever) takes the first id back."""
    import subprocess
    import sys
    from host_sim.online.player import device_id
    code = ("import sys, time; sys.path[:0] = %r\n"
            "from host_sim.online.player import player_id\n"
            "print(player_id(%r), flush=True)\n"
            "time.sleep(float(sys.argv[1]))\n") % (sys.path, str(tmp_path))

    def program(hold):
        return subprocess.Popen([sys.executable, "-c", code, str(hold)], stdout=subprocess.PIPE,
                                text=True)
    base = device_id(str(tmp_path))
    first = program(30)
    assert first.stdout.readline().strip() == base
    second = program(0)
    assert second.stdout.readline().strip() == base + "-2"
    second.wait()
    first.kill()
    first.wait()
    again = program(0)
    assert again.stdout.readline().strip() == base
    again.wait()


def test_each_id_of_a_user_held_in_this_process(tmp_path, monkeypatch):
    """player_id in this process (the programs above are out of mutmut's
    sight): the device id first, the next free one while its lock is held
    (as another program holds it); a lock file only its user can open."""
    import stat
    from host_sim.online import player
    monkeypatch.setattr(player, "_PLAYER", {})
    folder = str(tmp_path)
    base = player.device_id(folder)
    held = []  # (id, fd) of each id taken: its lock
    mask = os.umask(0o022)
    try:
        assert player.player_id(folder) == base
        held.append(player._PLAYER.pop(folder))  # another program's now: its lock still held
        assert player.player_id(folder) == base + "-2"
    finally:
        os.umask(mask)
        for _, fd in held + list(player._PLAYER.values()):
            os.close(fd)
    assert stat.S_IMODE(os.stat(os.path.join(folder, "player-1.lock")).st_mode) == 0o600


def test_the_users_id_and_rooms_are_kept_in_the_users_folders(tmp_path, monkeypatch):
    """Given no folder: $XDG_CONFIG_HOME/vortex/online-id (the id, read back
    every time) and $XDG_CACHE_HOME/vortex/rooms; ~/.config and ~/.cache
    without them (docs/online.md)."""
    from host_sim.online import player
    monkeypatch.setattr(player, "_PLAYER", {})
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    kept = tmp_path / "config" / "vortex"
    kept.mkdir(parents=True)
    (kept / "online-id").write_text("0123abcd\n")
    assert player.device_id() == "0123abcd"
    try:
        assert player.player_id() == "0123abcd" and (kept / "player-1.lock").exists()
    finally:
        for _, fd in player._PLAYER.values():
            os.close(fd)
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.delenv("XDG_CACHE_HOME")
    made = player.device_id()
    assert (tmp_path / "home" / ".config" / "vortex" / "online-id").read_text() == made + "\n"
    assert RoomCache().folder == str(tmp_path / "home" / ".cache" / "vortex" / "rooms")


def nowhere():
    """A broker's address where nothing listens."""
    from host_sim.online.broker import free_port
    return Address.parse("127.0.0.1:%d" % free_port())


class Unplugged:
    """Player.connection that never connects."""

    def __init__(self, *args, **kw):
        pass

    def start(self):
        return self

    def close(self, goodbye=None):
        pass


class Feed:
    """Player.connection fed by the test: the events it is given, what the
    player publishes kept (no broker: poll's answer and counts exactly)."""

    def __init__(self, *args, **kw):
        self.coming, self.sent = [], []

    def start(self):
        return self

    def events(self, timeout=0.0):
        out, self.coming[:] = list(self.coming), []
        return out

    def publish(self, topic, payload, retain=False):
        self.sent.append((topic, payload, retain))

    def close(self, goodbye=None):
        pass


def fed(seat=LIGHT, **kw):
    pl = Player(nowhere(), ROOM, SECRET, seat, device="aaaaaaaa", cache=False, **kw)
    pl.connection = Feed
    return pl.start()


def test_a_broker_not_there_is_said_now_and_then():
    """Each failed try counted; said the 1st, 5th and every 20th time, not every second."""
    logged = []
    pl = fed(log=logged.append)
    pl.conn.coming[:] = [("unreachable", None, "no answer")] * 40
    pl.poll()
    assert pl.failures == 40
    assert logged == ["cannot reach the broker %s: trying again" % pl.address] * 4  # 1, 5, 20, 40


def test_poll_says_when_the_room_changed_and_counts_each_refusal():
    """poll() is True for what changes the room (a refusal, the game read,
    the seat settled), False for a repeat; every refusal is counted (the
    page's count)."""
    logged = []
    pl = fed(log=logged.append, settle_s=60)
    pl.conn.coming.append(("up", None, b"new session"))
    assert pl.poll() is False
    bad = ("message", p.topic(ROOM, p.ACTION), b"\xff\xfe garbage")
    pl.conn.coming[:] = [bad, bad]
    assert pl.poll() is True
    assert pl.refused == 2 and len([line for line in logged if line.startswith("refused")]) == 2
    dark = Room(ROOM, None, SECRET, DARK, "dark-1")  # (its game: one action)
    dark.begin(START, [Position().parse_action(game(1)[0])])
    state = ("message", p.topic(ROOM, p.STATE), bytes(dark.state()))
    pl.conn.coming.append(state)
    assert pl.poll() is True and pl.room.actions == game(1)
    pl.conn.coming.append(state)  # the same state again (QoS 1 delivers twice)
    assert pl.poll() is False
    pl.settle_s = 0  # the retained messages are read: the seat settles, the game is the room's
    assert pl.poll() is True and pl.ready()


def test_a_player_not_started_is_not_in_the_room():
    pl = Player(nowhere(), ROOM, SECRET, LIGHT, device="aaaaaaaa", cache=False)
    assert not pl.ready() and pl.side is None
    with pytest.raises(ProtocolError, match="^not in the room yet: waiting for the broker$"):
        pl.act("W@d4")


def test_a_broker_not_there_is_said_and_tried_again():
    """Nothing listens: each failed try wakes the front-end's loop (wake),
    is counted, said (the first time) and handed to `unreachable` (options:
    a local broker started then); the page shows the seat, not connected."""
    address = nowhere()
    logged, woken, tries = [], [], []
    pl = Player(address, ROOM, SECRET, DARK, log=logged.append, device="aaaaaaaa", cache=False,
                wake=lambda: woken.append(1))
    pl.unreachable = lambda: tries.append(1)
    pl.start()
    try:
        end = time.monotonic() + 5
        while not (pl.failures and woken):
            pl.poll(0.05)
            assert time.monotonic() < end, (pl.failures, woken, logged)
        assert tries == [1] * pl.failures
        assert logged[0] == "cannot reach the broker %s: trying again" % address
        view = Follow(pl, None, None, None).view()
        assert view == {"room": ROOM, "broker": str(address), "connected": False, "seat": "dark",
                        "opponent": None, "line": "room %s: joining on %s..." % (ROOM, address),
                        "refused": 0, "waiting": None}
    finally:
        pl.close()


def test_a_kept_game_that_is_not_the_rooms_is_said_and_not_taken(tmp_path):
    """This computer's copy signed with another secret: one line, no game kept."""
    address = nowhere()
    cache = RoomCache(str(tmp_path))
    cache.save(address, ROOM, LIGHT, bytes(Room(ROOM, START, "guess", LIGHT, "eve").state()))
    logged = []
    pl = Player(address, ROOM, SECRET, LIGHT, log=logged.append, device="aaaaaaaa", cache=cache)
    pl.connection = Unplugged  # (read before connecting: no broker needed)
    pl.start().close()
    assert logged[0].startswith("this computer's copy of room %s is not this room's: " % ROOM)
    assert "bad signature" in logged[0] and pl.room.start is None


def test_not_your_turn_is_taken_back(mosquitto):
    light, dark = seated(mosquitto)
    dark.play("W@d4")  # light's turn: dark's hands moved for light
    assert dark.actions() == [] and any("not your turn" in line for line in dark.said)
    assert light.player.room.actions == [] == dark.player.room.actions


# --- faults ----------------------------------------------------------------------------
def test_broker_restarted_mid_game(mosquitto):
    light, dark = seated(mosquitto)
    texts = game(8)
    exchange(light, dark, texts[:3])
    mosquitto.stop()
    dark.play(texts[3])  # while the broker is down: paho keeps it
    step(light, dark, until=lambda: not dark.player.up and not light.player.up)
    mosquitto.start()
    step(light, dark, until=lambda: light.rig.board.pending >= 0, timeout=15)
    assert light.carry() == texts[3]
    exchange(light, dark, texts[4:])
    assert converged(light, dark) == texts  # nothing lost, nothing doubled


def test_a_client_killed_mid_action_comes_back(mosquitto):
    light, dark = seated(mosquitto)
    texts = game(6)
    exchange(light, dark, texts[:2])
    light.play(texts[2])
    light.player.conn.kill()  # the process dies as its action leaves
    step(dark, until=lambda: dark.follow.presence().endswith("is gone"))
    light.rig = Rig(settings=Settings(ai_side=NO_AI))  # a new process: a fresh board
    light.join()  # same computer, same seat: the same client id and session
    step(light, dark, until=lambda: light.player.ready() and dark.follow.presence().endswith(
        "is here"))
    assert "connected to %s (session kept)" % light.player.address in light.logged
    room = light.player.room.actions
    if len(room) == 2:  # the action never reached the broker: played again
        light.play(texts[2])
    step(light, dark, until=lambda: light.actions() == texts[:3]
         and (dark.rig.board.pending >= 0 or dark.actions() == texts[:3]))
    if dark.rig.board.pending >= 0:
        dark.carry()
    exchange(light, dark, texts[3:])
    assert converged(light, dark) == texts


def test_both_seats_act_at_once(mosquitto):
    light, dark = seated(mosquitto)
    exchange(light, dark, game(2))
    # Light to act: both seats send action 3 at the same moment, each signed
    # with its own key. The engine lets only light's stand, everywhere.
    key_dark = sign.seat_key(SECRET, ROOM, DARK)
    forged = p.action_message(ROOM, 3, DARK, "F@f6", dark.player.room.client, key_dark)
    dark.player.conn.publish(p.topic(ROOM, p.ACTION), forged)
    light.play(game(3)[2])
    # (refused as not dark's turn, or as action 3 being light's already: which came first)
    step(light, dark, until=lambda: dark.rig.board.pending >= 0 and all(any(
        line.startswith("refused: action 3 dark F@f6: ") for line in s.logged)
        for s in (light, dark)))
    dark.carry()
    step(light, dark, until=lambda: dark.player.room.actions == game(3))
    assert converged(light, dark) == game(3)


def test_a_message_delivered_twice_is_applied_once(mosquitto):
    light, dark = seated(mosquitto)
    exchange(light, dark, game(1))
    again = p.action_message(ROOM, 1, LIGHT, game(1)[0], light.player.room.client,
                             sign.seat_key(SECRET, ROOM, LIGHT))
    c = raw(mosquitto)
    for _ in range(3):
        c.publish(p.topic(ROOM, p.ACTION), again)
    exchange(light, dark, game(2)[1:])
    assert converged(light, dark) == game(2)
    assert light.player.refused == dark.player.refused == 0
    c.close()


BAD = [  # (payload, words of the one line logged)
    (b"\xff\xfe garbage", "not printable ASCII"),
    (b"2 dark F@f6", "expected number side action sender signature"),
    (b"2 dark F@f6 x " + b"0" * 32 + b" " + b"y" * 120, "too long"),
    (None, "bad signature"),  # signed with another secret
    ("wrong seat", "bad signature for dark's seat"),  # light's key signing as dark
    ("illegal", "illegal"),
    ("wrong number", "out of order"),
]


@pytest.mark.parametrize("payload, words", BAD, ids=[w for _, w in BAD])
def test_a_bad_message_is_refused_in_one_line(mosquitto, payload, words):
    light, dark = seated(mosquitto)
    exchange(light, dark, game(1))
    me = dark.player.room.client
    if payload is None:
        payload = p.action_message(ROOM, 2, DARK, "F@f6", me, sign.seat_key("guess", ROOM, DARK))
    elif payload == "wrong seat":
        payload = p.action_message(ROOM, 2, DARK, "F@f6", me, sign.seat_key(SECRET, ROOM, LIGHT))
    elif payload == "illegal":
        payload = p.action_message(ROOM, 2, DARK, "d4e5", me, sign.seat_key(SECRET, ROOM, DARK))
    elif payload == "wrong number":
        payload = p.action_message(ROOM, 9, DARK, "F@f6", me, sign.seat_key(SECRET, ROOM, DARK))
    c = raw(mosquitto)
    c.publish(p.topic(ROOM, p.ACTION), payload)
    step(light, dark, until=lambda: light.player.refused and dark.player.refused)
    for s in (light, dark):
        lines = [line for line in s.logged if line.startswith("refused")]
        assert len(lines) == 1 and words in lines[0] and "\n" not in lines[0], lines
    exchange(light, dark, game(2)[1:])  # the game goes on
    assert converged(light, dark) == game(2)
    c.close()


def test_a_message_over_the_brokers_limit_never_reaches_the_room(mosquitto):
    light, dark = seated(mosquitto)
    c = raw(mosquitto)
    c.publish(p.topic(ROOM, p.ACTION), b"1 " * 6000)  # over max_packet_size: the broker drops it
    exchange(light, dark, game(2))
    assert converged(light, dark) == game(2) and light.player.refused == 0
    c.kill()


def test_the_opponent_gone_and_back(mosquitto):
    """Said in words (the terminal's and the page's line) and on the board's
    LEDs (Board.set_remote: the thinking light on its turn, its colour in the
    centre while it is gone)."""
    light, dark = seated(mosquitto)
    assert (light.rig.board.remote, light.rig.board.remote_side) == (REMOTE_HERE, DARK)
    dark.player.conn.kill()  # vanished without a word: the broker sends its will
    step(light, until=lambda: light.said[-1].endswith("your opponent (dark) is gone"))
    assert light.rig.board.remote == REMOTE_AWAY
    light.again()  # a page started later reads the will, kept by the broker
    step(light, until=lambda: light.player.ready() and light.said[-1].endswith(
        "your opponent (dark) is gone"))
    dark.join()
    step(light, dark, until=lambda: light.said[-1].endswith("your opponent (dark) is here"))
    assert light.rig.board.remote == REMOTE_HERE


# --- a stranger on a broker without ACL, a broker that lost its retained messages -------
def retained(broker, kind=p.STATE, arg=None, wait=0.6):
    """What the broker keeps on a room's topic now (a fresh subscription reads it)."""
    c = Connection(Address.parse(broker.address), "reader-%d" % os.getpid(),
                   subscribe=[p.topic(ROOM, kind, arg)], clean=True).start()
    got, end = None, time.monotonic() + wait
    while time.monotonic() < end:
        for event, topic, payload in c.events(0.05):
            if event == "message":
                got = payload
    c.close()
    return got


def lose_the_retained_messages(broker):
    """The broker stopped, its file of retained messages and sessions gone, started."""
    broker.stop()
    os.remove(os.path.join(broker.folder, "vortex.db"))
    broker.start()


FAULTS = ["forged", "emptied", "lost"]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_page_started_again_over_a_broken_room_plays_on_the_rooms_game(mosquitto, fault):
    """Issue 38: with dark's player away, a stranger forges the room's
    retained state (or publishes an empty one, which takes it off), or the
    broker loses its retained messages; light's page is started again
    (no --save). It refuses what is not the room's, resumes the game this
    computer kept (the user cache), puts it back on the broker and never
    publishes a new game over it; dark back, both play on the same game."""
    light, dark = seated(mosquitto)
    texts = game(7)
    exchange(light, dark, texts[:6])
    dark.player.close()
    light.player.close()
    if fault == "forged":
        eve = raw(mosquitto)
        eve.publish(p.topic(ROOM, p.STATE), Room(ROOM, START, "guess", LIGHT, "eve").state(),
                    retain=True)
        time.sleep(0.2)
        eve.close()
    elif fault == "emptied":
        eve = raw(mosquitto)
        eve.publish(p.topic(ROOM, p.STATE), b"", retain=True)
        time.sleep(0.2)
        eve.close()
        assert retained(mosquitto) is None
    else:
        lose_the_retained_messages(mosquitto)
        assert retained(mosquitto) is None
    light.again()
    step(light, until=lambda: light.player.ready() and light.actions() == texts[:6])
    assert "room %s as this computer kept it: 6 actions" % ROOM in light.logged
    assert fault != "forged" or any("bad signature" in line for line in light.logged)
    step(light, until=lambda: p.read_state(retained(mosquitto) or b"start x\nactions\nby "
                                           b"light x " + b"0" * 32)[1] == texts[:6])
    assert not [line for line in light.logged if "a new game" in line]
    dark.join()
    step(light, dark, until=lambda: dark.player.ready() and len(dark.player.room.actions) == 6)
    exchange(light, dark, texts[6:])
    assert converged(light, dark) == texts


def test_a_computer_without_the_rooms_game_waits_for_it_and_says_so(mosquitto, tmp_path):
    """The room's state taken off the broker and nobody there to put it
    back; light's player on another computer, which kept nothing: it
    waits for the game from the seat that played it (dark's, away), says
    so in its line and on the board's LEDs (dark's colour blinks in the
    centre), refuses to act and publishes no game; dark back, it plays the
    room's game. A seat's holder asked for the game sends it."""
    light, dark = seated(mosquitto)
    texts = game(5)
    exchange(light, dark, texts[:4])
    light.player.close()
    dark.player.close()
    eve = raw(mosquitto)
    eve.publish(p.topic(ROOM, p.STATE), b"", retain=True)
    time.sleep(0.2)
    other = Seat(mosquitto, LIGHT, "cccccccc", cache=RoomCache(str(tmp_path / "other")))
    did = dark.player.room.client
    step(other, until=lambda: other.follow.presence().endswith(
        "you play light; waiting for the room's game from dark (%s, away)" % did))
    assert other.rig.board.remote == REMOTE_WAIT and other.rig.board.remote_side == DARK
    with pytest.raises(ValueError, match="the room's game has not come yet"):
        other.player.act("W@a1")
    view = other.follow.view()
    assert view["waiting"] == {"seat": "dark", "client": did, "online": False}
    end = time.monotonic() + 2
    while time.monotonic() < end:
        other.follow.step(0.05)
    assert retained(mosquitto) is None and not other.player.ready()
    dark.join()
    step(other, dark, until=lambda: other.player.ready() and other.actions() == texts[:4])
    assert other.rig.board.remote == REMOTE_HERE
    exchange(other, dark, texts[4:])
    assert converged(other, dark) == texts[:5]
    # An ask: the holder of a game sends it (live, and kept by the broker).
    c = Connection(Address.parse(mosquitto.address), "asker", subscribe=[p.room_filter(ROOM)],
                   clean=True).start()
    step(other, dark, until=lambda: c.connected)
    time.sleep(0.3)
    c.events()
    c.publish(p.topic(ROOM, p.ASK), b"asker")
    got = []
    step(other, dark, until=lambda: got.extend(c.events()) or any(
        e[1] == p.topic(ROOM, p.STATE) for e in got))
    states = [e[2] for e in got if e[1] == p.topic(ROOM, p.STATE)]
    assert p.read_state(states[0])[1] == texts[:5]
    c.close()
    eve.close()


def test_a_strangers_claims_over_both_seats_are_put_back(mosquitto):
    """A stranger publishes retained claims of both seats with another
    secret: each holder refuses the one over its seat and claims it again,
    so that a page started later sees its opponent here, and a third
    player choosing a seat finds both taken."""
    light, dark = seated(mosquitto)
    exchange(light, dark, game(2))
    eve = raw(mosquitto)
    for side in (LIGHT, DARK):
        eve.publish(p.topic(ROOM, p.SEAT, side), Room(ROOM, START, "guess", side, "eve").seat(),
                    retain=True)
    step(light, dark, until=lambda: all(any("seat is held by eve with another secret" in line
                                            for line in s.logged) for s in (light, dark)))
    step(light, dark, until=lambda: all(
        (retained(mosquitto, p.SEAT, side) or b"").startswith(s.player.room.client.encode())
        for side, s in ((LIGHT, light), (DARK, dark))))
    light.again()
    step(light, dark, until=lambda: light.follow.presence()
         == "room %s: you play light; your opponent (dark) is here" % ROOM)
    third = Seat(mosquitto, None, "eeeeeeee")
    step(light, dark, third, until=lambda: third.player.ready())
    assert third.player.side == WATCH
    eve.close()


RIVAL = "light-0000000000"  # a client id smaller than any player's light id


@pytest.mark.parametrize("seat", [None, LIGHT], ids=["chosen", "given"])
def test_a_seat_claimed_by_two_players_of_the_room(mosquitto, seat):
    """Another player of the room (the secret known) claims light, which
    ours holds, with a smaller client id: a player that chose its seat
    yields and takes dark (its claim on the broker); one given light
    keeps it and says that someone else plays it."""
    a = Seat(mosquitto, seat, "aaaaaaaa")
    step(a, until=lambda: a.player.ready() and a.player.side == LIGHT)
    mine = a.player.room.client
    rival = raw(mosquitto)
    rival.publish(p.topic(ROOM, p.SEAT, LIGHT), Room(ROOM, START, SECRET, LIGHT, RIVAL).seat(),
                  retain=True)
    if seat is None:
        step(a, until=lambda: a.player.side == DARK and a.player.ready())
        assert "light's seat went to %s: taking dark" % RIVAL in a.logged
        assert retained(mosquitto, p.SEAT, DARK).startswith(a.player.room.client.encode())
    else:
        step(a, until=lambda: "light's seat is claimed by %s too: is someone else playing it?"
             % RIVAL in a.logged)
        assert a.player.side == LIGHT and a.player.room.client == mine
    rival.close()


def test_a_holder_said_gone_by_a_stranger_says_it_is_here(mosquitto):
    """A stranger publishes light's presence as offline (a will, forged):
    light puts its presence back on the broker, where the others read it."""
    light = Seat(mosquitto, LIGHT, "aaaaaaaa")
    step(light, until=lambda: light.player.ready())
    mine = light.player.room.client
    eve = raw(mosquitto)
    eve.publish(p.topic(ROOM, p.PRESENCE, mine), p.OFFLINE, retain=True)
    step(light, until=lambda: retained(mosquitto, p.PRESENCE, mine, wait=0.2)
         == light.player.room.presence())
    eve.close()


def test_a_spectator_waits_for_the_rooms_game_and_says_so(mosquitto):
    """Light's seat claimed and no state on the broker (taken off, light
    away): a spectator says whose game it waits for (not a seat of its
    own), and the room's news as it comes, each line marked as the room's."""
    lid = "light-1234567890"
    eve = raw(mosquitto)
    eve.publish(p.topic(ROOM, p.SEAT, LIGHT), Room(ROOM, START, SECRET, LIGHT, lid).seat(),
                retain=True)
    time.sleep(0.2)
    watcher = Seat(mosquitto, WATCH, "cccccccc", secret=None)
    step(watcher, until=lambda: watcher.follow.presence() == (
        "room %s: watching; waiting for the room's game from light (%s, away)" % (ROOM, lid)))
    assert "room: light's seat: %s" % lid in watcher.said
    end = time.monotonic() + 0.5
    while time.monotonic() < end:  # still waiting, nothing new: nothing to show again
        assert watcher.follow.step(0.05) == ""
    eve.close()


def test_a_board_that_cannot_show_the_opponents_action_says_why(mosquitto):
    """Light's board set to have its AI play dark: dark's action is not
    requested on it, and the reason is said."""
    light = Seat(mosquitto, LIGHT, "aaaaaaaa")
    step(light, until=lambda: light.player.ready())  # (a new room: dark joins its game)
    dark = Seat(mosquitto, DARK, "bbbbbbbb")
    step(light, dark, until=lambda: light.follow.presence().endswith("is here")
         and dark.follow.presence().endswith("is here"))
    exchange(light, dark, game(1))
    light.rig.board.settings.ai_side = DARK
    text = game(2)[1]
    dark.play(text)
    step(light, dark, until=lambda: "cannot show %s: the board's AI plays dark" % text
         in light.said)


def test_a_refusal_reaches_an_idle_page_at_once(mosquitto, monkeypatch):
    """The page open on its player's own turn, nobody acting, the board
    passed rarely (idle): a forged action refused is on /events and in
    /api/state (`messages`, `online.refused`) as it comes, not at the next
    unrelated request."""
    import json
    import threading
    import urllib.request
    from host_sim.web import game as web_game
    from host_sim.web.server import Server
    monkeypatch.setattr(web_game, "QUIET_MS", 100)  # idle soon...
    monkeypatch.setattr(web_game, "IDLE_MS", 60000)  # ...and then passed once a minute
    g = web_game.Game(Settings(ai_side=NO_AI))
    g.play_online(Player(Address.parse(mosquitto.address), ROOM, SECRET, LIGHT, device="llllllll",
                         settle_s=SETTLE_S).start())
    s = Server(g)
    s.start()
    dark = Player(Address.parse(mosquitto.address), ROOM, SECRET, DARK, device="dddddddd",
                  settle_s=SETTLE_S).start()
    events = []

    def listen():
        with urllib.request.urlopen(s.url + "events", timeout=30) as r:
            while True:
                line = r.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    events.append(json.loads(line[6:]))
    try:
        threading.Thread(target=listen, daemon=True).start()
        end = time.monotonic() + 10
        while not (events and (events[-1]["online"] or {}).get("opponent") == "here"):
            dark.poll(0.05)
            assert time.monotonic() < end, events[-1:]
        time.sleep(0.5)  # idle now: the page's loop sleeps
        assert g._quiet()
        before = len(events)
        forged = p.action_message(ROOM, 1, LIGHT, "W@d4", "eve",
                                  sign.seat_key("guess", ROOM, LIGHT))
        eve = raw(mosquitto)
        eve.publish(p.topic(ROOM, p.ACTION), forged)
        sent = time.monotonic()
        while not [e for e in events[before:] if e["online"]["refused"]]:
            assert time.monotonic() - sent < 2, "no event within 2 s"
            time.sleep(0.02)
        shown = [e for e in events[before:] if e["online"]["refused"]][0]
        assert any("refused: action 1 light W@d4: bad signature" in m for m in shown["messages"])
        with urllib.request.urlopen(s.url + "api/state", timeout=5) as r:
            state = json.loads(r.read())
        assert state["online"]["refused"] == 1
        eve.close()
    finally:
        s.stop()
        g.online.player.close()
        dark.close()
