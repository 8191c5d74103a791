"""docs/online.md and the `online` row of docs/protocol.md against the code:
the example messages are what the protocol makes and checks (room
friday-7, secret "oak tree 7"), the refusals quoted are the room's own
lines, and the settings named are the board's."""
import hmac
import os
import re
from binascii import hexlify

import host_sim  # noqa: F401  (firmware/ on sys.path)
from vortex.engine import LIGHT, DARK
from vortex.engine.position import START
from vortex.online import protocol as p, sign
from vortex.online.room import Room, REFUSED
from vortex.online.settings import NAMES

from mpy import ROOT

ROOM, SECRET = "friday-7", "oak tree 7"


def doc(name):
    with open(os.path.join(ROOT, "docs", name)) as f:
        return f.read()


def blocks():
    return re.findall(r"```text\n(.*?)\n```", doc("online.md"), re.S)


def test_the_example_messages_are_the_protocols():
    action, state, seat, empty = blocks()
    dark = sign.seat_key(SECRET, ROOM, DARK)
    number, side, text, sender, sig = p.read_action(action.encode())
    assert (number, side, text, sender) == (2, DARK, "F@e5", "laptop-ann")
    assert sig == sign.mac(dark, p.signed_action(ROOM, number, side, text))
    start, actions, side, sender, sig, body = p.read_state(state.encode())
    assert start == START and list(actions) == ["W@d4", "F@e5"] and side == DARK
    assert sig == sign.mac(dark, p.state_prefix(ROOM), body)
    assert p.read_seat(seat.encode()) == ("laptop-ann", sign.proof(dark))
    # and a room with the secret takes them as they are
    room = Room(ROOM, None, SECRET, LIGHT, "vx-e6614c3123456789")
    assert room.receive(p.topic(ROOM, p.STATE), state.encode())[0] != REFUSED
    assert room.receive(p.topic(ROOM, p.SEAT, DARK), seat.encode())[0] != REFUSED
    # the empty game, as light's board starts a new room with it
    light = Room(ROOM, START, SECRET, LIGHT, "vx-e6614c3123456789")
    assert bytes(light.state()).decode() == empty


def test_the_vectors_for_a_clients_author_are_the_codes():
    """docs/online.md's table of what a client must compute (keys, proofs,
    signed texts, signatures) for its examples' room and secret."""
    rows = dict(re.findall(r"^\| ([^|`]+?) \| (`.*`) \|$", doc("online.md"), re.M))

    def value(what):
        return " ".join(re.findall(r"`([^`]*)`", rows[what])) if "LF" not in rows[what] else \
            "\n".join(re.findall(r"`([^`]*)`", rows[what]))
    keys = [sign.seat_key(SECRET, ROOM, side) for side in (LIGHT, DARK)]
    assert value("light's seat key, hex") == hexlify(keys[LIGHT]).decode()
    assert value("dark's seat key, hex") == hexlify(keys[DARK]).decode()
    assert value("light's proof") == sign.proof(keys[LIGHT])
    assert value("dark's proof") == sign.proof(keys[DARK])
    # the key over the side's digit, the secret's UTF-8 bytes: as CPython's hmac makes it
    assert keys[DARK] == hmac.new(SECRET.encode("utf-8"), ("vortex/v1 seat %s 1" % ROOM).encode(),
                                  "sha256").digest()
    assert value("the action's signed text") == p.signed_action(ROOM, 2, DARK, "F@e5")
    texts = [value(w) for w in ("the state's signed text", "an empty game's signed text")]
    assert texts[0] == p.state_prefix(ROOM) + "start %s\nactions W@d4 F@e5" % START
    assert texts[1] == p.state_prefix(ROOM) + "start %s\nactions" % START
    sigs = re.findall(r"^\| its signature, (light|dark)'s key \| `(\w+)` \|$", doc("online.md"), re.M)
    assert sigs == [("dark", hmac.new(keys[DARK], value("the action's signed text").encode(),
                                      "sha256").hexdigest()[:32]),
                    ("dark", hmac.new(keys[DARK], texts[0].encode(), "sha256").hexdigest()[:32]),
                    ("light", hmac.new(keys[LIGHT], texts[1].encode(), "sha256").hexdigest()[:32])]


def test_the_refusals_quoted_are_the_rooms():
    light = Room(ROOM, START, SECRET, LIGHT, "vx-e6614c3123456789")
    dark = Room(ROOM, START, SECRET, DARK, "laptop-ann")
    t = p.topic(ROOM, p.ACTION)
    dark.receive(t, light.act("W@d4"))
    light.receive(t, dark.act("F@e5"))
    lk = dark.keys[LIGHT]
    lines = [dark.receive(t, m)[1] for m in (
        b"1 light W@d5 eve " + b"0" * 32,
        p.action_message(ROOM, 2, LIGHT, "A@a1", "x", lk),
        p.action_message(ROOM, 3, LIGHT, "d2d4", "x", lk),
        p.action_message(ROOM, 5, LIGHT, "d2d4", "x", lk),
        b"x" * 200)]
    text = doc("online.md")
    for line in lines:
        assert "`%s`" % line in text, line


def test_the_settings_named_are_the_boards():
    row = [r for r in doc("protocol.md").splitlines() if r.startswith("| `online ")][0]
    named = re.search(r"one setting, saved on the board \(([^;]*);", row).group(1)
    assert re.findall(r"`([\w-]+)`", named) == list(NAMES)
