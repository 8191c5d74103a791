"""The board online with no computer (a Pico W): its end of a room on an
MQTT broker, through micropython-lib's umqtt.simple (docs/online.md).

    online = Online(board, umqtt.simple, store=FileStore("/online.bin"),
                    wifi=network.WLAN(network.STA_IF), clock=time.ticks_ms, say=print,
                    client="vx-e6614c31", cache=FileStore("/room.bin"))
    online.poll()                        # once a pass (vortex.app.service)
    online.command(["room", "friday"])   # the link's `online` command

The board's game and the room's are kept the same: an action committed on
the board for our seat is signed and published (QoS 1), then the room's
state (retained); an action that comes from the room is asked of the
board (commands.request: the board lights it and accepts only it, as it
does for any remote opponent), and the player carries it out. An action
the board committed that the room does not have and that is not ours to
make is taken back, with a line saying why; a board whose game differs
from the room's follows the room (a new game from the room's position).

A stranger can take the room's state off the broker, or put a forged one
there, and a broker can lose it: the board never starts a new game over a
room that has had one. It keeps the room's last verified game in `cache`
(its flash: a snapshot and a journal of the actions, as the game's own
save) and reads it back first; with none, it waits for the game from the
seat holder that may have it (Room.wait_for), asking for it, and says so
(status(), and the LEDs: the holder's colour blinks in the centre). What
the room is owed (Room.due: our state, claim or presence put back) is
published at most every REPAIR_MS.

Never blocking for long: WiFi connects in the background (the WLAN's own
connect), the broker is tried with a backoff (1 s doubling to 30 s),
joining the room is cut into passes of one wait for the broker each,
every socket umqtt.simple makes is ours and waits at most CONNECT_S
(bounded(): TLS too), and the messages are read with check_msg
(non-blocking), a few a pass. What a pass costs is measured in
docs/online.md.
"""
try:
    from typing import Any  # for mypy; MicroPython has no typing
except ImportError:
    pass
from vortex.ticks import ticks_add, ticks_diff
from vortex.engine.defs import const
from vortex.engine.notation import action_text
from vortex.app import commands
from vortex.app.board import NO_REMOTE, REMOTE_HERE, REMOTE_AWAY, REMOTE_WAIT
from vortex.online import protocol as p
from vortex.online.protocol import ProtocolError, WATCH, SIDES
from vortex.online.room import (Room, APPLIED, REFUSED, NOTED, DUE_STATE, DUE_SEAT,
                                DUE_PRESENCE)
from vortex.online.settings import OnlineSettings, SettingError

# What the connection is doing (status()).
OFF = const(0)      # online play off, or settings missing
WIFI = const(1)     # waiting for the WiFi
DOWN = const(2)     # the broker not reached: tried again after a backoff
JOIN = const(3)     # connected: subscribing, saying we are here, claiming the seat
UP = const(4)       # in the room
STATES = ("off", "wifi", "down", "joining", "up")

CONNECT_S = 2  # every socket's timeout: what a dead broker can cost one pass at most
KEEPALIVE_S = const(30)  # the broker's will fires this long (x1.5) after the board vanishes
PING_MS = const(10000)
RETRY_MS = (1000, 2000, 4000, 8000, 16000, 30000)
STATE_WAIT_MS = const(1500)  # the room's retained state comes just after subscribing; none
                             # by then (and none kept here): whose game to wait for
ASK_WAIT_MS = const(3000)  # a seat's holder online that sends no game when asked has none
ASK_EVERY_MS = const(5000)  # asked again this often while waiting
REPAIR_MS = const(2000)  # each kind the room is owed, published at most this often: a
                         # stranger's forgeries cost the board one publish of each per REPAIR_MS
MESSAGES_PER_PASS = const(4)
REPLAY_PER_PASS = const(24)  # a late joiner's replay of the room's game: about 3 ms an
                             # action on the RP2040, so some 70 ms a pass, not seconds
WIFI_RETRY_MS = const(20000)  # the WiFi asked to join again after this long without it
CA_FILE = "/broker-ca.der"  # the CA that signed the broker's certificate, DER (tls on)


