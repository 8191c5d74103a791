"""The browser simulator's HTTP server: vortex play [--port N] ...
(python3 -m host_sim play from a checkout, make play)

    GET  /                 the page (static/index.html; static/* beside it)
    GET  /events           Server-Sent Events: the game's state as JSON, at once
                           and after every change (a new LED frame, a hand, a clock second)
    GET  /api/state        the same state, once
    GET  /api/record       the game record (docs/record.md), as text
    GET  /api/version      {"version": ...}: the simulator's (host_sim/version.py)
    POST /api/<request>    a JSON object of arguments (game.py's op_<request>);
                           200 with a JSON answer ({"error": ...} when the board
                           says no), 400 {"error": ...} for a malformed request

The standard library serves it (http.server, one thread a connection): the
state flows one way, to the pages, which is what Server-Sent Events are for
(the browser reconnects by itself), and hand events are small POSTs; so
`make play` needs nothing but python3.
"""
import json
import os
import sys
import threading
import webbrowser
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

from vortex.app.session import Settings
from vortex.app import commands
from host_sim import cli, version
from .game import Game, BadRequest, NO_RECORDS

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".wasm": "application/wasm", ".json": "application/json",
         ".md": "text/plain; charset=utf-8"}
KEEPALIVE_S = 15
IDLE_S = 60  # longer than KEEPALIVE_S: the event streams write more often than that
MAX_BODY = 1 << 20


class StateCache:
    """The state's JSON, made once per game version however many pages watch."""

    def __init__(self, game):
        self.game = game
        self._version = -1
        self._text = b""

    def get(self):
        g = self.game
        with g.lock:
            if g.version != self._version:
                self._version = g.version
                self._text = json.dumps(g.state(), separators=(",", ":")).encode()
            return self._version, self._text


class TooLarge(BadRequest):
    """A request body over MAX_BODY: answered 413, never read."""


class Handler(BaseHTTPRequestHandler):
    server_version = "VortexSim/1"
    protocol_version = "HTTP/1.1"
    timeout = IDLE_S  # a client that stalls mid-request, or idles, is let go

    def log_message(self, fmt, *args):  # quiet: the terminal shows only the address
        pass

    def _send(self, code, body, ctype="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, code, obj):
        self._send(code, json.dumps(obj).encode())

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/events":
            return self._events()
        if path == "/api/state":
            return self._send(200, self.server.cache.get()[1])
        if path == "/api/version":
            return self._json(200, {"version": self.server.version})
        if path == "/api/record":
            try:
                with self.server.game.lock:
                    text = self.server.game.record()
            except ImportError:
                return self._json(501, {"error": NO_RECORDS})
            return self._send(200, text.encode(), "text/plain; charset=utf-8")
        if path == "/board":
            self.send_response(301)
            self.send_header("Location", "/board/")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if path.startswith("/board/"):  # the board's own page (make web's files)
            name = path[len("/board/"):] or "index.html"
            data = self.server.board_files().get(name)
            if data is not None:
                return self._send(200, data, TYPES.get(os.path.splitext(name)[1],
                                                       "application/octet-stream"))
            return self._json(404, {"error": "nothing at %s" % path[:80]})
        name = "index.html" if path == "/" else path[len("/static/"):] \
            if path.startswith("/static/") else None
        # Only files of static/ itself: no path leads out of it.
        if name and "/" not in name and name in self.server.files:
            with open(os.path.join(STATIC, name), "rb") as f:
                return self._send(200, f.read(), TYPES.get(os.path.splitext(name)[1],
                                                           "application/octet-stream"))
        self._json(404, {"error": "nothing at %s" % path})

    def _body(self):
        """The request's body, read only when its Content-Length is a number
        of bytes up to MAX_BODY; otherwise the connection is closed after
        the answer, its body unread (it is not the next request)."""
        text = self.headers.get("Content-Length") or "0"
        if not (text.isascii() and text.isdigit()):
            self.close_connection = True
            raise BadRequest("Content-Length: a number of bytes, not %s" % text[:20])
        n = int(text)
        if n > MAX_BODY:
            self.close_connection = True
            raise TooLarge("the request is over %d bytes" % MAX_BODY)
        return self.rfile.read(n)

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            self.close_connection = True  # its body unread
            return self._json(404, {"error": "nothing at %s" % path[:60]})
        try:
            body = self._body()
            try:
                args = json.loads(body) if body else {}
            except RecursionError:  # json nests by recursion: a few thousand levels is a stack
                raise BadRequest("the arguments nest too deeply")
            if not isinstance(args, dict):
                raise BadRequest("the arguments must be a JSON object")
            answer = self.server.game.command(path[len("/api/"):], args)
        except TooLarge as e:
            return self._json(413, {"error": str(e)})
        except ValueError as e:  # BadRequest; json's errors and bad UTF-8 are ValueErrors too
            return self._json(400, {"error": str(e).split("\n")[0]})
        except Exception as e:  # noqa: BLE001 -- a bug: say it in one line, keep serving
            print("simulator: %s failed: %r" % (path, e), file=sys.stderr)
            return self._json(500, {"error": "the simulator failed on this request: %r" % e})
        self._json(200, answer)

    def _events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "keep-alive")
        self.end_headers()
        self.close_connection = True
        game, cache = self.server.game, self.server.cache
        seen = -1
        try:
            while not self.server.closing:
                with game.lock:
                    game.changed.wait_for(lambda: game.version != seen or self.server.closing,
                                          timeout=KEEPALIVE_S)
                if game.version == seen:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    seen, text = cache.get()
                    self.wfile.write(b"data: " + text + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the page went away


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, game, host="127.0.0.1", port=0):
        super().__init__((host, port), Handler)
        self.game = game
        self.cache = StateCache(game)
        self.files = set(os.listdir(STATIC))
        self.version = version.current()
        self.closing = False
        self._board_files = None

    def board_files(self):
        """The board's page (host_sim/web/board/files.py), made once."""
        if self._board_files is None:
            from .board.files import files
            self._board_files = files()
        return self._board_files

    @property
    def url(self):
        host, port = self.server_address[:2]
        return "http://%s:%d/" % (host, port)

    def start(self):
        """Tick the game and serve, each in a background thread; returns at once."""
        threading.Thread(target=self.game.run, name="ticks", daemon=True).start()
        threading.Thread(target=self.serve_forever, name="http", daemon=True).start()

    def handle_error(self, request, client_address):
        """A request that failed outside do_*: one line, no traceback; a
        client that went away, nothing."""
        e = sys.exc_info()[1]
        if not isinstance(e, (ConnectionError, TimeoutError)):
            print("simulator: a request from %s failed: %r" % (client_address[0], e),
                  file=sys.stderr)

    def stop(self):
        self.closing = True
        with self.game.lock:
            self.game.changed.notify_all()
        self.game.stop()
        self.shutdown()
        self.server_close()


