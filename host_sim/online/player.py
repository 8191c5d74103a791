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

A stranger can take the room's state off the broker or forge it, and a
broker can lose it: a player never starts a new game over a room that has
had one. The last verified state of every room this user played is kept
(RoomCache, the user's cache folder) and read back first; with none, the
player waits for the game from the seat holder that may have it, asking
for it (`waiting` says whose, for the page and the terminal). What the
room is owed (Room.due: our state, claim or presence put back) is
published, each kind at most every REPAIR_S.
"""
import errno
import hashlib
import os
import re
import time

from vortex.engine.defs import LIGHT, DARK
from vortex.engine.position import START
from vortex.online import protocol as p
from vortex.online.protocol import ProtocolError, WATCH, SIDES
from vortex.online.room import (Room, APPLIED, REFUSED, NOTED, DUE_STATE, DUE_SEAT,
                                DUE_PRESENCE)
from .client import Connection

# Retained messages (the state, the seats) come right after the broker's
# answer to the subscription; none after this, and none kept here: whose
# game to wait for (docs/online.md, "A new room"), as the board does.
SETTLE_S = 1.5
ASK_WAIT_S = 3.0  # a seat's holder online that sends no game when asked has none
ASK_EVERY_S = 5.0  # asked again this often while waiting
REPAIR_S = 2.0  # each kind the room is owed, published at most this often


def _user_folder(env, default):
    return os.path.join(os.environ.get(env) or os.path.join(os.path.expanduser("~"), default),
                        "vortex")


def device_id(folder=None):
    """This computer's (this user's) id for online play: 8 random hex digits
    made once and kept in ~/.config/vortex/online-id, so that a player who
    comes back gets the same client id."""
    folder = folder or _user_folder("XDG_CONFIG_HOME", ".config")
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


_PLAYER = {}  # folder -> this process's player id (player_id()), its lock held


def player_id(folder=None):
    """This program's id as a player: the user's device id (device_id()),
    or, while another program of the same user plays already (a second
    window, a second terminal), the next free one (device-2, -3, ...), so
    that each window is a player of its own; a program started again once
    one has ended takes its id back, and with it its client ids and
    broker sessions. Each id is held by a lock on a file of its own
    (flock), which the kernel lets go when the program ends, however it
    ends."""
    folder = folder or _user_folder("XDG_CONFIG_HOME", ".config")
    if folder in _PLAYER:
        return _PLAYER[folder][0]
    base = device_id(folder)
    try:
        import fcntl
    except ImportError:  # (no flock here: one player a user)
        return base
    for k in range(1, 65):
        try:
            fd = os.open(os.path.join(folder, "player-%d.lock" % k), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return base  # a folder we cannot write: one player a user, as before
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EACCES):
                continue  # held by a program that plays now
            return base
        text = base if k == 1 else "%s-%d" % (base, k)
        _PLAYER[folder] = (text, fd)  # held as long as this program lives
        return text
    return base


class RoomCache:
    """The last verified state of every room this user played: a file each,
    $XDG_CACHE_HOME/vortex/rooms/HOST-PORT/ROOM.SIDE (~/.cache without
    it), the state as our seat signs it (checked again when read back, so
    a copy for another secret is refused, not taken). Written whole to a
    file beside it, flushed to the disk, then renamed over the old one: a
    crash leaves the old state or the new, never a part."""

    def __init__(self, folder=None):
        self.folder = folder or os.path.join(_user_folder("XDG_CACHE_HOME", ".cache"), "rooms")

    def path(self, address, room, side):
        where = re.sub(r"[^A-Za-z0-9._-]", "_", "%s-%d" % (address.host, address.port))
        return os.path.join(self.folder, where, "%s.%s" % (p.check_name(room), SIDES[side]))

    def load(self, address, room, side):
        """The state kept (bytes), or None."""
        try:
            with open(self.path(address, room, side), "rb") as f:
                return f.read(p.STATE_MAX + 1)
        except OSError:
            return None

    def save(self, address, room, side, payload):
        path = self.path(address, room, side)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open(tmp, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


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
    this program's id as a player (player_id()); log: where the one-line
    reports go; cache: where the rooms' last verified states are kept (a
    RoomCache; None: the user's; False: nowhere); wake: called from the
    connection's thread whenever something comes (a front-end's loop that
    sleeps wakes to poll)."""

    connection = Connection  # (tools/bench_online.py drives many from one loop of its own)

    def __init__(self, address, room, secret=None, seat=None, start=None, log=None, device=None,
                 settle_s=SETTLE_S, cache=None, wake=None):
        p.check_name(room)
        self.address = address
        self.name = room
        self.secret = secret
        self.watching = not secret or seat == WATCH
        self.device = device or (None if self.watching else player_id())
        self.chosen = seat is None and not self.watching  # we pick the seat (and yield a tie)
        self.start_text = start or START
        self.log = log or (lambda line: None)
        self.cache = RoomCache() if cache is None else cache or None
        self.wake = wake
        self.unreachable = None  # called when a try to connect fails (options: a local broker)
        self.room = None
        self.conn = None
        self.probing = False
        self.up = False
        self.up_at = None
        self.settled = False  # the room's retained messages read: seat known
        self.settle_s = settle_s
        self.refused = 0
        self.failures = 0  # tries to connect that failed
        self.news = []  # lines for the front-end: seats and presence, in words
        self.waiting = None  # (side, client, online): whose game we wait for, having none
        self._first = WATCH if self.watching else seat
        self._kept = 0  # the room's actions in the cache
        self._asked = self._asked_online = None
        self._repaired = {DUE_STATE: 0.0, DUE_SEAT: 0.0, DUE_PRESENCE: 0.0}

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
        self.waiting = None
        self._asked = self._asked_online = None
        self._read_cache()
        self.conn = self.connection(self.address, cid, [p.room_filter(self.name)], hello, will,
                                    clean=side == WATCH)
        self.conn.wake = self.wake
        self.conn.start()

    # --- the room's last verified state, kept on this computer -----------------------
    def _read_cache(self):
        # Our seat's copy of the room's game: its first state, before the broker's.
        room = self.room
        self._kept = 0
        if self.cache is None or not room.seated():
            return
        data = self.cache.load(self.address, self.name, room.side)
        if not data:
            return
        code, line = room.receive(p.topic(self.name, p.STATE), data)
        if code == REFUSED:
            self.log("this computer's copy of room %s is not this room's: %s" % (self.name, line))
            return
        self._kept = room.number()
        self.log("room %s as this computer kept it: %d action%s" % (
            self.name, self._kept, "" if self._kept == 1 else "s"))

    def _keep(self):
        # The room's game written to the cache once it has grown.
        room = self.room
        if self.cache is None or room is None or not room.seated() or room.start is None \
                or room.number() == self._kept:
            return
        try:
            self.cache.save(self.address, self.name, room.side, bytes(room.state()))
        except OSError as e:  # said once a change; the game goes on (the broker keeps it too)
            self.log("room %s not kept on this computer: %s" % (self.name, e))
        self._kept = room.number()

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
                if self.unreachable is not None:
                    self.unreachable()
            else:
                changed |= self._message(topic, payload)
        if self.up and not self.settled and time.monotonic() - self.up_at >= self.settle_s:
            changed |= self._settle()
        if self.up and self.settled and self.room.start is None:
            changed |= self._await()
        self._repair()
        self._keep()
        return changed

    def _message(self, topic, payload):
        code, line = self.room.receive(topic, payload)
        if code == REFUSED:
            self.refused += 1
            self.log("refused: %s" % line)
            return True  # (said: the page's count and log change)
        if code == NOTED:
            self.news.append(line)
            if self.settled:
                self._contest()
        return code in (APPLIED, NOTED)

    def _settle(self):
        """The room's retained messages are read: choose the seat (when not
        given), claim it; the game is the room's, ours as kept here, or
        awaited (_await)."""
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
        self._announce()
        self._contest()
        return True

    def _await(self):
        """No game read (none retained, none kept here): wait for the seat
        holder that may have it (Room.wait_for), asking it for the game
        (again every ASK_EVERY_S). A holder online that sends none within
        ASK_WAIT_S of being asked has none: then the room is new, and
        begins with our start. A spectator waits whatever comes. True when
        what is said of the room changed."""
        now = time.monotonic()
        room = self.room
        w = room.wait_for()
        online = w is not None and w[2]
        if not online:
            self._asked_online = None
        elif self._asked_online is None:  # asked now that it is here
            self._asked_online = now
            self._asked = None
        if (w is not None or self.watching) and (
                self._asked is None or now - self._asked >= ASK_EVERY_S):
            self._asked = now
            self.conn.publish(p.topic(self.name, p.ASK), room.ask())
        if self.watching or w is not None and not (online and now - self._asked_online
                                                   >= ASK_WAIT_S):
            changed, self.waiting = w != self.waiting, w
            return changed
        self.waiting = None  # a new room: our start, published for the other seat
        room.receive(p.topic(self.name, p.STATE),
                     p.state_message(self.name, self.start_text, [], room.side, room.client,
                                     room.keys[room.side]))
        self.log("a new game in room %s" % self.name)
        self._publish_state()
        return True

    def _repair(self):
        """What the room is owed (Room.due: a stranger took off or replaced
        our state, claim or presence; a state behind ours; an ask), each
        kind at most every REPAIR_S; the state once we have a game."""
        room = self.room
        if room is None or not room.due or not self.up or self.probing:
            return
        now = time.monotonic()
        for bit in (DUE_PRESENCE, DUE_SEAT, DUE_STATE):
            if not room.due & bit or now - self._repaired[bit] < REPAIR_S \
                    or bit == DUE_STATE and room.start is None:
                continue
            self._repaired[bit] = now
            if bit == DUE_PRESENCE:
                room.due &= ~bit
                self.conn.publish(p.topic(self.name, p.PRESENCE, room.client), room.presence(),
                                  retain=True)
            elif bit == DUE_SEAT:
                self._claim()
            else:
                self._publish_state()

    def _free_seat(self):
        """The seat to take, light first each time: one claimed by our own
        id (this program's, started again: its session is ours), one whose
        game we kept and that no one here holds, a free one, one whose
        holder is gone; None when both are held by players here."""
        room = self.room
        for rule in range(4):
            for s in (LIGHT, DARK):
                claim = room.seats[s]
                held = claim is not None and claim[0] in room.present
                if (rule == 0 and claim is not None
                        and claim[0] == client_id(self.name, self.device, s)
                        or rule == 1 and not held and self.cache is not None
                        and self.cache.load(self.address, self.name, s)
                        or rule == 2 and claim is None
                        or rule == 3 and not held):
                    return s
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
        self.room.due &= ~DUE_SEAT
        self.conn.publish(p.topic(self.name, p.SEAT, me), self.room.seat(), retain=True)
        self.room.seats[me] = (self.room.client, p.read_seat(self.room.seat())[1])

    def _announce(self):
        """On every connection (the presence went with it, a broker that
        stopped sent every will): our seat's claim (at once: a player
        choosing a seat sees it), and the state once the room has one."""
        self.room.due &= ~DUE_PRESENCE
        if self.watching or self.probing:
            return
        self._claim()
        if self.settled:
            self._publish_state()

    def _publish_state(self):
        if self.room.start is not None:
            self.room.due &= ~DUE_STATE
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
            raise ProtocolError("not in the room yet: waiting for the broker"
                                if self.waiting is None else "the room's game has not come yet")
        payload = self.room.act(text)
        self._keep()  # kept before it leaves: this computer never forgets an action it sent
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