class _Sockets:
    """The socket module umqtt.simple is given (bounded()): its sockets are
    _Socket, which never wait longer than timeout_s and speak TLS when
    asked (tls: an SSLContext, host: the broker's name, set before each
    connection). umqtt.simple makes its socket inside connect(), and a
    blocking connect to a broker that does not answer would stall the
    board's loop for lwIP's tens of seconds (the watchdog resets it at 5)."""

    def __init__(self, sockets, timeout_s):
        self.sockets = sockets
        self.timeout_s = timeout_s
        self.tls = None
        self.host = None

    def socket(self, *args):
        return _Socket(self.sockets.socket(*args), self)

    def getaddrinfo(self, *args):
        return self.sockets.getaddrinfo(*args)


class _Socket:
    """A socket as umqtt.simple uses it (connect, read, write, setblocking,
    close) whose waits are bounded: blocking means waiting at most the
    timeout (a reply that never comes, a PUBACK on a link gone dead, ends
    in OSError, and the connection is made again), and which wraps itself
    in TLS once connected when asked, whatever umqtt.simple's version does
    with its own `ssl` (none is passed to it)."""

    def __init__(self, raw, sockets):
        self.raw = raw
        self.sockets = sockets
        self.stream = raw
        raw.settimeout(sockets.timeout_s)
        # umqtt.simple writes a message in pieces and waits for each QoS 1
        # PUBACK: with Nagle's algorithm on, each wait costs the broker's
        # delayed ACK (44 ms measured here). Linux's and lwIP's numbers
        # where the port names none; a port that refuses it keeps Nagle.
        try:
            raw.setsockopt(getattr(sockets.sockets, "IPPROTO_TCP", 6),
                           getattr(sockets.sockets, "TCP_NODELAY", 1), 1)
        except OSError:
            pass

    def connect(self, address):
        self.raw.connect(address)
        tls = self.sockets.tls
        if tls is not None:  # the handshake, bounded by the timeout too
            self.stream = tls.wrap_socket(self.raw, server_hostname=self.sockets.host)

    def setblocking(self, flag):
        self.raw.settimeout(self.sockets.timeout_s if flag else 0)

    def read(self, n):
        return self.stream.read(n)

    def write(self, data, n=-1):
        return self.stream.write(data) if n < 0 else self.stream.write(data, n)

    def close(self):
        self.stream.close()


def bounded(simple, timeout_s=CONNECT_S):
    """The umqtt.simple module, its sockets made with a timeout (once)."""
    if not isinstance(simple.socket, _Sockets):
        simple.socket = _Sockets(simple.socket, timeout_s)
    return simple


