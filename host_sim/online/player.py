"""One client of a room on the host: the room's protocol (vortex.online.room,
the engine arbitrating) fed by an MQTT connection (client.py). Every way
into the game uses it the same way: the page, the terminal, a board on USB
and a spectator.

    p = Player(Address.parse("127.0.0.1:1883"), "friday", secret="oak", seat=None)
    p.start()                       # connect; the seat is chosen once the room is read
    p.poll()                        # take what came; True when the room's game changed
    p.act("W@d4")                   # our seat's action: applied, published (ProtocolError if not)
    p.room.actions, p.opponent()    # the game, and whether the other seat is here

The game a front-end shows is kept in step with the room by sync()
(follow.py): the room's actions are the game, the front-end's extra ones
are offered to it as our seat's, and nothing else is decided here. Every
message refused is one line in the log; the game is intact.
"""
import hashlib
import os
import time

from vortex.engine.defs import LIGHT, DARK
from vortex.engine.position import START
from vortex.online import protocol as p
from vortex.online.protocol import ProtocolError, WATCH, SIDES
from vortex.online.room import Room, APPLIED, REFUSED, BEHIND, NOTED
from .client import Connection

# Retained messages (the state, the seats) come right after the broker's
# answer to the subscription; a room with none after this is a new room.
SETTLE_S = 1.5  # as the board waits (docs/online.md, "A new room")


def device_id(folder=None):
    """This computer's (this user's) id for online play: 8 random hex digits
    made once and kept in ~/.config/vortex/online-id, so that a player who
    comes back gets the same client id."""
    folder = folder or os.path.join(os.environ.get("XDG_CONFIG_HOME")
                                    or os.path.join(os.path.expanduser("~"), ".config"), "vortex")
    path = os.path.join(folder, "online-id")
    try:
        with open(path) as f:
            text = f.read().strip()
        if len(text) == 8 and all(c in "0123456789abcdef" for c in text):
            return text
    except OSError:
        pass
    text = os.urandom(4).hex()
    try:
        os.makedirs(folder, exist_ok=True)
        with open(path, "w") as f:
            f.write(text + "\n")
    except OSError:
        pass  # not kept: a new session next time, and the room's state catches up
    return text


def client_id(room, device, seat):
    """A client's fixed id in a room: the same device and seat give the
    same id, so a player who comes back resumes the broker's session (and
    the actions queued in it). A spectator's is new each time."""
    if seat == WATCH:
        return "watch-" + os.urandom(4).hex()
    h = hashlib.sha256(("vortex/v1 client %s %s %d" % (room, device, seat)).encode()).hexdigest()
    return "%s-%s" % (SIDES[seat], h[:10])


