"""One game for the browser simulator: the firmware's Board on the virtual
board (host_sim.scenario.Rig), ticking in real time at the firmware's 5 ms,
driven by hand events and watched by any number of pages.

Everything a page may ask goes through Game.command(op, args) and returns a
dict; every answer and every state is plain JSON. No rule, no recognition
and no hand sequence lives here: the rig's hands move things on the
virtual board, the firmware's sensors and Board.step() make of it what the
real board would, and the game's commands are vortex.app.commands'.
"""
import threading
import time

from vortex.engine import Position, NotationError, IllegalAction
from vortex.engine.defs import TERRAIN_LETTERS, SIDE_NAMES
from vortex.engine.notation import parse_cell, action_text
from vortex.app.session import Settings
from vortex.app.recognise import VERDICT_NAMES
from vortex.app import leds, session, commands
from vortex.app.commands import CommandError
from host_sim.scenario import Rig, TICK_MS, HAND_MS
from host_sim.virtual import PhysicsError

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


def _cell(value):
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < 64:
                return value
            raise ValueError
        return parse_cell(str(value))
    except (ValueError, NotationError):
        raise BadRequest("no cell %r on the board" % (value,))


def _int(args, name, low, high):
    """An integer argument within [low, high]; BadRequest otherwise."""
    v = args.get(name)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise BadRequest("%s: a whole number from %d to %d, not %r" % (name, low, high, v))
    return v


def _flag(args, name):
    """A yes/no argument: true/false or 1/0 (absent: no)."""
    v = args.get(name, False)
    if v not in (True, False, 0, 1):
        raise BadRequest("%s: true or false, not %r" % (name, v))
    return bool(v)


def _text(args, name, default=None):
    v = args.get(name, default)
    if not isinstance(v, str):
        raise BadRequest("%s: a text, not %r" % (name, v))
    return v


