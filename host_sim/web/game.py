"""One game for the browser simulator: the firmware's Board on the virtual
board (host_sim.scenario.Rig), ticking in real time at the firmware's 5 ms,
driven by hand events and watched by any number of pages.

Everything a page may ask goes through Game.command(op, args) and returns a
dict; every answer and every state is plain JSON. No rule, no recognition
and no hand sequence lives here: the rig's hands move things on the
virtual board, the firmware's sensors and Board.step() make of it what the
real board would, and the game's commands are vortex.app.commands'.
"""
import json
import threading
import time

from vortex.engine import Position, NotationError, IllegalAction
from vortex.engine.defs import TERRAIN_LETTERS, SIDE_NAMES
from vortex.engine.notation import parse_cell, action_text
from vortex.app.session import Settings
from vortex.app.recognise import VERDICT_NAMES, NOT_ASKED
from vortex.app import leds, session, commands, sounds
from vortex.app.commands import CommandError
from host_sim.scenario import Rig, TICK_MS
from host_sim.virtual import PhysicsError
from host_sim.usb import SUPPLIES, SUPPLY

# While nothing happens (no hand, no request, no change of the game for
# QUIET_MS of board time: the sensors settled, the tile reader's re-reads
# done), the board is passed only when it has something to show by itself
# (Board.due_in: a blink's phase, the clock's second...), and at least every
# IDLE_MS: a page left open costs next to nothing. A request brings back a
# pass every TICK_MS at once.
QUIET_MS = 5000
IDLE_MS = 250
MAX_BOUNCE_MS = 50
MAX_MISREAD = 500  # per mille
NO_RECORDS = "game records need vortex.record (docs/record.md), not in this build"


class MemoryStore:
    """A store (hal/store.py's save, append, load, records) in memory: a game
    handed to the Board to resume, and kept as it goes on."""

    def __init__(self):
        self.data = None
        self._records = []

    def save(self, data):
        self.data = bytes(data)
        self._records = []

    def append(self, record):
        self._records.append(bytes(record))

    def load(self):
        return self.data

    def records(self):
        return self._records


class BadRequest(ValueError):
    """A request a page should not have sent: answered with its reason, nothing changed."""


# --- the requests' arguments, all checked one way ---------------------------
# Each checker takes an argument's name and its JSON value and returns the
# value to use, or raises BadRequest naming the argument.
def _cell(name, value):
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
        return value
    if isinstance(value, str) and len(value) <= 8:
        try:
            return parse_cell(value)
        except NotationError:
            pass
    raise BadRequest("%s: no cell %s on the board" % (name, _shown(value)))


def _whole(low, high):
    def check(name, value):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BadRequest("%s: a whole number from %d to %d, not %s" % (
                name, low, high, _shown(value)))
        return value
    return check


def _flag(name, value):
    """A yes/no: true/false or 1/0."""
    if value not in (True, False, 0, 1) or isinstance(value, float):
        raise BadRequest("%s: true or false, not %s" % (name, _shown(value)))
    return bool(value)


def _text(name, value):
    if not isinstance(value, str):
        raise BadRequest("%s: a text, not %s" % (name, _shown(value)))
    return value


def _letter(letters, what):
    def check(name, value):
        if not isinstance(value, str) or len(value) != 1 or value not in letters:
            raise BadRequest("%s: %s, not %s" % (name, what, _shown(value)))
        return value
    return check


