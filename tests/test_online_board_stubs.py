"""The board's online client (firmware/vortex/online/client.py) against
stand-ins for what a real broker on loopback never does: a broker out of
reach for minutes (the backoff between tries), a transport that delivers
the room's retained state late, a seat's holder that never answers an ask,
and a broker that takes the connection, then stops answering inside it (a
PUBACK that never comes). tests/test_online_board.py has the real broker."""
import os
import socket
import sys
import threading
import time
import types

import pytest

import host_sim  # noqa: F401  (firmware/ on sys.path)
from vortex.app.board import Board, REMOTE_WAIT
from vortex.engine import LIGHT, DARK
from vortex.engine.position import START
from vortex.online import client, protocol as p
from vortex.online.client import Online, UP, DOWN, RETRY_MS, STATE_WAIT_MS, ASK_WAIT_MS
from vortex.online.room import Room

from mpy import ROOT

ROOM, SECRET = "stub-room", "oak tree 7"
LIB = os.path.join(sys.prefix, "micropython-lib")
UPY = os.path.join(ROOT, "tests", "upy")


class Clock:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


class Broker:
    """What the stand-in clients share: the messages published, and those
    to deliver (topic, payload, at ms) to whoever subscribed."""

    def __init__(self, clock, reachable=True):
        self.clock = clock
        self.reachable = reachable
        self.tries = []  # when a connection was tried
        self.published = []  # (ms, topic, payload, retain)
        self.later = []  # (at ms, topic, payload): delivered from then on
        self.will = None  # (topic, payload, retain, qos) the client left with the broker

    def deliver(self, at, topic, payload):
        self.later.append((at, topic, payload))

    def module(self):
        broker = self

        class MQTTClient:
            def __init__(self, cid, host, port, user, password, keepalive):
                self.sock = None
                self.cb = None

            def set_callback(self, cb):
                self.cb = cb

            def set_last_will(self, topic, msg, retain=False, qos=0):
                broker.will = (topic, msg, retain, qos)

            def connect(self, clean_session=True):
                broker.tries.append(broker.clock())
                if not broker.reachable:
                    raise OSError(113, "EHOSTUNREACH")

            def subscribe(self, topic, qos=0):
                pass

            def publish(self, topic, msg, retain=False, qos=0):
                broker.published.append((broker.clock(), topic, bytes(msg), retain))

            def check_msg(self):
                if not broker.reachable:
                    raise OSError(104, "ECONNRESET")
                for item in broker.later:
                    if item[0] <= broker.clock():
                        broker.later.remove(item)
                        self.cb(item[1].encode(), item[2])
                        return 1
                return None

            def ping(self):
                pass

            def disconnect(self):
                pass

        return types.SimpleNamespace(MQTTClient=MQTTClient,
                                     socket=types.SimpleNamespace(socket=None, getaddrinfo=None))


def board_online(broker, clock, side="light"):
    said = []
    net = Online(Board(), broker.module(), clock=clock, say=said.append, client="vx-stub")
    for words in (["broker", "stub.example"], ["room", ROOM], ["side", side],
                  ["secret", SECRET], ["on"]):
        net.command(words)
    return net, said


def run(net, clock, ms, step=50):
    end = clock.now + ms
    while clock.now < end:
        net.poll()
        clock.now += step


def states(broker, since=0):
    return [(t, pl) for t, topic, pl, _ in broker.published if topic == p.topic(ROOM, p.STATE)
            and t >= since]


def game(n, seed=3):
    """n legal actions from the start (a small LCG's choice)."""
    from vortex.engine.position import Position
    pos = Position()
    out = []
    for _ in range(n):
        acts = list(pos.legal_actions())
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a = acts[seed % len(acts)]
        out.append(pos.action_text(a))
        pos.push(a)
    return out