class Game:
    """Game(settings=None, position=None, seed=0). Thread-safe: one lock
    guards the rig; the ticking thread and request threads take turns."""

    def __init__(self, settings=None, position=None, seed=0, store=None):
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.seed = seed
        self.version = 0  # bumped whenever something a page shows may have changed
        self.ack = 0  # the last hand event id carried out (pages time their frames by it)
        self.note = ""  # the last thing the simulator itself says (bad input, ...)
        self.running = False
        self._clock_shown = None
        self.ticks = 0  # ticks run by run(), and the time they took: the rate's figures
        self.tick_s = 0.0
        self._shown = bytearray(192)
        self.store = store  # where the Board saves the game after every action (None: nowhere)
        self._rig(settings or Settings(), position, store)

    def _rig(self, settings, position, store=None):
        self.rig = Rig(position, settings=settings, store=store, seed=self.seed)
        self.rig.board.messages[:] = []
        self.log = []
        self._anchor = (time.monotonic(), self.rig.now)
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
        """Tick at the firmware's rate until stop(): board time follows the wall clock."""
        self.running = True
        while self.running:
            with self.lock:
                wall, board_at = self._anchor
                due = board_at + int((time.monotonic() - wall) * 1000)
                behind = (due - self.rig.now) // TICK_MS
                if behind > 40:  # the machine stalled: skip ahead, do not race
                    self._anchor = (time.monotonic(), self.rig.now)
                    behind = 1
                t0 = time.perf_counter()
                for _ in range(max(0, behind)):
                    self.rig.tick()
                if behind > 0:
                    self.ticks += behind
                    self.tick_s += time.perf_counter() - t0
                if self.rig.board.frame != self._shown or self._news():
                    self._bump()
            time.sleep(TICK_MS / 1000)

    def stop(self):
        self.running = False

    def _news(self):
        b = self.rig.board
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
        self.version += 1
        self.changed.notify_all()

    # --- requests ---------------------------------------------------------------
    def command(self, op, args):
        """Carry out one request; a dict to answer with. BadRequest for nonsense."""
        fn = getattr(self, "op_" + op.replace("-", "_"), None)
        if fn is None:
            raise BadRequest("no such request: %s" % op)
        event = args.get("id", 0)
        if not isinstance(event, int) or isinstance(event, bool):
            raise BadRequest("the event id must be a number")
        with self.lock:
            try:
                answer = fn(args) or {}
            except (PhysicsError, NotationError, IllegalAction, CommandError) as e:
                answer = {"error": str(e)}  # the board (or the hands) said no
            except (KeyError, TypeError, IndexError) as e:
                raise BadRequest("bad request %s: %s" % (op, e))
            except ImportError:
                answer = {"error": NO_RECORDS}
            self._anchor = (time.monotonic(), self.rig.now)  # hands ran board time ahead
            self.ack = max(self.ack, event)
            self.note = answer.get("error") or answer.get("note", "")
            self._bump()
            return answer

    # Hands: the rig's, each step followed by HAND_MS of board time.
    def op_lift(self, args):
        """Pick up the piece on a cell, or the tile when there is no piece (or tile=true)."""
        self.rig.pick(_cell(args["cell"]), _flag(args, "tile"))

    def op_put(self, args):
        """Put a held thing (hand index `item`, default the last taken) on a cell."""
        self.rig.put(_cell(args["cell"]), _int(args, "item", -64, 63) if "item" in args else -1)

    def op_move(self, args):
        """A drag from one cell to another (the rig's drag)."""
        self.rig.drag(_cell(args["from"]), _cell(args["to"]), _flag(args, "tile"))

    def op_lay(self, args):
        """Lay a new tile of a terrain (W, F, E, A) from the box on a cell."""
        t = TERRAIN_LETTERS.find(_text(args, "terrain").upper())
        if t < 1:
            raise BadRequest("no terrain %r (W, F, E or A)" % args["terrain"])
        self.rig.lay_new(t, _cell(args["cell"]))

    def op_from_tray(self, args):
        """Put a piece from beside the board (a letter: T S H Light, t s h Dark) on a cell."""
        self.rig.virtual.from_tray(_text(args, "piece"), _cell(args["cell"]), self.rig.now)
        self.rig.wait(HAND_MS)

    def op_aside(self, args):
        """Set a held thing aside: a piece beside the board, a tile back in the box."""
        self.rig.aside(_int(args, "item", -64, 63) if "item" in args else -1)

    def op_button(self, args):
        """The raw state of the buttons: a and b, each true/false (held down or not)."""
        self.rig.buttons = (1 if _flag(args, "a") else 0) | (2 if _flag(args, "b") else 0)
        self.rig.wait(TICK_MS)

    # Tidy hands.
    def op_act(self, args):
        """Carry out an action typed in notation (or the board's pending one) as
        tidy hands would. An illegal move is made all the same, to see the board refuse it."""
        b = self.rig.board
        self.rig.until(self._still, 3000)  # tidy hands wait until the board has seen the last ones
        text = _text(args, "action", "").strip()
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

    def op_tidy(self, args):
        """Put the board back as the game says: every piece and tile in its place, hands empty."""
        self.rig.arrange()

    # The game: vortex.app.commands, as the link and the menu use them.
    def op_takeback(self, args):
        commands.takeback(self.rig.board)

    def op_hint(self, args):
        commands.hint(self.rig.board)

    def op_new(self, args):
        """A new game, from the start or a pasted position; the board laid
        out for it at once."""
        text = _text(args, "position", "").strip()
        try:
            commands.new_game(self.rig.board, text or None)
        except NotationError as e:
            return {"error": "position not loaded: %s" % e}
        self.rig.arrange()

    def op_set(self, args):
        """One setting by name and value (vortex.app.commands: ai off/light/dark,
        level 1-5, clock, brightness, budget, hearts), taken at once."""
        commands.set_setting(self.rig.board, _text(args, "name"), str(args["value"]))

    def op_record(self, args):
        """Load a game record (docs/record.md): the game it holds, at its last action."""
        from vortex import record
        try:
            tags, start, actions = record.read(_text(args, "text"))
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

    def op_sensors(self, args):
        """Sensor noise: bounce_ms (reed chatter after a change), misread (per mille of NFC reads)."""
        v = self.rig.virtual
        if "bounce_ms" in args:
            v.bounce_ms = _int(args, "bounce_ms", 0, MAX_BOUNCE_MS)
        if "misread" in args:
            v.misread = _int(args, "misread", 0, MAX_MISREAD)

    def op_view(self, args):
        """The position after the first `ply` actions of the game (for the action list)."""
        b = self.rig.board
        ply = _int(args, "ply", 0, len(b.pos.stack))
        p = Position(b.start)
        for a in b.pos.stack[:ply]:
            p.push(a)
        return {"position": p.text(), "tiles": list(p.tiles), "pieces": list(p.pieces)}

    def _tray(self):
        """How many of each piece code wait beside the board."""
        count = [0] * 8
        for side in self.rig.virtual.tray:
            for code in side:
                count[code] += 1
        return count

    # --- what pages see --------------------------------------------------------
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
            "budget_ma": s.budget_ma,
            "current_ma": leds.current_ma(b.frame),
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
            "verdict": VERDICT_NAMES[b.verdict].decode(), "menu": b.menu is not None,
            "menu_item": b.menu.item if b.menu is not None else None,
            "settings": {n: commands.value(s, n) for n in commands.NAMES},
            "messages": self.log[-12:], "note": self.note,
            "sensors": {"raw": list(v.reeds.raw), "occupancy": list(v.occupancy), "readings": list(v.scanner.cells),
                        "ids": list(v.scanner.ids), "bounce_ms": v.bounce_ms, "misread": v.misread},
        }
