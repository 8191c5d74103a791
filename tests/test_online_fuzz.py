"""A room against any message (hypothesis): whatever comes on whatever
topic, receive() answers with a code and, for a refusal, one line; the
game changes only by an applied action or state, and then only by moves
the engine takes. Valid messages cut, spliced and flipped, and random bytes."""
from hypothesis import given, settings, strategies as st

import host_sim  # noqa: F401
from vortex.engine import LIGHT, DARK, Position
from vortex.engine.position import START
from vortex.online import protocol as p
from vortex.online.room import Room, APPLIED, SAME, REFUSED, BEHIND, NOTED

ROOM, SECRET = "fuzz", "fuzzing secret"
TOPICS = [p.topic(ROOM, p.ACTION), p.topic(ROOM, p.STATE), p.topic(ROOM, p.SEAT, LIGHT),
          p.topic(ROOM, p.SEAT, DARK), p.topic(ROOM, p.PRESENCE, "someone"),
          "vortex/v1/other/action", "vortex/v1/fuzz/bogus", "vortex/v2/fuzz/action", "", "/#"]


def seeds():
    light = Room(ROOM, START, SECRET, LIGHT, "l")
    dark = Room(ROOM, START, SECRET, DARK, "d")
    a = light.act("W@d4")
    dark.receive(TOPICS[0], a)
    b = dark.act("F@e5")
    return [bytes(a), bytes(b), bytes(dark.state()), bytes(dark.seat()), dark.presence(),
            p.OFFLINE, b""]


SEEDS = seeds()


@st.composite
def messages(draw):
    base = draw(st.sampled_from(SEEDS))
    how = draw(st.integers(0, 5))
    if how == 0:
        return base
    if how == 5:
        return None
    if how == 1:
        return draw(st.binary(max_size=300))
    if how == 2 and base:
        i = draw(st.integers(0, len(base)))
        return base[:i] + draw(st.binary(max_size=12)) + base[i + draw(st.integers(0, 8)):]
    if how == 3 and base:
        i = draw(st.integers(0, len(base) - 1))
        return base[:i] + bytes([base[i] ^ draw(st.integers(1, 255))]) + base[i + 1:]
    return base + base


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TOPICS + [t.encode() for t in TOPICS[:2]]),
                          messages()), max_size=6),
       st.sampled_from([LIGHT, DARK, None]))
def test_any_message_is_answered_and_the_game_stays_legal(stream, side):
    room = Room(ROOM, START, SECRET if side is not None else None,
                side if side is not None else p.WATCH, "me")
    for topic, payload in stream:
        before = list(room.actions)
        code, line = room.receive(topic, payload)
        assert code in (APPLIED, SAME, REFUSED, BEHIND, NOTED)
        assert isinstance(line, str) and "\n" not in line
        if code == REFUSED:
            assert line and list(room.actions) == before
        elif code != APPLIED:
            assert list(room.actions) == before
        # whatever happened, the game is a legal one from the start
        pos = Position(START)
        for text in room.actions:
            pos.push(pos.parse_action(text))
        assert pos.text() == room.pos.text()
