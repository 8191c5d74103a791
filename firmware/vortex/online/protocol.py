"""Topics and messages of online play (docs/online.md): what goes on the
wire, encoded and decoded with bounds, one copy for the board and the host.

Topics, a room per game, versioned:

    vortex/v1/<room>/state             retained: the game so far (start, actions), signed
    vortex/v1/<room>/action            QoS 1: "<number> <side> <action> <sender> <sig>"
    vortex/v1/<room>/seat/<side>       retained: "<client> <proof>", a seat's claim
    vortex/v1/<room>/presence/<client> retained: "online <role>"; the will says "offline"
    vortex/v1/<room>/ask               QoS 1: "<client>": whoever holds the game, publish it

Every payload is printable ASCII (the state's lines end with LF), no longer
than its kind allows, and written one way only (single spaces, no leading
zero: what a signature covers is what every client compares); anything
else is a ProtocolError whose message is the one line to log. Names (rooms, clients) are 1-32 (clients 1-23, MQTT
3.1's limit) of a-z A-Z 0-9 - _ . so they never hold a topic's / + #.
"""
from array import array

from vortex.engine.defs import LIGHT, DARK, const
from vortex.online import sign

PREFIX = "vortex/v1/"
STATE = "state"
ACTION = "action"
SEAT = "seat"
PRESENCE = "presence"
ASK = "ask"
SIDES = ("light", "dark")
WATCH = const(-1)  # a client without a seat: it watches
ROLES = ("light", "dark", "watch")  # presence's role: a seat or a spectator

ROOM_MAX = const(32)
CLIENT_MAX = const(23)
ACTION_MAX = const(128)  # bytes in an action message: the longest is about 75
NUMBER_MAX = const(1500)  # actions in a game: none is longer (docs/online.md says why)
STATE_ACTIONS = NUMBER_MAX
STATE_MAX = const(10240)  # bytes in a state message: the start, 1,500 actions of 5 and a space
SEAT_MAX = const(80)
PRESENCE_MAX = const(32)
ASK_MAX = CLIENT_MAX
ONLINE = "online"
OFFLINE = b"offline"
_NAME = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
_HEX = "0123456789abcdef"


class ProtocolError(ValueError):
    """A message or a name refused: str(e) is the one-line reason."""


# --- names and topics -----------------------------------------------------------
def check_name(text, what="room", most=ROOM_MAX):
    """text if it is a good room or client name, else ProtocolError."""
    if not isinstance(text, str) or not 0 < len(text) <= most:
        raise ProtocolError("%s: 1 to %d characters" % (what, most))
    for ch in text:
        if ch not in _NAME:
            raise ProtocolError("%s %s: only letters, digits, - _ and ." % (what, text[:40]))
    return text


def check_client(text):
    return check_name(text, "client id", CLIENT_MAX)


def topic(room, kind, arg=None):
    """A room's topic: topic("friday", ACTION); topic("friday", SEAT, LIGHT);
    topic("friday", PRESENCE, "board-1")."""
    t = PREFIX + check_name(room) + "/" + kind
    if kind == SEAT:
        if arg not in (LIGHT, DARK):
            raise ProtocolError("seat: side %r is not light (0) or dark (1)" % (arg,))
        return t + "/" + SIDES[arg]
    if kind == PRESENCE:
        return t + "/" + check_client(arg)
    if kind not in (STATE, ACTION, ASK) or arg is not None:
        raise ProtocolError("topic: %r is not state, action, ask, seat or presence" % (kind,))
    return t


def room_filter(room):
    """The subscription that follows everything in a room."""
    return PREFIX + check_name(room) + "/#"


def parse_topic(text):
    """(room, kind, arg) of a room's topic: arg is the side of a seat, the
    client of a presence, None otherwise; ProtocolError if it is none of them.
    text: str, or the bytes a client library hands over."""
    if not isinstance(text, str):
        text = _text(text, 256, "topic")
    if not text.startswith(PREFIX):
        raise ProtocolError("topic %s is not vortex/v1/..." % text[:60])
    parts = text[len(PREFIX):].split("/")
    room = check_name(parts[0])
    kind = parts[1] if len(parts) > 1 else ""
    if len(parts) == 2 and kind in (STATE, ACTION, ASK):
        return room, kind, None
    if len(parts) == 3 and kind == SEAT and parts[2] in SIDES:
        return room, kind, SIDES.index(parts[2])
    if len(parts) == 3 and kind == PRESENCE:
        return room, kind, check_client(parts[2])
    raise ProtocolError("topic %s is not a room's state, action, ask, seat or presence"
                        % text[:60])


