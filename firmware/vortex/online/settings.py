"""The board's online settings: its WiFi, its broker, its room and seat.
Kept on the board in a small file saved atomically (vortex.hal.store's
FileStore: a power cut keeps the old or the new) and set over the USB link
(docs/protocol.md's `online` command):

    online                     the state: off, wifi, down (why), up room ... opponent ...
    online settings            every setting (secrets shown as ***)
    online NAME VALUE          one setting; `-` clears it
    online on | online off     play online, or not

Values are single words: a space is written %20 (any byte as %XX), so an
SSID like "Home Net" is `online ssid Home%20Net`.

    ssid       the WiFi network (1-32 bytes)
    wifi-key   its password (8-63 characters; - for an open network)
    broker     HOST or HOST:PORT (1883, or 8883 with tls on)
    user       the broker's user name (-: anonymous)
    password   the broker's password for that user
    tls        on or off: TLS to the broker (then PORT 8883 by default)
    room       the room (docs/online.md: letters, digits, - _ .)
    side       light, dark or watch (a spectator)
    secret     the room's secret, as the other player has it (8-64 characters)
    client     the board's client id (-: the chip's own, vx-<its unique id>);
               fixed, since the broker keeps the board's session by it
"""
from vortex.online import protocol
from vortex.online.protocol import ProtocolError

NAMES = ("ssid", "wifi-key", "broker", "user", "password", "tls", "room", "side", "secret",
         "client")
HIDDEN = ("wifi-key", "password", "secret")
MQTT_PORT = 1883
MQTTS_PORT = 8883
_HOST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-."


class SettingError(ProtocolError):
    """A setting refused: the one-line reason."""


def unescape(word):
    """A word's %XX escapes decoded (a space is %20)."""
    if "%" not in word:
        return word
    out = bytearray()
    i = 0
    raw = word.encode()
    while i < len(raw):
        b = raw[i]
        if b == 37:  # %
            h = raw[i + 1:i + 3]
            try:
                if len(h) != 2:
                    raise ValueError
                out.append(int(h, 16))
            except ValueError:
                raise SettingError("%%XX needs two hex digits: %s" % word[:40])
            i += 3
        else:
            out.append(b)
            i += 1
    try:
        return bytes(out).decode()
    except UnicodeError:
        raise SettingError("not UTF-8 once decoded: %s" % word[:40])


def escape(text):
    """The word form of a value: what is not printable ASCII, %, a space, as %XX."""
    out = []
    for ch in text:
        o = ord(ch)
        if o <= 32 or o >= 127 or ch == "%":
            for b in ch.encode():
                out.append("%%%02X" % b)
        else:
            out.append(ch)
    return "".join(out)


class OnlineSettings:
    """The settings, as text values ("" unset), and whether to play online."""

    def __init__(self):
        self.on = False
        self.values = {}
        for n in NAMES:
            self.values[n] = ""
        self.values["side"] = "watch"

    def get(self, name):
        return self.values[name]

    def set(self, name, word):
        """One setting from its word (escaped); SettingError if refused."""
        if name not in NAMES:
            raise SettingError("no online setting %s: %s" % (name[:20], ", ".join(NAMES)))
        value = "" if word == "-" else unescape(word)
        if value or name == "side":
            _check(name, value)
        self.values[name] = value

    def broker(self):
        """(host, port) of the broker."""
        host, _, port = self.values["broker"].partition(":")
        return host, int(port) if port else (MQTTS_PORT if self.values["tls"] == "on"
                                               else MQTT_PORT)

    def missing(self):
        """The settings still needed to play online, as a word list."""
        need = ["ssid", "broker", "room"]
        if self.values["side"] != "watch":
            need.append("secret")
        return [n for n in need if not self.values[n]]

    def text(self, hidden=True):
        """on|off, then name=value for each (escaped; secrets as *** when hidden)."""
        words = ["on" if self.on else "off"]
        for n in NAMES:
            v = self.values[n]
            words.append("%s=%s" % (n, "-" if not v else "***" if hidden and n in HIDDEN
                                    else escape(v)))
        return " ".join(words)

    def dump(self):
        """The bytes saved: text(hidden=False)."""
        return self.text(False).encode()

    def load(self, data):
        """Read back what dump() wrote; SettingError if it does not read."""
        words = bytes(data).decode().split()
        if not words or words[0] not in ("on", "off"):
            raise SettingError("online settings: not a settings file")
        for w in words[1:]:
            name, eq, v = w.partition("=")
            if not eq:
                raise SettingError("online settings: %s is not name=value" % w[:40])
            self.set(name, v)
        self.on = words[0] == "on"


def _check(name, value):
    n = len(value.encode())
    if name == "ssid" and not n <= 32:
        raise SettingError("ssid: 1 to 32 bytes")
    if name == "wifi-key" and not 8 <= n <= 63:
        raise SettingError("wifi-key: 8 to 63 characters (WPA2), or - for an open network")
    if name in ("user", "password") and n > 64:
        raise SettingError("%s: at most 64 characters" % name)
    if name == "tls" and value not in ("on", "off"):
        raise SettingError("tls is on or off")
    if name == "secret" and not 8 <= n <= 64:
        raise SettingError("secret: 8 to 64 characters, as the other player has it")
    if name == "side" and value not in protocol.ROLES:
        raise SettingError("side is light, dark or watch")
    try:
        if name == "room":
            protocol.check_name(value)
        if name == "client":
            protocol.check_client(value)
    except ProtocolError as e:
        raise SettingError(str(e))
    if name == "broker":
        host, colon, port = value.partition(":")
        if not host or len(host) > 64 or [ch for ch in host if ch not in _HOST]:
            raise SettingError("broker is HOST or HOST:PORT, as broker.example.org:8883")
        if colon and not (port and len(port) <= 5 and not [ch for ch in port if ch not in
                                                          "0123456789"]
                          and 0 < int(port) < 65536):
            raise SettingError("broker: port %s is not a number from 1 to 65535" % port[:8])
