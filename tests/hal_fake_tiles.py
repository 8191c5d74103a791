"""A fake front end and fake readers, one per rank, that answer from a
script of readings per cell and time, for the TileScanner tests (CPython
and MicroPython)."""
from vortex import tag
from vortex.tag import NO_TILE, WATER, FIRE, EARTH, AIR
from vortex.hal.tiles import TileScanner
from vortex.tag import OK, NOTAG, ERR, NOREADER, BUSY
from vortex.ticks import ticks_add, ticks_diff

READ_ERR = 99      # a scripted reading: the reader reports ERR
OTHER = 10         # a scripted reading OTHER + terrain: another tile of that terrain

ENC = [None] + [tag.encode(t, t) for t in (WATER, FIRE, EARTH, AIR)]   # serial = terrain
ENC_OTHER = [None] + [tag.encode(t, 0x80 + t) for t in (WATER, FIRE, EARTH, AIR)]
JUNK = b"\x55" * 16
LOG = 4096         # reads a rig logs at most


class Clock:
    def __init__(self, t=0):
        self.t = t


class FakeFront:
    """Each rank's switch: coil() stages, flush() connects (and stamps when)."""

    def __init__(self, clock):
        self.clock = clock
        self.coils = [-1] * 8
        self.at = [0] * 8        # when each rank's coil went in
        self._staged = [-1] * 8
        self.switches = 0

    def coil(self, rank, f):
        self._staged[rank] = f

    def flush(self):
        for r in range(8):
            if self._staged[r] != self.coils[r]:
                self.coils[r] = self._staged[r]
                self.at[r] = self.clock.t
                self.switches += 1


class Truth:
    """The tiles: board[c] at first, then each (time, code) of timeline[c]
    from its time on; glitch[c]: one-off readings returned first (misreads).
    A log of every read, made once so that it fits the MicroPython heap of
    the tests: cells and codes in bytearrays of LOG entries."""

    def __init__(self, front, clock, board=None, settle_ms=5, read_ms=0):
        self.front = front
        self.clock = clock
        self.board = bytearray(board if board is not None else bytes(64))
        self.timeline = {}
        self.glitch = {}
        self.settle_ms = settle_ms
        self.read_ms = read_ms   # how long a read stays BUSY
        self._lc = bytearray(LOG)
        self._lk = bytearray(LOG)
        self._n = 0
        self.calls = 0           # begin() calls, missing readers' included
        self.absent = 0          # bit r set: reader r's chip does not answer
        self.busy = 0            # reads under way now
        self.most_busy = 0       # the most at once

    def code(self, c):
        v = self.board[c]
        for t, code in self.timeline.get(c, ()):
            if ticks_diff(self.clock.t, t) >= 0:
                v = code
        return v

    def nlog(self):
        """Reads so far."""
        return self._n

    def cells_log(self, start=0, end=None):
        """The cells of reads start..end-1, as bytes."""
        return bytes(self._lc[start:self._n if end is None else end])

    def codes_of(self, c, start=0):
        """The readings of cell c from the start-th read on."""
        return [self._lk[i] for i in range(start, self._n) if self._lc[i] == c]


class FakeReader:
    """Rank r's reader: begin() reads the truth under the connected coil."""

    def __init__(self, truth, rank):
        self.truth = truth
        self.rank = rank
        self.last = -1           # the coil of the last read
        self._st = NOREADER
        self._until = 0
        self._busy = False

    def begin(self, buf, slot):
        t = self.truth
        front = t.front
        r = self.rank
        assert front.coils[r] == slot, (r, slot, front.coils[r])
        # The scanner lets the tag power up after its coil went in.
        if slot != self.last:
            assert ticks_diff(t.clock.t, front.at[r]) >= t.settle_ms, (r, slot)
        t.calls += 1
        self._until = ticks_add(t.clock.t, t.read_ms)
        if t.absent >> r & 1:
            self._st = NOREADER
            return
        self.last = slot
        c = r * 8 + slot
        g = t.glitch.get(c)
        code = g.pop(0) if g else t.code(c)
        assert t._n < LOG, "the read log is full: a shorter test"
        t._lc[t._n] = c
        t._lk[t._n] = code
        t._n += 1
        if not self._busy:
            self._busy = True
            t.busy += 1
            if t.busy > t.most_busy:
                t.most_busy = t.busy
        if code == NO_TILE:
            self._st = NOTAG
        elif code == READ_ERR:
            self._st = ERR
        else:
            if code <= AIR:
                src = ENC[code]
            elif OTHER < code <= OTHER + AIR:
                src = ENC_OTHER[code - OTHER]
            else:
                src = JUNK
            for i in range(16):
                buf[i] = src[i]
            self._st = OK

    due = None               # no clock: look at every poll

    def step(self, now=None):
        if ticks_diff(self.truth.clock.t, self._until) < 0:
            return BUSY
        if self._busy:
            self._busy = False
            self.truth.busy -= 1
        return self._st


def rig(board=None, t0=0, settle=5, read_ms=0):
    clock = Clock(t0)
    front = FakeFront(clock)
    truth = Truth(front, clock, board, settle, read_ms)
    readers = [FakeReader(truth, r) for r in range(8)]
    sc = TileScanner(readers, front, t0, settle_ms=settle)
    return clock, truth, sc


def run(clock, sc, ms, step=1):
    """Poll every `step` ms for `ms` ms; the cells that changed, in order."""
    changes = []
    end = ticks_add(clock.t, ms)
    while ticks_diff(end, clock.t) > 0:
        before = bytearray(sc.cells)
        if sc.poll(clock.t):
            changes.extend(c for c in range(64) if sc.cells[c] != before[c])
        clock.t = ticks_add(clock.t, step)
    return changes


def full_board():
    return bytes((c % 4) + 1 for c in range(64))