# --- payloads -----------------------------------------------------------------------
def _text(payload, most, what, lines=False, decode=True):
    # Bounded printable ASCII (LF too where lines are allowed), as str (or
    # only checked). Each line's bytes through min() and max() of a
    # memoryview: C's loop, not ours, and no copy (the longest state is
    # 10 KB, and a board's heap has room for it once, not three times).
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    if n > most:
        raise ProtocolError("%s too long: %d bytes (at most %d)" % (what, n, most))
    data = payload if isinstance(payload, (bytes, bytearray)) else bytes(payload)
    view = memoryview(data)
    i = 0
    while i < n:
        end = data.find(b"\n", i) if lines else -1
        if end < 0:
            end = n
        if end > i and (min(view[i:end]) < 32 or max(view[i:end]) > 126):
            for b in view[i:end]:
                if b < 32 or b > 126:
                    raise ProtocolError("%s holds byte 0x%02x: not printable ASCII" % (what, b))
        i = end + 1
    return bytes(data).decode() if decode else None


def _number(word, what, low, high):
    if not word or len(word) > 4 or [ch for ch in word if ch not in "0123456789"] \
            or not low <= int(word) <= high:
        raise ProtocolError("%s: %s is not a number from %d to %d" % (what, word[:12], low, high))
    return int(word)


def _side(word, what):
    if word not in SIDES:
        raise ProtocolError("%s: side %s is not light or dark" % (what, word[:12]))
    return SIDES.index(word)


def _sig(word, what):
    if len(word) != sign.MAC_HEX or [ch for ch in word if ch not in _HEX]:
        raise ProtocolError("%s: the signature is not %d hex digits" % (what, sign.MAC_HEX))
    return word


def signed_action(room, number, side, text):
    """What an action's signature covers: the room, its number, side, action."""
    return "vortex/v1 action %s %d %s %s" % (room, number, SIDES[side], text)


def action_message(room, number, side, text, sender, key):
    """An action's payload, signed with its seat's key."""
    return ("%d %s %s %s %s" % (number, SIDES[side], text, check_client(sender),
                                sign.mac(key, signed_action(room, number, side, text)))).encode()


def read_action(payload):
    """(number, side, action text, sender, signature) of an action's payload;
    ProtocolError if it is malformed (the action's legality is the room's)."""
    text = _text(payload, ACTION_MAX, "action")
    words = text.split()
    if len(words) != 5:
        raise ProtocolError("action: expected number side action sender signature, got %d words"
                            % len(words))
    sender = words[3]
    try:
        check_client(sender)
    except ProtocolError as e:
        raise ProtocolError("action: %s" % e)
    number = _number(words[0], "action", 1, NUMBER_MAX)
    side = _side(words[1], "action")
    if text != "%d %s %s %s %s" % (number, words[1], words[2], sender, words[4]):
        raise ProtocolError("action: not written in its one form (single spaces, no leading zero)")
    return number, side, words[2], sender, _sig(words[4], "action")


def state_prefix(room):
    """What a state's signature covers before its body (the room: a state
    cannot be replayed in another room)."""
    return "vortex/v1 state %s\n" % room


def state_message(room, start, actions, side, sender, key):
    """The room's retained state, signed by the seat that publishes it:

        start <position>
        actions <action> <action> ...
        by <side> <sender> <signature of the two lines above>

    actions: the game's actions in notation (any iterable of str), or
    their words already written (bytes or bytearray: " W@d4 F@e5", each
    after a space), as a Room keeps them so that a long game's state costs
    no notation work. Built in one bytearray of its final size: the
    longest game's state is 10 KB, and a board's heap has room for it
    once, not for the copies that growing it would make."""
    head = "start %s\nactions" % start
    written = isinstance(actions, (bytes, bytearray))
    if written:
        n, size = actions.count(b" "), len(actions)
    else:
        n = size = 0
        for text in actions:
            n += 1
            size += 1 + len(text)
    if n > STATE_ACTIONS:
        raise ProtocolError("state: %d actions (at most %d)" % (n, STATE_ACTIONS))
    by = " %s %s " % (SIDES[side], check_client(sender))
    body = len(head) + size
    out = bytearray(body + 3 + len(by) + sign.MAC_HEX)
    out[:len(head)] = head.encode()
    i = len(head)
    if written:
        out[i:body] = actions
    else:
        for text in actions:
            out[i] = 32
            out[i + 1:i + 1 + len(text)] = text.encode()
            i += 1 + len(text)
    view = memoryview(out)
    tail = "\nby" + by + sign.mac(key, state_prefix(room), view[:body])
    view[body:] = tail.encode()
    return out


