"""Tile reading: the read scheduler over one reader per rank.

Reader r reads rank r through its eight coils, one connected at a time
(vortex.hal.frontend). A tag needs SETTLE_MS of field after its coil is
switched in before it answers, and a read is several exchanges on the air;
so each reader works through its rank as a state machine (switch the coil,
let the tag power up, read it exchange by exchange) and poll() moves every
reader on that can move, without waiting for any: eight ranks are read at
once, and the piece scan never waits for the tiles.

    tiles = TileScanner(Readers(front), front, time.ticks_ms(), clock=time.ticks_us)
    tiles.expect(cell)                    # e.g. under a lifted piece
    if tiles.poll(time.ticks_ms()):       # in the main loop, every tick
        ...                               # tiles.cells or tiles.ids changed

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

Order of reads, per rank: a disagreeing read is repeated at once; then the
rank's expected cells (BURST of them) alternate with one cell of its
round-robin sweep, as long as the sweep keeps its time: an expected read is
left for later when, at the rank's pace, it would make the sweep's next
cell wait more than SWEEP_MS since its last read. So a lifted piece's cells
are read often, and no cell of the rank waits much longer than SWEEP_MS
for all that (issue 16: the sweep target is 150 ms; BURST alone let a
rank's round run to three times its length while cells were expected).

Readers: a sequence (readers[r] reads rank r) of objects with begin(buf,
slot) (read the tag of coil `slot` into buf, from the next step on),
step(now) -> BUSY, OK, NOTAG, ERR or NOREADER, and .due (the clock time
before which stepping it is no use, or None); a sequence with serve()
(vortex.hal.mfrc522.Readers) moves all the due ones in one call. The front
end: anything with coil(rank, f) and flush() (vortex.hal.frontend;
host_sim.virtual has the simulator's). poll() keeps when each rank next has
something to do and looks only at those whose time has come; it stays while
one will be due within budget_us, so that exchanges follow each other
without waiting for the main loop's next turn.

A reader whose chip does not answer (NOREADER) has its bit set in .missing,
its rank's readings stay as they are, and it is asked again only every
RETRY_MS; view(fallback) gives the cells with a missing reader's rank taken
from fallback (the game's tiles).

The scheduler's bookkeeping is bytes (one bytearray, _S_*), and what runs
once a read, or once a poll, is viper: machine code on MicroPython, the same
source run as Python elsewhere (vortex.native). Nothing allocates in poll().
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from array import array

from ..tag import SIZE, BUSY, decode
from ..ticks import ticks_diff
from ..native import micropython, ptr8, ptr32

SETTLE_MS = const(5)     # a tag accepts a request within 5 ms of entering the field (ISO/IEC 14443-3)
HOLD_MS = const(3000)    # how long an expected cell keeps being re-read
BURST = const(3)         # expected-cell reads between two sweep reads, per rank
SWEEP_MS = const(135)    # expected reads only while the sweep's next cell is read within this
CONFIRM = const(2)       # reads in a row that agree on a tile of ours to change a reading
# ... on no tile or a tag not ours. With half the reads failing (the
# simulator's worst), a false run of them starts once in 4**8 = 65536 reads.
DOUBT = const(8)
RETRIES = const(7)       # immediate re-reads of a cell whose reads disagree: DOUBT - 1
RETRY_MS = const(1000)   # how often a missing reader is asked again
_BUDGET_US = const(2000)  # poll()'s default stay for readers to be due (issue 16: 1 ms left the
                         # ranks served last waiting a pass an exchange: 155 ms sweeps)
# The scheduler's times wrap at 2**30, as MicroPython's ticks do; poll()'s
# milliseconds are counted into that period on a runtime whose ticks wrap
# elsewhere (CircuitPython's supervisor.ticks_ms: 2**29).
_WRAP = const(0x3FFFFFFF)

# vortex.tag's codes, for the viper code (which needs its constants here).
_OK = const(0)
_NOTAG = const(1)
_NO_TILE = const(0)
_UNKNOWN = const(5)
_NOT_READ = const(6)
_WATER = const(1)
_AIR = const(4)
_NONE = const(255)

# A rank's state.
_IDLE = const(0)         # nothing under way (its reader missing, or not started)
_SETTLE = const(1)       # its coil switched in: the tag powers up
_READ = const(2)         # its reader is reading

# The bookkeeping bytes (_sched).
_S_PREV = const(0)       # 64: each cell's previous read
_S_PID = const(64)       # 64: its serial's low byte
_S_RANK = const(128)     # 8 a rank:
_AGAIN = const(0)        # file to re-read at once, or 255
_RETRIES = const(1)      # re-reads of it left
_QH = const(2)           # its ring of expected files: head...
_QN = const(3)           # ...and length
_BURST = const(4)        # expected reads since the last sweep read
_SWEEP = const(5)        # the sweep's next file
_CUR = const(6)          # the file whose coil is in, or 255
_STATE = const(7)        # _IDLE, _SETTLE, _READ
_S_STAMP = const(192)    # 8: 1 when the rank's coil switches at the next flush
_S_RING = const(200)     # 64: each rank's ring of expected files (8 at 8 * rank)
_S_INQ = const(264)      # 64: 1 while the cell is in its rank's ring
_S_START = const(328)    # 8: the file whose read the reader starts at its next turn, or 255
_S_STATUS = const(336)   # 8: how the reader's read ended (serve() writes it)
_S_SAME = const(344)     # 64: how many reads in a row gave _S_PREV (capped at DOUBT)
_S_PACE = const(408)     # 8: the rank's ms between two reads: the slowest lately (up at once, down by a quarter)
_S = const(416)
_H_PICK = const(64)      # holds[64 + r]: when rank r last chose a cell (ms ticks)
_H_LAST = const(72)      # holds[72 + c]: when cell c was last chosen
_H = const(136)
_NOREADER = const(3)     # vortex.tag's NOREADER, for the viper code

# _conclude()'s answer, besides the next file.
_CHANGED = const(0x100)  # a reading changed
_FIRST = const(0x200)    # ...from NOT_READ
_SWITCH = const(0x400)   # the next file's coil is to be switched in


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
def _pick(sched, holds, r: int, now: int) -> int:
    """The file rank r reads next: its pending re-read; else one of its
    expected cells (BURST between two sweep reads, while the sweep's next
    cell keeps within SWEEP_MS; one still held goes back to the ring's
    end); else its sweep's next."""
    s = ptr8(sched)
    until = ptr32(holds)
    o = _S_RANK + (r << 3)
    q = _S_RING + (r << 3)
    dt = (now - int(until[_H_PICK + r])) & 0x3FFFFFFF
    until[_H_PICK + r] = now
    # The pace: up at once, down slowly. Averaged, the quick re-reads of a
    # coil already in (no settle) made the sweep's reads, which switch
    # coils, look quicker than they are: a cell waited past SWEEP_MS.
    if dt < 255:
        p = int(s[_S_PACE + r])
        s[_S_PACE + r] = dt if dt > p else (3 * p + dt + 2) >> 2
    f = int(s[o + _AGAIN])
    if f != _NONE and s[o + _RETRIES]:
        s[o + _RETRIES] = s[o + _RETRIES] - 1
        until[_H_LAST + (r << 3) + f] = now
        return f
    s[o + _AGAIN] = _NONE
    qn = int(s[o + _QN])
    sweep = int(s[o + _SWEEP])
    # An expected read first delays each cell of the sweep by a read: not
    # if that would make one wait more than SWEEP_MS (the cell k reads on
    # in the sweep is read k + 1 reads from now; a read more for the pace's
    # error).
    late = False
    if qn:
        pace = int(s[_S_PACE + r])
        k = 0
        while k < 8 and not late:
            g = (sweep + k) & 7
            waited = (now - int(until[_H_LAST + (r << 3) + g])) & 0x3FFFFFFF
            late = waited + (k + 2) * pace > SWEEP_MS
            k += 1
    if qn and int(s[o + _BURST]) < BURST and not late:
        s[o + _BURST] = s[o + _BURST] + 1
        h = int(s[o + _QH])
        f = int(s[q + h])
        s[o + _QH] = (h + 1) & 7
        qn -= 1
        c = (r << 3) + f
        s[_S_INQ + c] = 0
        d = (int(until[c]) - now) & 0x3FFFFFFF
        if d != 0 and d < 0x20000000:        # still held: back at the ring's end
            s[q + ((h + 1 + qn) & 7)] = f
            qn += 1
            s[_S_INQ + c] = 1
        s[o + _QN] = qn
        until[_H_LAST + c] = now
        return f
    s[o + _BURST] = 0
    s[o + _SWEEP] = (sweep + 1) & 7
    until[_H_LAST + (r << 3) + sweep] = now
    return sweep


