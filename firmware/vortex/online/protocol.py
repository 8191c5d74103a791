"""Topics and messages of online play (docs/online.md): what goes on the
wire, encoded and decoded with bounds, one copy for the board and the host.

Topics, a room per game, versioned:

    vortex/v1/<room>/state             retained: the game so far (start, actions), signed
    vortex/v1/<room>/action            QoS 1: "<number> <side> <action> <sender> <sig>"
    vortex/v1/<room>/seat/<side>       retained: "<client> <proof>", a seat's claim
    vortex/v1/<room>/presence/<client> retained: "online <role>"; the will says "offline"

Every payload is printable ASCII (the state's lines end with LF), no longer
than its kind allows; anything else is a ProtocolError whose message is
the one line to log. Names (rooms, clients) are 1-32 (clients 1-23, MQTT
3.1's limit) of a-z A-Z 0-9 - _ . so they never hold a topic's / + #.
"""
from vortex.engine.defs import LIGHT, DARK, const
from vortex.online import sign

PREFIX = "vortex/v1/"
STATE = "state"
ACTION = "action"
SEAT = "seat"
PRESENCE = "presence"
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
        return t + "/" + SIDES[arg]
    if kind == PRESENCE:
        return t + "/" + check_client(arg)
    return t


def room_filter(room):
    """The subscription that follows everything in a room."""
    return PREFIX + check_name(room) + "/#"


def parse_topic(text):
    """(room, kind, arg) of a room's topic: arg is the side of a seat, the
    client of a presence, None otherwise; ProtocolError if it is none of them."""
    if not text.startswith(PREFIX):
        raise ProtocolError("topic %s is not vortex/v1/..." % text[:60])
    parts = text[len(PREFIX):].split("/")
    room = check_name(parts[0])
    kind = parts[1] if len(parts) > 1 else ""
    if len(parts) == 2 and kind in (STATE, ACTION):
        return room, kind, None
    if len(parts) == 3 and kind == SEAT and parts[2] in SIDES:
        return room, kind, SIDES.index(parts[2])
    if len(parts) == 3 and kind == PRESENCE:
        return room, kind, check_client(parts[2])
    raise ProtocolError("topic %s is not a room's state, action, seat or presence" % text[:60])


# --- payloads -----------------------------------------------------------------------
def _text(payload, most, what, lines=False):
    # Bounded printable ASCII (LF too where lines are allowed), as str.
    if len(payload) > most:
        raise ProtocolError("%s too long: %d bytes (at most %d)" % (what, len(payload), most))
    for b in payload:
        if (b < 32 and not (lines and b == 10)) or b > 126:
            raise ProtocolError("%s holds byte 0x%02x: not printable ASCII" % (what, b))
    return bytes(payload).decode()


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
    words = _text(payload, ACTION_MAX, "action").split()
    if len(words) != 5:
        raise ProtocolError("action: expected number side action sender signature, got %d words"
                            % len(words))
    sender = words[3]
    try:
        check_client(sender)
    except ProtocolError as e:
        raise ProtocolError("action: %s" % e)
    return (_number(words[0], "action", 1, NUMBER_MAX), _side(words[1], "action"), words[2],
            sender, _sig(words[4], "action"))


def signed_state(room, body):
    return "vortex/v1 state %s\n%s" % (room, body)


def state_body(start, actions):
    """The state's first two lines: its start position and its actions."""
    return "start %s\nactions %s" % (start, " ".join(actions))


def state_message(room, start, actions, side, sender, key):
    """The room's retained state: the start, the actions, signed by the seat
    that publishes it."""
    body = state_body(start, actions)
    return ("%s\nby %s %s %s" % (body, SIDES[side], check_client(sender),
                                  sign.mac(key, signed_state(room, body)))).encode()


def read_state(payload):
    """(start, [action texts], side, sender, signature, body) of a state's
    payload; ProtocolError if it is malformed."""
    lines = _text(payload, STATE_MAX, "state", True).split("\n")
    if len(lines) != 3 or not lines[0].startswith("start ") or not (
            lines[1] == "actions" or lines[1].startswith("actions ")):
        raise ProtocolError("state: expected the lines start, actions and by")
    by = lines[2].split()
    if len(by) != 4 or by[0] != "by":
        raise ProtocolError("state: expected its last line as by side sender signature")
    actions = lines[1].split()[1:]
    if len(actions) > STATE_ACTIONS:
        raise ProtocolError("state: %d actions (at most %d)" % (len(actions), STATE_ACTIONS))
    try:
        check_client(by[2])
    except ProtocolError as e:
        raise ProtocolError("state: %s" % e)
    return (lines[0][6:], actions, _side(by[1], "state"), by[2], _sig(by[3], "state"),
            lines[0] + "\n" + lines[1])


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
