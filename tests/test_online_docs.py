"""docs/online.md and the `online` row of docs/protocol.md against the code:
the example messages are what the protocol makes and checks (room
friday-7, secret "oak tree 7"), the refusals quoted are the room's own
lines, and the settings named are the board's."""
import os
import re

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
    action, state, seat = blocks()
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
