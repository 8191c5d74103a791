"""The board at the end of the page's link (docs/protocol.md), as the
firmware's online client and the page see a board: its game (start and
actions, in the engine: the same code as on the board), the action it asks
for, and the commands that change it, sent as link lines.

    b = Linked(send=lambda line: ..., say=print)
    b.read_record(text)          # the board's `record`: its game, whole
    b.event("action", "1 W@d4")  # every event of the link
    b.view()                     # what the page draws, as JSON

vortex.online.client.Online drives it as it drives a Pico W's Board:
commands.request (request), commands.take_game (game ... end), takeback,
set_remote; what it changes is sent at once and taken as done here (the
board's echo of it is recognised, not taken again), so a pass that follows
sees the board as it will be. No rule here: the engine decides, the board
judges what hands do.
"""
import json

from vortex.engine.position import Position
from vortex.engine.notation import action_text
from vortex.engine.defs import LIGHT, DARK
from vortex.app.session import Settings, NO_AI
from vortex.app.commands import CommandError, change, settings_text
from vortex import record

LINE_MAX = 200  # the link's, its end not counted (docs/protocol.md)
SIDES = ("light", "dark")


class Linked:
    def __init__(self, send, say=None):
        self.send = send  # a link line to the board (the page's LinkHost)
        self.say = say or (lambda line: None)
        self.menu = None  # the link does not say when the menu is open: the board refuses then
        self.start = None
        self.pos = None  # the board's game, once its record is read
        self.pending = -1  # the action the board asks for (asks)
        self.settings = Settings()
        self.remote = (0, 0)  # (presence, side) of a remote opponent: the page shows it
        self.version = 0  # counts changes: the page draws again
        self._new_echo = 0  # `new` events that are our own game given whole
        self._takeback_echo = 0  # `takeback` events that are our own
        self._refused = None  # (actions, text) of a request the board refused

    # --- what the link says ---------------------------------------------------
    def read_record(self, text):
        """The board's game from its `record` (start and actions). The same
        game as the one kept keeps its Position, so that nothing following
        the board sees a new game where there is none (a cable back)."""
        tags, start, actions = record.read(text)
        if self.pos is not None and start == self.start and len(actions) == len(self.pos.stack) \
                and all(actions[i] == action_text(self.pos.stack[i]) for i in range(len(actions))):
            return False
        pos = Position(start)
        for t in actions:
            pos.push(pos.parse_action(t))
        self.start, self.pos = start, pos
        self._new_echo = self._takeback_echo = 0
        self.version += 1
        return True

    def read_settings(self, text):
        """`ok settings ai=off clock=0+0 ...`: the board's settings."""
        for word in text.split():
            name, _, value = word.partition("=")
            try:
                change(self.settings, name, value)
            except ValueError:
                pass  # a setting of a later board: not ours to know
        self.version += 1

    def event(self, kind, rest):
        """An event of the link; True when the board's game or its ask changed.
        "resync" when the page must read the board's record again (a line
        that does not read, an action that does not follow: the record says)."""
        try:
            return self._event(kind, rest)
        except ValueError:
            return "resync"

    def _event(self, kind, rest):
        words = rest.split()
        pos = self.pos
        self.version += 1
        if kind == "asks":
            self.pending = -1
            if pos is not None and words and words[0] != "-":
                try:
                    self.pending = pos.parse_action(words[0])
                except ValueError:
                    return "resync"
            return True
        if pos is None:
            return "resync" if kind in ("action", "takeback", "new") else False
        if kind == "action" and len(words) == 2:
            n = int(words[0])
            if n == len(pos.stack) + 1:
                try:
                    pos.push(pos.parse_action(words[1]))
                    return True
                except ValueError:
                    pass
            elif n <= len(pos.stack) and action_text(pos.stack[n - 1]) == words[1]:
                return False
            return "resync"
        if kind == "takeback" and words:
            n = int(words[0])
            if self._takeback_echo and n == len(pos.stack):
                self._takeback_echo -= 1
                return False
            if n > len(pos.stack):
                return "resync"
            while len(pos.stack) > n:
                pos.pop()
            return True
        if kind == "new":
            if self._new_echo:
                self._new_echo -= 1
                return False
            return "resync"  # a new game on the board (A+B, another host): its record says which
        return False

    def refused(self, command, reason):
        """An `error` answer to a command of ours: said; a refused request is
        refused again at once until the game changes (no line a pass)."""
        if command.startswith("request ") and self.pos is not None:
            self._refused = (len(self.pos.stack), command[8:])
            if self.pending >= 0 and action_text(self.pending) == command[8:]:
                self.pending = -1
        self.say("the board refused %s: %s" % (command, reason))
        self.version += 1

    # --- what the online client (and the page) asks of the board --------------
    def result(self):
        return None if self.pos is None else self.pos.outcome()

    def request(self, action):
        text = action_text(action)
        if self._refused == (len(self.pos.stack), text):
            raise CommandError("the board refused %s" % text)
        self.send("request " + text)
        self.pending = action
        self.version += 1

    def new_game(self, start, actions=()):
        """The board's game becomes this one (commands.take_played): sent as
        `game START`, `game + ...` lines, `game end`."""
        self.send("game " + start)
        line = "game +"
        texts = [action_text(a) for a in actions]
        for t in texts:
            if len(line) + 1 + len(t) > LINE_MAX:
                self.send(line)
                line = "game +"
            line += " " + t
        if line != "game +":
            self.send(line)
        self.send("game end")
        pos = Position(start)
        for a in actions:
            pos.push(a)
        self.start, self.pos = start, pos
        self.pending = -1
        self._new_echo += 1
        self.version += 1

    def takeback(self):
        if self.pos is None or not self.pos.stack:
            return False
        self.send("takeback")
        self.pos.pop()
        self._takeback_echo += 1
        self.version += 1
        return True

    def set_remote(self, presence, side=0):
        if self.remote != (presence, side):
            self.remote = (presence, side)
            self.version += 1

    def take_record(self, text):
        """A game record's text (a file): the board takes its game; the
        number of actions. ValueError (one line) if it is not a record."""
        from vortex.app import commands
        tags, start, actions = record.read(text)
        commands.take_game(self, start, actions)
        return len(actions)

    def record_file(self, text, date):
        """The board's `record`, with the date the board cannot know."""
        tags, start, actions = record.read(text)
        tags["Date"] = date
        return record.write(tags, start, actions)

    # --- what the page draws ------------------------------------------------------
    def view(self):
        """The game as the page draws it (JSON): the engine's own reading of it."""
        pos = self.pos
        if pos is None:
            return json.dumps(None)
        out = pos.outcome()
        return json.dumps({
            "start": self.start, "position": pos.text(),
            "tiles": list(pos.tiles), "pieces": list(pos.pieces),
            "side": SIDES[pos.side], "building": pos.is_building(),
            "pool": list(pos.pool[1:5]), "vortexes": list(pos.vortexes),
            "quiet": pos.quiet, "actions": [action_text(a) for a in pos.stack],
            "pending": action_text(self.pending) if self.pending >= 0 else None,
            "result": None if out is None else {"text": record.result_text(out),
                                                "winner": out.name(), "reason": out.reason},
            "remote": list(self.remote), "version": self.version})
