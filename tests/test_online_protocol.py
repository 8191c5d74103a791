"""The online protocol's core (firmware/vortex/online: sign, protocol, room):
HMAC-SHA256 against RFC 4231's vectors, topics and messages with their
bounds, and a room's game between two seats and a spectator: every action
applied once however often it comes, every bad message refused with one
line and the game intact. Dual-run: pytest here, and the MicroPython unix
port (tests/test_online_micropython.py)."""
from binascii import hexlify

from checks import raises
from vortex.engine import Position, LIGHT, DARK, new_buffer
from vortex.engine.position import START
from vortex.online import sign, protocol as p
from vortex.online.protocol import ProtocolError, WATCH
from vortex.online.room import Room, APPLIED, SAME, REFUSED, BEHIND, NOTED

# RFC 4231 section 4: (key, data, HMAC-SHA256); case 5's is cut to 128 bits there.
RFC4231 = (
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\x0c" * 20, b"Test With Truncation", "a3b6167473100ee06e0c796c2955552b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than "
     b"block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
)

ROOM = "friday-7"
SECRET = "oak tree 7"
ACTION_T = p.topic(ROOM, p.ACTION)
STATE_T = p.topic(ROOM, p.STATE)


def players():
    light = Room(ROOM, START, SECRET, LIGHT, "light-1")
    dark = Room(ROOM, START, SECRET, DARK, "dark-1")
    return light, dark


def game(n, seed=7):
    """n legal actions in notation from the start, picked by a small LCG."""
    pos = Position()
    buf = new_buffer()
    out = []
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a = buf[seed % pos.legal_into(buf)]
        out.append(pos.action_text(a))
        pos.push(a)
    return out


def refused(room, topic, payload, words):
    """The message is refused with a line holding `words`, the game intact."""
    before = (room.pos.text() if room.pos else None, list(room.actions))
    code, line = room.receive(topic, payload)
    assert code == REFUSED and words in line and "\n" not in line, (code, line)
    assert (room.pos.text() if room.pos else None, room.actions) == before
    return line


# --- signatures -------------------------------------------------------------------
def test_hmac_rfc4231_vectors():
    for key, data, want in RFC4231:
        assert hexlify(sign.hmac_sha256(key, data)).decode()[:len(want)] == want


def test_seat_keys_bind_room_and_side():
    k = sign.seat_key(SECRET, ROOM, LIGHT)
    assert len(k) == 32 and k == sign.seat_key(SECRET, ROOM, LIGHT)
    assert k != sign.seat_key(SECRET, ROOM, DARK)
    assert k != sign.seat_key(SECRET, "friday-8", LIGHT)
    assert k != sign.seat_key(SECRET + "x", ROOM, LIGHT)
    pr = sign.proof(k)
    assert len(pr) == sign.PROOF_HEX and pr != hexlify(k).decode()[:sign.PROOF_HEX]
    assert len(sign.mac(k, "x")) == sign.MAC_HEX


def test_same_compares_whole_strings():
    assert sign.same("ab12", "ab12") and not sign.same("ab12", "ab13")
    assert not sign.same("ab1", "ab12") and sign.same("", "")


# --- topics -------------------------------------------------------------------
def test_topics_round_trip():
    assert p.topic(ROOM, p.ACTION) == "vortex/v1/friday-7/action"
    assert p.topic(ROOM, p.SEAT, DARK) == "vortex/v1/friday-7/seat/dark"
    assert p.room_filter(ROOM) == "vortex/v1/friday-7/#"
    for kind, arg in ((p.STATE, None), (p.ACTION, None), (p.SEAT, LIGHT), (p.SEAT, DARK),
                      (p.PRESENCE, "board-e661a4")):
        assert p.parse_topic(p.topic(ROOM, kind, arg)) == (ROOM, kind, arg)


def test_bad_names_and_topics_refused():
    for name in ("", "a/b", "a+b", "a#", "x" * 33, "caf\u00e9", "a b"):
        raises(ProtocolError, p.topic, name, p.ACTION)
    raises(ProtocolError, p.check_client, "c" * 24)
    for kind, arg in ((p.SEAT, 2), (p.SEAT, "light"), (p.SEAT, None), ("bogus", None),
                      (p.ACTION, 1), (p.PRESENCE, "a/b")):
        raises(ProtocolError, p.topic, "r", kind, arg)
    for t in ("vortex/v2/r/action", "vortex/v1/r", "vortex/v1/r/seat/blue", "vortex/v1/r/actions",
              "vortex/v1/r/action/x", "vortex/v1/r/presence", "other/v1/r/state"):
        raises(ProtocolError, p.parse_topic, t)
    # as client libraries hand them over: bytes
    assert p.parse_topic(b"vortex/v1/r/action") == ("r", p.ACTION, None)
    raises(ProtocolError, p.parse_topic, b"vortex/v1/\xff/action")