class Player:
    """A seat (LIGHT, DARK, or None: the free one, light first) or a
    spectator (secret None, or seat WATCH) in a room, on a broker. device:
    this computer's id (device_id()); log: where the one-line reports go."""

    connection = Connection  # (tools/bench_online.py drives many from one loop of its own)

    def __init__(self, address, room, secret=None, seat=None, start=None, log=None, device=None,
                 settle_s=SETTLE_S):
        p.check_name(room)
        self.address = address
        self.name = room
        self.secret = secret
        self.device = device or device_id()
        self.watching = not secret or seat == WATCH
        self.chosen = seat is None and not self.watching  # we pick the seat (and yield a tie)
        self.start_text = start or START
        self.log = log or (lambda line: None)
        self.room = None
        self.conn = None
        self.probing = False
        self.up = False
        self.up_at = None
        self.settled = False  # the room's retained messages read: seat known, game known
        self.settle_s = settle_s
        self.refused = 0
        self.failures = 0  # tries to connect that failed
        self.news = []  # lines for the front-end: seats and presence, in words
        self._first = WATCH if self.watching else seat

    # --- the connection ---------------------------------------------------------------
    def start(self):
        if self._first is None:  # which seat is free is known once the room is read
            self._connect(WATCH, probe=True)
        else:
            self._connect(self._first)
        return self

    def _connect(self, side, probe=False):
        """A connection as side: a seat's fixed id and persistent session,
        or a spectator's (and the look before choosing a seat) clean one."""
        cid = client_id(self.name, self.device, side)
        self.room = Room(self.name, None, self.secret, side, cid) if side != WATCH \
            else Room(self.name, None, None if self.watching else self.secret, WATCH, cid)
        presence = p.topic(self.name, p.PRESENCE, cid)
        hello = None if probe else (presence, self.room.presence())
        will = None if probe else (presence, p.OFFLINE)
        self.probing = probe
        self.up = self.settled = False
        self.conn = self.connection(self.address, cid, [p.room_filter(self.name)], hello, will,
                                    clean=side == WATCH).start()

    def close(self):
        if self.conn is not None:
            goodbye = None if self.probing else (p.topic(self.name, p.PRESENCE, self.room.client),
                                                 p.OFFLINE)
            self.conn.close(goodbye)
            self.conn = None

    def fileno(self):
        return self.conn.fileno()

    # --- what comes -------------------------------------------------------------------
    def poll(self, timeout=0.0):
        """Take what the broker sent; True when the room changed."""
        if self.conn is None:
            return False
        changed = False
        for kind, topic, payload in self.conn.events(timeout):
            if kind == "up":
                self.up, self.up_at = True, time.monotonic()
                self.log("connected to %s (%s)" % (self.address, payload.decode()))
                self._announce()
            elif kind == "down":
                self.up = False
                self.log("lost the broker %s (%s): reconnecting" % (self.address, payload))
            elif kind == "unreachable":
                self.failures += 1
                if self.failures in (1, 5) or self.failures % 20 == 0:  # said, not every second
                    self.log("cannot reach the broker %s: trying again" % self.address)
            else:
                changed |= self._message(topic, payload)
        if self.up and not self.settled and time.monotonic() - self.up_at >= self.settle_s:
            changed |= self._settle()
        return changed

    def _message(self, topic, payload):
        code, line = self.room.receive(topic, payload)
        if code == REFUSED:
            self.refused += 1
            self.log("refused: %s" % line)
            return False
        if code == BEHIND and self.settled and not self.watching:
            self._publish_state()  # theirs lacks our actions: ours is the room's
        if code == NOTED:
            self.news.append(line)
            if self.settled:
                self._contest()
        return code in (APPLIED, NOTED)

    def _settle(self):
        """The room's retained messages are read: choose the seat (when not
        given), begin a new room's game, claim the seat."""
        if self.probing:  # the look is over: come back as the seat (the room is read again)
            side = self._free_seat()
            if side is None:
                self.log("both seats of %s are taken: watching" % self.name)
                self.watching = True
            self.conn.close()
            self._connect(WATCH if side is None else side)
            return False
        self.settled = True
        if self.watching:
            return True
        if self.room.start is None:  # a new room: our start, published for the other seat
            self.room.receive(p.topic(self.name, p.STATE),
                              p.state_message(self.name, self.start_text, [], self.room.side,
                                              self.room.client, self.room.keys[self.room.side]))
            self.log("a new game in room %s" % self.name)
        self._announce()
        self._contest()
        return True

    def _free_seat(self):
        for s in (LIGHT, DARK):
            claim = self.room.seats[s]
            if claim is None or claim[0] == client_id(self.name, self.device, s) \
                    or claim[0] not in self.room.present:
                return s  # free, ours already, or held by a client gone for good
        return None

    def _contest(self):
        """Another client's claim on our seat. Two players who chose the
        same seat at once: the smaller client id keeps it and claims it
        again, the other takes the other seat (or watches). A seat given
        with --seat is never left, only claimed again when its id is the smaller."""
        me = self.room.side
        if me == WATCH or self.probing:
            return
        claim = self.room.seats[me]
        if claim is None or claim[0] == self.room.client:
            return
        if claim[0] > self.room.client:
            self._claim()
        elif self.chosen:
            other = me ^ 1
            taken = self.room.seats[other]
            free = taken is None or taken[0] not in self.room.present
            self.log("%s's seat went to %s: %s" % (SIDES[me], claim[0], "taking %s" % SIDES[other]
                                                  if free else "both are taken, watching"))
            self.close()
            self.watching = not free
            self._connect(other if free else WATCH)
        else:
            self.log("%s's seat is claimed by %s too: is someone else playing it?"
                     % (SIDES[me], claim[0]))

    def _claim(self):
        me = self.room.side
        self.conn.publish(p.topic(self.name, p.SEAT, me), self.room.seat(), retain=True)
        self.room.seats[me] = (self.room.client, p.read_seat(self.room.seat())[1])

    def _announce(self):
        """Our seat's claim (at once: a player choosing a seat sees it), and
        the state once the room has one to keep."""
        if self.watching or self.probing:
            return
        self._claim()
        if self.settled:
            self._publish_state()

    def _publish_state(self):
        if self.room.start is not None:
            self.conn.publish(p.topic(self.name, p.STATE), self.room.state(), retain=True)

    # --- what we do ---------------------------------------------------------------------
    @property
    def side(self):
        """LIGHT, DARK, WATCH, or None while the seat is not known yet."""
        return None if self.probing or self.room is None else self.room.side

    def ready(self):
        """Seated (or watching) and the room's game known."""
        return self.settled and self.room.start is not None

    def act(self, text):
        """Our seat's action: applied to the room and published (the action,
        then the state); ProtocolError, NotationError or IllegalAction (each a
        ValueError, in words) if the room refuses it."""
        if not self.ready():
            raise ProtocolError("not in the room yet: waiting for the broker")
        payload = self.room.act(text)
        self.conn.publish(p.topic(self.name, p.ACTION), payload)
        self._publish_state()
        return self.room.actions[-1]

    def opponent(self):
        """The other seat: "here", "gone" (claimed, offline) or "free"; for a
        spectator, both seats' words."""
        def word(s):
            claim = self.room.seats[s] if self.room else None
            if claim is None:
                return "free"
            return "here" if claim[0] in self.room.present else "gone"
        if self.side in (LIGHT, DARK):
            return word(self.side ^ 1)
        return "light %s, dark %s" % (word(LIGHT), word(DARK))
