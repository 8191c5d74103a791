"""The protocol (docs/protocol.md): commands from the host answered, changes
of the board sent as events. The board knows nothing of the link: after each
step the link compares a few of the board's public fields with what it saw
last (the game object, its action count, verdict, lifted piece, the action
asked for, the result, the clock's second) and reports what changed, so an
event leaves in the tick that made it.

    link = Link(board)
    link.serve(port)      # once a tick, after board.step()
"""
from array import array

from vortex.engine.defs import LIGHT, DARK, const
from vortex.engine.codes import move_to
from vortex.engine.notation import action_text
from vortex.engine.position import Position, new_buffer, MAX_DESTINATIONS
from vortex.app.recognise import HAND, VERDICT_NAMES as VERDICTS
from vortex.app import commands
from vortex.app.commands import CommandError
from vortex.app.leds import SUPPLY_NAMES
from vortex import heap
from vortex.link.lines import LineReader, NONE, LINE, TOO_LONG, BAD_BYTE, LINE_MAX
from vortex.link.outbox import Outbox, MESSAGE_MAX

VERSION = const(2)  # 2: the settings by commands' names (brightness, level), hint
ANSWER_ROOM = const(256)  # input waits until the outbox has room for an answer
_IN_PER_TICK = const(64)   # bytes read a tick at most: a flood cannot stretch the tick
OUT_PER_TICK = const(256)  # bytes written a tick at most: the USB CDC buffer's size,
                           # which a reading host empties between ticks, so no write waits

# Event kinds, as subscription bits.
ACTION = const(1)    # action, takeback, new
LIFT = const(2)
_VERDICT = const(4)
ASKS = const(8)
CLOCK = const(16)
_RESULT = const(32)
MEMORY = const(64)
EVENTS = ("action", "lift", "verdict", "asks", "clock", "result", "memory")
ALL = const(127)
SIDES = ("light", "dark")
COMMANDS = ("hello", "ping", "help", "status", "position", "record", "subscribe", "unsubscribe",
            "request", "new", "game", "takeback", "hint", "settings", "set", "power", "online",
            "memory")
_HEAP_TOP = const(262144)  # `memory`'s largest block: the RP2040's whole RAM bounds it


def _result(outcome):
    # The result as the record writes it (vortex.record.result_text), '*' while the game goes on.
    return "*" if outcome is None else outcome.result()


class LinkError(CommandError):
    """A command refused by the link itself: its message is the one-line reason sent back."""


class _Actions:
    """The game's actions as record.lines() reads them (len(), [i] in
    notation): the codes copied at 2 bytes each (the game may go on while
    its record is sent), each written out when its turn comes, so a long
    game's record holds no string per action."""

    def __init__(self, stack):
        self.codes = array("H", stack)

    def __len__(self):
        return len(self.codes)

    def __getitem__(self, i):
        return action_text(self.codes[i])