# --- messages -------------------------------------------------------------------
def test_action_message_round_trip():
    key = sign.seat_key(SECRET, ROOM, DARK)
    msg = p.action_message(ROOM, 12, DARK, "d4~e4", "board-1", key)
    assert len(msg) <= p.ACTION_MAX
    number, side, text, sender, sig = p.read_action(msg)
    assert (number, side, text, sender) == (12, DARK, "d4~e4", "board-1")
    assert sig == sign.mac(key, p.signed_action(ROOM, 12, DARK, "d4~e4"))


def test_malformed_actions_refused():
    good = p.action_message(ROOM, 3, LIGHT, "W@d4", "me", sign.seat_key(SECRET, ROOM, LIGHT))
    words = good.split()
    bad = [b"", b"3 light W@d4 me", good + b" extra", b"0 " + b" ".join(words[1:]),
           b"x3 " + b" ".join(words[1:]), b"1501 " + b" ".join(words[1:]),
           b"3 blue " + b" ".join(words[2:]), good[:-1] + b"g", good[:-1],
           good.replace(b"me", b"m/e"), good.replace(b"W@d4", b"W@d\xe9"),
           good.replace(b"W@d4", b"W@d4\t"), b"1 " * 100]
    for payload in bad:
        raises(ProtocolError, p.read_action, payload)
    e = raises(ProtocolError, p.read_action, b"1" * (p.ACTION_MAX + 1))
    assert "too long" in str(e)


def test_state_seat_presence_messages():
    key = sign.seat_key(SECRET, ROOM, LIGHT)
    msg = p.state_message(ROOM, START, ["W@d4", "F@e5"], LIGHT, "me", key)
    start, actions, side, sender, sig, body = p.read_state(msg)
    assert (start, actions, side, sender) == (START, ["W@d4", "F@e5"], LIGHT, "me")
    assert p.read_state(p.state_message(ROOM, START, [], DARK, "me", key))[1] == []
    longest = p.state_message(ROOM, START, ["d4~e4"] * p.NUMBER_MAX, LIGHT, "c" * 23, key)
    assert len(longest) <= p.STATE_MAX and len(p.read_state(longest)[1]) == p.NUMBER_MAX
    assert list(p.read_state(bytes(longest))[1])[-1] == "d4~e4"
    raises(ProtocolError, p.state_message, ROOM, START, ["W@d4"] * (p.NUMBER_MAX + 1), LIGHT,
           "me", key)
    over = bytes(longest).replace(b"actions", b"actions W@d4", 1)
    e = raises(ProtocolError, p.read_state, over)
    assert "1501 actions" in str(e)
    words = p.read_state(b"start " + START.encode() + b"\nactions  W@d4   d4~e4 \nby light me "
                         + b"0" * 32)[1]
    assert len(words) == 2 and words[-1] == "d4~e4" and list(words) == ["W@d4", "d4~e4"]
    raises(IndexError, words.__getitem__, 2)
    for payload in (b"", bytes(msg).replace(b"start", b"begin"), bytes(msg) + b"\nmore",
                    bytes(msg).replace(b"by light", b"by grey"), b"x" * (p.STATE_MAX + 1),
                    bytes(msg).replace(b"actions", b"actionsW@d4"), b"start x\nactions\n",
                    bytes(msg).replace(b"\nby", b" by"), bytes(msg)[:-1] + b"\xff"):
        raises(ProtocolError, p.read_state, payload)
    assert p.read_seat(p.seat_message("me", key)) == ("me", sign.proof(key))
    raises(ProtocolError, p.read_seat, b"me 1234")
    assert p.read_presence(p.presence_message(DARK)) == (True, DARK)
    assert p.read_presence(p.presence_message(WATCH)) == (True, WATCH)
    assert p.read_presence(p.OFFLINE) == (False, None)
    raises(ProtocolError, p.read_presence, b"online red")


# --- the room ---------------------------------------------------------------------
def test_a_game_converges_with_repeats_and_a_spectator():
    light, dark = players()
    watcher = Room(ROOM)
    code, _ = watcher.receive(STATE_T, light.state())  # a late joiner learns the start
    assert code == SAME and watcher.start == START
    rooms = (light, dark)
    moves = game(40)
    for text in moves:
        me = rooms[light.pos.side]
        payload = me.act(text)
        for r in (light, dark, watcher, light, dark, watcher):  # the echo, and QoS 1's repeat
            code, line = r.receive(ACTION_T, payload)
            assert code in (APPLIED, SAME), line
    assert light.actions == dark.actions == watcher.actions == moves
    assert light.pos.text() == dark.pos.text() == watcher.pos.text()