def test_the_rooms_game_kept_on_the_board_is_read_back_whole_each_time():
    """The board's copy of the room's game (its flash: a snapshot and a
    journal), longer than a pass replays: read back a few actions a pass,
    kept as it is, and read back whole again at the next start; a copy
    that does not read is said and left."""
    from hal_fake_fs import MemFS
    from vortex.hal.store import FileStore
    fs = MemFS()
    texts = game(40)
    store = FileStore("/room.bin", fs)
    store.save(("%s 0\n%s\n" % (ROOM, START)).encode() + "".join(" " + t for t in texts[:30])
               .encode())
    for t in texts[30:]:
        store.append((" " + t).encode())
    for start in range(3):
        clock = Clock()
        broker = Broker(clock)
        said = []
        net = Online(Board(), broker.module(), clock=clock, say=said.append, client="vx-stub",
                     cache=FileStore("/room.bin", fs))
        for words in (["broker", "stub.example"], ["room", ROOM], ["side", "light"],
                      ["secret", SECRET], ["on"]):
            net.command(words)
        assert "online: room %s: its game as kept here, 40 actions" % ROOM in said, said
        run(net, clock, 3000)
        assert net.room.actions == texts and not net.room.replaying(), said
        assert not [line for line in said if "refused" in line], said
    FileStore("/room.bin", fs).save(b"no lines here")
    said = []
    net = Online(Board(), Broker(Clock()).module(), clock=Clock(), say=said.append,
                 client="vx-stub", cache=FileStore("/room.bin", fs))
    for words in (["broker", "stub.example"], ["room", ROOM], ["side", "light"],
                  ["secret", SECRET], ["on"]):
        net.command(words)
    assert "online: the room's game kept here not read: not enough values to unpack " \
           "(expected 3, got 1)" in said, said
    assert net.room.pos is None


def test_the_board_leaves_its_seat_offline_as_its_will_retained_at_qos_1():
    # A board that vanishes (power, WiFi) must read as offline to the other
    # seat and to every later client: the broker publishes the will when
    # the connection dies, retained, as surely as the board's own presence.
    clock = Clock()
    broker = Broker(clock)
    net, said = board_online(broker, clock)
    run(net, clock, 500)
    assert net.state == UP, said
    topic, payload, retain, qos = broker.will
    assert (topic, payload, retain, qos) == (p.topic(ROOM, p.PRESENCE, "vx-stub"), p.OFFLINE,
                                             True, 1), broker.will


def test_the_backoff_grows_to_its_longest_and_stays_there():
    clock = Clock()
    broker = Broker(clock, reachable=False)
    net, said = board_online(broker, clock)
    run(net, clock, 200000, step=100)
    gaps = [b - a for a, b in zip(broker.tries, broker.tries[1:])]
    assert gaps[:8] == list(RETRY_MS) + [RETRY_MS[-1]] * 2, gaps
    assert net.state == DOWN and "OSError" in net.status()
    broker.reachable = True  # back: a try soon after, and the backoff starts again
    run(net, clock, 31000, step=100)
    assert net.state == UP and net.tries == 0


class Radio:
    """A Pico W's WLAN as the client uses it: joined once asked and `up`."""

    def __init__(self):
        self.on = False
        self.asked = []  # (ssid, key) of each connect()
        self.up = True

    def active(self, on=None):
        if on is not None:
            self.on = on
        return self.on

    def connect(self, ssid, key=None):
        assert self.on, "connect() on an inactive interface"
        self.asked.append((ssid, key))

    def status(self):
        return 3 if self.isconnected() else 1

    def isconnected(self):
        return bool(self.asked) and self.up