def _setting(name, value):
    """A setting's value: a text, or a whole number (a level, a budget)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _text(name, value)


def _supply(name, value):
    """A USB-C source the virtual board is plugged into."""
    if value not in SUPPLIES:
        raise BadRequest("%s: %s, not %s" % (name, ", ".join(SUPPLIES), _shown(value)))
    return value


def _shown(value):
    """A value as the answer quotes it: short, on one line."""
    text = repr(value) if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 24 else text[:21] + "..."


CHECKS = {
    "cell": _cell, "from": _cell, "to": _cell,
    "tile": _flag, "a": _flag, "b": _flag,
    "item": _whole(-64, 63), "ply": _whole(0, 1 << 16),
    "terrain": _letter("WFEAwfea", "a terrain: W, F, E or A"),
    "piece": _letter("TSHtsh", "a piece: T S H (Light) or t s h (Dark)"),
    "action": _text, "position": _text, "name": _text, "text": _text,
    "value": _setting,
    "bounce_ms": _whole(0, MAX_BOUNCE_MS), "misread": _whole(0, MAX_MISREAD),
    "supply": _supply,
}
# Every request a page may send (POST /api/<name>) and its arguments; a
# trailing ? marks one that may be left out.
REQUESTS = {
    "lift": ("cell", "tile?"), "put": ("cell", "item?"), "move": ("from", "to", "tile?"),
    "lay": ("terrain", "cell"), "from-tray": ("piece", "cell"), "aside": ("item?",),
    "button": ("a?", "b?"), "act": ("action?",), "tidy": (), "takeback": (), "hint": (),
    "new": ("position?",), "set": ("name", "value"), "record": ("text",),
    "sensors": ("bounce_ms?", "misread?", "supply?"), "view": ("ply",),
}


def checked(op, args):
    """A request's arguments, each checked: a dict of the ones given."""
    params = REQUESTS.get(op)
    if params is None:
        raise BadRequest("no such request: %s" % op[:40])
    names = [p.rstrip("?") for p in params]
    out = {}
    for key, value in args.items():
        if key == "id":
            continue
        if key not in names:
            raise BadRequest("%s takes %s, not %s" % (
                op, ", ".join(names) or "no arguments", _shown(key)))
        out[key] = CHECKS[key](key, value)
    for p in params:
        if not p.endswith("?") and p not in out:
            raise BadRequest("%s needs %s" % (op, p))
    return out


