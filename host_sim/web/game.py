"""One game for the browser simulator: the firmware's Board on the virtual
board (host_sim.scenario.Rig), ticking in real time at the firmware's 5 ms,
driven by hand events and watched by any number of pages.

Everything a page may ask goes through Game.command(op, args) and returns a
dict; every answer and every state is plain JSON. No rule and no recognition
lives here either: hands move things on the VirtualBoard, the firmware's
sensors and Board.step() make of it what the real board would.
"""
import threading
import time

from vortex.engine import Position, NotationError, IllegalAction
from vortex.engine.defs import LIGHT, DARK, TERRAIN_LETTERS, SIDE_NAMES, cell_name
from vortex.engine.codes import is_move, move_from, move_to, piece_side
from vortex.engine.notation import parse_cell, parse_action, action_text
from vortex.engine.position import START
from vortex.app.session import Settings, NO_AI
from vortex.app.recognise import AGREE, HAND, WAIT, ACTION, ILLEGAL, DISAGREE, SETUP
from vortex.app import leds, session
from vortex.app.menu import AI_LEVELS
from host_sim.scenario import Rig, TICK_MS
from host_sim.virtual import PhysicsError

VERDICTS = {AGREE: "the board agrees with the game", HAND: "a piece in hand",
            WAIT: "an action under way", ACTION: "an action", ILLEGAL: "illegal action",
            DISAGREE: "put the board back as the LEDs show", SETUP: "a Heart moved"}
