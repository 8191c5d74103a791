"""The board's brain: sensor snapshots and time in, LED frames and committed
actions out. Pure: the hardware (or the virtual board) is driven by the caller.

    board = Board(store, Settings())
    while True:
        if board.step(now_ms, reeds.cells, tiles.cells, tiles.ids, buttons):
            pixels.show(board.frame)

The game is board.pos (an engine Position); board.pos.stack lists the
actions committed since board.start. Every commit is saved to the store.
"""
from vortex.ticks import ticks_add, ticks_diff
from vortex.engine.defs import PLACE, SWAP, VORTEX, TRAVELLER, block_cells, cell_name, const
from vortex.engine.tables import OFF, STEP
from vortex.engine.position import (Position, Outcome, START, TIME_OUT, new_buffer,
                                    MAX_DESTINATIONS)
from vortex.app import leds
from vortex.app.recognise import (Recogniser, AGREE, HAND, WAIT, ACTION, ILLEGAL, DISAGREE,
                                  SETUP, GONE, EXTRA, TILE_AWAY, TILE_NEW, TILE_WRONG)
from vortex.app.clock import Clock
from vortex.app.ai import Ai
from vortex.app import session
from vortex.app.session import Settings
from vortex.app.buttons import Buttons, SHORT_A, SHORT_B, HOLD_B, HOLD_AB
from vortex.app.menu import Menu

SETTLE_MS = const(300)   # sensors unchanged this long before an action is judged
ERROR_MS = const(2000)   # an illegal action flashes this long
BLINK_MS = const(250)


