"""The board's brain: sensor snapshots and time in, LED frames and committed
actions out. Pure: the hardware (or the virtual board) is driven by the caller.

    board = Board(store, Settings())
    while True:                                   # vortex.app.service does this
        if board.step(now_ms, reeds.cells, tiles.cells, tiles.ids, buttons):
            pixels.show(board.frame)

The game is board.pos (an engine Position); board.pos.stack lists the
actions committed since board.start. Every commit is saved to the store
as one journal record; the whole game at a new game, a resume or new
settings (session.py says what each holds).
This file keeps the session (the game, its commits and saves, the clock,
buttons and menu, the AI's turns); sensing.py follows and judges the
sensors and reports what it found, which step() applies; render.py draws
the LEDs from what step() hands it.

The AI thinks inside step(), on a copy of the game, calling on_think() at
every node: the service (vortex.app.service) runs whole passes of the board
from there, so buttons, the host link and the reeds are served while it
thinks. A pass made while it thinks may change the game (a takeback, a new
game, new settings): the search is stopped and its answer dropped.
"""
from vortex.engine.defs import cell_name, const
from vortex.engine.position import Position, Outcome, START, TIME_OUT
from vortex.engine import setup
from vortex.app.sensing import (Sensing, SETTLE_MS, FOUND, HEART_SET, REFUSED, UNASKED,  # noqa
                                ANY, CLOSED)  # (SETTLE_MS: for the rigs)
from vortex.app.render import Renderer, SPIN_MS, BLINK_MS
from vortex.ticks import ticks_diff
from vortex.app.clock import Clock
from vortex.app.ai import Ai, searcher, fit, DEVICE_LEVELS, MIN_TT_BITS
from vortex import heap
from vortex.app import session
from vortex.app.session import Settings
from vortex.app.buttons import Buttons, SHORT_A, SHORT_B, HOLD_A, HOLD_B, HOLD_AB
from vortex.app.menu import Menu  # at boot: on CircuitPython its import later found no block
from vortex.app import commands, leds

NO_SEARCH = "no memory for the AI's search: it plays at level 0"
SHORT_TABLE = "out of memory: the AI searched again with a %d-byte table"
NO_HEAP = "out of memory: the AI's turn waits for heap"
# A save the flash refused (full: errno 28, or worn): the game plays on in
# memory and the last save stays whole on the flash (vortex.hal.store's
# atomic write); each later change tries a whole save again.
NOT_SAVED = "game not saved (%s): play goes on, the flash keeps the last save"
FULL = const(28)  # ENOSPC

HINT_LEVEL = const(3)  # the AI level that gives hints
# A remote opponent (online play: vortex.online.client sets it with set_remote()).
NO_REMOTE = const(0)
REMOTE_HERE = const(1)  # connected: while it is its turn, the thinking light turns
REMOTE_AWAY = const(2)  # gone: its colour stays on the four centre cells
REMOTE_WAIT = const(3)  # the room's game awaited from that side's player: its colour blinks there
# What the AI is to think about next (Board.think).
NOTHING_DUE = const(60000)  # due_in() when nothing the board does by itself is waiting
_PLAY = const(1)
_HINT = const(2)