MODES = {"two": NO_AI, "ai-dark": DARK, "ai-light": LIGHT}
HAND_MS = 10  # a hand event is followed by this much board time at once: the reed debounce
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

    def _advance(self, ms):
        # Board time runs ahead of the wall clock for a hand's settling;
        # the clock is re-anchored so the ticks then carry on from there.
        self.rig.wait(ms)
        self._anchor = (time.monotonic(), self.rig.now)

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
        try:
            event = int(args.get("id", 0))
        except (TypeError, ValueError):
            raise BadRequest("the event id must be a number")
        with self.lock:
            try:
                answer = fn(args) or {}
            except PhysicsError as e:
                answer = {"error": str(e)}
            except (NotationError, IllegalAction) as e:
                answer = {"error": str(e)}
            except (KeyError, TypeError, IndexError) as e:
                raise BadRequest("bad request %s: %s" % (op, e))
            except ImportError:
                answer = {"error": NO_RECORDS}
            self.ack = max(self.ack, event)
            self.note = answer.get("error") or answer.get("note", "")
            self._bump()
            return answer

    # Hands. Each does what one hand does, then lets the sensors see it.
    def op_lift(self, args):
        """Pick up the piece on a cell, or the tile when there is no piece (or tile=true)."""
        c = _cell(args["cell"])
        v = self.rig.virtual
        if v.pieces[c] and not args.get("tile"):
            v.lift(c, self.rig.now)
        else:
            v.lift_tile(c, self.rig.now)
        self._advance(HAND_MS)

    def op_put(self, args):
        """Put a held thing (hand index `item`, default the last taken) on a cell.
        A tile laid where a piece stands goes under it: the piece is lifted and put back."""
        c = _cell(args["cell"])
        v = self.rig.virtual
        held = self._held(args.get("item", -1))
        if held[0] == "piece":
            v.hand.append(v.hand.pop(v.hand.index(held)))  # place() puts the last piece taken
            v.place(c, self.rig.now)
        else:
            which = [h for h in v.hand if h[0] == "tile"].index(held)
            self._under_piece(c, lambda: v.place_tile(c, self.rig.now, which=which))
        self._advance(HAND_MS)

    def _under_piece(self, c, lay):
        # Whatever stands on the cell is lifted, the tile laid, the piece put back.
        v = self.rig.virtual
        if not v.pieces[c]:
            return lay()
        v.lift(c, self.rig.now)
        self._advance(HAND_MS)
        try:
            lay()
        finally:
            self._advance(HAND_MS)
            v.place(c, self.rig.now)

    def op_move(self, args):
        """A drag from one cell to another: the piece (or a lone tile) carried
        there. Onto an opponent's piece: that one is lifted and set aside first;
        a tile onto a tile: that one is lifted and laid where this came from."""
        f, t = _cell(args["from"]), _cell(args["to"])
        v = self.rig.virtual
        if f == t:
            return  # put back where it was: nothing happened
        # What a hand cannot do is refused before anything leaves the board.
        if v.pieces[f] and not args.get("tile"):
            mover, there = v.pieces[f], v.pieces[t]
            if there and piece_side(there) == piece_side(mover):
                raise PhysicsError("%s holds a piece of the same side" % cell_name(t))
            v.lift(f, self.rig.now)
            self._advance(HAND_MS)
            if there:
                v.lift(t, self.rig.now)
                self._advance(HAND_MS)
                v.drop()  # theirs, set beside the board
            v.place(t, self.rig.now)
        else:
            if v.pieces[f] or v.pieces[t]:
                raise PhysicsError("lift the piece off %s first" % cell_name(t if v.pieces[t] else f))
            v.lift_tile(f, self.rig.now)
            self._advance(HAND_MS)
            if v.tiles[t]:
                v.lift_tile(t, self.rig.now)
                self._advance(HAND_MS)
                v.place_tile(t, self.rig.now, which=-2)
                self._advance(HAND_MS)
                v.place_tile(f, self.rig.now)
            else:
                v.place_tile(t, self.rig.now)
        self._advance(HAND_MS)

    def op_lay(self, args):
        """Lay a new tile of a terrain (W, F, E, A) from the box on a cell."""
        t = TERRAIN_LETTERS.find(str(args["terrain"]).upper())
        if t < 1:
            raise BadRequest("no terrain %r (W, F, E or A)" % args["terrain"])
        c = _cell(args["cell"])
        v = self.rig.virtual
        if v.tiles[c]:
            raise PhysicsError("%s already has a tile" % cell_name(c))
        self._under_piece(c, lambda: v.lay_new(t, c, self.rig.now))
        self._advance(HAND_MS)

    def op_from_tray(self, args):
        """Put a piece from beside the board (a letter: T S H Light, t s h Dark) on a cell."""
        self.rig.virtual.from_tray(str(args["piece"]), _cell(args["cell"]), self.rig.now)
        self._advance(HAND_MS)

    def op_aside(self, args):
        """Set a held thing aside: a piece beside the board, a tile back in the box."""
        v = self.rig.virtual
        held = self._held(args.get("item", -1))
        v.hand.remove(held)
        if held[0] == "piece":
            v.hand.append(held)
            v.drop()  # the virtual board keeps it beside the board

    def _held(self, item):
        hand = self.rig.virtual.hand
        if not hand:
            raise PhysicsError("the hand is empty")
        try:
            return hand[int(item)]
        except (IndexError, ValueError):
            raise BadRequest("nothing held as item %r" % (item,))

    def _tray(self):
        """How many of each piece code wait beside the board."""
        count = [0] * 8
        for side in self.rig.virtual.tray:
            for code in side:
                count[code] += 1
        return count

    def op_button(self, args):
        """The raw state of the buttons: a=1/0, b=1/0 (held down or not)."""
        self.rig.buttons = (1 if args.get("a") else 0) | (2 if args.get("b") else 0)
        self._advance(TICK_MS)

    # Tidy hands.
    def op_act(self, args):
        """Carry out an action typed in notation (or the board's pending one) as
        tidy hands would. An illegal move is made all the same, to see the board refuse it."""
        b = self.rig.board
        self.rig.until(self._still, 3000)  # tidy hands wait until the board has seen the last ones
        text = str(args.get("action", "")).strip()
        if not text:
            if b.pending < 0:
                return {"error": "the board has no action waiting to be carried out"}
            a = b.pending
        else:
            a = parse_action(text)
            if not b.pos.is_legal(a):
                why = b.pos.why_illegal(a)
                if not is_move(a):
                    return {"error": "illegal %s: %s" % (text, why)}
                self.rig.do("lift", move_from(a))
                self.rig.do("place", move_to(a))
                self._anchor = (time.monotonic(), self.rig.now)
                return {"note": "illegal %s: %s; done all the same" % (text, why)}
        self.rig.virtual.hand[:] = []
        self.rig.play(a, settle=False)
        self._anchor = (time.monotonic(), self.rig.now)

    def _still(self):
        """The sensors show the board as it is, and the firmware has judged it."""
        v = self.rig.virtual
        return (self.rig.board.judged and bytes(v.scanner.cells) == bytes(v.tiles)
                and all(bool(v.occupancy[c]) == bool(v.pieces[c]) for c in range(64)))

    def op_tidy(self, args):
        """Put the board back as the game says: every piece and tile in its place, hands empty."""
        v, pos = self.rig.virtual, self.rig.board.pos
        now = self.rig.now
        for c in range(64):
            if v.pieces[c] != pos.pieces[c] or v.tiles[c] != pos.tiles[c]:
                v.pieces[c] = pos.pieces[c]
                if v.tiles[c] != pos.tiles[c]:
                    v.tiles[c] = pos.tiles[c]
                    v.serials[c] = v._serial() if pos.tiles[c] else 0
                v._touch(c, now)
        v.hand[:] = []
        self._advance(HAND_MS)

    # The game.
    def op_takeback(self, args):
        if not self.rig.board.takeback():
            return {"error": "nothing to take back"}

    def op_new(self, args):
        """A new game: mode two / ai-dark / ai-light, from the start or a pasted position."""
        settings = self.rig.board.settings
        mode = args.get("mode")
        if mode is not None:
            if mode not in MODES:
                raise BadRequest("no mode %r (%s)" % (mode, ", ".join(MODES)))
            settings.ai_side = MODES[mode]
        text = str(args.get("position") or START).strip()
        try:
            Position(text)
        except NotationError as e:
            return {"error": "position not loaded: %s" % e}
        self._fresh(settings, text)

    def op_opponent(self, args):
        """The opponent, at once: mode two / ai-dark / ai-light, ai_level 1 to 5
        (the menu's). The Board takes it as a change from its settings menu:
        the AI plays now if it is its turn, and the game is saved with it."""
        s = self.rig.board.settings
        mode, level = args.get("mode", None), args.get("ai_level", None)
        if mode is not None and mode not in MODES:
            raise BadRequest("no mode %r (%s)" % (mode, ", ".join(MODES)))
        if level is not None and (not isinstance(level, int) or isinstance(level, bool)
                                  or not 1 <= level <= AI_LEVELS):
            raise BadRequest("no AI level %r (1 to %d)" % (level, AI_LEVELS))
        if mode is not None:
            s.ai_side = MODES[mode]
        if level is not None:
            s.ai_level = level
        self.rig.board.settings_changed()

    def op_record(self, args):
        """Load a game record (docs/record.md): the game it holds, at its last action."""
        from vortex import record
        try:
            tags, start, actions = record.read(str(args["text"]))
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
        names = ["player", "player"]
        if b.settings.ai_side != NO_AI:
            names[b.settings.ai_side] = "board AI"
        tags = {"Date": time.strftime("%Y.%m.%d"), "Light": names[0], "Dark": names[1],
                "Result": record.result_text(b.result())}
        return record.write(tags, b.start, [action_text(a) for a in b.pos.stack])

    def op_sensors(self, args):
        """Sensor noise: bounce_ms (reed chatter after a change), misread (per mille of NFC reads)."""
        v = self.rig.virtual
        if "bounce_ms" in args:
            v.bounce_ms = min(MAX_BOUNCE_MS, max(0, int(args["bounce_ms"])))
        if "misread" in args:
            v.misread = min(MAX_MISREAD, max(0, int(args["misread"])))

    def op_view(self, args):
        """The position after the first `ply` actions of the game (for the action list)."""
        b = self.rig.board
        ply = int(args["ply"])
        if not 0 <= ply <= len(b.pos.stack):
            raise BadRequest("no action %d in this game" % ply)
        p = Position(b.start)
        for a in b.pos.stack[:ply]:
            p.push(a)
        return {"position": p.text(), "tiles": list(p.tiles), "pieces": list(p.pieces)}

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
            "frame": list(b.frame), "level": leds.LEVELS[s.level], "budget_ma": s.budget_ma,
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
            "verdict": VERDICTS.get(b.verdict, ""), "menu": b.menu is not None,
            "menu_item": b.menu.item if b.menu is not None else None,
            "mode": {v_: k for k, v_ in MODES.items()}.get(s.ai_side, "two"), "ai_level": s.ai_level,
            "messages": self.log[-12:], "note": self.note,
            "sensors": {"raw": list(v.reeds.raw), "occupancy": list(v.occupancy), "readings": list(v.scanner.cells),
                        "ids": list(v.scanner.ids), "bounce_ms": v.bounce_ms, "misread": v.misread},
        }
