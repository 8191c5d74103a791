"""A fake antenna mux and a fake tile reader that answers from a script of
readings per cell and time, for the TileScanner tests (CPython and
MicroPython)."""
from array import array

from vortex import tag
from vortex.tag import NO_TILE, WATER, FIRE, EARTH, AIR
from vortex.hal.tiles import TileScanner
from vortex.tag import OK, NOTAG, ERR, NOREADER
from vortex.ticks import ticks_add, ticks_diff

READ_ERR = 99      # a scripted reading: the reader reports ERR

ENC = [None] + [tag.encode(t, t) for t in (WATER, FIRE, EARTH, AIR)]
JUNK = b"\x55" * 16


class Clock:
    def __init__(self, t=0):
        self.t = t


class FakeMux:
    def __init__(self, clock):
        self.clock = clock
        self.cell = -1
        self.at = 0
        self.selects = 0

    def select(self, cell):
        self.cell = cell
        self.at = self.clock.t
        self.selects += 1

    def off(self):
        self.cell = -1


class FakeReader:
    """read_tile(buf) from the tile under the selected antenna: board[c] at
    first, then each (time, code) of timeline[c] from its time on; glitch[c]
    is a list of one-off readings returned first (misreads)."""

    def __init__(self, mux, clock, board=None, settle_ms=5):
        self.mux = mux
        self.clock = clock
        self.board = bytearray(board if board is not None else bytes(64))
        self.timeline = {}
        self.glitch = {}
        self.settle_ms = settle_ms
        # The log of reads, compact so that it fits the MicroPython heap of
        # the tests: cells and codes in bytearrays, times in ms since t0.
        self.t0 = clock.t
        self._lc = bytearray()
        self._lt = array("i")
        self._lk = bytearray()
        self.calls = 0
        self.absent = False  # True: no reader chip answers at all

    def truth(self, c):
        v = self.board[c]
        for t, code in self.timeline.get(c, ()):
            if ticks_diff(self.clock.t, t) >= 0:
                v = code
        return v

    def nlog(self):
        """Reads so far."""
        return len(self._lc)

    def cells_log(self, start=0, end=None):
        """The cells of reads start..end-1, as bytes."""
        return bytes(self._lc[start:end])

    def codes_of(self, c, start=0):
        """The readings of cell c from the start-th read on."""
        return [self._lk[i] for i in range(start, len(self._lc))
                if self._lc[i] == c]

    def time(self, i):
        """When the i-th read happened."""
        return ticks_add(self.t0, self._lt[i])

    def read_tile(self, buf):
        c = self.mux.cell
        assert c >= 0
        # The scanner lets the field settle before the first command.
        if not self._lc or self._lc[-1] != c:
            assert ticks_diff(self.clock.t, self.mux.at) >= self.settle_ms
        self.calls += 1
        if self.absent:
            return NOREADER
        g = self.glitch.get(c)
        code = g.pop(0) if g else self.truth(c)
        self._lc.append(c)
        self._lt.append(ticks_diff(self.clock.t, self.t0))
        self._lk.append(code)
        if code == NO_TILE:
            return NOTAG
        if code == READ_ERR:
            return ERR
        src = ENC[code] if code <= AIR else JUNK
        for i in range(16):
            buf[i] = src[i]
        return OK


def rig(board=None, t0=0, settle=5):
    clock = Clock(t0)
    mux = FakeMux(clock)
    reader = FakeReader(mux, clock, board, settle)
    sc = TileScanner(reader, mux, t0, settle_ms=settle)
    return clock, mux, reader, sc


def run(clock, sc, ms, step=2):
    """Poll every `step` ms for `ms` ms; the cells that changed, in order."""
    changes = []
    end = ticks_add(clock.t, ms)
    while ticks_diff(end, clock.t) > 0:
        before = bytearray(sc.cells)
        calls = sc.reader.calls
        if sc.poll(clock.t):
            changes.extend(c for c in range(64) if sc.cells[c] != before[c])
        assert sc.reader.calls - calls <= 1          # one read per poll
        clock.t = ticks_add(clock.t, step)
    return changes


def full_board():
    return bytes((c % 4) + 1 for c in range(64))
