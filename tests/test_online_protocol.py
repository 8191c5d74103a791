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
from vortex.online.room import (Room, APPLIED, SAME, REFUSED, BEHIND, NOTED, DUE_STATE, DUE_SEAT,
                                DUE_PRESENCE)

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
    for i in range(4):  # a difference anywhere counts, not only the last one seen
        assert not sign.same("ab12", "ab12"[:i] + "f" + "ab12"[i + 1:])


def test_a_signature_right_but_for_one_digit_is_refused():
    light, dark = players()
    good = light.act("W@d4")
    sig = good[-sign.MAC_HEX:].decode()
    for i in (0, 15, sign.MAC_HEX - 1):
        digit = "0" if sig[i] != "0" else "1"
        forged = good[:-sign.MAC_HEX] + (sig[:i] + digit + sig[i + 1:]).encode()
        refused(dark, ACTION_T, forged, "bad signature for light's seat")
    assert dark.receive(ACTION_T, good)[0] == APPLIED


def test_a_signed_action_replayed_under_another_number_is_refused():
    """The number is in the signed text: a stranger who saw light's signed
    action cannot send it again as a later action, even where the engine
    would take the same action there again (a piece moved back and forth)."""
    start = "WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE/WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE " \
            "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"
    light = Room(ROOM, start, SECRET, LIGHT, "light-1")
    dark = Room(ROOM, start, SECRET, DARK, "dark-1")
    watcher = Room(ROOM, start, SECRET, WATCH, "w")  # a spectator given the secret checks too
    first = None
    for me, other, text in ((light, dark, "e1g3"), (dark, light, "a7b8"), (light, dark, "g3e1"),
                            (dark, light, "b8a7")):
        payload = me.act(text)
        first = first or payload
        assert other.receive(ACTION_T, payload)[0] == APPLIED
        assert watcher.receive(ACTION_T, payload)[0] == APPLIED
    assert light.pos.is_legal(light.pos.parse_action("e1g3"))  # the same action, legal again
    assert sign.mac(light.keys[LIGHT], p.signed_action(ROOM, 1, LIGHT, "e1g3")) != \
        sign.mac(light.keys[LIGHT], p.signed_action(ROOM, 5, LIGHT, "e1g3"))
    replay = b"5" + bytes(first)[1:]
    assert p.read_action(replay)[0] == 5
    for room in (dark, watcher):
        refused(room, ACTION_T, replay, "action 5 light e1g3: bad signature for light's seat")


# --- topics -------------------------------------------------------------------
def test_topics_round_trip():
    assert p.topic(ROOM, p.ACTION) == "vortex/v1/friday-7/action"
    assert p.topic(ROOM, p.SEAT, DARK) == "vortex/v1/friday-7/seat/dark"
    assert p.room_filter(ROOM) == "vortex/v1/friday-7/#"
    assert p.topic(ROOM, p.ASK) == "vortex/v1/friday-7/ask"
    for kind, arg in ((p.STATE, None), (p.ACTION, None), (p.SEAT, LIGHT), (p.SEAT, DARK),
                      (p.PRESENCE, "board-e661a4"), (p.ASK, None)):
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
    e = raises(ProtocolError, p.read_action, b"12345678901234 " + b" ".join(words[1:]))
    assert str(e) == "action: 123456789012 is not a number from 1 to 1500"  # (cut at 12)
    e = raises(ProtocolError, p.read_action, good[:-1] + b"G")
    assert str(e) == "action: the signature is not 32 hex digits"
    # a room that has read no state yet cannot judge an action
    assert Room(ROOM, None, SECRET, DARK, "d").receive(ACTION_T, good) == (
        REFUSED, "action 3 light W@d4: no state read yet, the game's start is unknown")


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
    words = p.read_state(b"start " + START.encode() + b"\nactions W@d4 d4~e4\nby light me "
                         + b"0" * 32)[1]
    assert len(words) == 2 and words[-1] == "d4~e4" and list(words) == ["W@d4", "d4~e4"]
    raises(IndexError, words.__getitem__, 2)
    assert p.read_ask(p.ask_message("board-1")) == "board-1"
    for bad in (b"", b"a b", b"x" * 24, b"\xff"):
        raises(ProtocolError, p.read_ask, bad)
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


def test_our_action_sent_again_is_ours_only():
    light, dark = players()
    first = light.act("W@d4")
    assert bytes(light.message(1)) == bytes(first)  # (the same payload: a repeat is SAME)
    dark.receive(ACTION_T, first)
    dark.act("F@e5")
    e = raises(ProtocolError, dark.message, 1)
    assert str(e) == "action 1 is not ours to send"
    assert dark.receive(ACTION_T, light.message(1)) == (SAME, "")


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