def test_the_wifi_joins_in_the_background_and_its_loss_is_a_lost_connection():
    """The WLAN asked to join with the settings (and asked again after 20 s
    without it); the broker tried once it is up; the WiFi gone while in
    the room: the connection is lost, said, and the WiFi awaited again."""
    clock = Clock()
    broker = Broker(clock)
    radio = Radio()
    radio.up = False
    said = []
    net = Online(Board(), broker.module(), wifi=radio, clock=clock, say=said.append,
                 client="vx-stub")
    for words in (["ssid", "Home%20Net"], ["wifi-key", "radio-key-1"], ["broker", "stub.example"],
                  ["room", ROOM], ["side", "light"], ["secret", SECRET], ["on"]):
        net.command(words)
    run(net, clock, 19000)
    assert radio.asked == [("Home Net", "radio-key-1")] and net.status() == "wifi (status 1)"
    assert not broker.tries
    run(net, clock, 2000)  # 20 s without it: asked again
    assert len(radio.asked) == 2
    radio.up = True
    run(net, clock, 3000)
    assert net.state == UP and len(broker.tries) == 1
    assert net.status() == "up room %s light actions 0" % ROOM  # (the WLAN's status: joining only)
    radio.up = False
    run(net, clock, 200)
    assert "online: connection lost (the WiFi is gone): trying again" in said
    assert net.state == client.WIFI and len(radio.asked) == 3
    net.command(["wifi-key", "-"])  # an open network now: asked with no key
    run(net, clock, 200)
    assert radio.asked[-1] == ("Home Net", None)
    radio.up = True
    run(net, clock, 3000)
    assert net.state == UP


def test_the_rooms_state_delivered_late_is_the_game_not_a_new_one():
    """A transport that hands the retained state over 1 s after the
    subscription (on loopback it comes first): the board waits for it, and
    takes the room's game instead of publishing its own."""
    clock = Clock()
    broker = Broker(clock)
    dark = Room(ROOM, START, SECRET, DARK, "laptop-ann")
    light = Room(ROOM, START, SECRET, LIGHT, "x")
    dark.receive(p.topic(ROOM, p.ACTION), light.act("W@d4"))
    dark.act("F@e5")
    net, said = board_online(broker, clock)
    broker.deliver(clock.now + 1000, p.topic(ROOM, p.STATE), bytes(dark.state()))
    run(net, clock, 3000)
    assert net.room.actions == ["W@d4", "F@e5"], said
    assert not states(broker), "published a state over the room's"
    assert not [line for line in said if "started with the board's game" in line]
    assert "online: state by laptop-ann: 2 actions, 2 new" in said
    run(net, clock, 500)
    assert net.board.pos.stack and len(net.board.pos.stack) == 2  # the board took it


def test_what_the_room_is_owed_is_published_once_and_at_most_every_2_s():
    """A stranger's forged state, claim and presence, and an ask: each put
    right with one publish (then nothing owed), a kind at most every
    REPAIR_MS however fast the forgeries come."""
    clock = Clock()
    broker = Broker(clock)
    net, said = board_online(broker, clock)
    run(net, clock, 3000)  # a new room: the board's game
    assert net.room.pos is not None and len(states(broker)) == 1
    eve = Room(ROOM, START, "guess", LIGHT, "eve")
    me = net.room.client
    t0 = clock.now
    for i, payload in enumerate((eve.state(), b"", eve.state())):  # a forgery every 500 ms
        broker.deliver(t0 + 500 * i, p.topic(ROOM, p.STATE), bytes(payload))
    # (each while the state's put-back waits its turn: one kind's publish keeps the others owed)
    broker.deliver(t0 + 600, p.topic(ROOM, p.SEAT, LIGHT), eve.seat())
    broker.deliver(t0 + 1100, p.topic(ROOM, p.PRESENCE, me), p.OFFLINE)
    run(net, clock, 10000)

    def sent(topic):
        return [t - t0 for t, tp, _, retain in broker.published if tp == topic and t >= t0
                and retain]
    put = sent(p.topic(ROOM, p.STATE))
    assert len(put) == 2 and put[1] - put[0] == client.REPAIR_MS, put
    assert len(sent(p.topic(ROOM, p.SEAT, LIGHT))) == 1
    assert len(sent(p.topic(ROOM, p.PRESENCE, me))) == 1
    assert net.room.due == 0
    assert "online: refused: state by eve: bad signature for light's seat" in said
    t0 = clock.now
    broker.deliver(0, p.topic(ROOM, p.ASK), b"someone")
    run(net, clock, 3000)
    assert len(sent(p.topic(ROOM, p.STATE))) == 1 and net.room.due == 0