class Words:
    """The action words of a state's payload (bytes), read in place: len(), [i]
    (the i-th action's text), iteration. A list of 1,500 strings would
    cost a board tens of KB; this holds their offsets, 2 bytes each."""

    def __init__(self, data, begin, end):
        self.data = data
        self.begin = begin  # data[begin:end]: the words, each after a space
        self.end = end
        self.at = array("H")
        i = begin
        while i < end:  # a find() a word: C's speed, not a Python step a byte
            if data[i] == 32:
                i += 1
                continue
            j = data.find(b" ", i, end)
            if j < 0:
                j = end
            self.at.append(i)
            self.at.append(j)
            i = j

    def __len__(self):
        return len(self.at) // 2

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("action %d of %d" % (i + 1, len(self)))
        return bytes(self.data[self.at[2 * i]:self.at[2 * i + 1]]).decode()

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other):
        return len(self) == len(other) and all(self[i] == other[i] for i in range(len(self)))


def read_state(payload):
    """(start, actions, side, sender, signature, body) of a state's payload:
    actions is a Words view (len, [i], iteration) of the action texts; body
    the bytes the signature covers after state_prefix(). ProtocolError if
    it is malformed (whether its actions are legal is the room's)."""
    if isinstance(payload, str):
        payload = payload.encode()
    _text(payload, STATE_MAX, "state", True, False)
    if not isinstance(payload, (bytes, bytearray)):
        payload = bytes(payload)  # (a memoryview: find() below)
    data = memoryview(payload)
    first = payload.find(b"\n")
    second = payload.find(b"\n", first + 1) if first >= 0 else -1
    if first < 0 or second < 0 or payload.find(b"\n", second + 1) >= 0 \
            or bytes(data[:6]) != b"start " or bytes(data[first + 1:first + 8]) != b"actions" \
            or second > first + 8 and data[first + 8] != 32:
        raise ProtocolError("state: expected the lines start, actions and by")
    actions = Words(payload, first + 8, second)
    if len(actions) > STATE_ACTIONS:
        raise ProtocolError("state: %d actions (at most %d)" % (len(actions), STATE_ACTIONS))
    # One form: each action after one space, none after the last; then the
    # offsets Words found are the bytes a room compares with its own.
    n = len(actions)
    if (n and (actions.at[0] != first + 9 or actions.at[2 * n - 1] != second
               or payload.find(b"  ", first, second) >= 0)) or (not n and second != first + 8):
        raise ProtocolError("state: actions not written in their one form (single spaces)")
    last = bytes(data[second + 1:]).decode()
    by = last.split()
    if len(by) != 4 or by[0] != "by":
        raise ProtocolError("state: expected its last line as by side sender signature")
    try:
        check_client(by[2])
    except ProtocolError as e:
        raise ProtocolError("state: %s" % e)
    out = (bytes(data[6:first]).decode(), actions, _side(by[1], "state"), by[2],
           _sig(by[3], "state"), data[:second])
    if last != " ".join(by):
        raise ProtocolError("state: its last line not written in its one form (single spaces)")
    return out


def seat_message(client, key):
    """A seat's retained claim: who holds it and the proof of its key."""
    return ("%s %s" % (check_client(client), sign.proof(key))).encode()


def read_seat(payload):
    """(client, proof) of a seat's claim."""
    words = _text(payload, SEAT_MAX, "seat").split()
    if len(words) != 2 or len(words[1]) != sign.PROOF_HEX or [ch for ch in words[1]
                                                                if ch not in _HEX]:
        raise ProtocolError("seat: expected client and a %d-digit proof" % sign.PROOF_HEX)
    try:
        check_client(words[0])
    except ProtocolError as e:
        raise ProtocolError("seat: %s" % e)
    return words[0], words[1]


def ask_message(client):
    """An ask: whoever holds the room's game, publish it (retained)."""
    return check_client(client).encode()


def read_ask(payload):
    """The client that asks."""
    try:
        return check_client(_text(payload, ASK_MAX, "ask"))
    except ProtocolError as e:
        raise ProtocolError("ask: %s" % e)


def presence_message(role):
    """A client's retained presence: online as light, dark or watch (WATCH)."""
    return ("%s %s" % (ONLINE, ROLES[role])).encode()


def read_presence(payload):
    """(online, role): role is LIGHT, DARK, WATCH, or None once offline."""
    words = _text(payload, PRESENCE_MAX, "presence").split()
    if words == ["offline"]:
        return False, None
    if len(words) == 2 and words[0] == ONLINE and words[1] in ROLES:
        return True, (LIGHT, DARK, WATCH)[ROLES.index(words[1])]
    raise ProtocolError("presence: expected online light|dark|watch or offline")