class Link:
    """The board's end of the protocol. Link(board) follows a vortex.app
    Board; serve(port) once a tick, with a port that has read_byte() (-1
    nothing waiting), gone() (True once each time the host went away, what
    it sent unread dropped by the port; always False where the port cannot
    tell), write(bytes) -> bytes taken, and CHUNK (the most worth writing at
    once)."""

    def __init__(self, board, out_bytes=2048, client=None):
        self.board = board
        self.client = client  # the board's online client (vortex.online.client), a Pico W's
        self.lines = LineReader()
        self.out = Outbox(out_bytes)
        self.events = 0
        self._dest = new_buffer(MAX_DESTINATIONS)
        self._record = None  # the record's lines still to send
        self._held = NONE  # a line read, waiting for its turn (LINE, TOO_LONG, BAD_BYTE)
        self._record_n = 0
        self._game = None  # a game being given whole (game START, game + ..., game end)
        self._game_start = None
        self._seen(board)

    def _seen(self, b):
        # What the board shows now, taken as known: changes from here are events.
        self._pos = b.pos
        self._n = len(b.pos.stack)
        self._verdict = b.verdict
        self._hand = b.rec.hand if b.verdict == HAND else -1
        self._pending = b.pending
        self._result = b.result()
        self._second = -1
        self._short = b.short

    # --- the tick -------------------------------------------------------------
    def serve(self, port):
        """One tick: read what the host sent, answer each line in turn, send
        events, send what is queued as far as the port takes it."""
        out = self.out
        if port.gone():
            self._gone()
        budget = _IN_PER_TICK
        while True:
            held = self._held
            if held:
                # A whole line waits its turn: after the record being sent,
                # and until the outbox has room for its answer (a host that
                # does not read loses no answer: it waits). Meanwhile nothing
                # more is read, so at most this one line waits.
                if self._record is not None or out.free() < ANSWER_ROOM:
                    break
                self._held = NONE
                self._take(held)
            if not budget:
                break
            budget -= 1
            b = port.read_byte()
            if b < 0:
                break
            self._held = self.lines.feed(b)
        self.tick()
        budget = OUT_PER_TICK
        while out.used and budget > 0:
            n = port.write(out.pending(port.CHUNK if port.CHUNK < budget else budget))
            if n <= 0:
                break
            out.sent(n)
            budget -= n

    def _gone(self):
        # The host went away: what it sent and what was for it go with it,
        # so that nothing of it acts for the next host (its half line, a line
        # waiting its turn, its subscriptions, a record being sent). Lines
        # already queued stay: a host skips them (ping).
        self.lines.reset()
        self._held = NONE
        self.events = 0
        self._record = None
        self._game = None

    def _take(self, r):
        """A line completed: LINE, TOO_LONG or BAD_BYTE (lines.py)."""
        if r == LINE:
            self._line()
        elif r == TOO_LONG:
            self._error("line too long (at most %d bytes)" % LINE_MAX)
        elif r == BAD_BYTE:
            self._error("byte 0x%02x is not printable ASCII" % self.lines.bad_byte)

    def tick(self):
        """Events for what changed on the board since the last tick."""
        b = self.board
        out = self.out
        ev = self.events
        pos = b.pos
        if pos is not self._pos:  # a new game
            self._pos = pos
            self._n = len(pos.stack)
            if ev & ACTION:
                out.begin()
                out.word(b"new")
                out.text(b.start)
                out.end()
        n = len(pos.stack)
        if n != self._n:
            if n < self._n:
                if ev & ACTION:
                    out.begin()
                    out.word(b"takeback")
                    out.number(n)
                    out.end()
                self._n = n
            while self._n < n:
                self._n += 1
                if ev & ACTION:
                    out.begin()
                    out.word(b"action")
                    out.number(self._n)
                    out.byte(32)
                    out.text(action_text(pos.stack[self._n - 1]))
                    out.end()
        v = b.verdict
        hand = b.rec.hand if v == HAND else -1
        if hand != self._hand:
            self._hand = hand
            if hand >= 0 and ev & LIFT:
                out.begin()
                out.word(b"lift")
                out.cell(hand)
                buf = self._dest
                for i in range(pos.destinations(hand, buf)):
                    out.byte(32)
                    out.cell(move_to(buf[i]))
                out.end()
        if v != self._verdict:
            self._verdict = v
            if ev & _VERDICT:
                out.begin()
                out.word(b"verdict")
                out.word(VERDICTS[v])
                out.end()
        if b.pending != self._pending:
            self._pending = b.pending
            if ev & ASKS:
                out.begin()
                out.word(b"asks")
                if b.pending >= 0:
                    out.text(action_text(b.pending))
                else:
                    out.byte(45)
                out.end()
        r = b.result()
        if r is not self._result:
            self._result = r
            if ev & _RESULT:
                out.begin()
                out.word(b"result")
                out.text(_result(r))
                if r is not None:
                    out.byte(32)
                    out.text(r.reason)
                out.end()
        clock = b.clock
        if clock is not None and ev & CLOCK:
            s = clock.left[pos.side] // 1000
            if s != self._second:
                self._second = s
                out.begin()
                out.word(b"clock")
                out.number(clock.left[LIGHT])
                out.byte(32)
                out.number(clock.left[DARK])
                out.end()
        if b.short != self._short:
            self._short = b.short
            if ev & MEMORY:
                out.begin()
                out.word(b"memory")
                out.text(b.short_text)
                out.end()
        if self._record is not None:
            self._send_record()

    # --- commands ---------------------------------------------------------------
    # Each command's handler is the method named by its word (COMMANDS):
    # the word and the name are one qstr, not two (docs/device.md).
    def _line(self):
        lr = self.lines
        words = bytes(lr.buf[:lr.length]).decode().split()
        if not words:
            return
        name = words[0].lower()
        try:
            if name not in COMMANDS:
                raise LinkError("unknown command %s (help lists them)" % words[0][:20])
            getattr(self, name)(words[1:])  # its handler, named by the word
        except ValueError as e:  # refused: a CommandError, a NotationError, an IllegalAction
            self._error(str(e))
        except Exception as e:  # a bug must not stop the board: say so, go on
            self._error("internal error: %s %s" % (type(e).__name__, e))

    def _answer(self, name, text=""):
        out = self.out
        out.begin()
        out.word(b"ok")
        out.text(name)
        if text:
            out.byte(32)
            out.text(text)
        out.end()

    def _error(self, reason):
        out = self.out
        out.begin()
        out.word(b"error")
        out.text(reason[:MESSAGE_MAX - 20])
        out.end()

    def _no_args(self, args):
        if args:
            raise LinkError("no arguments expected, got %s" % args[0][:20])

    def hello(self, args):
        # The protocol's name and version, then the firmware's (written by the build).
        from vortex.version import VERSION as FIRMWARE
        self._no_args(args)
        self._answer("hello", "vortex-link %d firmware %s" % (VERSION, FIRMWARE))

    def ping(self, args):
        # A host finds where its answers begin, after whatever was queued before it.
        if len(args) > 1:
            raise LinkError("ping takes one word at most")
        self._answer("ping", args[0] if args else "")  # whole: the line's limit bounds it

    def help(self, args):
        self._answer("help", " ".join(COMMANDS))

    def status(self, args):
        self._no_args(args)
        b = self.board
        self._answer("status", "side %s actions %d verdict %s asks %s result %s dropped %d nfc %s" % (
            SIDES[b.pos.side], len(b.pos.stack), VERDICTS[b.verdict].decode(),
            action_text(b.pending) if b.pending >= 0 else "-",
            _result(b.result()), self.out.dropped, "fault" if b.fault else "ok"))

    def position(self, args):
        self._no_args(args)
        self._answer("position", self.board.pos.text())

    def record(self, args):
        self._no_args(args)
        b = self.board
        from vortex import record  # on demand: 4 KB of the heap, CircuitPython's scarce
        self._record = record.lines(commands.record_tags(b), b.start, _Actions(b.pos.stack))
        self._record_n = 0
        self._send_record()

    def _send_record(self):
        out = self.out
        lines = self._record
        while lines is not None and out.free() >= ANSWER_ROOM:
            line = next(lines, None)
            if line is None:
                self._record = None
                self._answer("record", str(self._record_n))
                return
            self._record_n += 1
            out.begin()
            out.word(b"record")
            out.text(line)
            out.end()

    def subscribe(self, args, on=True):
        bits = ALL if not args else 0
        for w in args:
            w = w.lower()
            if w == "all":
                bits = ALL
            elif w in EVENTS:
                bits |= 1 << EVENTS.index(w)
            else:
                raise LinkError("no event %s: %s or all" % (w[:20], ", ".join(EVENTS)))
        if on:
            # The state now, for what was off: the tick sends it as a change.
            new = bits & ~self.events
            self.events |= bits
            if new & LIFT:
                self._hand = -1
            if new & _VERDICT:
                self._verdict = -1
            if new & ASKS:
                self._pending = -2
            if new & _RESULT:
                self._result = self  # (never a result: the current one differs)
            self._second = -1
        else:
            self.events &= ~bits
        self._answer("subscribe", " ".join(EVENTS[i] for i in range(len(EVENTS))
                                           if self.events & (1 << i)) or "-")

    def unsubscribe(self, args):
        self.subscribe(args, False)

    def request(self, args):
        if len(args) != 1:
            raise LinkError("request takes one action, as request W@d4")
        self._answer("request", action_text(commands.request(self.board, args[0])))

    def new(self, args):
        commands.new_game(self.board, " ".join(args))
        self._answer("new")

    def game(self, args):
        # A game given whole, a line at a time (a record loaded, an online
        # room's game): `game START`, then `game + ACTION...` as many lines
        # as it takes, each action checked by the engine as it comes, then
        # `game end`, when the board takes it (commands.take_played). Until
        # then the board's game is untouched; a line refused changes nothing.
        if not args:
            raise LinkError("game takes a start position, + and actions, or end")
        word = args[0]
        if word == "+" or word == "end":
            pos = self._game
            if pos is None:
                raise LinkError("no game begun: game START first")
            if word == "end":
                self._no_args(args[1:])
                self._game = None
                commands.take_played(self.board, self._game_start, pos)
            else:
                n = len(pos.stack)
                try:
                    for text in args[1:]:
                        pos.push(pos.parse_action(text))
                except ValueError as e:  # the line's actions taken back: nothing of it stays
                    bad = len(pos.stack) + 1
                    while len(pos.stack) > n:
                        pos.pop()
                    raise LinkError("action %d: %s" % (bad, e))
            self._answer("game", str(len(pos.stack)))
            return
        text = " ".join(args)
        self._game = Position(text)  # NotationError: the reason
        self._game_start = text
        self._answer("game", "0")

    def takeback(self, args):
        self._no_args(args)
        commands.takeback(self.board)
        self._answer("takeback", str(len(self.board.pos.stack)))

    def hint(self, args):
        self._no_args(args)
        commands.hint(self.board)
        self._answer("hint")

    def settings(self, args):
        self._no_args(args)
        self._answer("settings", commands.settings_text(self.board.settings))

    def power(self, args):
        # What the USB-C source offers (read at boot), and the LEDs' budget now.
        self._no_args(args)
        b = self.board
        self._answer("power", "source %s leds %d budget %d" % (
            SUPPLY_NAMES[b.supply] if b.supply >= 0 else "-", b.supply_ma, b.budget_ma()))

    def online(self, args):
        # Online play's settings and state (vortex/online/settings.py); the
        # words are the settings' (secrets are never sent back).
        if self.client is None:
            raise LinkError("no online play on this board (a Pico W build has it)")
        self._answer("online", self.client.command(args))

    def memory(self, args):
        # The heap now (a collection, then blocks asked for: tens of ms),
        # and as the board found it before its AI's searches (vortex.heap).
        self._no_args(args)
        b = self.board
        self._answer("memory", "free %d largest %d before %d low %d table %d short %d" % (
            heap.free(), heap.largest(_HEAP_TOP), b.heap_before, b.heap_low, b.table_bytes(),
            b.short))

    def set(self, args):
        if len(args) != 2:
            raise LinkError("set takes a name and a value, as set ai dark")
        commands.set_setting(self.board, args[0], args[1])
        self._answer("settings", commands.settings_text(self.board.settings))