def test_signed_texts_have_one_form():
    """A signature covers a text: an action or a state written another way
    (two spaces, a leading zero, a space at the end), even signed, is
    refused, so that every client compares the very text that was signed."""
    light, dark = players()
    moves = game(3)
    for text in moves:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    lk, dk = light.keys[LIGHT], light.keys[DARK]
    number, side, text, sender, sig = p.read_action(p.action_message(ROOM, 4, DARK, "A@h8", "x",
                                                                     dk))
    for form in ("%d  %s %s %s %s", "0%d %s %s %s %s", "%d %s %s %s %s ", " %d %s %s %s %s",
                 "%d %s %s %s\t%s"):
        e = raises(ProtocolError, p.read_action,
                   (form % (number, "dark", text, sender, sig)).encode())
        assert "form" in str(e) or "printable" in str(e), e
    assert p.read_action(("%d %s %s %s %s" % (number, "dark", text, sender, sig)).encode())

    def written(body, by="by light x %s"):
        return (body + "\n" + by % sign.mac(lk, p.state_prefix(ROOM), body)).encode()
    good = "start %s\nactions %s" % (START, " ".join(moves))
    assert bytes(written(good)) == bytes(p.state_message(ROOM, START, moves, LIGHT, "x", lk))
    assert dark.receive(STATE_T, written(good))[0] == SAME
    for body in ("start %s\nactions  %s" % (START, " ".join(moves)),
                 "start %s\nactions %s " % (START, " ".join(moves)),
                 "start %s\nactions %s" % (START, "  ".join(moves)),
                 "start %s\nactions " % START):
        refused(dark, STATE_T, written(body), "one form")
    for by in ("by  light x %s", "by light x %s ", " by light x %s"):
        refused(dark, STATE_T, written(good, by), "one form")
    e = raises(ProtocolError, p.read_state, written("start %s\nactions  W@d4" % START))
    assert str(e) == "state: actions not written in their one form (single spaces)"
    e = raises(ProtocolError, p.read_state, written(good, "by light x/y %s"))
    assert str(e) == "state: client id x/y: only letters, digits, - _ and ."
    e = raises(ProtocolError, p.read_state, written(good)[:-1] + b"Z")
    assert str(e) == "state: the signature is not 32 hex digits"
    # read in place from what a client library hands over: bytes, bytearray, memoryview
    for kind in (bytes, bytearray, memoryview):
        assert list(p.read_state(kind(written(good)))[1]) == moves
    assert p.read_state(written("start %s\nactions" % START))[1] == []  # an empty game


def test_a_signed_state_with_an_illegal_action_applies_none():
    """All or nothing: legal new actions followed by an illegal one, signed
    by a seat, are refused together; the game, its position and the state
    it publishes are as they were, and the next good state applies."""
    light, dark = players()
    moves = game(8)
    for text in moves[:3]:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    before = (list(dark.actions), dark.pos.text(), bytes(dark.state()))
    bad = moves[:6] + ["d2d4"] + moves[7:]
    line = refused(dark, STATE_T, p.state_message(ROOM, START, bad, LIGHT, "x", light.keys[LIGHT]),
                   "action 7")
    assert "illegal" in line
    assert (list(dark.actions), dark.pos.text(), bytes(dark.state())) == before
    assert dark.receive(STATE_T, p.state_message(ROOM, START, moves, LIGHT, "x",
                                                 light.keys[LIGHT]))[0] == APPLIED
    assert dark.actions == moves and bytes(dark.state()) == bytes(
        p.state_message(ROOM, START, moves, DARK, "dark-1", dark.keys[DARK]))


def test_a_shorter_state_read_while_replaying_does_not_cut_the_game_short():
    light, dark = players()
    moves = game(30)
    for text in moves:
        me, them = (light, dark) if light.pos.side == LIGHT else (dark, light)
        them.receive(ACTION_T, me.act(text))
    late = Room(ROOM, None, SECRET, DARK, "d2")
    late.replay_max = 5
    assert late.receive(STATE_T, light.state())[0] == APPLIED and late.number() == 5
    old = p.state_message(ROOM, START, moves[:12], LIGHT, "x", light.keys[LIGHT])
    assert late.receive(STATE_T, old)[0] == BEHIND and late.number() == 5  # not the target now
    while late.replaying():
        assert late.more()[0] == APPLIED
    assert late.actions == moves
    fork = moves[:12] + ["A@h8" if moves[12] != "A@h8" else "A@h7"]
    other = Room(ROOM, None, SECRET, DARK, "d3")
    other.replay_max = 5
    other.receive(STATE_T, light.state())
    refused(other, STATE_T, p.state_message(ROOM, START, fork, LIGHT, "x", light.keys[LIGHT]),
            "action 13 is")
    longer = Room(ROOM, None, SECRET, DARK, "d4")
    longer.replay_max = 5
    longer.receive(STATE_T, p.state_message(ROOM, START, moves[:20], LIGHT, "x",
                                            light.keys[LIGHT]))
    assert longer.receive(STATE_T, light.state())[0] == APPLIED  # the newer one goes on from here
    while longer.replaying():
        longer.more()
    assert longer.actions == moves


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
    assert light.receive(pres, dark.presence()) == (SAME, "")
    assert light.receive(pres, p.OFFLINE) == (NOTED, "dark-1 offline")
    assert light.opponent_online() is False
    assert light.receive(seat_t, b"")[0] == NOTED and light.seats[DARK] is None
    refused(light, pres, b"online purple", "presence")
    e = raises(ProtocolError, p.read_presence, b"online purple")
    assert str(e) == "presence: expected online light|dark|watch or offline"
    e = raises(ProtocolError, p.read_seat, b"me 1234")
    assert str(e) == "seat: expected client and a 32-digit proof"