def rig_online(**settings):
    """A virtual board (host_sim's Rig: the firmware's own pass) online
    through the stand-in broker, as light, in a new room."""
    from host_sim.scenario import Rig
    from vortex.app.session import Settings
    rig = Rig(settings=Settings(**settings))
    broker = Broker(lambda: rig.now)
    said = []
    net = Online(rig.board, broker.module(), clock=lambda: rig.now, say=said.append,
                 client="vx-stub")
    for words in (["broker", "stub.example"], ["room", ROOM], ["side", "light"],
                  ["secret", SECRET], ["on"]):
        net.command(words)
    rig.service.online = net
    rig.wait(3000)  # joined; no state: a new room with the board's game
    assert net.room.pos is not None and net.room.number() == 0
    return rig, broker, net, said


def test_a_board_played_on_while_away_follows_the_room():
    """Both sides played on the board while it could not reach the broker
    (two actions the room does not have, one of them the opponent's): back,
    the board takes the room's game, saying how far apart they were."""
    rig, broker, net, said = rig_online()
    broker.reachable = False
    rig.wait(200)
    assert net.state == DOWN
    rig.act("W@d4")
    rig.settle()
    rig.act("F@e5")
    rig.settle()
    assert len(rig.board.pos.stack) == 2
    broker.reachable = True
    rig.wait(3000)
    assert net.state == UP
    assert "online: the board is 2 actions ahead of the room: the board follows the room " \
           "(action 0)" in said, said
    assert rig.board.pos.stack == [] and net.room.actions == []


def test_an_action_taken_back_on_the_board_is_asked_for_again():
    """The room has our action; the player takes it back on the board: the
    board asks for it again (the room's game is the game), and the
    connection is none the worse."""
    from vortex.app import commands
    rig, broker, net, said = rig_online()
    rig.act("W@d4")
    rig.wait(200)
    assert net.room.actions == ["W@d4"]
    commands.takeback(rig.board)
    rig.wait(500)
    assert rig.board.pos.stack == [] and rig.board.pending >= 0
    assert rig.board.pos.action_text(rig.board.pending) == "W@d4"
    assert net.state == UP and not [line for line in said if "lost" in line], said


def test_an_action_the_board_cannot_ask_for_is_said_once():
    """The board's own clock ran out for the side the room's action is for
    (the board's game is over, the room's is not): the board cannot ask
    for it, says why once, and asks again once something changes."""
    rig, broker, net, said = rig_online(clock_ms=60000)
    rig.act("W@d4")
    rig.wait(200)
    assert net.room.actions == ["W@d4"]
    rig.wait(61000)  # dark's time on this board's clock runs out
    assert rig.board.result() is not None
    dark = Room(ROOM, START, SECRET, DARK, "laptop-ann")
    dark.receive(p.topic(ROOM, p.ACTION), net.room.message(1))
    broker.deliver(0, p.topic(ROOM, p.ACTION), bytes(dark.act("F@e5")))
    rig.wait(2000)
    assert [line for line in said if "cannot ask" in line] == [
        "online: cannot ask the board for F@e5: the game is over"], said
    assert net.room.actions == ["W@d4", "F@e5"] and rig.board.pending < 0


