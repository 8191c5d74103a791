"""Tile reading: the read scheduler over one reader per rank.

Reader r reads rank r through its eight coils, one connected at a time
(vortex.hal.frontend). A tag needs SETTLE_MS of field after its coil is
switched in before it answers, and a read is several exchanges on the air;
so each reader works through its rank as a state machine (switch the coil,
let the tag power up, read it exchange by exchange) and poll() moves every
reader on that can move, without waiting for any: eight ranks are read at
once, and the piece scan never waits for the tiles.

    tiles = TileScanner([MFRC522(front, r) for r in range(8)], front, time.ticks_ms())
    tiles.expect(cell)                    # e.g. under a lifted piece
    if tiles.poll(time.ticks_ms()):       # in the main loop, every tick
        ...                               # tiles.cells or tiles.ids changed

tiles.cells[c] is a reading code of vortex.tag: NOT_READ until the cell has
been read, then NO_TILE, WATER..AIR or UNKNOWN; tiles.ids[c] the low byte of
the tile's serial (0 when none is known), so the app can tell which tile
moved where even when two tiles share a terrain. A reading replaces the
previous one only when two reads in a row agree (an NFC misread is
momentary); a read that disagrees is repeated at once.

Order of reads, per rank: a disagreeing read is repeated at once; then the
rank's expected cells (BURST of them) alternate with one cell of its
round-robin sweep.

A reader is anything with begin(buf, slot) (start reading the tag of coil
`slot` into buf), step(now) -> BUSY, OK, NOTAG, ERR or NOREADER, and .due
(the clock time before which stepping it is no use, or None); the front end
anything with coil(rank, f) and flush() (hal.mfrc522 and hal.frontend;
host_sim.virtual has the simulator's). poll() keeps when each rank next has
something to do and looks only at those whose time has come. A reader whose chip does not answer
(NOREADER) has its bit set in .missing, its rank's readings stay as they are,
and it is asked again only every RETRY_MS; view(fallback) gives the cells
with a missing reader's rank taken from fallback (the game's tiles).
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from ..tag import NO_TILE, UNKNOWN, NOT_READ, SIZE, OK, NOTAG, NOREADER, BUSY, decode
from array import array

from ..ticks import ticks_add, ticks_diff
from ..native import micropython, ptr8, ptr32

SETTLE_MS = const(5)   # a tag accepts a request within 5 ms of entering the field (ISO/IEC 14443-3)
HOLD_MS = const(3000)  # how long an expected cell keeps being re-read
BURST = const(3)       # expected-cell reads between two sweep reads, per rank
RETRIES = const(2)     # immediate re-reads of a cell whose reads disagree
RETRY_MS = const(1000)  # how often a missing reader is asked again
_NONE = const(255)
_NOT_READ = const(6)   # vortex.tag's NOT_READ, for the viper code

# A rank's state.
_IDLE = const(0)       # nothing under way: pick the next cell
_SETTLE = const(1)     # its coil switched in: the tag powers up
_READ = const(2)       # the reader is reading


# Each rank's bytes in _rs (8 a rank, at 8 * r).
_AGAIN = const(0)      # file to re-read at once, or 255
_RETRIES = const(1)    # re-reads of it left
_QH = const(2)         # its ring of expected files: head...
_QN = const(3)         # ...and length (the ring at _ring[8 * r], in-ring flags at _ring[64 + c])
_BURST = const(4)      # expected reads since the last sweep read
_SWEEP = const(5)      # the sweep's next file
_CUR = const(6)        # the file whose coil is in, or 255
_STATE = const(7)      # _IDLE, _SETTLE, _READ
# _rs[64 + r]: 1 when rank r's coil switches at this poll's flush.



def _lowest():
    """The lowest set bit of each byte: the next rank to see in a mask."""
    t = bytearray(256)
    for b in range(1, 256):
        k = 0
        while not b >> k & 1:
            k += 1
        t[b] = k
    return bytes(t)


_LOWEST = _lowest()


@micropython.viper
def _pick(ranks, rings, holds, r: int, now: int) -> int:
    """The file rank r reads next: its pending re-read; else one of its
    expected cells (BURST between two sweep reads; one still held goes back
    to the ring's end); else its sweep's next."""
    rs = ptr8(ranks)
    ring = ptr8(rings)
    until = ptr32(holds)
    o = r << 3
    f = int(rs[o + _AGAIN])
    if f != 255 and rs[o + _RETRIES]:
        rs[o + _RETRIES] = rs[o + _RETRIES] - 1
        return f
    rs[o + _AGAIN] = 255
    qn = int(rs[o + _QN])
    if qn and int(rs[o + _BURST]) < BURST:
        rs[o + _BURST] = rs[o + _BURST] + 1
        h = int(rs[o + _QH])
        f = int(ring[o + h])
        rs[o + _QH] = (h + 1) & 7
        qn -= 1
        c = o + f
        ring[64 + c] = 0
        d = (int(until[c]) - now) & 0x3FFFFFFF
        if d != 0 and d < 0x20000000:        # still held: back at the ring's end
            ring[o + ((h + 1 + qn) & 7)] = f
            qn += 1
            ring[64 + c] = 1
        rs[o + _QN] = qn
        return f
    rs[o + _BURST] = 0
    f = int(rs[o + _SWEEP])
    rs[o + _SWEEP] = (f + 1) & 7
    return f


@micropython.viper
def _agree(cells, ids, prevs, ranks, c: int, vi: int) -> int:
    """Cell c read vi (the reading, and the serial's low byte << 8): 0 the
    reading stays, 1 it changes (two reads in a row agree), 2 it changes
    from NOT_READ, 3 the read disagrees (rank's re-read at once set up)."""
    cl = ptr8(cells)
    id_ = ptr8(ids)
    pv = ptr8(prevs)                         # [0:64] previous reads, [64:128] their ids
    rs = ptr8(ranks)
    v = vi & 0xFF
    i = vi >> 8
    same_prev = pv[c] == v and pv[64 + c] == i
    pv[c] = v
    pv[64 + c] = i
    o = (c >> 3) << 3
    if cl[c] == v and id_[c] == i:
        rs[o + _AGAIN] = 255
        return 0
    if same_prev:
        first = cl[c] == _NOT_READ
        cl[c] = v
        id_[c] = i
        rs[o + _AGAIN] = 255
        return 2 if first else 1
    f = c & 7
    if int(rs[o + _AGAIN]) != f:
        rs[o + _RETRIES] = RETRIES
    rs[o + _AGAIN] = f
    return 3


@micropython.viper
def _stamped(ranks, n: int) -> bool:
    """A coil switch was staged in this poll."""
    rs = ptr8(ranks)
    for r in range(n):
        if rs[64 + r]:
            return True
    return False


@micropython.viper
def _stamp(ranks, wake, n: int, t: int):
    """The ranks whose coil switched wake when their tag has powered up (t)."""
    rs = ptr8(ranks)
    w = ptr32(wake)
    for r in range(n):
        if rs[64 + r]:
            w[r] = t
            rs[64 + r] = 0


@micropython.viper
def _due(t: int, wake, n: int) -> int:
    """Bit r set for each of the n ranks whose wake time has come (ticks
    wrap at 2**30, as MicroPython's do)."""
    w = ptr32(wake)
    m = 0
    for r in range(n):
        if ((t - w[r]) & 0x3FFFFFFF) < 0x20000000:
            m |= 1 << r
    return m


class TileScanner:
    """TileScanner(readers, front, now_ms=0, settle_ms=5, hold_ms=3000, clock=None).

    .cells    bytearray(64) of reading codes (NOT_READ at first)
    .ids      bytearray(64): low byte of each tile's serial, 0 if unknown
    .unread   cells still NOT_READ (0 once the first sweep is done)
    .reads    reads done so far
    .missing  bit r set while reader r does not answer (0: all answer)
    expect(cell, hold_ms=None)  read this cell first in its rank, and again
                                and again for hold_ms
    poll(now_ms) -> bool        move every reader on; True if .cells or
                                .ids changed
    view(fallback)              .cells, with missing readers' ranks from fallback

    clock: a microsecond tick source (time.ticks_us) to time the tags'
    power-up exactly; None: poll()'s milliseconds.
    """

    def __init__(self, readers, front, now_ms=0, settle_ms=SETTLE_MS, hold_ms=HOLD_MS,
                 clock=None):
        self.readers = readers
        self.front = front
        self.settle_ms = settle_ms
        self.hold_ms = hold_ms
        self._clock = clock
        unit = 1000 if clock is not None else 1   # clock ticks a millisecond
        self._settle = settle_ms * unit
        self._retry = RETRY_MS * unit
        n = len(self.readers)
        self.ranks = n
        self.cells = bytearray(64)
        self.ids = bytearray(64)     # serial (low byte) of each cell's tile, 0 unknown
        self._prevs = bytearray(128)  # each cell's previous read, and its id at 64 on
        for i in range(64):
            self.cells[i] = NOT_READ
            self._prevs[i] = NOT_READ
        self.unread = 64
        self.reads = 0
        self.missing = 0
        self._view = bytearray(64)
        self._bufs = tuple(bytearray(SIZE) for _ in range(n))
        self._until = array("i", [0] * 64)   # hold deadline per cell (ms ticks)
        # Per rank (_rs, 8 bytes each), its ring of expected files (8 places
        # at 8 * rank) and each cell's in-ring flag (at 64 + cell).
        self._rs = bytearray(72)
        self._ring = bytearray(128)
        for r in range(n):
            self._rs[(r << 3) + _AGAIN] = _NONE
            self._rs[(r << 3) + _CUR] = _NONE
        # When each rank next has something to do (clock ticks): its read's
        # frames through, its tag powered up, its missing reader to be asked.
        start = clock() if clock is not None else now_ms
        self._wake = array("i", [start] * n)
        self._t = start
        self._now = now_ms
        self._reading = 0            # bit r: rank r's reader is reading
        self._serve = getattr(self.readers, "serve", None)   # all due readers at once
        for r in range(n):
            if not getattr(self.readers[r], "present", True):
                self.missing |= 1 << r       # known at once: said before any read

    # -- the rings of expected cells -----------------------------------------
    def expect(self, cell, hold_ms=None):
        """Read `cell` before its rank's other cells (but a pending re-read),
        and keep reading it for hold_ms (default self.hold_ms) from now."""
        hold = self.hold_ms if hold_ms is None else hold_ms
        self._until[cell] = ticks_add(self._now, hold)
        o = (cell >> 3) << 3
        f = cell & 7
        q = self._ring
        rs = self._rs
        h = rs[o + _QH]
        if q[64 + cell]:
            # Already waiting: move it to the front.
            i = 0
            while q[o + ((h + i) & 7)] != f:
                i += 1
            while i:
                q[o + ((h + i) & 7)] = q[o + ((h + i - 1) & 7)]
                i -= 1
            q[o + h] = f
            return
        h = (h - 1) & 7
        rs[o + _QH] = h
        q[o + h] = f
        rs[o + _QN] += 1
        q[64 + cell] = 1

    # -- the state machines --------------------------------------------------
    @micropython.native
    def _finish(self, r, st):
        """Rank r's read ended with st: apply it (True if a reading changed),
        then choose its next cell: read it at once if its coil is in, else
        stage the coil's switch (its tag powers up from the poll's flush)."""
        rs = self._rs
        o = r << 3
        cur = rs[o + _CUR]
        self.reads += 1
        vi = 0
        if st == OK:
            buf = self._bufs[r]
            vi = decode(buf)
            if vi != UNKNOWN:
                vi |= buf[6] << 8            # the serial's low byte (tag.py layout)
        elif st == NOTAG:
            vi = NO_TILE
        else:
            vi = UNKNOWN
        a = _agree(self.cells, self.ids, self._prevs, rs, o + cur, vi)
        if a == 2:
            self.unread -= 1
        f = _pick(rs, self._ring, self._until, r, self._now)
        if f == cur:
            self._begin(r, f)
        else:
            self.front.coil(r, f)
            rs[o + _CUR] = f
            rs[o + _STATE] = _SETTLE
            self._reading &= ~(1 << r)
            rs[64 + r] = 1
        return a == 1 or a == 2

    @micropython.native
    def poll(self, now_ms):
        """Move on every reader that has something to do; True if .cells or
        .ids changed."""
        self._now = now_ms
        clock = self._clock
        t = clock() if clock is not None else now_ms
        wake = self._wake
        due = _due(t, wake, self.ranks)
        if not due:
            return False
        self._t = t
        changed = False
        rs = self._rs
        readers = self.readers
        lowest = _LOWEST
        reading = due & self._reading
        if reading:
            if self._serve is not None:
                done = self._serve(reading, wake, self._bufs, t)
            else:
                done = self._step_each(reading, t)
            while done:
                r = lowest[done]
                done &= done - 1
                st = readers[r].step(None)
                if st == NOREADER:
                    self.missing |= 1 << r
                    wake[r] = ticks_add(t, self._retry)
                    rs[(r << 3) + _STATE] = _IDLE
                    self._reading &= ~(1 << r)
                else:
                    if self.missing:
                        self.missing &= ~(1 << r)
                    if self._finish(r, st):
                        changed = True
        due &= ~reading
        while due:
            r = lowest[due]
            due &= due - 1
            o = r << 3
            if rs[o + _STATE] == _SETTLE or rs[o + _CUR] != _NONE:
                # Its tag powered up (or its missing reader asked again).
                self._begin(r, rs[o + _CUR])
            else:                            # the first poll: its first cell
                f = _pick(rs, self._ring, self._until, r, now_ms)
                self.front.coil(r, f)
                rs[o + _CUR] = f
                rs[o + _STATE] = _SETTLE
                rs[64 + r] = 1
        if _stamped(rs, self.ranks):
            # The coils switch now: their tags' power-up counts from here.
            self.front.flush()
            t = ticks_add(clock() if clock is not None else now_ms, self._settle)
            _stamp(rs, wake, self.ranks, t)
        return changed

    @micropython.native
    def _step_each(self, mask, t):
        """Readers without serve(): step each in mask; the mask of those done."""
        readers = self.readers
        wake = self._wake
        us = t if self._clock is not None else None
        done = 0
        for r in range(self.ranks):
            if mask >> r & 1:
                rd = readers[r]
                if rd.step(us) == BUSY:
                    d = rd.due
                    wake[r] = t if d is None else d
                else:
                    done |= 1 << r
        return done

    @micropython.native
    def _begin(self, r, f):
        """Rank r starts reading the cell of its coil f."""
        self._rs[(r << 3) + _STATE] = _READ
        self._reading |= 1 << r
        rd = self.readers[r]
        rd.begin(self._bufs[r], f)
        d = rd.due
        self._wake[r] = self._t if d is None else d

    def view(self, fallback):
        """.cells, but a missing reader's rank as fallback has it (the
        game's tiles): the board plays on without that reader."""
        m = self.missing
        if not m:
            return self.cells
        v = self._view
        cells = self.cells
        for c in range(64):
            v[c] = fallback[c] if m >> (c >> 3) & 1 else cells[c]
        return v
