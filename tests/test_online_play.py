"""Online play on the host against a real broker (Debian's mosquitto with
the project's configuration, tests/conftest.py): two simulator boards
(host_sim.scenario.Rig) each kept in step with the room by Follow, and the
faults of issue 25: the broker restarted mid-game, a client killed
mid-action that comes back, both seats acting at once, a message delivered
twice, and bad messages refused with one line, the game intact."""
import time

import pytest

import host_sim  # noqa: F401  (firmware/ on sys.path)
from vortex.engine import Position, LIGHT, DARK
from vortex.engine.notation import action_text
from vortex.app.session import Settings, NO_AI
from vortex.online import protocol as p, sign
from vortex.online.protocol import WATCH
from host_sim.scenario import Rig
from host_sim.online.client import Address, Connection
from host_sim.online.player import Player
from host_sim.online.follow import Follow

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed "
                    "(make test installs it from requirements-dev.txt)")

ROOM = "t-room"
SECRET = "oak tree 7"
SETTLE_S = 0.3


class Seat:
    """A simulator board in the room: a Rig, a Player, a Follow; what it
    said and logged kept for the asserts."""

    def __init__(self, broker, seat, device, secret=SECRET):
        self.said, self.logged = [], []
        self.rig = Rig(settings=Settings(ai_side=NO_AI))
        self.broker, self.seat, self.device, self.secret = broker, seat, device, secret
        self.join()

    def join(self):
        self.player = Player(Address.parse(self.broker.address), ROOM, self.secret, self.seat,
                             log=self.logged.append, device=self.device,
                             settle_s=SETTLE_S).start()
        self.follow = Follow(self.player, lambda: self.rig.board, self.lay_out, self.said.append)

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
    assert any("laid out" in line for line in late.said)


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
    from vortex.app.board import REMOTE_HERE, REMOTE_AWAY
    light, dark = seated(mosquitto)
    assert (light.rig.board.remote, light.rig.board.remote_side) == (REMOTE_HERE, DARK)
    dark.player.conn.kill()  # vanished without a word: the broker sends its will
    step(light, until=lambda: light.said[-1].endswith("your opponent (dark) is gone"))
    assert light.rig.board.remote == REMOTE_AWAY
    dark.join()
    step(light, dark, until=lambda: light.said[-1].endswith("your opponent (dark) is here"))
    assert light.rig.board.remote == REMOTE_HERE