def test_refusals_leave_the_game_intact():
    light, dark = players()
    moves = game(3)
    payload = light.act(moves[0])
    assert dark.receive(ACTION_T, payload)[0] == APPLIED
    lk = light.keys[LIGHT]
    dk = light.keys[DARK]
    # not that seat's turn: light again, properly signed
    refused(dark, ACTION_T, p.action_message(ROOM, 2, LIGHT, moves[1], "light-1", lk), "turn")
    # a wrong number, ahead or a different action behind
    refused(dark, ACTION_T, p.action_message(ROOM, 3, DARK, moves[1], "dark-1", dk), "order")
    refused(dark, ACTION_T, p.action_message(ROOM, 1, LIGHT, "A@a1", "light-1", lk), "already")
    # illegal: a cell with a tile already; and a move in the building phase
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, moves[0], "dark-1", dk), "illegal")
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, "d2d4", "dark-1", dk), "illegal")
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, "Q@d4", "dark-1", dk), "terrain")
    # a stranger: another secret, or light's key on dark's seat, or a spectator's forgery
    other = sign.seat_key("guess", ROOM, DARK)
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, moves[1], "x", other), "signature")
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, moves[1], "x", lk), "signature")
    # another room's key and another room's topic
    refused(dark, ACTION_T, p.action_message(ROOM, 2, DARK, moves[1], "x",
                                             sign.seat_key(SECRET, "r2", DARK)), "signature")
    refused(dark, p.topic("r2", p.ACTION), dark.act(moves[1]), "another room")
    # malformed, oversized, not ASCII
    for junk in (b"hello", b"2 dark " + b"x" * 200, b"\xff\xfe", b"2 dark W@d4 me " + b"0" * 32):
        refused(light, ACTION_T, junk, "action")
    # our own act refused where the engine or the turn says no
    raises(ProtocolError, light.act, moves[1])  # dark's turn
    raises(ProtocolError, Room(ROOM, START).act, moves[0])


def test_a_room_begun_with_a_boards_game_writes_the_same_state():
    moves = game(12)
    pos = Position()
    codes = []
    for text in moves:
        codes.append(pos.parse_action(text))
        pos.push(codes[-1])
    r = Room(ROOM, None, SECRET, DARK, "d")
    r.begin(START, codes)
    assert r.actions == moves and r.pos.text() == pos.text() and r.side_of(13) == LIGHT
    assert bytes(r.state()) == bytes(p.state_message(ROOM, START, moves, DARK, "d",
                                                     r.keys[DARK]))
    e = raises(ProtocolError, r.begin, START, codes[:3] + codes[2:3])
    assert "action 4" in str(e) and r.actions == moves  # refused: the room as it was
    raises(ProtocolError, r.begin, "not a position")


def test_both_seats_acting_at_once():
    # Each acts on its own turn only; an action for the other's turn is refused there.
    light, dark = players()
    a = light.act(game(1)[0])
    e = raises(ProtocolError, dark.act, game(2)[1])  # dark has not seen light's action yet
    assert "not your turn" in str(e)
    assert dark.receive(ACTION_T, a)[0] == APPLIED
    b = dark.act(game(2)[1])
    assert light.receive(ACTION_T, b)[0] == APPLIED and light.actions == dark.actions


def test_state_for_late_joiners_behind_and_disagreeing():
    light, dark = players()
    moves = game(6)
    for text in moves:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    late = Room(ROOM, None, SECRET, DARK, "dark-2")  # the dark player on another device
    code, line = late.receive(STATE_T, light.state())
    assert code == APPLIED and late.actions == moves and late.pos.text() == light.pos.text()
    assert late.receive(STATE_T, dark.state())[0] == SAME
    old = Room(ROOM, START, SECRET, LIGHT, "light-1")
    old.receive(ACTION_T, old.act(moves[0]))
    assert light.receive(STATE_T, old.state())[0] == BEHIND  # publish ours again
    assert old.receive(STATE_T, light.state())[0] == APPLIED and old.actions == moves
    fork = Room(ROOM, START, SECRET, LIGHT, "light-1")
    fork.act("A@h8" if moves[0] != "A@h8" else "A@h7")
    refused(light, STATE_T, fork.state(), "action 1")
    refused(light, STATE_T, p.state_message(ROOM, START, moves, LIGHT, "x",
                                            sign.seat_key("guess", ROOM, LIGHT)), "signature")
    refused(light, STATE_T, p.state_message(ROOM, START, moves + ["d2d4"], LIGHT, "x",
                                            light.keys[LIGHT]), "action 7")
    other = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 d 3,4 - 0 0"
    refused(light, STATE_T, p.state_message(ROOM, other, [], LIGHT, "x", light.keys[LIGHT]),
            "another game")
    refused(Room(ROOM), STATE_T, p.state_message(ROOM, "nonsense", [], LIGHT, "x",
                                                 light.keys[LIGHT]), "start")
    assert late.receive(STATE_T, b"")[0] == SAME  # a cleared retained state