def test_a_room_with_no_state_waits_for_the_seat_that_played_it():
    """No state, but dark's seat claimed with the room's secret: the board
    asks for the game, says what it waits for and blinks dark's colour;
    dark's holder away, it waits for good; back and silent when asked, it
    has no game: then, and only then, the room is new."""
    clock = Clock()
    broker = Broker(clock)
    dark = Room(ROOM, START, SECRET, DARK, "laptop-ann")
    broker.deliver(0, p.topic(ROOM, p.SEAT, DARK), dark.seat())
    net, said = board_online(broker, clock)
    run(net, clock, 60000)
    asks = [t for t, topic, pl, retain in broker.published
            if topic == p.topic(ROOM, p.ASK) and pl == b"vx-stub" and not retain]
    assert len(asks) >= 10 and all(b - a >= 5000 for a, b in zip(asks, asks[1:])), asks
    assert not states(broker) and net.room.pos is None
    assert net.status() == "up room %s light waiting for its game from dark (laptop-ann away)" % ROOM
    assert (net.board.remote, net.board.remote_side) == (REMOTE_WAIT, DARK)
    broker.deliver(0, p.topic(ROOM, p.PRESENCE, "laptop-ann"), dark.presence())
    back = clock.now
    run(net, clock, ASK_WAIT_MS - 200)
    assert [t for t, topic, _, _ in broker.published if topic == p.topic(ROOM, p.ASK)][-1] >= back
    assert not states(broker)  # asked again, given its time to answer
    run(net, clock, 500)
    assert states(broker) and net.room.number() == 0  # no answer: the room is new
    assert any("started with the board's game" in line for line in said)


def test_a_new_room_starts_after_the_wait_for_its_state():
    clock = Clock()
    broker = Broker(clock)
    net, said = board_online(broker, clock)
    for _ in range(20):  # (joined in a few passes)
        if net.state == UP:
            break
        run(net, clock, 50)
    assert net.state == UP, net.status()
    run(net, clock, STATE_WAIT_MS - 100)
    assert not states(broker) and net.room.pos is None
    run(net, clock, 200)
    assert len(states(broker)) == 1 and net.room.number() == 0


class SilentInside:
    """A broker that answers CONNECT (CONNACK) and SUBSCRIBE (SUBACK), then
    nothing: a PUBACK or a ping's answer that never comes (a link gone dead
    inside a connection). answer=False: not even CONNECT."""

    def __init__(self, answer=True):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.port = self.server.getsockname()[1]
        self.answer = answer
        self.conn = None
        threading.Thread(target=self.serve, daemon=True).start()

    def packet(self):
        # One MQTT packet: (its type byte, its body).
        def exactly(n):
            out = b""
            while len(out) < n:
                chunk = self.conn.recv(n - len(out))
                if not chunk:
                    raise OSError("closed")
                out += chunk
            return out
        kind = exactly(1)[0]
        size = shift = 0
        while True:
            b = exactly(1)[0]
            size |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return kind, exactly(size)

    def serve(self):
        try:
            self.conn, _ = self.server.accept()
            if not self.answer:
                return
            self.packet()  # CONNECT
            self.conn.sendall(b"\x20\x02\x00\x00")
            _, body = self.packet()  # SUBSCRIBE: its packet id first
            self.conn.sendall(b"\x90\x03" + body[:2] + b"\x01")
            while self.conn.recv(4096):
                pass
        except OSError:
            pass

    def close(self):
        for s in (self.conn, self.server):
            if s is not None:
                s.close()


@pytest.mark.parametrize("answer", [True, False], ids=["inside", "at-connect"])
def test_a_broker_that_stops_answering_costs_a_bounded_pass(monkeypatch, answer):
    """umqtt.simple (as it is, over MicroPython's socket module: tests/upy)
    waits for a PUBACK inside publish(): the board's socket gives up after
    CONNECT_S, the pass ends, the board says why and tries again later."""
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    monkeypatch.syspath_prepend(LIB)
    monkeypatch.syspath_prepend(UPY)
    from umqtt import simple
    broker = SilentInside(answer)
    said = []
    net = Online(Board(), simple, clock=lambda: int(time.monotonic() * 1000), say=said.append,
                 client="vx-silent")
    for words in (["broker", "127.0.0.1:%d" % broker.port], ["room", ROOM], ["on"]):
        net.command(words)
    worst = [0]

    def passes():
        for _ in range(6):
            t = time.monotonic()
            net.poll()
            worst[0] = max(worst[0], time.monotonic() - t)
            if net.state == DOWN:
                return
    t = threading.Thread(target=passes, daemon=True)
    t.start()
    t.join(client.CONNECT_S * 3)
    hung = t.is_alive()
    broker.close()  # (frees a pass that waits with no end)
    t.join(5)
    assert not hung, "a pass waited past %d s" % (client.CONNECT_S * 3)
    assert net.state == DOWN and "110" in net.status(), (net.status(), said)  # ETIMEDOUT
    assert client.CONNECT_S * 0.9 <= worst[0] <= client.CONNECT_S * 2, worst


