"""One pass of the board: the work that main.py's loop, the AI's thinking
hook and the simulator's rig all do, written once.

    service = Service(board, reeds, tiles, pixels, buttons, clock, link=link,
                      port=port, watchdog=watchdog, say=print, buzzer=buzzer,
                      online=online)
    while True:
        service.tick()

The parts are small interfaces (vortex.hal has the RP2040's, host_sim the
virtual board's): reeds.scan(now) and .cells; tiles.poll(now, between, budget_us), .cells,
.ids, .missing (a bit a reader, one per rank), view(fallback) and
expect(cell); pixels.show(frame); buttons() -> bits A,
B; clock() -> ms; link.serve(port); online.poll(); watchdog.feed(); say(text);
buzzer.play(sound, volume, now), .tick(now) and .playing (vortex.hal.buzzer).

A pass, in order; each point says whether it may change the game (KMK's
module hooks state the same of theirs):
  1. reeds.scan(now)           reads the sensors
  2. tiles.poll(now, scan, POLL_US)  (not when a reed changed: that
                               pass goes straight to the board) reads the
                               sensors: the tile readers moved on; while it
                               waits for their exchanges (up to POLL_US, so
                               that none waits a whole pass, and the rest
                               of the pass, about 1.5 ms on the RP2040,
                               comes seldom enough not to hold up their
                               sweeps) the reeds are scanned every
                               SCAN_MS, and a reed that changed ends the
                               wait at once: a lifted piece is not kept
                               from the LEDs
  3. board.step(now, ...)      the game changes here: the sensors' findings,
                               the buttons, the clock, the AI's turn
  4. pixels.show(board.frame)  reads: when the frame changed
  5. board.read_first(tiles)   reads: where the tile reader reads first
  6. link.serve(port)          the host's commands, which change the game
                               only through the Board's commands; events
  6b. online.poll()            the room on the broker (a Pico W build:
                               vortex.online.client): the game changes
                               only through the Board's commands (a
                               request, a takeback, a new game); a few
                               messages a pass, never waiting long
  7. buzzer.play(), .tick()    reads: the sound this pass's changes call for
                               (vortex.app.sounds.Cues), at the volume set;
                               the sound playing moves to its next tone
  8. watchdog.feed()
While the AI thinks (inside point 3), the search calls think() at every
node, which runs a whole pass every _THINK_TICK_MS: the reeds are scanned,
the buttons and the host served, the frame shown, the watchdog fed; its
tile poll stays only THINK_POLL_US, the search keeping most of the CPU. A
pass made then that changes the game stops the search (Board.think()).
Allocates nothing while nothing happens.
"""
from vortex.ticks import ticks_diff
from vortex.engine.defs import const
from vortex.app.sounds import Cues

SCAN_MS = const(2)  # reed scans at most this often while the tile readers are waited for
# A pass's stay for the tile readers (main.py's sweep on the emulated Pico:
# 148 ms with 2 ms, 131 ms with 4 ms); in a pass the AI's search makes, less.
POLL_US = const(4000)
THINK_POLL_US = const(2000)
_THINK_TICK_MS = const(8)  # a pass this often while the AI thinks: over 100 reed scans a second
NO_READER = ("NFC reader not answering (ranks %s): their tiles are taken as the game has "
             "them, so pieces can be played but tile actions there cannot be seen; check the "
             "readers' wiring")
READER_BACK = "NFC readers all answering again: the tiles are read"
# The front end's chain check (vortex.hal.frontend, FrontEnd.fault): what is
# said when it passes again ([0]) and when it fails for good ([1]).
FRONT_SAYS = ("NFC front end sound again: its chain holds what is latched; the tiles are read",
              "NFC front end faulted: its chain reads back other than it was latched, so every "
              "field is off and the readers held in reset, and the game's tiles stand in; check "
              "the ribbon and the rank boards")


def ranks(mask):
    """The ranks (1-8) of the readers in a bit mask, e.g. '1, 4'."""
    return ", ".join(str(r + 1) for r in range(8) if mask >> r & 1)


class Service:
    """Service(board, reeds, tiles, pixels, buttons, clock, link=None,
    port=None, watchdog=None, say=None, buzzer=None, online=None): see the
    module's docstring."""

    def __init__(self, board, reeds, tiles, pixels, buttons, clock, link=None, port=None,
                 watchdog=None, say=None, buzzer=None, online=None):
        self.board = board
        self.reeds = reeds
        self.tiles = tiles
        self.pixels = pixels
        self.buttons = buttons
        self.clock = clock
        self.link = link
        self.port = port
        self.watchdog = watchdog
        self.say = say
        self.buzzer = buzzer
        self.online = online
        self.cues = Cues(board)
        self.missing = 0  # tile readers not answering (a bit a rank): the game's tiles stand in
        front = getattr(tiles, "front", None)  # FrontEnd.fault, where the front end has one
        self.front = front if hasattr(front, "fault") else None
        self.unsaved = 0  # the board's refused saves said so far (one at boot is said at once)
        self.passes = 0
        self._last = clock()
        self._scanned = self._last
        self._scan = self.scan_reeds  # bound once: a bound method made each pass would allocate
        board.on_think = self.think
        board.ticks_ms = clock

    def scan_reeds(self):
        """A reed scan between the tile readers' exchanges, every SCAN_MS;
        True if a debounced cell changed (the pass then goes on at once)."""
        now = self.clock()
        if ticks_diff(now, self._scanned) < SCAN_MS:
            return False
        self._scanned = now
        return self.reeds.scan(now)

    def tick(self, poll_us=POLL_US):
        """One pass of the board; the tile readers waited for up to poll_us."""
        now = self.clock()
        self._last = now
        self.passes += 1
        board = self.board
        tiles = self.tiles
        self._scanned = now
        if not self.reeds.scan(now):  # a reed that changed goes to the board first
            tiles.poll(now, self._scan, poll_us)  # reed scans while it waits: a lift goes on
        front = self.front
        if front is not None and front.fault != board.fault:
            board.fault = front.fault  # the link's status and the LEDs show it
            board.dirty = True
            if self.say is not None:
                self.say(FRONT_SAYS[board.fault])
        if tiles.missing != self.missing:
            self.missing = tiles.missing
            if self.say is not None and not board.fault:  # (a fault: every reader; said above)
                self.say(NO_READER % ranks(self.missing) if self.missing else READER_BACK)
        # Without a reader, the game's own tiles stand in for its rank's readings.
        if board.unsaved != self.unsaved:
            self.unsaved = board.unsaved
            if self.say is not None:
                self.say(board.unsaved_text)
        if board.step(now, self.reeds.cells, tiles.view(board.pos.tiles), tiles.ids,
                      self.buttons()):
            self.pixels.show(board.frame)
        board.read_first(tiles)
        if self.link is not None:
            self.link.serve(self.port)
        if self.online is not None:
            self.online.poll()
        buzzer = self.buzzer
        if buzzer is not None:
            sound = self.cues.update(board)
            if sound and board.settings.volume:
                # Timed from now, late in the pass: the first tone lasts as written.
                buzzer.play(sound, board.settings.volume, self.clock())
            if buzzer.playing:
                buzzer.tick(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def think(self):
        """The AI's hook, at every node of its search: a pass when one is due."""
        if ticks_diff(self.clock(), self._last) >= _THINK_TICK_MS:
            self.tick(THINK_POLL_US)
