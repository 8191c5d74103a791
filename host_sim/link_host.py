"""The host's side of the board's link (docs/protocol.md): follow a board
over its USB serial, show its position and events live, keep the game
record in a file, and relay actions to it from stdin or from another board.

    python3 -m host_sim link --port /dev/ttyACM0 [--record FILE] [--light NAME] [--dark NAME]
                             [--listen [HOST:]PORT | --connect HOST:PORT | --online ROOM
                              [--broker ADDRESS] [--seat light|dark] [--secret TEXT]]
                             [--until-over] [--quiet] [--no-color]

Type an action (W@d4, e2e4, d4~e4, V+d4) to request it from the board (a
remote opponent's move: the board shows it and checks it is carried out),
or any protocol command (status, takeback, new, set ai dark, ...).
--listen/--connect join two links over TCP: each board's actions become
requests on the other, so two boards play one game from two places.
--online ROOM plays in a room through an MQTT broker instead (docs/online.md):
the board's actions go to the room, the opponent's are requested on it.
"""
import argparse
import datetime
import os
import random
import select
import socket
import sys
import time


from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from vortex import record
from vortex.engine import Position, NotationError, parse_action
from . import cli
from .terminal import Screen

HELLO = "vortex-link 2"
TIMEOUT_S = 2.0  # a board answers within a tick; a busy host may take a moment


LinkError = cli.Failure  # something that ends the link, said in one line


class BoardPort:
    """One board at the end of a serial port: lines in, commands out, the
    answers matched to the commands in order (the protocol answers every
    line, in order)."""

    def __init__(self, port):
        try:  # imported here: the rest of host_sim (make play) needs only python3
            import serial
        except ImportError:
            raise LinkError("pyserial is not installed: `pip install pyserial==3.5` "
                            "(make test installs it into .venv)")
        self.errors = (serial.SerialException, OSError)
        try:
            self.ser = serial.Serial(port, 115200, timeout=0, write_timeout=TIMEOUT_S)
        except self.errors as e:
            raise LinkError("cannot open %s: %s" % (port, e))
        self.port = port
        self.partial = b""
        self.seq = None
        self.lost = 0
        self.waiting = []  # the commands sent and not yet answered, oldest first
        self.backlog = []  # messages that came while ask() waited

    def fileno(self):
        return self.ser.fileno()

    def send(self, command):
        try:
            self.ser.write((command + "\n").encode())
        except self.errors as e:
            raise LinkError("the board on %s went away: %s" % (self.port, e))
        self.waiting.append(command.split()[0].lower() if command.split() else "")

    def messages(self):
        """The whole lines the board sent since the last call, as
        (kind, rest, command) with command the one answered (None for events)."""
        try:
            data = self.ser.read(self.ser.in_waiting or 1)
        except self.errors as e:
            raise LinkError("the board on %s went away: %s" % (self.port, e))
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        out, self.backlog = self.backlog, []
        for raw in lines:
            words = raw.decode("ascii", "replace").strip().split(" ", 2)
            if len(words) < 2 or not words[0].isdigit():
                continue  # not the protocol (the REPL's banner, a reset)
            seq = int(words[0])
            if self.seq is not None and seq != (self.seq + 1) % 1000000:
                self.lost += (seq - self.seq - 1) % 1000000
            self.seq = seq
            kind, rest = words[1], words[2] if len(words) > 2 else ""
            command = None
            if kind in ("ok", "error") and self.waiting:
                command = self.waiting.pop(0)
            out.append((kind, rest, command))
        return out

    def sync(self):
        """Skip what the board queued before this host came: send an empty
        line (it ends a half-written one) and a ping with a word of ours,
        and drop every line up to its answer."""
        word = "%08x" % random.getrandbits(32)
        try:
            self.ser.reset_input_buffer()
            self.ser.write(("\nping %s\n" % word).encode())
        except self.errors as e:
            raise LinkError("the board on %s went away: %s" % (self.port, e))
        end = time.monotonic() + TIMEOUT_S
        while time.monotonic() < end:
            select.select([self], [], [], 0.05)
            got = self.messages()
            for i in range(len(got)):
                if got[i][:2] == ("ok", "ping " + word):
                    self.backlog = got[i + 1:]
                    return
        raise LinkError("no answer from %s: is it a Vortex board running main.py?" % self.port)

    def ask(self, command):
        """Send a command and wait for its answer: (kind, rest); what came
        meanwhile is kept for the next messages()."""
        self.send(command)
        end = time.monotonic() + TIMEOUT_S
        while time.monotonic() < end:
            select.select([self], [], [], 0.05)
            got = self.messages()
            for i in range(len(got)):
                kind, rest, answered = got[i]
                if answered is not None and not self.waiting:
                    self.backlog = got[:i] + got[i + 1:]
                    return kind, rest
            self.backlog = got
        raise LinkError("no answer from %s to %s: is it a Vortex board running main.py?"
                        % (self.port, command))