class Game:
    """Game(settings=None, position=None, seed=0, store=None, supply=SUPPLY).
    Thread-safe: one lock guards the rig; the ticking thread and request
    threads take turns."""

    def __init__(self, settings=None, position=None, seed=0, store=None, supply=SUPPLY):
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self._woken = threading.Event()  # set by a request: the ticking thread's full rate at once
        self.seed = seed
        self.version = 0  # bumped whenever something a page shows may have changed
        self.ack = 0  # the last hand event id carried out (pages time their frames by it)
        self.note = ""  # the last thing the simulator itself says (bad input, ...)
        self.running = False
        self._clock_shown = None
        self.ticks = 0  # ticks run by run(), and the time they took: the rate's figures
        self.tick_s = 0.0
        self._shown = bytearray(192)
        self._sounds = 0  # the sounds pages have heard of (the rig's count)
        self._game_shown = None  # (start, actions, pending, verdict) pages have heard of
        self._sounds_before = 0  # the sounds of the rigs before this one: ids go on from them
        self.supply = supply
        self.store = store  # where the Board saves the game after every action (None: nowhere)
        self.online = None  # a room's Follow (host_sim/online) when the game is played online
        self.rig = None
        self._rig(settings or Settings(), position, store)

    def _rig(self, settings, position, store=None):
        if self.rig is not None:
            self._sounds_before += self.rig.virtual.buzzer.count
        self.rig = Rig(position, settings=settings, store=store, seed=self.seed,
                       supply=self.supply)
        self.rig.board.messages[:] = []
        self.log = []
        self._anchor = (time.monotonic(), self.rig.now)
        self._active = self.rig.now  # board time of the last hand, request or game change
        with self.lock:
            self._bump()

    def _fresh(self, settings, start, actions=()):
        # A game from start with these actions played (engine codes), which the
        # Board resumes from its save as after a power cut: its own path.
        store = self.store or MemoryStore()
        store.save(session.dump(settings, start, actions, (settings.clock_ms, settings.clock_ms)))
        self._rig(settings, None, store)

    # --- time -----------------------------------------------------------------
    def run(self):
        """Pass the board until stop(), board time following the wall clock:
        every TICK_MS while anything happens, else when it is due (advance())."""
        self.running = True
        wake = self.rig.now
        while self.running:
            with self.lock:
                wall, board_at = self._anchor
                due = board_at + int((time.monotonic() - wall) * 1000)
                # Woken far later than wanted, the machine stalled: skip ahead, do not race.
                if due - max(wake, self.rig.now) > 40 * TICK_MS:
                    self._anchor = (time.monotonic(), self.rig.now)
                    due = self.rig.now + TICK_MS
                wake = self.advance(due)
            self._woken.wait((wake - due) / 1000)  # a request wakes it sooner
            self._woken.clear()

    def advance(self, due):
        """The board's passes up to board time due: one every TICK_MS while
        anything happens, else one at due if any; returns the board time when
        the next pass is wanted."""
        with self.lock:
            rig = self.rig
            t0 = time.perf_counter()
            if self._quiet():
                passes = 1 if due > rig.now else 0
                if passes:
                    rig.pass_at(due)
            else:
                passes = max(0, (due - rig.now) // TICK_MS)
                rig.tick(passes)
            if passes:
                self.ticks += passes
                self.tick_s += time.perf_counter() - t0
            if self.online is not None and self.online.step():  # the room's news
                self._active = rig.now
                self._bump()
            if rig.board.frame != self._shown or self._news():
                self._bump()
            if not self._quiet():
                return rig.now + TICK_MS
            return rig.now + max(1, min(IDLE_MS, rig.board.due_in(rig.now)))

    def _quiet(self):
        """Nothing happening that the board must be passed every TICK_MS for:
        no hand or request or change of the game for QUIET_MS, no button
        held, no sound playing, no sensor noise to model."""
        rig = self.rig
        v = rig.virtual
        return (rig.now - self._active >= QUIET_MS and not rig.buttons and not v.buzzer.playing
                and not v.bounce_ms and not v.misread and not rig.board.thinking)

    def stop(self):
        self.running = False
        self._woken.set()

    def play_online(self, player):
        """Play in a room (host_sim/online): the room's game is this game;
        its news go to the page's messages."""
        from host_sim.online.follow import Follow

        def lay_out(start, actions):
            self._fresh(self.rig.board.settings, start, actions)
            self._arrange()

        def say(line):
            self.log.append(line)
            del self.log[:-40]

        printed = player.log  # the room's reports (a refusal, the broker lost): the page's too

        def log(line):
            printed(line)
            say("online: " + line)

        player.log = log
        self.online = Follow(player, lambda: self.rig.board, lay_out, say)
        # Whatever the broker brings wakes the loop (a refusal, an action
        # while the page is idle): the pages hear of it at once.
        player.wake = self._woken.set
        if player.conn is not None:
            player.conn.wake = player.wake

    def _game_seen(self):
        b = self.rig.board
        return (b.start, len(b.pos.stack), b.pending, b.verdict)

    def _news(self):
        b = self.rig.board
        if self.rig.virtual.buzzer.count != self._sounds:
            return True
        # The game can change with the same frame on the LEDs (on the emulated
        # Pico its link's events may come after the frame that shows them).
        if self._game_seen() != self._game_shown:
            return True
        if b.messages:
            self.log.extend(b.messages)
            del b.messages[:]
            del self.log[:-40]
            return True
        if b.clock and b.result() is None:
            return b.clock.left[b.pos.side] // 1000 != self._clock_shown
        return False

    def _bump(self):
        # The board redraws its frame often with the same colours; pages hear of changes only.
        self._shown[:] = self.rig.board.frame
        self._sounds = self.rig.virtual.buzzer.count
        game = self._game_seen()
        if game != self._game_shown:
            self._game_shown = game
            self._active = self.rig.now
        self.version += 1
        self.changed.notify_all()

    # --- requests ---------------------------------------------------------------
    def command(self, op, args):
        """Carry out one request (REQUESTS) with its arguments (a dict from
        JSON); a dict to answer with. BadRequest for nonsense, nothing done."""
        a = checked(op, args)
        event = args.get("id", 0)
        if not isinstance(event, int) or isinstance(event, bool):
            raise BadRequest("the event id must be a number")
        fn = getattr(self, "op_" + op.replace("-", "_"))
        with self.lock:
            try:
                answer = fn(a) or {}
            except (PhysicsError, NotationError, IllegalAction, CommandError) as e:
                answer = {"error": str(e)}  # the board (or the hands) said no
            except ImportError:
                answer = {"error": NO_RECORDS}
            self._anchor = (time.monotonic(), self.rig.now)  # hands ran board time ahead
            self._active = self.rig.now
            self._woken.set()
            self.ack = max(self.ack, event)
            self.note = answer.get("error") or answer.get("note", "")
            self._bump()
            return answer

    # Hands: the rig's, each step followed by its hand_ms of board time. Each
    # op_ takes its request's checked arguments (REQUESTS).
    def op_lift(self, a):
        """Pick up the piece on a cell, or the tile when there is no piece (or tile=true)."""
        self.rig.pick(a["cell"], a.get("tile", False))

    def op_put(self, a):
        """Put a held thing (hand index `item`, default the last taken) on a cell."""
        self.rig.put(a["cell"], a.get("item", -1))

    def op_move(self, a):
        """A drag from one cell to another (the rig's drag)."""
        self.rig.drag(a["from"], a["to"], a.get("tile", False))

    def op_lay(self, a):
        """Lay a new tile of a terrain (W, F, E, A) from the box on a cell."""
        self.rig.lay_new(TERRAIN_LETTERS.index(a["terrain"].upper()), a["cell"])

    def op_from_tray(self, a):
        """Put a piece from beside the board (a letter: T S H Light, t s h Dark) on a cell."""
        self.rig.virtual.from_tray(a["piece"], a["cell"], self.rig.now)
        self.rig.wait(self.rig.hand_ms)

    def op_aside(self, a):
        """Set a held thing aside: a piece beside the board, a tile back in the box."""
        self.rig.aside(a.get("item", -1))

    def op_button(self, a):
        """The raw state of the buttons: a and b, each true/false (held down or not)."""
        self.rig.buttons = (1 if a.get("a") else 0) | (2 if a.get("b") else 0)
        self.rig.wait(TICK_MS)

    # Tidy hands.
    def op_act(self, a):
        """Carry out an action typed in notation (or the board's pending one) as
        tidy hands would. An illegal move is made all the same, to see the board refuse it."""
        b = self.rig.board
        self.rig.until(self._still, 3000)  # tidy hands wait until the board has seen the last ones
        text = a.get("action", "").strip()
        if not text:
            if b.pending < 0:
                return {"error": "the board has no action waiting to be carried out"}
            text = action_text(b.pending)
        why = self.rig.act(text)
        if why:
            return {"note": "illegal %s: %s; done all the same" % (text, why)}

    def _still(self):
        """The sensors show the board as it is, and the firmware has judged it."""
        v = self.rig.virtual
        return (self.rig.board.judged and bytes(v.scanner.cells) == bytes(v.tiles)
                and all(bool(v.occupancy[c]) == bool(v.pieces[c]) for c in range(64)))

    def op_tidy(self, a):
        """Put the board back as the game says: every piece and tile in its place, hands empty."""
        self._arrange()

    def _arrange(self):
        # The board laid out as the game says, at once; and the firmware
        # given the board time to see it (a sweep of tile reads), so that
        # the next hand counts: until then the board waits to be put back.
        self.rig.arrange()
        self.rig.until(self._still, 10000)

    # The game: vortex.app.commands, as the link and the menu use them.
    def op_takeback(self, a):
        commands.takeback(self.rig.board)

    def op_hint(self, a):
        commands.hint(self.rig.board)

    def op_new(self, a):
        """A new game, from the start or a pasted position; the board laid
        out for it at once."""
        text = a.get("position", "").strip()
        try:
            commands.new_game(self.rig.board, text or None)
        except NotationError as e:
            return {"error": "position not loaded: %s" % e}
        self._arrange()

    def op_set(self, a):
        """One setting by name and value (vortex.app.commands: ai off/light/dark,
        level 1-5, clock, brightness, budget, hearts), taken at once."""
        commands.set_setting(self.rig.board, a["name"], a["value"])

    def op_record(self, a):
        """Load a game record (docs/record.md): the game it holds, at its last action."""
        from vortex import record
        try:
            tags, start, actions = record.read(a["text"])
            pos = Position(start)
            for text in actions:
                pos.push(pos.parse_action(text))
        except ValueError as e:  # NotationError and IllegalAction are ValueErrors too
            return {"error": "record not loaded: %s" % str(e).split("\n")[0]}
        self._fresh(self.rig.board.settings, start, pos.stack)
        return {"actions": len(actions)}

    def record(self):
        """The game as a record (docs/record.md)."""
        from vortex import record
        b = self.rig.board
        return record.write(commands.record_tags(b, time.strftime("%Y.%m.%d")), b.start,
                            [action_text(a) for a in b.pos.stack])

    def op_sensors(self, a):
        """Sensor noise: bounce_ms (reed chatter after a change), misread (per
        mille of NFC reads); supply: the USB-C source the board is plugged
        into (usb, 1.5a, 3a), read as at power-on: the LEDs' budget follows."""
        v = self.rig.virtual
        v.bounce_ms = a.get("bounce_ms", v.bounce_ms)
        v.misread = a.get("misread", v.misread)
        if "supply" in a:
            self.supply = a["supply"]
            self.rig.plug(self.supply)
            self.rig.wait(TICK_MS)  # the frame drawn again within the new budget

    def op_view(self, a):
        """The position after the first `ply` actions of the game (for the action list)."""
        b = self.rig.board
        ply = a["ply"]
        if ply > len(b.pos.stack):
            raise BadRequest("ply: a whole number from 0 to %d, not %d" % (len(b.pos.stack), ply))
        p = Position(b.start)
        for action in b.pos.stack[:ply]:
            p.push(action)
        return {"position": p.text(), "tiles": list(p.tiles), "pieces": list(p.pieces)}

    def _tray(self):
        """How many of each piece code wait beside the board."""
        count = [0] * 8
        for side in self.rig.virtual.tray:
            for code in side:
                count[code] += 1
        return count

    # --- what pages see --------------------------------------------------------
    def _sound(self):
        """The last sound the board's buzzer played: its id (a count: a page
        plays each new one once), name, tones (hz, ms; 0 Hz a rest: the
        firmware's vortex.app.sounds.NOTES) and volume; None before any."""
        bz = self.rig.virtual.buzzer
        if not bz.played:
            return None
        _, name, volume = bz.played[-1]
        notes = sounds.NOTES[sounds.NAMES.index(name)]
        return {"id": self._sounds_before + bz.count, "name": name, "volume": commands.VOLUME_VALUES[volume],
                "notes": [[notes[i], notes[i + 1]] for i in range(0, len(notes), 2)]}

    def state(self):
        """Everything a page draws, as JSON-ready data (call with the lock held)."""
        rig = self.rig
        b, v, pos = rig.board, rig.virtual, rig.board.pos
        result = b.result()
        s = b.settings
        clock = list(b.clock.left) if b.clock else None
        self._clock_shown = clock[pos.side] // 1000 if clock else None
        return {
            "version": self.version, "ack": self.ack, "now": rig.now,
            "frame": list(b.frame), "level": leds.LEVELS[s.brightness],
            "budget_ma": b.budget_ma(), "supply": self.supply, "supply_ma": b.supply_ma,
            "current_ma": leds.current_ma(b.frame),
            "sound": self._sound(),
            "tiles": list(v.tiles), "pieces": list(v.pieces),
            "hand": [[h[0], h[1]] for h in v.hand], "tray": self._tray(),
            "game": {"tiles": list(pos.tiles), "pieces": list(pos.pieces)},
            "position": pos.text(), "start": b.start, "actions": [action_text(a) for a in pos.stack],
            "side": SIDE_NAMES[pos.side], "building": pos.is_building(),
            "pool": list(pos.pool[1:5]), "vortexes": list(pos.vortexes), "quiet": pos.quiet,
            "clock": clock,
            "pending": action_text(b.pending) if b.pending >= 0 else None,
            "result": None if result is None else {
                "winner": None if result.winner is None else SIDE_NAMES[result.winner],
                "reason": result.reason},
            "verdict": VERDICT_NAMES[b.verdict].decode(),
            # the action the board saw that is not the one it asks for
            "seen": action_text(b.sense.action) if b.verdict == NOT_ASKED else None,
            "menu": b.menu is not None,
            "menu_item": b.menu.item if b.menu is not None else None,
            "settings": {n: commands.value(s, n) for n in commands.NAMES},
            "messages": self.log[-12:], "note": self.note,
            "online": self.online.view() if self.online is not None else None,
            "sensors": {"raw": list(v.reeds.raw), "occupancy": list(v.occupancy), "readings": list(v.scanner.cells),
                        "ids": list(v.scanner.ids), "bounce_ms": v.bounce_ms, "misread": v.misread},
        }
