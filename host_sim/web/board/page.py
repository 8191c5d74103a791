"""The page's Python, under MicroPython's WebAssembly port: the board at
the end of the link (linked.Linked) and, for online play, the firmware's
own online client (vortex.online.client.Online, as a Pico W runs it) with
the page's MQTT on WebSockets (page_mqtt) and the browser's storage for its
settings. The page's JS calls these functions; each answers plain text or
JSON, and none raises: a refusal is its one-line reason.

    page.start(send, say, store, client_id, cache)
    page.record(text) / page.event(kind, rest) / page.settings(text)
    page.online(["room", "friday"])     # the link's `online` command's words
    page.poll()                          # a pass: online play, then the view
"""
import json
import sys
import time

try:
    import linked as _linked
    import page_mqtt
except ImportError:  # CPython (the tests): the package's modules
    from host_sim.web.board import linked as _linked, page_mqtt


class _Ssl:
    """The `ssl` the online client asks for with `online tls on`: in the
    page, TLS is the browser's (wss://), which checks the broker's
    certificate against the system's CAs itself; nothing is wrapped here."""
    PROTOCOL_TLS_CLIENT = 0
    CERT_NONE = 0
    CERT_REQUIRED = 2

    class SSLContext:
        def __init__(self, protocol=0):
            self.verify_mode = 2

        def load_verify_locations(self, cadata=None, cafile=None):
            pass


class _Store:
    """The online settings kept in the browser's storage (a board keeps them in flash)."""

    def __init__(self, js):
        self.js = js

    def load(self):
        text = self.js.load()
        return text.encode() if text else None

    def save(self, data):
        self.js.save(bytes(data).decode())


class _Cache:
    """The room's last verified game, as the online client keeps it (a
    board: /room.bin on its flash), in the browser's storage under the
    room and seat of the settings (two tabs playing each other keep one
    each): one text, the snapshot followed by the actions appended."""

    def __init__(self, js):
        self.js = js

    def _key(self):
        s = client.settings
        return "vortex-room %s %s" % (s.get("room"), s.get("side"))

    def load(self):
        text = self.js.load(self._key())
        return text.encode() if text else None

    def records(self):
        return ()  # (appended to the text itself)

    def save(self, data):
        self.js.save(self._key(), bytes(data).decode())

    def append(self, record):
        self.js.save(self._key(), (self.js.load(self._key()) or "") + bytes(record).decode())


board = None
client = None
_say = print
_store = None
_cache = None
_id = "web"


def start(send, say, store, client_id, cache=None):
    """The board (nothing known of it until its record is read) and the
    online client, made at once when the browser kept online settings;
    cache: the browser's storage for the rooms' games (load(key), save(key, text))."""
    global board, _say, _store, _cache, _id, client
    _say, _store, _cache, _id = say, store, cache, client_id
    board = _linked.Linked(send, say)
    client = None
    if store is not None and store.load():
        why = _online_or_why()
        if why:
            say(why)
    return "ok"


def _online():
    global client
    if client is None:
        if "ssl" not in sys.modules:
            sys.modules["ssl"] = _Ssl
        from vortex.online.client import Online, CA_FILE
        try:  # the browser checks the certificate: the client is told there is a CA
            open(CA_FILE, "rb").close()
        except OSError:
            try:
                with open(CA_FILE, "wb") as f:
                    f.write(b"(the browser's)")
            except OSError:
                pass
        client = Online(board, page_mqtt, store=_Store(_store) if _store else None,
                        wifi=None, clock=time.ticks_ms, say=_say, client=_id)
        client.state_wait_ms = 1500
        _keep_rooms(client)
    return client


def _keep_rooms(c):
    # The client keeps the rooms' games in the browser's storage, under its
    # room and seat: known once it is made, so the cache is given then and
    # online play kept on is started again (the room's game read back first).
    if _cache:
        c.cache = _Cache(_cache)
        if c.settings.on:
            c.command(["on"])


def _answer(f, *args):
    try:
        r = f(*args)
        return json.dumps({"ok": r})
    except ValueError as e:  # a record that does not read, a refused setting, a notation error
        return json.dumps({"error": str(e).split("\n")[0]})


def record(text):
    """The board's game from its `record`: {"ok": changed}."""
    return _answer(board.read_record, text)


def event(kind, rest):
    r = board.event(kind, rest)
    return "resync" if r == "resync" else "changed" if r else ""


def settings(text):
    board.read_settings(text)
    return "ok"


def refused(command, reason):
    board.refused(command, reason)
    return "ok"


def load_record(text):
    """A record file: the board takes its game. {"ok": actions} or {"error": why}."""
    return _answer(board.take_record, text)


def save_record(text, date):
    return _answer(board.record_file, text, date)


def online(words):
    """The link's `online` command's words (docs/protocol.md), for the page's
    form: {"ok": state} or {"error": why}."""
    words = [str(w) for w in words]
    why = _online_or_why()
    if why:
        return json.dumps({"error": why})
    return _answer(client.command, words)


def _online_or_why():
    """The online client made (None), or why it could not be, in one line:
    the page's boundary, where no traceback may reach the user."""
    try:
        _online()
    except Exception as e:  # an import or a setting the client refuses
        return "online play could not start: %s" % (str(e).split("\n")[0] or type(e).__name__)
    return None


def poll():
    """A pass: the online client's (once the board's game is known), then
    what the page draws: the game and the online state."""
    c = client
    if c is not None and board.pos is not None:
        page_mqtt.tls = c.settings.get("tls") == "on"
        try:
            c.poll()
        except Exception as e:  # noqa: a bug must not stop the page: said once a pass at most
            _say("online: internal error: %s %s" % (type(e).__name__, e))
    return view(True)


_shown = None


def view(changed_only=False):
    """What the page draws (JSON); with changed_only, "" when it is as last shown."""
    global _shown
    c = client
    on = None
    if c is not None and c.settings.on:
        room = c.room
        on = {"status": c.status(), "state": ("off", "wifi", "down", "joining", "up")[c.state],
              "room": c.settings.get("room"), "seat": c.settings.get("side"),
              "broker": c.settings.get("broker"), "tls": c.settings.get("tls") == "on",
              "opponent": None if room is None else room.opponent_online(),
              "actions": None if room is None or room.pos is None else room.number()}
    key = (board.version, on and on["status"], on and on["opponent"])
    if changed_only and key == _shown:
        return ""
    _shown = key
    return '{"game":%s,"online":%s}' % (board.view(), json.dumps(on))