class Peer:
    """The other link over TCP: lines "action N ACTION" both ways."""

    def __init__(self, sock):
        self.sock = sock
        self.partial = b""

    def fileno(self):
        return self.sock.fileno()

    def send(self, line):
        try:
            self.sock.sendall((line + "\n").encode())
        except OSError:
            pass  # gone: noticed on the next read

    def lines(self):
        try:
            data = self.sock.recv(4096)
        except OSError:
            data = b""
        if not data:
            return None
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        return [l.decode("ascii", "replace").strip() for l in lines]


def address(text):
    """An argparse type: [HOST:]PORT -> (host, port); host '' when left out."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError("%r is not [HOST:]PORT, as 7700 or localhost:7700"
                                         % text[:40])
    return host, int(port)


def listen(addr):
    """A socket listening on [HOST:]PORT (every address when HOST is left out)."""
    host = addr[0] or "0.0.0.0"
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, addr[1]))
        s.listen(1)
    except OSError as e:
        s.close()
        raise LinkError("cannot listen on %s:%d: %s" % (host, addr[1], e.strerror or e))
    return s


def connect(addr):
    """The link listening at [HOST:]PORT (localhost when HOST is left out)."""
    host = addr[0] or "localhost"
    end = time.monotonic() + TIMEOUT_S
    while True:  # the other side may still be starting
        try:
            return Peer(socket.create_connection((host, addr[1]), timeout=TIMEOUT_S))
        except OSError as e:
            if time.monotonic() > end:
                raise LinkError("cannot connect to %s:%d: %s" % (host, addr[1], e.strerror or e))
            time.sleep(0.1)


class Follower:
    """Follows one board: prints its events, keeps the record file, relays."""

    def __init__(self, board, out, screen, record_path, quiet, players=None):
        self.board = board
        self.players = players or {}  # tags the host adds to the record: Light, Dark
        self.out = out
        self.screen = screen
        self.record_path = record_path
        self.quiet = quiet
        self.actions = 0
        self.mine = {}  # this board's actions by number, for the peer
        self.peer = None
        self.shared = set()  # the numbers of this board's actions the peer has had
        self.peer_actions = {}  # the peer board's actions by number
        self.requested = 0  # the highest number requested from the peer's actions
        self.record_lines = None  # a record being received
        self.record_again = False
        self.over = False

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def start(self):
        b = self.board
        b.sync()
        kind, rest = b.ask("hello")
        words = rest.split()
        if kind != "ok" or words[:3] != ("hello " + HELLO).split():
            raise LinkError("%s answers %r, not %s" % (b.port, rest, HELLO))
        # "firmware VERSION" follows on boards built since it was added.
        firmware = words[4] if words[3:4] == ["firmware"] and len(words) > 4 else "of unknown version"
        b.ask("subscribe all")
        kind, rest = b.ask("status")
        words = rest.split()
        self.actions = int(words[words.index("actions") + 1])
        self.over = words[words.index("result") + 1] != "*"
        self.say("following the board on %s, firmware %s (%d actions so far)"
                 % (b.port, firmware, self.actions))
        b.send("position")
        self.fetch_record(True)  # (its actions, for a peer joining later)

    def catch_up(self):
        """A new peer: it has had none of this board's actions yet."""
        self.shared.clear()
        self.share()

    def share(self):
        """Send the peer each of this board's actions it has not had: those
        played before this link came arrive with the record fetched at the
        start, maybe after the peer joined."""
        if self.peer is None:
            return
        for n in sorted(self.mine):
            if n not in self.shared:
                self.shared.add(n)
                self.peer.send("action %d %s" % (n, self.mine[n]))

    def fetch_record(self, always=False):
        if not (self.record_path or always):
            return
        if self.record_lines is not None:
            self.record_again = True
            return
        self.record_lines = []
        self.board.send("record")

    def from_board(self):
        for kind, rest, command in self.board.messages():
            if command is None and kind == "record":
                if self.record_lines is not None:
                    self.record_lines.append(rest)
            elif command == "record":
                self.record_done(kind, rest)
            elif command == "position" and kind == "ok":
                if not self.quiet:
                    self.say(self.screen.board(Position(rest.split(" ", 1)[1])))
            elif command is not None:
                self.say("%s %s" % (kind, rest))  # the answer to a typed command
            else:
                self.event(kind, rest)
        if self.board.lost:
            self.say("(%d messages from the board were lost)" % self.board.lost)
            self.board.lost = 0

    def event(self, kind, rest):
        self.say("%s %s" % (kind, rest))
        words = rest.split()
        if kind == "action":
            self.actions = int(words[0])
            self.mine[self.actions] = words[1]
            self.share()
        elif kind == "takeback":
            self.actions = int(words[0])
            for n in [n for n in self.mine if n > self.actions]:
                del self.mine[n]
                self.shared.discard(n)
        elif kind == "new":
            self.actions = 0
            self.mine.clear()
            self.shared.clear()
            self.peer_actions.clear()
            self.requested = 0
        elif kind == "result":
            self.over = words[0] != "*"
        if kind in ("action", "takeback", "new", "result"):
            if kind != "result":
                self.board.send("position")
            self.fetch_record()
            self.relay()

    def record_done(self, kind, rest):
        lines, self.record_lines = self.record_lines, None
        if kind != "ok":
            self.say("error record: %s" % rest)
        else:
            try:
                self.keep_record(record.read("\n".join(lines) + "\n"))
            except ValueError as e:
                self.say("error: the board sent a record that does not read: %s" % e)
        if self.record_again:
            self.record_again = False
            self.fetch_record()

    def keep_record(self, game):
        tags, start, actions = game
        for n in range(1, min(len(actions), self.actions) + 1):
            self.mine.setdefault(n, actions[n - 1])  # (events may have come since)
        self.share()
        if self.record_path:
            tags.setdefault("Date", datetime.date.today().strftime("%Y.%m.%d"))
            tags.update(self.players)
            tmp = self.record_path + ".tmp"
            with open(tmp, "w") as f:
                f.write(record.write(tags, start, actions))
            os.replace(tmp, self.record_path)

    def done(self):
        """The game is over and its record (if kept) is written."""
        return self.over and self.record_lines is None and not self.record_again

    def from_stdin(self, line):
        line = line.strip()
        if not line:
            return
        try:
            parse_action(line)
            self.board.send("request " + line)
        except NotationError:
            self.board.send(line)

    def from_peer(self, lines):
        for line in lines:
            words = line.split()
            if len(words) == 3 and words[0] == "action" and words[1].isdigit():
                self.peer_actions[int(words[1])] = words[2]
        self.relay()

    def relay(self):
        # The peer's next action, once this board has every one before it.
        n = self.actions + 1
        a = self.peer_actions.get(n)
        if a and self.requested < n:
            self.requested = n
            self.board.send("request " + a)