def test_what_a_seat_owes_the_room():
    """On a broker without ACL a stranger can take off or replace what the
    room keeps (the state, a seat's claim, a presence): the seat that can
    put it right owes it (Room.due, which its client publishes)."""
    light, dark = players()
    dark.receive(ACTION_T, light.act("W@d4"))
    seat_t, pres_t, ask_t = p.topic(ROOM, p.SEAT, DARK), p.topic(ROOM, p.PRESENCE, "dark-1"), \
        p.topic(ROOM, p.ASK)
    watcher, new = Room(ROOM, START), Room(ROOM, None, SECRET, DARK, "dark-2")
    eve = Room(ROOM, START, "guess", LIGHT, "eve")
    forged = eve.state()
    for payload, words in ((b"", None), (forged, "bad signature"), (b"junk", "expected"),
                           (bytes(forged)[:-1] + b"x", "signature")):
        for room in (dark, watcher, new):
            room.due = 0
            code, line = room.receive(STATE_T, payload)
            assert room is watcher or (code == SAME if words is None else
                                       code == REFUSED and words in line), line
        assert dark.due == DUE_STATE and watcher.due == new.due == 0  # (no game, no seat: none)
    dark.due = 0
    fork = Room(ROOM, START, SECRET, LIGHT, "light-1")
    fork.act("A@h8")
    refused(dark, STATE_T, fork.state(), "action 1 is")  # a player's other game: said, not fought
    assert dark.due == 0
    assert dark.receive(STATE_T, Room(ROOM, START, SECRET, LIGHT, "l").state())[0] == BEHIND
    assert dark.due == DUE_STATE
    for room in (dark, watcher, new):
        room.due = 0
        assert room.receive(ask_t, p.ask_message("someone")) == (SAME, "")
    assert dark.due == DUE_STATE and watcher.due == new.due == 0
    refused(dark, ask_t, b"two words", "ask")
    # our seat's claim taken off or replaced by one we cannot verify; the other seat's is not ours
    for payload in (b"", eve.seat(), b"junk"):
        dark.due = light.due = 0
        dark.receive(seat_t, payload)
        light.receive(seat_t, payload)
        assert dark.due == DUE_SEAT and light.due == 0
    dark.due = 0
    assert dark.receive(seat_t, dark.seat())[0] == NOTED and dark.due == 0
    # our presence said offline while we are here; another's is news
    for payload in (p.OFFLINE, b"", p.presence_message(LIGHT)):
        dark.due = 0
        assert dark.receive(pres_t, payload) == (SAME, "") and dark.due == DUE_PRESENCE
    dark.due = 0
    assert dark.receive(pres_t, dark.presence()) == (NOTED, "dark-1 online as dark")
    light.due = 0
    assert light.receive(pres_t, dark.presence())[0] == NOTED
    assert light.receive(pres_t, p.OFFLINE)[0] == NOTED and dark.due == light.due == 0


def test_whose_game_to_wait_for():
    """A client with no game waits for a seat's holder (its claim checked)
    that may have it, an online one first; none: the room is new."""
    room = Room(ROOM, None, SECRET, LIGHT, "me")
    assert room.wait_for() is None
    light, dark = players()
    room.receive(p.topic(ROOM, p.SEAT, LIGHT), p.seat_message("me", room.keys[LIGHT]))
    assert room.wait_for() is None  # our own claim: nobody else has played
    refused(room, p.topic(ROOM, p.SEAT, DARK), Room(ROOM, START, "guess", DARK, "eve").seat(),
            "another secret")
    assert room.wait_for() is None  # a claim with another secret: no player of this room
    room.receive(p.topic(ROOM, p.SEAT, DARK), dark.seat())
    assert room.wait_for() == (DARK, "dark-1", False)
    room.receive(p.topic(ROOM, p.SEAT, LIGHT), light.seat())  # light played from elsewhere
    assert room.wait_for() == (LIGHT, "light-1", False)
    room.receive(p.topic(ROOM, p.PRESENCE, "dark-1"), dark.presence())
    assert room.wait_for() == (DARK, "dark-1", True)
    room.receive(p.topic(ROOM, p.PRESENCE, "light-1"), light.presence())
    assert room.wait_for() == (LIGHT, "light-1", True)


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