@micropython.viper
def _conclude(cells, ids, sched, holds, buf, r: int, st: int, now: int) -> int:
    """Rank r's read of its cell ended with st (the tag's bytes in buf):
    the reading applied (it changes when two reads in a row agree; a read
    that disagrees is repeated at once), then the rank's next file chosen
    and its state set: reading it at once if its coil is in, else the coil
    to switch. Returns the file, | _CHANGED, _FIRST, _SWITCH."""
    cl = ptr8(cells)
    id_ = ptr8(ids)
    s = ptr8(sched)
    b = ptr8(buf)
    o = _S_RANK + (r << 3)
    cur = int(s[o + _CUR])
    c = (r << 3) + cur
    i = 0
    if st == _OK:
        v = int(decode(buf))
        if v != _UNKNOWN:
            i = int(b[6])                    # the serial's low byte (tag.py's layout)
    elif st == _NOTAG:
        v = _NO_TILE
    else:
        v = _UNKNOWN
    res = 0
    prev = int(s[_S_PREV + c])
    tile = _WATER <= v and v <= _AIR
    if int(s[o + _AGAIN]) == cur and _WATER <= prev and prev <= _AIR and not tile:
        pass                                 # a failed read among a tile's re-reads proves little: they go on
    else:
        same = 1
        if prev == v and int(s[_S_PID + c]) == i:
            same = int(s[_S_SAME + c]) + 1
        s[_S_PREV + c] = v
        s[_S_PID + c] = i
        s[_S_SAME + c] = same if same < DOUBT else DOUBT
        # Not read yet: the first reading needs no more (a wrong one is a
        # difference, which the app has read again at once).
        need = CONFIRM if tile or int(cl[c]) == _NOT_READ else DOUBT
        if cl[c] == v and id_[c] == i:
            s[o + _AGAIN] = _NONE
        elif same >= need:                   # enough reads in a row agree: the reading changes
            res = _CHANGED | (_FIRST if cl[c] == _NOT_READ else 0)
            cl[c] = v
            id_[c] = i
            s[o + _AGAIN] = _NONE
        else:                                # disagrees: read it again at once
            if int(s[o + _AGAIN]) != cur:
                s[o + _RETRIES] = RETRIES
            s[o + _AGAIN] = cur
    f = int(_pick(sched, holds, r, now))
    if f == cur:
        s[o + _STATE] = _READ
        return res | f
    s[o + _CUR] = f
    s[o + _STATE] = _SETTLE
    s[_S_STAMP + r] = 1
    return res | f | _SWITCH