def run(opts, stdin=None, out=None):
    """Follow the board until the game is over (--until-over) or Ctrl-C."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    # The peer first: a port in use or nobody to join fails before the board is touched.
    from .online.options import room
    online = room(opts)
    server = listen(opts.listen) if opts.listen else None
    peer = connect(opts.connect) if opts.connect else None
    board = BoardPort(opts.port)
    player = embedded = None
    screen = Screen(color=opts.color and out.isatty() and not os.environ.get("NO_COLOR"))
    players = {side: name for side, name in (("Light", opts.light), ("Dark", opts.dark)) if name}
    f = Follower(board, out, screen, opts.record, opts.quiet, players)
    f.start()
    if online:
        from .online.options import player as join
        from .online.bridge import RoomPeer
        player, embedded = join(opts, online, log=lambda line: f.say("online: " + line))
        peer = RoomPeer(player, board, lambda line: f.say("online: " + line))
    if peer is not None:
        f.peer = peer
        f.catch_up()
    try:
        return follow(f, opts, board, server, stdin)
    finally:
        if player is not None:
            player.close()
        if embedded is not None:
            embedded.stop()


def follow(f, opts, board, server, stdin):
    """The link's loop: the board, stdin, and the peer (another link or a room)."""
    reading = True
    typed = b""
    while not (opts.until_over and f.done()):
        watch = [board]
        if reading:
            watch.append(stdin)
        if server is not None and f.peer is None:
            watch.append(server)
        if f.peer is not None:
            watch.append(f.peer)
        for ready in select.select(watch, [], [], 0.5)[0]:
            if ready is board:
                f.from_board()
            elif ready is server:
                f.peer = Peer(server.accept()[0])
                f.say("a peer joined")
                f.catch_up()
            elif ready is stdin:  # (os.read: a buffered readline would hide later lines)
                data = os.read(stdin.fileno(), 4096)
                if not data:
                    reading = False
                typed += data
                while b"\n" in typed:
                    line, typed = typed.split(b"\n", 1)
                    f.from_stdin(line.decode("ascii", "replace"))
            else:
                lines = f.peer.lines()
                if lines is None:
                    f.say("the peer left")
                    f.peer = None
                else:
                    f.from_peer(lines)
        if getattr(opts, "online", None) and f.peer is not None:
            f.from_peer(f.peer.lines())  # (a room also has news on a timer: its settling)
    return 0