class Online:
    def __init__(self, board, mqtt, store=None, wifi=None, clock=None, say=None,
                 client="vortex-board", cache=None):
        self.board = board
        self.mqtt = mqtt  # the umqtt.simple module (bounded() at the first connection)
        self.store = store
        self.cache = cache  # a FileStore: the room's last verified game (None: not kept)
        self.wifi = wifi  # a network.WLAN, or None where the network is always there
        self.clock = clock
        self.say = say or board.say
        self.client = client  # the board's own client id, unless the settings name another
        self.settings = OnlineSettings()
        if store is not None:
            data = store.load()
            if data:
                try:
                    self.settings.load(data)
                except (SettingError, UnicodeError) as e:
                    self.say("online settings not read: %s" % e)
        self.conn = None  # type: Any  # the MQTTClient while connected
        self.room = None  # type: Any  # the Room, while online play is on and set up
        self.state = OFF
        self._step = 0  # the next step of joining (JOIN)
        self.why = ""  # the last connection failure, said in status()
        self.tries = 0
        self._next = 0  # when to try the broker next
        self._ping = 0
        self._joined = 0
        self._wifi_on = False
        self._wifi_since = 0
        self._repaired = [0, 0, 0]  # when each kind the room was owed was last published
        self.waiting = None  # (side, client, online): the seat holder whose game we wait for
        self.state_wait_ms = STATE_WAIT_MS  # (a test on loopback waits less)
        self._restart()

    # --- settings (the link's `online` command) ---------------------------------------
    def command(self, words):
        """`online` (the state), `online settings`, `online on|off`, `online
        NAME VALUE`: the answer text; SettingError with the reason if refused."""
        s = self.settings
        if len(words) == 1 and words[0] == "settings":
            return s.text()
        if len(words) == 1 and words[0] in ("on", "off"):
            s.on = words[0] == "on"
            self._saved()
            self._restart()
        elif len(words) == 2:
            name = words[0].lower()
            s.set(name, words[1])
            self._saved()
            if s.on:
                self._restart()
        elif words:
            raise SettingError("online takes nothing, settings, on, off, or a name and a "
                               "value, as online room friday")
        return self.status()

    def _saved(self):
        if self.store is not None:
            self.store.save(self.settings.dump())

    def status(self):
        """The connection and the room in words: 'up room friday light opponent online'."""
        st = self.state
        words = [STATES[st]]
        if st == OFF and self.settings.on:
            words.append("missing " + ",".join(self._missing()))
        if st == DOWN and self.why:
            words.append("(%s)" % self.why)
        if st == WIFI and self.wifi is not None and hasattr(self.wifi, "status"):
            words.append("(status %d)" % self.wifi.status())  # the port's STAT_* code
        room = self.room
        if st == UP and room is not None:
            if room.pos is None:
                words.append("room %s %s waiting for its game" % (room.name, p.ROLES[room.side]))
                w = self.waiting
                if w is not None:
                    words.append("from %s (%s %s)" % (SIDES[w[0]], w[1],
                                                      "online" if w[2] else "away"))
                return " ".join(words)
            words.append("room %s %s actions %d" % (room.name, p.ROLES[room.side],
                                                    room.number()))
            o = room.opponent_online()
            if o is not None:
                words.append("opponent " + ("online" if o else "offline"))
        return " ".join(words)

    # --- the connection ---------------------------------------------------------------
    def _restart(self):
        """(Re)start from the settings: goodbye to the room, a new room, the
        connection again (any setting may change the room, the seat or the way in)."""
        self._drop()
        s = self.settings
        self.room = None
        self.state = OFF
        self.board.set_remote(NO_REMOTE)
        if not s.on or self._missing():
            return
        side = p.ROLES.index(s.get("side"))
        side = WATCH if side == 2 else side
        try:
            self.room = Room(s.get("room"), None, s.get("secret") or None, side,
                             s.get("client") or self.client)
            self.room.replay_max = REPLAY_PER_PASS
        except ProtocolError as e:
            self.say("online: %s" % e)
            return
        self._kept = -1  # the room's actions in the cache (-1: none of this room's yet)
        self._read_cache()
        self.waiting = None
        self._asked = self._asked_online = None  # when we asked for the game (its holder online)
        self._agreed = 0  # the board's actions known to be the room's
        self._board_pos = None
        self._nb = self._nr = -1  # what the last sync saw: the board's and the room's counts
        self._refused = False  # the board refused the room's action at those counts
        self.state = WIFI
        self._wifi_on = False  # (new settings, a new key perhaps: the WiFi asked again at once)
        self.tries = 0
        self._next = self.clock()
        t = ticks_add(self._next, -REPAIR_MS)
        self._repaired = [t, t, t]  # when each kind of due was last published

    # --- the room's last verified game, kept on the board (cache) ----------------------
    def _read_cache(self):
        # The room's game as this board last verified it: its first state,
        # before the broker's (signed here again with our key: a seat's own
        # copy), replayed a few actions a pass as a late joiner's is.
        c = self.cache
        room = self.room
        if c is None or not room.seated():
            return
        try:
            data = c.load()
            if not data:
                return
            head, start, kept = bytes(data).split(b"\n", 2)
            if head.decode() != "%s %d" % (room.name, room.side):
                return  # another room's, or the other seat's: replaced once we have a game
            words = bytearray(kept)
            for record in c.records():
                words.extend(record)
            code, line = room.receive(p.topic(room.name, p.STATE),
                                      p.state_message(room.name, start.decode(), words, room.side,
                                                      room.client, room.keys[room.side]))
        except (ValueError, OSError) as e:  # (UnicodeError, ProtocolError: a ValueError)
            self.say("online: the room's game kept here not read: %s" % e)
            return
        if code == REFUSED:
            self.say("online: the room's game kept here refused: %s" % line)
            return
        self._kept = room.number() if not room.replaying() else -1
        self.say("online: room %s: its game as kept here, %d actions" % (room.name,
                                                                         words.count(b" ")))

    def _keep(self):
        # The room's game written to the cache when it grew: a new action
        # a record (its word, after a space), the whole game once a room
        # (a snapshot, as the game's own save: a power cut keeps the old
        # or the new).
        c = self.cache
        room = self.room
        n = room.number()
        if c is None or room.pos is None or room.replaying() or not room.seated() \
                or n == self._kept:
            return
        if self._kept < 0 or n < self._kept:
            c.save(("%s %d\n%s\n" % (room.name, room.side, room.start)).encode() + room.written())
        else:
            for i in range(self._kept, n):
                c.append(b" " + room.actions[i].encode())
        self._kept = n

    def _missing(self):
        # The settings still needed (no WiFi settings where there is no WiFi to join).
        return [n for n in self.settings.missing() if n != "ssid" or self.wifi is not None]

    def _drop(self, goodbye=True):
        # Leaving on purpose (goodbye): say offline, then DISCONNECT, after
        # which the broker drops the will. A connection lost is only closed:
        # the broker sends the will when it notices.
        c = self.conn
        self.conn = None
        if c is None:
            return
        try:
            if goodbye:
                c.publish(p.topic(self.room.name, p.PRESENCE, self.room.client), p.OFFLINE,
                          True, 1)
                c.disconnect()
            else:
                c.sock.close()
        except (OSError, AttributeError, IndexError, AssertionError):
            pass

    def poll(self):
        """Once a pass: the WiFi, the broker, a few messages, the board and
        the room kept the same. Never long (see the module's doc)."""
        st = self.state
        if st == OFF:
            return
        self._show()
        now = self.clock()
        if st == WIFI:
            if not self._wifi_up():
                return
            self.state = st = DOWN
        if st == DOWN:
            if ticks_diff(now, self._next) >= 0:
                self._connect(now)
            return
        if self.wifi is not None and not self.wifi.isconnected():
            self._lost(now, OSError("the WiFi is gone"))
            return
        try:
            if st == JOIN:
                self._join()
                return
            if self.room.replaying():  # the room's game, a few actions a pass
                code, line = self.room.more()
                if code == REFUSED:
                    self.say("online: refused: " + line)
            for _ in range(MESSAGES_PER_PASS):
                if self.conn.check_msg() is None:
                    break
            if ticks_diff(now, self._ping) >= 0:
                self._ping = ticks_add(now, PING_MS)
                self.conn.ping()
            self._repair(now)
            self._sync(now)
            self._keep()
        except Exception as e:  # noqa: the board plays on, whatever the network did
            # umqtt.simple: OSError when the link drops or a wait times out,
            # IndexError on a read cut short, AssertionError on a reply it
            # did not expect, MQTTException on a refusal. Said, and the
            # connection made again.
            self._lost(now, e)

    def _show(self):
        # The opponent on the board's LEDs: here (its turn: the thinking
        # light), or gone (its colour in the centre), which is also how it
        # is while this board cannot reach the broker; while the room's
        # game is awaited, the colour of the seat whose holder may have it
        # blinks there.
        room = self.room
        if room is None or room.side == WATCH:
            return
        if self.state == UP and room.pos is None:
            w = self.waiting
            self.board.set_remote(REMOTE_WAIT, room.side ^ 1 if w is None else w[0])
            return
        here = self.state == UP and room.opponent_online()
        self.board.set_remote(REMOTE_HERE if here else REMOTE_AWAY, room.side ^ 1)

    def _wifi_up(self):
        w = self.wifi
        if w is None:
            return True
        if w.isconnected():
            return True
        now = self.clock()
        if not self._wifi_on or ticks_diff(now, self._wifi_since) >= WIFI_RETRY_MS:
            # Joined in the background: WLAN.connect() returns at once. Asked
            # again after a while (a wrong key, a network out of reach).
            s = self.settings
            w.active(True)
            w.connect(s.get("ssid"), s.get("wifi-key") or None)
            self._wifi_on = True
            self._wifi_since = now
        return False

    def _connect(self, now):
        # The connection itself (a TCP connect, TLS, CONNECT and CONNACK):
        # the first step of joining; the others come in the next passes.
        s = self.settings
        room = self.room
        host, port = s.broker()
        c = None
        try:
            sockets = bounded(self.mqtt).socket
            sockets.tls = self._tls()
            sockets.host = host
            c = self.mqtt.MQTTClient(room.client, host, port, s.get("user") or None,
                                     s.get("password") or None, KEEPALIVE_S)
            c.set_callback(self._message)
            c.set_last_will(p.topic(room.name, p.PRESENCE, room.client), p.OFFLINE, True, 1)
            # A persistent session: what the room said while we were away
            # waits at the broker for this client id.
            c.connect(False)
        except Exception as e:  # noqa: any failure here is a failed connection
            if c is not None and c.sock is not None:
                try:
                    c.sock.close()  # connect() failed half way: its socket goes
                except OSError:
                    pass
            self._lost(now, e)
            return
        self.conn = c
        self.state = JOIN
        self._step = 0

    def _join(self):
        # One step of joining the room a pass, each at most one wait for the
        # broker (a connection's timeout): subscribe; say we are here; claim
        # our seat; send again what may have been lost.
        room = self.room
        c = self.conn
        step = self._step
        self._step += 1
        if step == 0:
            c.subscribe(p.room_filter(room.name), 1)
        elif step == 1:
            # On every connection: a broker that stopped sent every will.
            room.due &= ~DUE_PRESENCE
            c.publish(p.topic(room.name, p.PRESENCE, room.client), room.presence(), True, 1)
        elif step == 2 and room.side != WATCH:
            room.due &= ~DUE_SEAT
            c.publish(p.topic(room.name, p.SEAT, room.side), room.seat(), True, 1)
        elif step == 3 and room.side != WATCH:
            self._resend()
        elif step >= 2:
            now = self.clock()
            self.state = UP
            self.tries = 0
            self.why = ""
            self._joined = now
            self._ping = ticks_add(now, PING_MS)
            host, port = self.settings.broker()
            self.say("online: room %s on %s:%d as %s" % (room.name, host, port,
                                                         p.ROLES[room.side]))

    def _tls(self):
        # The SSLContext our sockets wrap themselves with (tls on), or None.
        # The broker's certificate is checked against CA_FILE when the
        # board has one (mpremote cp ca.der :broker-ca.der); without it the
        # link is encrypted but the broker is not authenticated, and the
        # board says so.
        if self.settings.get("tls") != "on":
            return None
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        try:
            with open(CA_FILE, "rb") as f:
                ctx.load_verify_locations(cadata=f.read())
            ctx.verify_mode = ssl.CERT_REQUIRED  # type: ignore[attr-defined]  # (not in the stubs)
        except OSError:
            ctx.verify_mode = ssl.CERT_NONE  # type: ignore[attr-defined]
            self.say("online: no %s on the board: TLS without checking the broker's "
                     "certificate" % CA_FILE)
        return ctx

    def _lost(self, now, e):
        if self.state == UP or self.state == JOIN:
            self.say("online: connection lost (%s): trying again" % (e,))
        self._drop(False)
        self.state = DOWN if self.wifi is None or self.wifi.isconnected() else WIFI
        self._wifi_on = False
        self.why = ("%s %s" % (type(e).__name__, e))[:60]
        self._next = ticks_add(now, RETRY_MS[self.tries if self.tries < len(RETRY_MS) else -1])
        self.tries += 1

    def _publish(self, kind, payload, retain):
        room = self.room
        if kind == p.STATE:
            room.due &= ~DUE_STATE
        self.conn.publish(p.topic(room.name, kind), payload, retain, 1)

    def _resend(self):
        # Back after a drop: our last action may never have reached the
        # broker (umqtt.simple keeps nothing), so it goes again, and the
        # state (the whole game: once a replay of it is over); a repeat is
        # nothing to whoever had it.
        room = self.room
        if room.pos is None:
            return
        if room.replaying():
            room.due |= DUE_STATE
            return
        n = room.number()
        if n and room.side_of(n) == room.side:
            self._publish(p.ACTION, room.message(n), False)
        self._publish(p.STATE, room.state(), True)

    def _repair(self, now):
        # What the room is owed (Room.due: a stranger took off or replaced
        # our state, claim or presence; a state behind ours; an ask), each
        # kind published at most every REPAIR_MS; the state once we have
        # the whole game.
        room = self.room
        due = room.due
        if not due:
            return
        last = self._repaired
        for i in range(3):
            bit = 1 << i  # DUE_STATE, DUE_SEAT, DUE_PRESENCE
            if not due & bit or ticks_diff(now, last[i]) < REPAIR_MS or \
                    bit == DUE_STATE and (room.pos is None or room.replaying()):
                continue
            last[i] = now
            room.due &= ~bit
            if bit == DUE_PRESENCE:
                self.conn.publish(p.topic(room.name, p.PRESENCE, room.client), room.presence(),
                                  True, 1)
            elif bit == DUE_SEAT:
                self.conn.publish(p.topic(room.name, p.SEAT, room.side), room.seat(), True, 1)
            else:
                self._publish(p.STATE, room.state(), True)

    def _wait(self, now):
        # No game read (none retained, none kept here): wait for the seat
        # holder that may have it (Room.wait_for), asking it for the game
        # (again every ASK_EVERY_MS). A holder online that sends none
        # within ASK_WAIT_MS of being asked has none: then the room is new
        # (False). A spectator waits whatever comes.
        room = self.room
        w = self.waiting = room.wait_for()
        online = w is not None and w[2]
        if not online:
            self._asked_online = None
        elif self._asked_online is None:  # asked now that it is here
            self._asked_online = now
            self._asked = None
        if (w is not None or room.side == WATCH) and (
                self._asked is None or ticks_diff(now, self._asked) >= ASK_EVERY_MS):
            self._asked = now
            self._publish(p.ASK, room.ask(), False)
        if room.side == WATCH:
            return True
        return w is not None and not (online and ticks_diff(now, self._asked_online)
                                      >= ASK_WAIT_MS)

    def _message(self, topic, payload):
        # umqtt.simple's callback: every message of the room.
        code, line = self.room.receive(bytes(topic).decode(), payload)
        if code == REFUSED:
            self.say("online: refused: " + line)
        elif code == APPLIED or code == NOTED:
            self.say("online: " + line)

    # --- the board and the room kept the same ----------------------------------------
    def _sync(self, now):
        room = self.room
        board = self.board
        if room.replaying():
            return  # the board follows once the room has the whole game
        if room.pos is None:  # no state yet
            if ticks_diff(now, self._joined) < self.state_wait_ms or self._wait(now):
                return
            # A new room: its game is the board's (each action ours or not,
            # as the players at this board played them).
            room.begin(board.start, board.pos.stack)
            self._board_pos = board.pos
            self._agreed = len(room.actions)
            self._publish(p.STATE, room.state(), True)
            self.say("online: room %s started with the board's game" % room.name)
        self.waiting = None
        if board.menu is not None:
            return  # the settings menu holds the game still: in step when it closes
        pos = board.pos
        stack = pos.stack
        if pos is not self._board_pos:  # the room's game first, or a new game on the board
            self._follow("the board started a new game" if self._board_pos is not None
                         else "the room's game")
            return
        nb = len(stack)
        nr = room.number()
        if nb == self._nb and nr == self._nr and (nr <= nb or board.pending >= 0 or self._refused):
            return  # nothing new: the common case, allocating nothing
        self._nb, self._nr = nb, nr
        self._refused = False
        agreed = self._agreed
        if agreed > nb:
            agreed = nb
        common = nb if nb < nr else nr
        while agreed < common and action_text(stack[agreed]) == room.actions[agreed]:
            agreed += 1
        self._agreed = agreed
        if agreed < common:
            self._follow("the board's action %d differs from the room's" % (agreed + 1))
        elif nb > nr + 1 or nr > nb + 1:  # a game joined late, a board off for long
            self._follow("the board is %d actions %s the room" % (
                nb - nr if nb > nr else nr - nb, "ahead of" if nb > nr else "behind"))
        elif nb > nr:
            self._played(action_text(stack[nr]))
        elif nr > nb:
            text = room.actions[nb]
            try:
                commands.request(board, text)
            except ValueError as e:  # said once, asked again when something changes
                self._refused = True
                self.say("online: cannot ask the board for %s: %s" % (text, e))

    def _played(self, text):
        # The board committed an action the room does not have yet.
        room = self.room
        if room.side != WATCH and room.pos.side == room.side:
            try:
                payload = room.act(text)
            except ValueError as e:  # the room refuses what the board took: follow the room
                self._follow("the room refuses %s: %s" % (text, e))
                return
            self._agreed += 1
            self._nr += 1
            self._publish(p.ACTION, payload, False)
            self._publish(p.STATE, room.state(), True)
        else:
            self.board.takeback()
            self._board_pos = self.board.pos
            self._nb = -1
            self.say("online: %s taken back: it is for %s to play, from the room" % (
                text, p.SIDES[room.pos.side]))

    def _follow(self, why):
        # The board's game is not the room's: the board takes the room's
        # game, action by action (its record and takebacks as if played
        # here), and the LEDs show the player what to put right.
        room = self.room
        board = self.board
        try:
            commands.take_game(board, room.start, room.actions)
        except ValueError as e:  # (the room checked it: not expected) said once
            self.say("online: the board cannot take the room's game: %s" % e)
            self._board_pos = board.pos
            self._nb, self._nr, self._refused = len(board.pos.stack), room.number(), True
            return
        self._board_pos = board.pos
        self._agreed = room.number()
        self._nb = -1
        self.say("online: %s: the board follows the room (action %d)" % (why, room.number()))