def test_the_browser_boards_page_keeps_the_rooms_game_in_the_browsers_storage():
    """The page of a board on a cable (host_sim/web/board) runs this client
    with the browser's storage as its copy of the room's game, one per room
    and seat: a page opened again over a room whose state is gone reads the
    game back from there (the actions that came after the first state
    included) and never starts a new one."""
    from host_sim.web.board import page, linked
    from vortex import record
    from hal_fake_fs import MemFS
    from vortex.hal.store import FileStore
    PATH, fs = "/online.bin", MemFS()
    saved = {}
    js = types.SimpleNamespace(load=saved.get, save=saved.__setitem__)
    texts = game(13)
    dark = Room(ROOM, START, SECRET, DARK, "laptop-ann")
    light = Room(ROOM, START, SECRET, LIGHT, "x")
    rooms = {LIGHT: light, DARK: dark}

    def play(t):  # by whichever seat's turn it is; the other seat told
        side = light.pos.side
        msg = rooms[side].act(t)
        rooms[side ^ 1].receive(p.topic(ROOM, p.ACTION), msg)
        return msg

    for t in texts[:12]:
        play(t)
    try:
        for opened in range(2):
            clock = Clock()
            broker = Broker(clock)
            said = []
            board = linked.Linked(lambda line: None)
            board.read_record(record.write({}, START, []))
            # As page._online makes it: the settings kept (on, the second
            # time), the cache given once the client is made.
            net = page.client = Online(board, broker.module(), store=FileStore(PATH, fs),
                                       clock=clock, say=said.append, client="web-1")
            page._cache = js
            page._keep_rooms(net)
            if opened == 0:
                for words in (["broker", "stub.example"], ["room", ROOM], ["side", "light"],
                              ["secret", SECRET], ["on"]):
                    net.command(words)
                assert not saved
                broker.deliver(clock.now + 100, p.topic(ROOM, p.STATE), bytes(dark.state()))
                run(net, clock, 2000)
                net.room.receive(p.topic(ROOM, p.ACTION), play(texts[12]))
                run(net, clock, 500)
                assert list(saved) == ["vortex-room %s light" % ROOM], saved
            else:  # the room's state gone from the broker: none delivered
                assert "online: room %s: its game as kept here, 13 actions" % ROOM in said, said
                run(net, clock, 6000)
            assert net.room.actions == texts, said
            assert not [t for t, pl in states(broker) if b"\nactions\n" in pl], "a new game"
    finally:
        page.client = page._cache = None


def test_the_pages_online_client_that_cannot_start_is_one_line(monkeypatch):
    """The page's boundary (host_sim/web/board/page.py): an online client that
    cannot be made (a module missing from the page, a setting refused) is
    one line on the form and on the page, never a traceback."""
    import json
    from host_sim.web.board import page

    def broken():
        raise ImportError("no module named 'vortex.heap'\nmore")

    monkeypatch.setattr(page, "_online", broken)
    monkeypatch.setattr(page, "client", None)
    assert json.loads(page.online(["on"])) == {
        "error": "online play could not start: no module named 'vortex.heap'"}
    said = []
    stored = types.SimpleNamespace(load=lambda: "broker=x", save=lambda text: None)
    assert page.start(lambda line: None, said.append, stored, "web-1") == "ok"
    assert said == ["online play could not start: no module named 'vortex.heap'"]
