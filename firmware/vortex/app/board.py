"""The board's brain: sensor snapshots and time in, LED frames and committed
actions out. Pure: the hardware (or the virtual board) is driven by the caller.

    board = Board(store, Settings())
    while True:
        if board.step(now_ms, reeds.cells, tiles.cells, tiles.ids, buttons):
            pixels.show(board.frame)

The game is board.pos (an engine Position); board.pos.stack lists the
actions committed since board.start. Every commit is saved to the store
as one journal record; the whole game at a new game, a resume or new
settings (session.py says what each holds).
This file keeps the session (the game, its commits and saves, the clock,
buttons and menu); sensing.py follows and judges the sensors; render.py
draws the LEDs.
"""
from vortex.engine.defs import cell_name, const
from vortex.engine.position import Position, Outcome, START, TIME_OUT
from vortex.engine import setup
from vortex.app.sensing import Sensing, SETTLE_MS  # noqa: F401 (SETTLE_MS: for the rigs)
from vortex.app.render import Renderer
from vortex.app.clock import Clock
from vortex.app.ai import Ai, searcher, DEVICE_LEVELS
from vortex.app import session
from vortex.app.session import Settings
from vortex.app.buttons import Buttons, SHORT_A, SHORT_B, HOLD_A, HOLD_B, HOLD_AB
from vortex.app.menu import Menu
from vortex.app import leds

HINT_LEVEL = const(3)  # the AI level that gives hints