def test_a_state_spaced_its_own_way_is_read_word_by_word():
    light, dark = players()
    moves = game(3)
    for text in moves:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    key = light.keys[LIGHT]

    def spaced(actions):
        body = "start %s\nactions  %s " % (START, "   ".join(actions))
        return (body + "\nby light x %s" % sign.mac(key, p.state_prefix(ROOM), body)).encode()
    assert dark.receive(STATE_T, spaced(moves))[0] == SAME
    assert dark.receive(STATE_T, spaced(moves[:2]))[0] == BEHIND
    refused(dark, STATE_T, spaced(moves[:1] + ["A@h8" if moves[1] != "A@h8" else "A@h7"]),
            "action 2 is")
    late = Room(ROOM, None, SECRET, DARK, "d2")
    assert late.receive(STATE_T, spaced(moves))[0] == APPLIED and late.actions == moves
    assert late.receive(STATE_T, dark.state())[0] == SAME  # its words now written as ours


def test_a_long_state_is_replayed_a_few_actions_a_call():
    light, dark = players()
    moves = game(23)
    for text in moves:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    late = Room(ROOM, None, SECRET, DARK, "d2")
    late.replay_max = 5
    code, line = late.receive(STATE_T, light.state())
    assert code == APPLIED and late.number() == 5 and late.replaying(), line
    raises(ProtocolError, late.act, "W@a1")  # not while replaying
    # an action past the replay comes with the next state: no refusal meanwhile
    assert late.receive(ACTION_T, p.action_message(ROOM, 24, LIGHT, "W@a1", "x",
                                                   late.keys[LIGHT]))[0] == SAME
    calls = 0
    while late.replaying():
        code, line = late.more()
        assert code == APPLIED, line
        calls += 1
    assert calls == 4 and late.actions == moves and late.pos.text() == light.pos.text()
    assert late.more() == (SAME, "")
    assert late.receive(STATE_T, dark.state())[0] == SAME
    # an illegal action deep in a signed state: played up to it, refused there
    bad = list(moves[:11]) + ["d2d4"] + list(moves[12:])
    other = Room(ROOM, None, SECRET, DARK, "d3")
    other.replay_max = 5
    other.receive(STATE_T, p.state_message(ROOM, START, bad, LIGHT, "x", light.keys[LIGHT]))
    code, line = other.more()
    assert code == APPLIED and other.number() == 10
    code, line = other.more()
    assert code == REFUSED and "action 12" in line and other.number() == 11
    assert not other.replaying()


def test_seats_and_presence():
    light, dark = players()
    seat_t = p.topic(ROOM, p.SEAT, DARK)
    assert light.opponent_online() is None
    assert light.receive(seat_t, dark.seat()) == (NOTED, "dark's seat: dark-1")
    assert light.receive(seat_t, dark.seat())[0] == SAME
    stranger = Room(ROOM, START, "guess", DARK, "eve")
    refused(light, seat_t, stranger.seat(), "another secret")
    pres = p.topic(ROOM, p.PRESENCE, "dark-1")
    assert light.opponent_online() is False
    assert light.receive(pres, dark.presence())[0] == NOTED and light.opponent_online()
    assert light.receive(pres, dark.presence())[0] == SAME
    assert light.receive(pres, p.OFFLINE) == (NOTED, "dark-1 offline")
    assert light.opponent_online() is False
    assert light.receive(seat_t, b"")[0] == NOTED and light.seats[DARK] is None
    refused(light, pres, b"online purple", "presence")


def test_a_spectator_cannot_act_and_a_seat_needs_the_secret():
    w = Room(ROOM, START)
    for fn in (w.state, w.seat):
        raises(ProtocolError, fn)
    raises(ProtocolError, Room, ROOM, START, None, LIGHT, "x")
    raises(ProtocolError, Room, "bad room", START)


def test_the_game_over_refuses_more():
    end = "8/8/8/8/8/8/8/8 8/8/8/8/8/8/8/4H3 d 3,4"  # dark's Heart is gone: light has won
    light = Room(ROOM, end, SECRET, LIGHT, "l")
    dark = Room(ROOM, end, SECRET, DARK, "d")
    e = raises(ProtocolError, dark.act, "W@a1")
    assert "over" in str(e)
    refused(light, ACTION_T, p.action_message(ROOM, 1, DARK, "W@a1", "d", dark.keys[DARK]), "over")
