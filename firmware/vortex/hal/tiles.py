"""Tile reading: the antenna multiplexer and the read scheduler.

One reader, 64 antennas, one under each cell. A read takes a few ms (about
1 ms when no tag answers), so a sweep of the board takes about 0.5 s; the
scheduler does one read per poll() and reads first where the app expects a
change, so the piece scan never waits for the tiles.

    mux = ShiftMux(spi, latch_pin)        # or AntennaMux(select, enable)
    tiles = TileScanner(MFRC522(spi, cs, rst), mux, time.ticks_ms())
    tiles.expect(cell)                    # e.g. under a lifted piece
    if tiles.poll(time.ticks_ms()):       # in the main loop, every tick
        ...                               # tiles.cells changed

tiles.cells[c] is a reading code of vortex.tag: NOT_READ until the cell has
been read, then NO_TILE, WATER..AIR or UNKNOWN; tiles.ids[c] the low byte of
the tile's serial (0 when none is known), so the app can tell which tile
moved where even when two tiles share a terrain. A reading replaces the
previous one only when reads in a row agree, an NFC misread being
momentary: CONFIRM of them for a tile of ours (its tag answered, its CRC
checked), DOUBT for no tile or a tag that is not ours, which is also what a
failed read gives (no answer, a garbled frame); failed reads that come
between two reads of a tile do not count against it. A read that disagrees
with the reading is repeated at once (up to RETRIES times), so a tile
lifted is still seen within a few ms, and a tag that fails now and then
does not vanish (issue 14: the board's verdict flickered under misreads).

The reader is any object with read_tile(buf) -> OK / NOTAG / ERR / NOREADER
(see mfrc522.py); the mux any object with select(cell) and off(). When the
reader chip does not answer (NOREADER), .missing turns True, the readings
stay as they are and the reader is asked again only every RETRY_MS, so a
board without its reader loses no time on it; .missing turns False at the
first answer.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from ..tag import NO_TILE, WATER, AIR, UNKNOWN, NOT_READ, SIZE, OK, NOTAG, NOREADER, decode
from ..ticks import ticks_add, ticks_diff

SETTLE_MS = const(5)  # field time a tag may need before a command (14443-3)
HOLD_MS = const(3000)  # how long an expected cell keeps being re-read
BURST = const(3)      # expected-cell reads between two sweep reads
CONFIRM = const(2)     # reads in a row that agree on a tile of ours to change a reading
# ... on no tile or a tag not ours. With half the reads failing (the
# simulator's worst), a false run of them starts once in 4**8 = 65536 reads.
DOUBT = const(8)
RETRIES = const(7)    # immediate re-reads of a cell whose reads disagree: DOUBT - 1
RETRY_MS = const(1000)  # how often a missing reader is asked again
_NONE = const(255)


class AntennaMux:
    """AntennaMux(select_pins, enable_pins): one of 64 antennas by GPIO.

    Four CD74HC4067 (16:1 analog muxes) share select_pins = (S0, S1, S2,
    S3); enable_pins = (/E0, /E1, /E2, /E3), active low, one per mux.
    Antenna c is channel c & 15 of mux c >> 4 (the PCB puts antenna c
    under cell c). Generally: the low len(select_pins) bits of the cell
    number go to the select lines, the rest picks the enable; with no
    enable pins (a decoder tree), the select lines carry the whole number.
    """

    def __init__(self, select_pins, enable_pins=()):
        self._sel = tuple(select_pins)
        self._en = tuple(enable_pins)
        for p in self._sel:
            p.init(p.OUT, value=0)
        for p in self._en:
            p.init(p.OUT, value=1)
        self._bits = len(self._sel)
        self.cell = -1

    def select(self, cell):
        """Connect the reader to the antenna under `cell`."""
        en = self._en
        if en and self.cell >= 0:
            en[self.cell >> self._bits].value(1)  # break before make
        i = 0
        for p in self._sel:
            p.value(cell >> i & 1)
            i += 1
        if en:
            en[cell >> self._bits].value(0)
        self.cell = cell

    def off(self):
        """Disconnect every antenna."""
        for p in self._en:
            p.value(1)
        self.cell = -1


class ShiftMux:
    """ShiftMux(spi, latch_pin): the same four muxes, driven by a 74HC595.

    The 595 shares the reader's SPI bus (SCK, MOSI; the MFRC522 ignores the
    bus while its CS is high) and costs one GPIO, the latch (RCLK), instead
    of eight: Q0-Q3 = S0-S3, Q4-Q7 = /E0-/E3. What the MFRC522 transfers
    shift through the 595 too, but its outputs change only on a latch.
    """

    def __init__(self, spi, latch):
        self.spi = spi
        self.latch = latch
        latch.init(latch.OUT, value=0)
        self._b = bytearray(1)
        self.cell = -1
        self.off()

    def _out(self, v):
        self._b[0] = v
        self.spi.write(self._b)
        self.latch.value(1)
        self.latch.value(0)

    def select(self, cell):
        self._out(cell & 0x0F | 0xF0 ^ 0x10 << (cell >> 4))
        self.cell = cell

    def off(self):
        self._out(0xF0)
        self.cell = -1


class TileScanner:
    """TileScanner(reader, mux, now_ms=0, settle_ms=5, hold_ms=3000).

    .cells   bytearray(64) of reading codes (NOT_READ at first)
    .ids     bytearray(64): low byte of each tile's serial, 0 if unknown
    .unread  cells still NOT_READ (0 once the first sweep is done)
    .reads   reads done so far
    .missing True while the reader chip does not answer
    expect(cell, hold_ms=None)  read this cell first, again and again for
                                hold_ms (the app expects a change there)
    poll(now_ms) -> bool        at most one read; True if .cells or .ids
                                changed

    Order of reads: a disagreeing read is repeated at once; then expected
    cells (BURST of them) alternate with one cell of the round-robin sweep.
    The antenna of the next read is selected at the end of a poll, so the
    tag has settle_ms of field while the main loop does other work.
    """

    def __init__(self, reader, mux, now_ms=0, settle_ms=SETTLE_MS,
                 hold_ms=HOLD_MS):
        self.reader = reader
        self.mux = mux
        self.settle_ms = settle_ms
        self.hold_ms = hold_ms
        self.cells = bytearray(64)
        self.ids = bytearray(64)     # serial (low byte) of each cell's tile, 0 unknown
        self._prev = bytearray(64)   # each cell's previous read
        self._prev_id = bytearray(64)
        self._same = bytearray(64)   # how many reads in a row gave _prev (capped)
        for i in range(64):
            self.cells[i] = NOT_READ
            self._prev[i] = NOT_READ
        self.unread = 64
        self.reads = 0
        self._buf = bytearray(SIZE)
        self._until = [0] * 64       # hold deadline per cell (ticks)
        self._q = bytearray(64)      # ring of expected cells
        self._inq = bytearray(64)    # 1 if in the ring
        self._qh = 0                 # ring head
        self._qn = 0                 # ring length
        self._burst = 0
        self._sweep = 0              # next cell of the sweep
        self._again = _NONE          # cell to re-read at once
        self._retries = 0
        self._cur = _NONE            # cell whose antenna is selected
        self._since = now_ms         # a time when it was already selected
        self._stamp = False          # _since still to be taken
        self._now = now_ms
        self.missing = False
        self._retry = now_ms         # when to ask a missing reader again

    # -- the ring of expected cells ----------------------------------------
    def _push_back(self, c):
        self._q[(self._qh + self._qn) & 63] = c
        self._qn += 1
        self._inq[c] = 1

    def expect(self, cell, hold_ms=None):
        """Read `cell` before anything else but a pending re-read, and keep
        reading it for hold_ms (default self.hold_ms) from the last poll."""
        hold = self.hold_ms if hold_ms is None else hold_ms
        self._until[cell] = ticks_add(self._now, hold)
        q = self._q
        if self._inq[cell]:
            # Already waiting: move it to the front.
            i = 0
            while q[(self._qh + i) & 63] != cell:
                i += 1
            while i:
                q[(self._qh + i) & 63] = q[(self._qh + i - 1) & 63]
                i -= 1
            q[self._qh] = cell
            return
        self._qh = (self._qh - 1) & 63
        q[self._qh] = cell
        self._qn += 1
        self._inq[cell] = 1

    def _pick(self):
        if self._again != _NONE and self._retries:
            self._retries -= 1
            return self._again
        self._again = _NONE
        if self._qn and self._burst < BURST:
            self._burst += 1
            c = self._q[self._qh]
            self._qh = (self._qh + 1) & 63
            self._qn -= 1
            self._inq[c] = 0
            if ticks_diff(self._until[c], self._now) > 0:
                self._push_back(c)   # still expected: come back to it
            return c
        self._burst = 0
        c = self._sweep
        self._sweep = (c + 1) & 63
        return c

    def _select(self, c):
        if c != self._cur:
            self.mux.select(c)
            self._cur = c
            # Selected after a read of unknown length: count the settling
            # time from the next poll, a time when the field surely is on.
            self._stamp = True

    # -- one read ----------------------------------------------------------
    def _read(self, c):
        st = self.reader.read_tile(self._buf)
        if st == NOREADER:
            self.missing = True
            self._retry = ticks_add(self._now, RETRY_MS)
            return False
        self.missing = False
        self.reads += 1
        i = 0
        if st == OK:
            r = decode(self._buf)
            if r != UNKNOWN:
                i = self._buf[6]     # the serial's low byte (tag.py layout)
        elif st == NOTAG:
            r = NO_TILE
        else:
            r = UNKNOWN
        prev = self._prev[c]
        if self._again == c and WATER <= prev <= AIR and not WATER <= r <= AIR:
            return False  # a failed read among a tile's re-reads proves little: they go on
        cells = self.cells
        same = self._same[c] + 1 if r == prev and i == self._prev_id[c] else 1
        self._prev[c] = r
        self._prev_id[c] = i
        self._same[c] = same if same < DOUBT else DOUBT
        if r == cells[c] and i == self.ids[c]:
            self._again = _NONE
            return False
        # Not read yet: the first reading needs no more (a wrong one is a
        # difference, which the app has read again at once).
        if same >= (CONFIRM if WATER <= r <= AIR or cells[c] == NOT_READ else DOUBT):
            # Enough reads in a row agree: the reading changes.
            if cells[c] == NOT_READ:
                self.unread -= 1
            cells[c] = r
            self.ids[c] = i
            self._again = _NONE
            return True
        if self._again != c:
            self._retries = RETRIES
        self._again = c              # disagrees: read it again at once
        return False

    def poll(self, now_ms):
        """Do at most one read (a few ms); True if .cells or .ids changed."""
        self._now = now_ms
        if self.missing and ticks_diff(now_ms, self._retry) < 0:
            return False
        c = self._cur
        if c == _NONE:
            self._select(self._pick())
            return False
        if self._stamp:
            self._since = now_ms
            self._stamp = False
        if ticks_diff(now_ms, self._since) < self.settle_ms:
            return False             # the tag may still be powering up
        changed = self._read(c)
        if not self.missing:
            self._select(self._pick())
        return changed