class Board:
    """Board(store=None, settings=None, seed=1): resumes the game in the
    store if there is one, else starts a new game with the settings. seed
    makes the AI's choices repeatable."""

    def __init__(self, store=None, settings=None, seed=1):
        self.store = store
        self.sense = Sensing()
        self.rec = self.sense.rec  # the recogniser, for views that show its findings
        self.view = Renderer()
        self.frame = self.view.frame  # bytearray(192): R, G, B per cell (a1 first), redrawn in place
        self.ai = None  # made on first need: its action buffer costs 1 KB
        self._search = None  # the AI's search, shared by its levels and the hints
        self.hint_action = -1  # shown after a hold of A, until the next action
        self.on_think = None  # on_think(frame_changed), called while the AI thinks
        self.thinking = False
        self._spin = 0
        self._seed = seed
        self.buttons = Buttons()
        self.menu = None  # the settings menu, while it is open
        self._low = False
        self.dirty = True  # the frame is to be drawn again
        self.messages = []  # the last few things that happened, for a log or a screen
        saved = None
        if store is not None:
            data = store.load()
            if data:
                try:
                    saved = session.load(data, store.records())
                except ValueError as e:  # a save from another version: start afresh, say so
                    self.say("save not resumed: %s" % e)
        if saved:
            self.settings, self.start, self.pos, left = saved
            self._setup_clock(left)
            self._after_change(True)
            self.save()  # compaction: the snapshot with the journal folded in
            self.say("resumed after %d actions" % len(self.pos.stack))
        else:
            self.settings = settings or Settings()
            self.new_game(START)

    # --- the sensing verdict, for the layers above ----------------------------
    @property
    def verdict(self):
        return self.sense.verdict

    @property
    def flashing(self):
        return self.sense.flashing

    @property
    def judged(self):
        return self.sense.judged

    # --- the game session ---------------------------------------------------
    def new_game(self, text=START):
        """Start a new game from a position (the start by default) and save it."""
        self.start = text
        self.pos = Position(text)
        self._setup_clock(None)
        self._after_change(True)
        self.save()

    def _setup_clock(self, left):
        s = self.settings
        self.clock = Clock(s.clock_ms, s.increment_ms) if s.clock_ms else None
        if self.clock and left:
            self.clock.left[0], self.clock.left[1] = left[0], left[1]
        self.timed_out = None

    def request(self, action):
        """An action to carry out on the board: a remote opponent's. The
        board lights it and accepts only it from the side to act."""
        if self.pos.is_legal(action):
            self.pending = action
            self.dirty = True

    def takeback(self):
        """Take back the last action; against the AI, back to the human's turn."""
        if not self.pos.stack or self.timed_out:
            return False
        self.pos.pop()
        n = 1
        if self.settings.ai_side == self.pos.side and self.pos.stack:
            self.pos.pop()
            n = 2
        self._record(session.undo_record(n, self._left()))  # saved before the AI thinks
        self._after_change(True)
        self.say("takeback")
        return True

    def settings_changed(self):
        """The settings were changed (the menu, the host link, the
        simulator's page): the AI may now play the side to act; save them."""
        self._after_change(False)
        self.save()  # the settings are in the snapshot

    def commit(self, action):
        """Play an action the sensors showed: push it, run the clock, save."""
        side = self.pos.side
        self.pos.push(action)
        if self.clock:
            self.clock.pressed(side)
        # Saved before the AI thinks (seconds on the device): a power cut
        # while it thinks must not lose this action.
        self._record(session.action_record(action, self._left()))
        self._after_change(False)
        self.say("played %s" % self.pos.action_text(action))

    def set_heart(self, f, t):
        """The setup option: the game starts from the Heart's new cell."""
        pos = Position(self.start)
        setup.set_heart(pos, f, t)
        self.new_game(pos.text())
        self.sense.restoring = False  # the board already shows it
        self.say("Heart set on " + cell_name(t))

    def _after_change(self, restore):
        # The game changed: find the next action to carry out, redraw.
        # restore: the board must show the game again before anything counts.
        self.outcome = self.pos.outcome()
        self.pending = -1
        self.hint_action = -1
        if self.outcome is None and self.settings.ai_side == self.pos.side:
            self.pending = self._think(self.settings.ai_level)
        self.sense.expect_new(restore)
        self.dirty = True

    def _left(self):
        return self.clock.left if self.clock else (0, 0)

    def save(self):
        """Write the whole game to the store: a snapshot, which also folds in
        (compacts) the records appended since the last one."""
        if self.store is not None:
            self.store.save(session.dump(self.settings, self.start, self.pos.stack, self._left()))

    def _record(self, record):
        # One change, appended to the store's journal: the same cost at any
        # length of game.
        if self.store is not None:
            self.store.append(record)

    def say(self, text):
        """Log a line in self.messages (the last eight are kept)."""
        m = self.messages
        m.append(text)
        if len(m) > 8:
            m.pop(0)

    def result(self):
        """The Outcome (engine's, or a time-out), or None while the game goes on."""
        return self.timed_out or self.outcome

    # --- the loop -----------------------------------------------------------
    def step(self, now, occ, tiles, ids, buttons=0):
        """One tick. occ: bytearray(64) debounced occupancy; tiles: bytearray(64)
        tile readings (vortex.tag codes); ids: bytearray(64) tile serials (0
        unknown); buttons: the raw state, bits buttons.A and buttons.B.
        Returns True when self.frame changed. Allocates nothing unless
        something happened."""
        event = self.buttons.update(buttons, now)
        if event:
            self._button(event)
        clock = self.clock
        if clock:
            if self.menu is not None or self.sense.restoring:
                # Setting up, or putting the board back as the game says
                # (a takeback, a new game, a resume), is not thinking time.
                clock.pause()
            elif self.result() is None:
                if clock.tick(now, self.pos.side):
                    self.timed_out = Outcome(self.pos.side ^ 1, TIME_OUT)
                    self.dirty = True
                    self._record(session.clock_record(clock.left))
                elif clock.is_low(self.pos.side) != self._low:
                    self._low = not self._low
                    self.dirty = True
        sense = self.sense
        if self.menu is not None:
            sense.judged = False  # the game waits; judge the board when the menu closes
        elif sense.step(self, now, occ, tiles, ids):
            self.dirty = True
        if sense.flash_over(now) or self.view.blink_due(now):
            self.dirty = True
        if self.dirty:
            self.dirty = False
            return self.view.draw(self, now)
        return False

    def _button(self, event):
        self.dirty = True
        menu = self.menu
        if menu is not None:
            if event == SHORT_A:
                menu.next_value()
            elif event == SHORT_B:
                menu.next_item()
            else:  # a hold closes the menu; A+B also starts a new game
                self.menu = None
                if event == HOLD_AB:
                    self.new_game(START)
                    self.say("new game")
                else:
                    self.settings_changed()  # the AI may have changed sides
                self.say("settings closed")
        elif event == SHORT_A:
            self.takeback()
        elif event == HOLD_A:
            if self.result() is None and self.pending < 0:
                self.hint_action = self._think(HINT_LEVEL)
        elif event == SHORT_B:
            self.settings.level = (self.settings.level + 1) % len(leds.LEVELS)
        elif event == HOLD_B:
            self.menu = Menu(self.settings)
            self.say("settings")
        elif event == HOLD_AB:
            self.new_game(START)
            self.say("new game")

    def hint(self, reader):
        """Tell the tile reader (its expect(cell)) where to read first, when
        that has changed: where tiles are laid, lifted or moved."""
        self.sense.hint(reader)

    # --- the AI -------------------------------------------------------------
    def make_search(self):
        """Make the AI's search now (one, sized for the deepest device level,
        shared by the levels and the hints), instead of at its first action:
        on the RP2040 importing and building it takes about 170 ms, a stall
        of the reed scan that main.py pays at boot rather than mid-game."""
        if self._search is None:
            self._search = searcher(DEVICE_LEVELS, self._thinking)

    def _think(self, level):
        """The AI's action at `level` for the side to act. The search calls
        _thinking() at every node, so the caller's on_think() keeps the
        reeds scanned, the watchdog fed and the LEDs turning meanwhile."""
        if self._search is None and not self.pos.is_building():
            self.make_search()  # laying tiles needs none
        ai = self.ai
        if ai is None or ai.level != level or ai.search is not self._search:
            ai = self.ai = Ai(level=level, seed=self._seed, search=self._search)
        self.thinking = True
        self._spin = 0
        try:
            return ai.choose(self.pos)
        finally:
            self.thinking = False
            self.dirty = True

    def _thinking(self):
        # A light turns round the centre while the AI thinks.
        spin = self._spin
        self._spin = spin + 1
        changed = self.view.spin(spin, self.settings)
        if self.on_think is not None:
            self.on_think(changed)