class Board:
    """Board(store=None, settings=None, seed=1): resumes the game in the
    store if there is one, else starts a new game with the settings. seed
    makes the AI's choices repeatable."""

    def __init__(self, store=None, settings=None, seed=1):
        self.store = store
        self.frame = bytearray(leds.FRAME_BYTES)
        self.watch = bytearray(64)  # cells whose tiles are worth reading first
        self._watch_news = False  # watch changed since hint() last passed it on
        self._next_watch = bytearray(64)
        self._level = leds.LEVELS[2]
        self.rec = Recogniser()
        self.known_ids = bytearray(64)  # tile serials seen where the board agreed
        self._tiles = bytearray(64)
        self._dest = new_buffer(MAX_DESTINATIONS)
        self.ai = None  # made on first need: its action buffer costs 1 KB
        self._seed = seed
        self.buttons = Buttons()
        self.menu = None  # the settings menu, while it is open
        self.flashing = False  # an illegal action's cells flash until error_until
        self.error_until = 0
        self._errors = bytearray(4)
        self._nerrors = 0
        self._blink = -1
        self._blinking = False
        self.verdict = AGREE
        self.restoring = True  # the board must agree with the game before anything is recognised
        self._low = False
        self.changed_at = 0
        self.judged = True
        self.dirty = True
        self.messages = []  # the last few things that happened, for a log or a screen
        saved = None
        if store is not None:
            data = store.load()
            if data:
                try:
                    saved = session.load(data)
                except ValueError as e:  # a save from another version: start afresh, say so
                    self._say("save not resumed: %s" % e)
        if saved:
            self.settings, self.start, self.pos, left = saved
            self._setup_clock(left)
            self._after_change()
            self._say("resumed after %d actions" % len(self.pos.stack))
        else:
            self.settings = settings or Settings()
            self.new_game(START)

    # --- the game session ---------------------------------------------------
    def new_game(self, text=START):
        """Start a new game from a position (the start by default) and save it."""
        self.start = text
        self.pos = Position(text)
        self.restoring = True
        self._setup_clock(None)
        self._after_change()

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
        if self.settings.ai_side == self.pos.side and self.pos.stack:
            self.pos.pop()
        self.restoring = True
        self._after_change()
        self._say("takeback")
        return True

    def settings_changed(self):
        """The settings were changed from outside (the host link): the AI
        may now play the side to act; save them."""
        self._after_change()

    def commit(self, action):
        side = self.pos.side
        self.pos.push(action)
        if self.clock:
            self.clock.pressed(side)
        self._after_change()
        self._say("played %s" % self.pos.action_text(action))

    def _after_change(self):
        # The game changed: save it, find the next action to carry out, redraw.
        self.outcome = self.pos.outcome()
        self.pending = -1
        if self.outcome is None and self.settings.ai_side == self.pos.side:
            if self.ai is None:
                self.ai = Ai(self._seed)
            self.pending = self.ai.choose(self.pos)
        self.flashing = False
        self.judged = False  # judge the sensors against the new expectation
        self.dirty = True
        self.save()

    def save(self):
        if self.store is not None:
            left = self.clock.left if self.clock else (0, 0)
            self.store.save(session.dump(self.settings, self.start, self.pos.stack, left))

    def _say(self, text):
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
        Returns True when self.frame was redrawn. Allocates nothing unless
        something happened."""
        event = self.buttons.update(buttons, now)
        if event:
            self._button(event)
        if self.clock and self.menu is not None:
            self.clock.pause()  # setting up is not thinking time
        elif self.clock and self.result() is None:
            if self.clock.tick(now, self.pos.side):
                self.timed_out = Outcome(self.pos.side ^ 1, TIME_OUT)
                self.dirty = True
                self.save()
            elif self.clock.is_low(self.pos.side) != self._low:
                self._low = not self._low
                self.dirty = True
        if self.menu is not None:
            self.judged = False  # the game waits; judge the board when the menu closes
        elif self._sensors_changed(occ, tiles):
            self.changed_at = now
            self.judged = False
            self._judge(now, occ, tiles, ids, False)
        elif not self.judged and ticks_diff(now, self.changed_at) >= SETTLE_MS:
            self._judge(now, occ, tiles, ids, True)
        if self.flashing and ticks_diff(now, self.error_until) >= 0:
            self.flashing = False
            self.dirty = True
        if self._blinking:
            b = (now // BLINK_MS) & 1
            if b != self._blink:
                self._blink = b
                self.dirty = True
        if self.dirty:
            self._render(now)
            return True
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
                    self._say("new game")
                else:
                    self._after_change()  # the AI may have changed sides; save the settings
                self._say("settings closed")
        elif event == SHORT_A:
            self.takeback()
        elif event == SHORT_B:
            self.settings.level = (self.settings.level + 1) % len(leds.LEVELS)
        elif event == HOLD_B:
            self.menu = Menu(self.settings)
            self._say("settings")
        elif event == HOLD_AB:
            self.new_game(START)
            self._say("new game")

    def _sensors_changed(self, occ, tiles):
        changed = self.rec.observe(occ)  # the recogniser follows the pieces' history
        seen = self._tiles
        for c in range(64):
            if tiles[c] != seen[c]:
                seen[c] = tiles[c]
                changed = True
        return changed

    def _judge(self, now, occ, tiles, ids, settled):
        # Quick verdicts (agreement, a piece in hand) show at once; actions,
        # errors and disagreements wait until the sensors have settled.
        if self.result() is not None:
            self.judged = True  # the game is over: nothing more to recognise
            return
        rec = self.rec
        rec.compare(self.pos, occ, tiles)
        v = rec.judge(self.pos, tiles, ids, self.known_ids)
        if self.restoring and v != AGREE:
            # After a takeback, a new game or a resume, the board is put
            # back as the game says before any action counts.
            v = DISAGREE
        if v == AGREE:
            self.restoring = False
            rec.forget()
            self._learn_ids(tiles, ids)
            self.judged = True
        elif v == HAND:
            pass
        elif not settled:
            return  # keep the last view until the hands are still
        else:
            self.judged = True
            if v == SETUP:
                if self.settings.free_hearts:
                    self._move_heart(rec.cells[0], rec.cells[1])
                    rec.forget()
                    v = AGREE
                else:
                    v = ILLEGAL  # the option is off: the Heart goes back
            if v == ACTION:
                a = rec.action
                if self.pending >= 0 and a != self.pending:
                    v = ILLEGAL  # not the action the board asked for
                    self._flag_action(a)
                else:
                    self.commit(a)
                    rec.forget()
                    self._learn_ids(tiles, ids)
                    v = AGREE
            if v == ILLEGAL:
                if v != self.verdict:
                    self._say("illegal action")
                self._errors[:] = rec.cells
                self._nerrors = rec.ncells
                self.error_until = ticks_add(now, ERROR_MS)
                self.flashing = True
        self._set_verdict(v)

    def _move_heart(self, f, t):
        # The setup option: the game starts from the Heart's new cell.
        pos = Position(self.start)
        pos.pieces[t] = pos.pieces[f]
        pos.pieces[f] = 0
        self.new_game(pos.text())
        self.restoring = False  # the board already shows it
        self._say("Heart set on " + cell_name(t))

    def _flag_action(self, a):
        rec = self.rec
        if a < PLACE:
            rec.cells[0], rec.cells[1] = a >> 6, a & 63
            rec.ncells = 2
        elif a < SWAP:
            rec.cells[0] = a & 63
            rec.ncells = 1

    def _set_verdict(self, v):
        if v != self.verdict or v != AGREE:
            self.dirty = True
        self.verdict = v
        self._update_watch()

    def _learn_ids(self, tiles, ids):
        known = self.known_ids
        for c in range(64):
            if ids[c] and tiles[c] == self.pos.tiles[c]:
                known[c] = ids[c]

    def _update_watch(self):
        # Read first where tiles may change: cells without a tile while the
        # board is built, and around every difference (a swap's or a
        # Vortex's other cells are neighbours of the first one that changed).
        w = self._next_watch
        diff = self.rec.diff
        want = self.pos.tiles
        building = self.pos.is_building()
        for c in range(64):
            w[c] = 1 if building and not want[c] else 0
        for c in range(64):
            if diff[c]:
                w[c] = 1
                i = c << 3
                for d in range(8):
                    n = STEP[i + d]
                    if n != OFF:
                        w[n] = 1
        if w != self.watch:
            self.watch[:] = w
            self._watch_news = True

    def hint(self, reader):
        """Tell the tile reader (its expect(cell)) where to read first, when
        that has changed: where tiles are laid, lifted or moved."""
        if self._watch_news:
            self._watch_news = False
            w = self.watch
            for c in range(64):
                if w[c]:
                    reader.expect(c)

    # --- the LED frame ------------------------------------------------------
    def _render(self, now):
        self.dirty = False
        self._level = leds.LEVELS[self.settings.level]
        self._blinking = False
        frame = self.frame
        leds.clear(frame)
        pos = self.pos
        on = (now // BLINK_MS) & 1
        self._blink = on
        result = self.result()
        if self.menu is not None:
            self.menu.draw(self._put)
        elif result is not None:
            self._draw_last()
            self._draw_end(result)
        else:
            if pos.is_building():
                for c in range(64):
                    if not pos.tiles[c]:
                        self._put(c, leds.PLACE)
            self._draw_last()
            self._draw_turn(on)
            if self.pending >= 0:
                self._draw_pending(on)
            v = self.verdict
            if v == HAND:
                self._draw_hand()
            elif v == WAIT or v == DISAGREE or v == ILLEGAL:
                self._draw_diff()
            if self.flashing:
                self._blinking = True
                for i in range(self._nerrors):
                    self._put(self._errors[i], leds.ERROR if on else leds.OFF)
        leds.finish(frame, self.settings.budget_ma)

    def _put(self, cell, colour):
        leds.put(self.frame, cell, colour, self._level)

    def _draw_last(self):
        stack = self.pos.stack
        if not stack:
            return
        a = stack[-1]
        if a < PLACE:
            self._put(a >> 6, leds.LAST)
            self._put(a & 63, leds.LAST)
        elif a < SWAP:
            self._put(a & 63, leds.LAST)
        elif a < VORTEX:
            c = (a - SWAP) >> 1
            self._put(c, leds.LAST)
            self._put(c + (8 if a & 1 else 1), leds.LAST)
        else:
            for c in block_cells((a - VORTEX) >> 1):
                self._put(c, leds.LAST)

    def _draw_turn(self, on):
        # The side to act: the two corners of its home edge.
        side = self.pos.side
        colour = leds.SIDE[side]
        if self.clock and self.clock.is_low(side):
            self._blinking = True
            colour = leds.LOW_CLOCK if on else leds.OFF
        base = 56 if side else 0
        self._put(base, colour)
        self._put(base + 7, colour)

    def _draw_pending(self, on):
        a = self.pending
        self._blinking = True
        if a < PLACE:
            self._put(a >> 6, leds.TODO)
            self._put(a & 63, leds.TODO if on else leds.OFF)
        elif a < SWAP:  # lay this terrain here: its colour, blinking
            self._put(a & 63, leds.TERRAINS[((a - PLACE) >> 6) + 1] if on else leds.OFF)
        elif a < VORTEX:
            c = (a - SWAP) >> 1
            self._put(c, leds.TODO)
            self._put(c + (8 if a & 1 else 1), leds.TODO if on else leds.OFF)
        else:
            # The block, steady; the cell its lower-left tile turns to
            # blinks: up for clockwise, right for counter-clockwise.
            cells = block_cells((a - VORTEX) >> 1)
            for c in cells:
                self._put(c, leds.TODO)
            self._put(cells[1] if a & 1 == 0 else cells[3], leds.TODO if on else leds.OFF)

    def _draw_hand(self):
        pos = self.pos
        f = self.rec.hand
        self._put(f, leds.LIFTED)
        buf = self._dest
        awake = (pos.pieces[f] & 3) == TRAVELLER
        back = 0 if pos.side else 7
        for i in range(pos.destinations(f, buf)):
            t = buf[i] & 63
            if pos.pieces[t]:
                colour = leds.CAPTURE
            elif awake and t >> 3 == back:
                colour = leds.AWAKEN
            else:
                colour = leds.DEST
            self._put(t, colour)

    def _draw_diff(self):
        # Missing things in one colour, extra ones in red. A new tile laid
        # under a lifted piece is a placement under way, not an error, when
        # it is the only tile out of place: that cell asks for its piece back.
        rec = self.rec
        diff = rec.diff
        under_way = (self.pos.is_building() and rec.tiles == 1 and rec.new_tiles == 1
                     and not rec.extra and not self.restoring)
        for c in range(64):
            f = diff[c]
            if f & (EXTRA | TILE_WRONG) or (f & TILE_NEW and not (under_way and f & GONE)):
                self._put(c, leds.EXTRA)
            elif f & (GONE | TILE_AWAY):
                self._put(c, leds.MISSING)

    def _draw_end(self, result):
        if result.winner is None:  # a draw: both colours, checkered
            for c in range(64):
                self._put(c, leds.SIDE[((c >> 3) + c) & 1])
            return
        colour = leds.SIDE[result.winner]
        for c in range(64):
            r = c >> 3
            if r == 0 or r == 7 or c & 7 == 0 or c & 7 == 7:
                self._put(c, colour)