@micropython.viper
def _conclude_all(ctx, done: int, now: int, t: int) -> int:
    """The reads of the ranks in done (bit r) ended, their statuses at
    _S_STATUS: each concluded (_conclude), its next read to start at once
    (due at t), or its coil to switch (ctx: cells, ids, sched, holds, bufs,
    wake, the retry time of a missing reader). Returns the ranks whose
    reader is missing (bits 0-7), reads concluded << 8, readings changed
    << 12, first readings << 16, the ranks whose coil is to switch << 20
    (to the file at their _CUR): a small int, under 2**28."""
    s = ptr8(ctx[2])
    w = ptr32(ctx[5])
    retry = int(ctx[6])
    switch = 0
    missing = 0
    reads = 0
    changed = 0
    first = 0
    r = 0
    while done:
        if done & 1:
            st = int(s[_S_STATUS + r])
            o = _S_RANK + (r << 3)
            if st == _NOREADER:
                missing |= 1 << r
                w[r] = (t + retry) & 0x3FFFFFFF
                s[o + _STATE] = _IDLE
            else:
                reads += 1
                res = int(_conclude(ctx[0], ctx[1], ctx[2], ctx[3], ctx[4][r], r, st, now))
                if res & _CHANGED:
                    changed += 1
                    if res & _FIRST:
                        first += 1
                if res & _SWITCH:
                    switch |= 1 << r
                else:
                    s[_S_START + r] = res & 7
                    w[r] = t
        done >>= 1
        r += 1
    return missing | reads << 8 | changed << 12 | first << 16 | switch << 20