DESCRIPTION = ("Follow a Vortex board over its serial link (docs/protocol.md): its position "
               "and events live, the game record in a file, actions requested from stdin, "
               "from another board over TCP, or from a room online (docs/online.md).")


def add_arguments(p):
    """The link command's options, on an argparse parser."""
    p.add_argument("--port", required=True,
                   help="the board's serial port (/dev/ttyACM0; the simulator prints its own)")
    p.add_argument("--record", metavar="FILE", help="keep the game record in FILE "
                   "(docs/record.md), rewritten after every action")
    p.add_argument("--light", metavar="NAME", help="Light's player, for the record")
    p.add_argument("--dark", metavar="NAME", help="Dark's player, for the record")
    peer = p.add_mutually_exclusive_group()
    peer.add_argument("--listen", metavar="[HOST:]PORT", type=address,
                      help="wait for another link to connect; its board's actions are "
                           "requested on this one, and this one's sent to it")
    peer.add_argument("--connect", metavar="[HOST:]PORT", type=address,
                      help="join a link that listens (HOST: localhost when left out)")
    from .online.options import add_arguments as online_arguments, room_name
    peer.add_argument("--online", type=room_name, metavar="ROOM",
                      help="play in this room through an MQTT broker (docs/online.md): the "
                           "board's actions go to the room, the opponent's are requested on it")
    online_arguments(p, room=False)
    p.add_argument("--until-over", action="store_true",
                   help="exit once the game is over (and its record written)")
    p.add_argument("--quiet", action="store_true", help="events only, no drawn position")
    p.add_argument("--no-color", dest="color", action="store_false",
                   help="no ANSI colours (also when NO_COLOR is set)")