def has_browser():
    """A graphical browser to open: never a text one taking over the terminal."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser(url):
    try:
        return has_browser() and webbrowser.open(url)
    except Exception:  # noqa: BLE001 -- any failure: the address is printed anyway
        return False


def add_arguments(ap):
    """The options of `vortex play`."""
    from host_sim.board_sim import clock, save_file
    from host_sim.usb import SUPPLIES, SUPPLY
    ap.add_argument("--port", type=cli.int_in(0, 65535, "port"), default=0,
                    help="the port to serve on (default: a free one)")
    ap.add_argument("--host", type=cli.text("host"), default="127.0.0.1",
                    help="the address to serve on (default 127.0.0.1: this machine only)")
    ap.add_argument("--ai", choices=commands.AI_VALUES, default="dark",
                    help="the side the board's AI plays (default dark)")
    ap.add_argument("--clock", type=clock, default=(0, 0), metavar="MIN+INC",
                    help="a chess clock: minutes a side + seconds added a move (e.g. 10+5)")
    ap.add_argument("--save", type=save_file, metavar="FILE",
                    help="save the game here after every action, and resume from it")
    ap.add_argument("--position", type=cli.position, help="start from this position (notation)")
    ap.add_argument("--supply", choices=SUPPLIES, default=SUPPLY,
                    help="the USB-C source the board is plugged into, which sets the LEDs' "
                         "budget (default %s; the page's sensor panel changes it)" % SUPPLY)
    ap.add_argument("--no-browser", action="store_true", help="do not open a browser")
    ap.add_argument("--device", action="store_true",
                    help="the real firmware on the emulated Pico under the page (make "
                         "play-device; needs Node.js and make's set-up)")
    from host_sim.online.options import add_arguments as online_arguments
    online_arguments(ap)


def device_game(settings, position, save):
    """The game on the emulated Pico (host_sim/web/device.py), booted; a
    missing part or a silent board is a Failure (one line)."""
    if save is not None:
        raise cli.Failure("--save is the simulator's: the emulated Pico saves in its own flash")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "tools"))
    import pico
    why = pico.missing()
    if why:
        raise cli.Failure("no emulated Pico: %s" % why)
    from .device import DeviceGame
    print("Booting the firmware on the emulated Pico (about half a minute)...", flush=True)
    try:
        return DeviceGame(settings, position)
    except (RuntimeError, pico.Unavailable) as e:
        raise cli.Failure("the emulated Pico: %s" % str(e).splitlines()[0][:200])


def say(line):
    """A line on stdout in one write: the room's reports come from the
    page's thread while the main thread prints (print() writes the line
    and its end apart, and two threads' lines ran into each other)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(opts):
    """Serve until Ctrl-C; returns an exit code."""
    settings = Settings(clock_ms=opts.clock[0], increment_ms=opts.clock[1])
    from host_sim.online.options import room
    online = room(opts)
    # Online, the opponent is a person in the room: the board's AI plays no side.
    commands.change(settings, "ai", "off" if online else opts.ai)
    position = opts.position.text() if opts.position else None
    if online and getattr(opts, "device", False):
        raise cli.Failure("--online plays the simulator's board, not the emulated Pico's")
    if getattr(opts, "device", False):
        game = device_game(settings, position, opts.save)
    else:
        game = Game(settings, position, store=opts.save, supply=opts.supply)
    player = embedded = None
    if online:
        from host_sim.online.options import player as join
        player, embedded = join(opts, online, position,
                                log=lambda line: say("online: " + line))
        game.play_online(player)
    try:
        server = Server(game, opts.host, opts.port)
    except OSError as e:
        raise cli.Failure("cannot serve on %s:%d: %s" % (opts.host, opts.port, e.strerror or e))
    server.start()
    say("The Vortex simulator %s: %s  (Ctrl-C stops it)" % (server.version, server.url))
    if online:
        say("Online in room %s on %s" % (online, player.address))
    if not opts.no_browser:
        open_browser(server.url)
    try:
        threading.Event().wait()
    finally:
        server.stop()
        if player is not None:
            player.close()
        if embedded is not None:
            embedded.stop()
    return 0