@micropython.viper
def _serving(sched, due: int, n: int) -> int:
    """Of the ranks in due, those the readers serve now: reading, or their
    tag powered up (their read to start: _S_START), or their missing
    reader to be asked again. The others (not started) are left out."""
    s = ptr8(sched)
    m = 0
    for r in range(n):
        if due & (1 << r):
            o = _S_RANK + (r << 3)
            state = int(s[o + _STATE])
            if state == _READ:
                m |= 1 << r
            elif int(s[o + _CUR]) != _NONE:
                s[o + _STATE] = _READ
                s[_S_START + r] = s[o + _CUR]
                m |= 1 << r
    return m


@micropython.viper
def _stamp(sched, wake, n: int, t: int) -> bool:
    """The ranks whose coil has just switched wake when their tag has
    powered up (t); False if none had."""
    s = ptr8(sched)
    w = ptr32(wake)
    any_ = False
    for r in range(n):
        if s[_S_STAMP + r]:
            w[r] = t
            s[_S_STAMP + r] = 0
            any_ = True
    return any_


@micropython.viper
def _staged(sched, n: int) -> bool:
    s = ptr8(sched)
    for r in range(n):
        if s[_S_STAMP + r]:
            return True
    return False


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
    """TileScanner(readers, front, now_ms=0, settle_ms=5, hold_ms=3000,
    clock=None).

    .cells    bytearray(64) of reading codes (NOT_READ at first)
    .ids      bytearray(64): low byte of each tile's serial, 0 if unknown
    .unread   cells still NOT_READ (0 once the first sweep is done)
    .reads    reads done so far
    .missing  bit r set while reader r does not answer (0: all answer)
    expect(cell, hold_ms=None)  read this cell first in its rank, and again
                                and again for hold_ms
    poll(now_ms, between=None, budget_us=_BUDGET_US)
                                move the readers on (staying up to
                                budget_us for them, calling between()
                                while it waits); True if .cells or .ids
                                changed
    view(fallback)              .cells, with missing readers' ranks from fallback

    clock: a microsecond tick source (time.ticks_us) to time the tags'
    power-up and the readers' exchanges exactly; None: poll()'s
    milliseconds, one round a poll.
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
        n = len(readers)
        self.ranks = n
        self.cells = bytearray(64)
        self.ids = bytearray(64)     # serial (low byte) of each cell's tile, 0 unknown
        s = bytearray(_S)
        for c in range(64):
            self.cells[c] = _NOT_READ
            s[_S_PREV + c] = _NOT_READ
        for r in range(n):
            s[_S_RANK + (r << 3) + _AGAIN] = _NONE
            s[_S_RANK + (r << 3) + _CUR] = _NONE
            s[_S_START + r] = _NONE
        self._sched = s
        v = memoryview(s)
        self._starts = v[_S_START:_S_START + n]
        self._status = v[_S_STATUS:_S_STATUS + n]
        self.unread = 64
        self.reads = 0
        self.missing = 0
        self._view = bytearray(64)
        self._bufs = tuple(bytearray(SIZE) for _ in range(n))
        # Each cell's hold deadline, when each rank and each cell was last
        # chosen to be read (ms ticks; _H_*).
        self._until = array("i", [0] * _H)
        # When each rank next has something to do (clock ticks): its read's
        # frames through, its tag powered up, its missing reader to be asked.
        self._last = now_ms
        self._now = now_ms & _WRAP
        start = clock() if clock is not None else self._now
        self._wake = array("i", [start] * n)
        self._serve = getattr(readers, "serve", None)   # all due readers at once
        self._ctx = (self.cells, self.ids, s, self._until, self._bufs, self._wake, self._retry)
        for r in range(n):
            if not getattr(readers[r], "present", True):
                self.missing |= 1 << r       # known at once: said before any read

    # -- the rings of expected cells -----------------------------------------
    def expect(self, cell, hold_ms=None):
        """Read `cell` before its rank's other cells (but a pending re-read),
        and keep reading it for hold_ms (default self.hold_ms) from now."""
        hold = self.hold_ms if hold_ms is None else hold_ms
        self._until[cell] = (self._now + hold) & _WRAP
        s = self._sched
        o = _S_RANK + (cell & 0x38)
        q = _S_RING + (cell & 0x38)
        f = cell & 7
        h = s[o + _QH]
        if s[_S_INQ + cell]:
            # Already waiting: move it to the front.
            i = 0
            while s[q + ((h + i) & 7)] != f:
                i += 1
            while i:
                s[q + ((h + i) & 7)] = s[q + ((h + i - 1) & 7)]
                i -= 1
            s[q + h] = f
            return
        h = (h - 1) & 7
        s[o + _QH] = h
        s[q + h] = f
        s[o + _QN] += 1
        s[_S_INQ + cell] = 1

    # -- the state machines --------------------------------------------------
    @micropython.native
    def poll(self, now_ms, between=None, budget_us=_BUDGET_US):
        """Move on every reader that has something to do; and while one will
        have within budget_us (its frames through, its tag powered up), stay
        for it, calling between() while it waits: if that says True (other
        work has come up: a reed changed), it stays no longer. True if .cells
        or .ids changed."""
        now = (self._now + ticks_diff(now_ms, self._last)) & _WRAP
        self._last = now_ms
        self._now = now
        clock = self._clock
        t = clock() if clock is not None else now
        changed = False
        end = (t + budget_us) & _WRAP
        wake = self._wake
        n = self.ranks
        while True:
            due = _due(t, wake, n)
            if due:
                if self._round(due, t):
                    changed = True
            if clock is None:
                break
            t = clock()
            if ((t - end) & _WRAP) < 0x20000000 or not _due(end, wake, n):
                break                        # out of time, or none due before the end
            if between is not None and between():
                break
        return changed

    @micropython.native
    def _round(self, due, t):
        """Move on the ranks in due (bit r); True if a reading changed."""
        s = self._sched
        serving = _serving(s, due, self.ranks)
        changed = False
        if serving:
            if self._serve is not None:
                done = self._serve(serving, self._wake, self._bufs, t, self._status, self._starts)
            else:
                done = self._step_each(serving, t)
            if done:
                res = _conclude_all(self._ctx, done, self._now, t)
                if res & 0xFF:
                    self.missing |= res & 0xFF
                if self.missing & done:
                    self.missing &= ~(done & ~res)
                self.reads += res >> 8 & 0x0F
                if res >> 12 & 0x0F:
                    changed = True
                    self.unread -= res >> 16 & 0x0F
                switch = res >> 20
                r = 0
                while switch:
                    if switch & 1:
                        self.front.coil(r, s[_S_RANK + (r << 3) + _CUR])
                    switch >>= 1
                    r += 1
        rest = due & ~serving
        if rest:                             # the first poll: each rank's first cell
            for r in range(self.ranks):
                if rest >> r & 1:
                    o = _S_RANK + (r << 3)
                    f = _pick(s, self._until, r, self._now)
                    s[o + _CUR] = f
                    s[o + _STATE] = _SETTLE
                    s[_S_STAMP + r] = 1
                    self.front.coil(r, f)
        if _staged(s, self.ranks):
            # The coils switch now: their tags' power-up counts from here.
            self.front.flush()
            c = self._clock
            _stamp(s, self._wake, self.ranks, ((c() if c is not None else t) + self._settle) & _WRAP)
        return changed

    @micropython.native
    def _step_each(self, mask, t):
        """Readers without serve(): start or step each in mask; the mask of
        those done (their statuses at _S_STATUS)."""
        readers = self.readers
        wake = self._wake
        status = self._status
        starts = self._starts
        us = t if self._clock is not None else None
        done = 0
        for r in range(self.ranks):
            if mask >> r & 1:
                rd = readers[r]
                if starts[r] != _NONE:
                    rd.begin(self._bufs[r], starts[r])
                    starts[r] = _NONE
                st = rd.step(us)
                if st == BUSY:
                    d = rd.due
                    wake[r] = t if d is None else d
                else:
                    status[r] = st
                    done |= 1 << r
        return done

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