class Board:
    """Board(store=None, settings=None, seed=1): resumes the game in the
    store if there is one, else starts a new game with the settings. seed
    makes the AI's choices repeatable.

    The contract with the layers above (the service pass, the host link,
    the simulators), as KMK states its modules' hooks:
      changes the game   step() (the pass), and the commands new_game(),
                         takeback(), request(), settings_changed(),
                         ask_hint(), which vortex.app.commands calls
      read-only view     pos, start, pending, hint_action, result(), clock,
                         settings (changed only through commands), menu,
                         verdict, judged, flashing, rec (the recogniser's
                         differences), thinking, frame, messages (a log:
                         its reader may empty it)
      wiring             on_think (the service's hook), ticks_ms (its clock), make_search(),
                         read_first(reader), set_remote() (online play)
      the heap           heap_before, heap_low, short, short_text (read-only:
                         the AI's turns, think()), table_bytes()"""

    def __init__(self, store=None, settings=None, seed=1):
        self.store = store
        self.sense = Sensing()
        self.rec = self.sense.rec  # the recogniser, for views that show its findings
        self.view = Renderer()
        self.frame = self.view.frame  # bytearray(192): R, G, B per cell (a1 first), redrawn in place
        self.ai = None  # made on first need: its action buffer costs 1 KB
        self._search = None  # the AI's search, shared by its levels and the hints (False: no room)
        self._copy = Position()  # the game copied for the search: made once, filled each turn
        self._reserve = 0  # the heap the search's tables leave the game (make_search)
        # The heap before the AI's searches (vortex.heap; -1 where not known):
        # free before the last, the lowest since power-on; the times its turn
        # ran out of memory and what the board did (the link's `memory`).
        self.heap_before = -1
        self.heap_low = -1
        self.short = 0
        self.short_text = ""
        # Saves the store refused (unsaved_text says the last: the service says it).
        self.unsaved = 0
        self.unsaved_text = ""
        self._stale = False  # the flash's save is behind the game: the next change saves whole
        self.hint_action = -1  # shown after a hold of A, until the next action
        self.on_think = None  # on_think(), called at every node while the AI thinks
        # The board's clock (ms; the service's): the search's time cap runs on
        # it, so that it agrees with the passes (the rig's time, not the host's).
        self.ticks_ms = None
        self.thinking = False
        self._want = 0  # _PLAY or _HINT: the AI is to think in this step
        self._changes = 0  # game changes so far: a search that saw one go by is dropped
        self._spin = -1  # the thinking light's step while the AI (or a remote opponent) thinks
        self.remote = NO_REMOTE  # a remote opponent's presence (set_remote)
        self.remote_side = 0
        self._seed = seed
        self.buttons = Buttons()
        self.menu = None  # the settings menu, while it is open
        self._low = False
        self.dirty = True  # the frame is to be drawn again
        self.messages = []  # the last few things that happened, for a log or a screen
        self.supply = -1  # the power source (leds.SUPPLY_NAMES), -1 until set_supply()
        self.supply_ma = leds.DEFAULT_BUDGET_MA  # what it lets the LEDs draw, idle included
        self.fault = 0  # 1 while the NFC front end is faulted (Service sets it; the centre flashes)
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
    def new_game(self, text=START, actions=()):
        """Start a new game from a position (the start by default) and save
        it; with actions (legal codes from it: a game taken whole,
        commands.take_game), played on it first and saved with it at once,
        not a journal record each."""
        self.start = text
        if self._search is False:
            self._search = None  # no room for one last game: try again (think())
        pos = Position(text)
        for a in actions:
            pos.push(a)
        self.pos = pos
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
        pieces = self.pos.pieces
        before = bytes(pieces)
        self.pos.pop()
        n = 1
        if self.settings.ai_side == self.pos.side and self.pos.stack:
            self.pos.pop()
            n = 2
        self._record(session.undo_record(n, self._left()))  # saved before the AI thinks
        self._after_change(True)
        for c in range(64):  # a taken piece back under its taker: the reeds cannot tell
            if before[c] and pieces[c] and before[c] != pieces[c]:
                self.sense.must_replace(c)
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
        self.say("Heart set on " + cell_name(t))

    def _after_change(self, restore):
        # The game changed: find the next action to carry out, redraw.
        # restore: the board must show the game again before anything counts.
        self._changes += 1
        if self.thinking and self.ai is not None:
            self.ai.stop()  # its answer is for a game that no longer is
        self.outcome = self.pos.outcome()
        self.pending = -1
        self.hint_action = -1
        self._want = _PLAY if self._ai_to_act() else 0
        self.sense.expect_new(restore)
        self.dirty = True

    def _ai_to_act(self):
        return self.outcome is None and self.settings.ai_side == self.pos.side

    def _left(self):
        return self.clock.left if self.clock else (0, 0)

    def save(self):
        """Write the whole game to the store: a snapshot, which also folds in
        (compacts) the records appended since the last one. A save the
        flash refuses is said (unsaved, unsaved_text) and loses nothing."""
        if self.store is not None:
            try:
                self.store.save(session.dump(self.settings, self.start, self.pos.stack,
                                             self._left()))
                self._stale = False
            except OSError as e:
                self._not_saved(e)

    def _record(self, record):
        # One change, appended to the store's journal: the same cost at any
        # length of game. After a refused write the journal no longer extends
        # the flash's snapshot: a whole save instead, until one succeeds.
        if self.store is not None:
            if self._stale:
                self.save()
                return
            try:
                self.store.append(record)
            except OSError as e:
                self._not_saved(e)

    def _not_saved(self, e):
        self._stale = True
        self.unsaved += 1
        code = e.args[0] if e.args else 0
        self.unsaved_text = NOT_SAVED % ("the flash is full" if code == FULL
                                         else "flash error %s" % code)
        self.say(self.unsaved_text)

    def say(self, text):
        """Log a line in self.messages (the last eight are kept)."""
        m = self.messages
        m.append(text)
        if len(m) > 8:
            m.pop(0)

    def result(self):
        """The Outcome (engine's, or a time-out), or None while the game goes on."""
        return self.timed_out or self.outcome

    def set_remote(self, presence, side=0):
        """A remote opponent playing `side` (online play): REMOTE_HERE,
        REMOTE_AWAY, REMOTE_WAIT or NO_REMOTE. The LEDs show it: while it is
        here and its turn, the thinking light turns, as for the board's AI;
        while it is gone, its colour stays on the four centre cells; while
        the room's game is awaited from `side`'s player, its colour blinks
        there."""
        if presence != self.remote or side != self.remote_side:
            self.remote = presence
            self.remote_side = side
            self.dirty = True

    def _spinning(self):
        # The thinking light: the AI thinks, or a remote opponent here has its turn.
        return self.thinking or (self.remote == REMOTE_HERE and self.pos.side == self.remote_side
                                 and self.pending < 0 and self.result() is None)

    def set_supply(self, source, led_ma):
        """What the power source offers: source is hardware/power.py's
        SOURCE_* (leds.SUPPLY_NAMES), led_ma the LED current it leaves above
        the LEDs' idle draw (power.LED_BUDGET_MA). main.py reads it from the
        USB-C CC line at boot; the frames never draw more from then on."""
        self.supply = source
        self.supply_ma = led_ma + leds.MA_IDLE * (leds.FRAME_BYTES // 3)
        self.dirty = True

    def budget_ma(self):
        """The LEDs' budget now, mA: the source's, lowered by the budget
        setting where that is lower (leds.budget)."""
        return leds.budget(self.settings.budget_ma, self.supply_ma)

    # --- the loop -----------------------------------------------------------
    def step(self, now, occ, tiles, ids, buttons=0):
        """One tick. occ: bytearray(64) debounced occupancy; tiles: bytearray(64)
        tile readings (vortex.tag codes); ids: bytearray(64) tile serials (0
        unknown); buttons: the raw state, bits buttons.A and buttons.B.
        Returns True when self.frame changed. Allocates nothing unless
        something happened; the AI thinks here when it is its turn."""
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
        else:
            found = sense.step(self.pos, self._accepts(), self.settings.free_hearts, now, occ,
                               tiles, ids)
            if found:
                self._apply(found, tiles, ids)
        if sense.flash_over(now) or self.view.blink_due(now):
            self.dirty = True
        spinning = self._spinning()
        if spinning and now // SPIN_MS != self._spin:
            self._spin = now // SPIN_MS
            self.dirty = True
        if self._want and not self.thinking:
            self.think()
        if self.dirty:
            self.dirty = False
            return self.view.draw(now, self.pos, sense, self.result(), self.pending,
                                  self.hint_action, self.menu,
                                  self.clock is not None and self.clock.is_low(self.pos.side),
                                  self.settings, self._spin if spinning else -1,
                                  self.budget_ma(),
                                  self.remote_side if self.remote == REMOTE_AWAY else -1,
                                  self.remote_side if self.remote == REMOTE_WAIT else -1,
                                  self.fault)
        return False

    def due_in(self, now):
        """The longest (ms, from now) the next step may wait, with the sensors
        and the buttons unchanged, for what the board does by itself to be on
        time: the blink's next phase, an error flash's end, the sensors
        settled, the running clock's next second, the thinking light's next
        step (the AI thinks, or a remote opponent's turn), the AI's turn (0). NOTHING_DUE if none waits. Sooner is always
        right: a host that steps the board less often when nothing happens
        (the simulator's page) asks this. Allocates nothing."""
        if self._want:
            return 0
        wait = NOTHING_DUE
        if self.view.blinking:
            wait = BLINK_MS - now % BLINK_MS
        sense = self.sense
        if sense.flashing:
            wait = min(wait, ticks_diff(sense.error_until, now))
        if not sense.judged:
            wait = min(wait, SETTLE_MS - ticks_diff(now, sense.changed_at))
        clock = self.clock
        if clock and self.menu is None and not sense.restoring and self.result() is None:
            left = clock.left[self.pos.side]
            # Shown in whole seconds, and low below whole seconds: each changes
            # once the time left is under its second; the time-out at 0.
            wait = min(wait, left % 1000 + 1 if left > 1000 else left)
        if self._spinning():
            wait = min(wait, SPIN_MS - now % SPIN_MS)
        return wait if wait > 0 else 0

    def _accepts(self):
        # What the sensors may show now: nothing while the game is over or
        # the AI thinks; else the action asked for, if any, or any action.
        if self.result() is not None or self.thinking or self._ai_to_act() and self.pending < 0:
            return CLOSED
        return self.pending if self.pending >= 0 else ANY

    def _apply(self, found, tiles, ids):
        # What sensing found, applied: the game changes here and nowhere else.
        self.dirty = True
        sense = self.sense
        if found == FOUND:
            self.commit(sense.action)
            sense.accepted(self.pos, tiles, ids)
        elif found == HEART_SET:
            self.set_heart(sense.cells[0], sense.cells[1])
            sense.accepted(self.pos, tiles, ids)
        elif found == REFUSED:
            self.say("illegal action")
        elif found == UNASKED:
            self.say("%s is not the action the board asks for: %s" % (
                self.pos.action_text(sense.action), self.pos.action_text(self.pending)))

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
            self.ask_hint()
        elif event == SHORT_B:
            commands.brightness_step(self.settings)
        elif event == HOLD_B:
            self.menu = Menu(self.settings)
            self.say("settings")
        elif event == HOLD_AB:
            self.new_game(START)
            self.say("new game")

    def ask_hint(self):
        """Have the AI think of the action it would play for the side to
        act (shown as a hint). False when no hint can be given now: the
        game is over, or the board waits for an action of its own."""
        if self.result() is not None or self.pending >= 0 or self._ai_to_act():
            return False
        self._want = _HINT
        return True

    def read_first(self, reader):
        """Tell the tile reader (its expect(cell)) where to read first, when
        that has changed: where tiles are laid, lifted or moved."""
        self.sense.read_first(reader)

    # --- the AI -------------------------------------------------------------
    def make_search(self, search=None, reserve=0):
        """Make the AI's search now (one, sized for the deepest device level,
        shared by the levels and the hints), instead of at its first action:
        on the RP2040 importing and building it takes about 170 ms, a stall
        of the reed scan that main.py pays at boot rather than mid-game.
        `search`: one made earlier (vortex.app.ai.searcher(DEVICE_LEVELS)),
        as main.py does before the parts, while the heap has whole blocks.
        If even its smallest tables do not fit, the board says so and its
        AI plays at level 0 (no search): the game goes on. reserve: the heap
        a search made here must leave free (vortex.app.ai.searcher). Returns
        whether the board has its search."""
        self._reserve = reserve
        if self._search is None:
            if search is None:
                try:
                    search = searcher(DEVICE_LEVELS, reserve=reserve)
                except MemoryError:
                    self._no_search()
                    self.say(NO_SEARCH)
                    return False
            search.poll = self._thinking
            self._search = search
        return self._search is not False

    def table_bytes(self):
        """The heap the AI's search tables take now (0: no search yet, or none)."""
        return self._search.table_bytes() if self._search else 0

    def _no_search(self):
        # Not even the smallest tables: the quick mover plays (level 0)
        # until the next game, which tries to make a search again.
        if self._search:
            self._reserve += self._search.table_bytes()
        self._search = False
        self.ai = None

    def think(self):
        """Let the AI think, if it is to: its action for the side to act
        becomes pending (the board asks for it), a hint becomes hint_action.
        step() calls this; it searches a copy of the game, so that passes
        made from on_think() may read the game and change it (which stops
        the search and drops its answer)."""
        want = self._want
        if not want or self.thinking:
            return
        self._want = 0
        level = self.settings.ai_level if want == _PLAY else HINT_LEVEL
        if self._search is None and not self.pos.is_building():
            self.make_search(reserve=self._reserve)  # laying tiles needs none
        changes = self._changes
        self.thinking = True
        self._spin = -1
        self.dirty = True
        try:
            a = self._choose(level, changes, want)
        finally:
            self.thinking = False
            self.dirty = True
        if self._changes != changes:
            return  # the game changed while it thought; step() thinks again if it must
        if want == _PLAY:
            self.pending = a
        else:
            self.hint_action = a
        self.sense.expect_new(False)  # judge the sensors again: now they may show an action

    def _choose(self, level, changes, want):
        # The AI's action, on the game copied into the board's own copy (no
        # allocation). A MemoryError during its turn (no block for what the
        # search or a pass made from it asked for) never stops the board:
        # the search's tables are given back and it searches again with the
        # smallest, then, if even that runs out, the quick mover plays
        # (level 0), and if even it finds no heap, the turn is tried again
        # at the next step; the board says so (short_text: the link's
        # `memory` event, the buzzer's memory sound).
        again = False  # a try after a shortfall: the search as _short() left it
        while True:
            if self._search is False:
                level = 0  # no room for a search: the quick mover stands in
            try:
                return self._ai(level, again).choose(self.pos.copy(self._copy))
            except MemoryError:
                if self._changes != changes:
                    return -1  # the game changed meanwhile: its answer goes anyway
                if not level:
                    self._want = want
                    if self.short_text != NO_HEAP:
                        self._shortfall(NO_HEAP)
                    return -1
                self._short()
                again = True

    def _ai(self, level, again=False):
        # The AI for this turn, its search's tables sized to the heap
        # (vortex.app.ai.fit) unless this is the turn's try `again`.
        search = self._search if level else None
        if search and not again and not self.pos.is_building():
            free = heap.free()  # after a collection: the search itself then makes none
            self.heap_before = free
            if free >= 0 and (self.heap_low < 0 or free < self.heap_low):
                self.heap_low = free
            if not fit(search, level, free, self._reserve):
                self._no_search()
                self._shortfall(NO_SEARCH)
                level, search = 0, None
        if search and self.ticks_ms is not None:
            search.clock = self.ticks_ms
        ai = self.ai
        if ai is None or ai.level != level or ai.search is not search:
            ai = self.ai = Ai(level=level, seed=self._seed, search=search)
        return ai

    def _short(self):
        # The AI's turn ran out of memory: less for the next try. The game
        # needs more heap than was left it: what the search gives back stays
        # the game's from now on (fit's and make_search's reserve).
        search = self._search
        if search and search.table_bytes() > 8 << MIN_TT_BITS:
            self._reserve += search.table_bytes() - (8 << MIN_TT_BITS)
            try:
                search.resize(MIN_TT_BITS, False)
                self._shortfall(SHORT_TABLE % (8 << MIN_TT_BITS))
                return
            except MemoryError:
                pass
        self._no_search()
        self._shortfall(NO_SEARCH)

    def _shortfall(self, text):
        # Said on the link (its `memory` event) and with the memory sound.
        self.short += 1
        self.short_text = text
        self.say(text)

    def _thinking(self):
        # The search calls this at every node.
        if self.on_think is not None:
            self.on_think()
