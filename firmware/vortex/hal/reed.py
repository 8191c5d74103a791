"""The 8x8 reed switch matrix under the cells: occupancy, debounced.

    m = ReedMatrix(row_pins, col_pins, debounce_ms=5)
    if m.scan(time.ticks_ms()):
        ...                  # m.cells (bytearray(64), 1 = magnet) changed

row_pins[r] drives rank r+1, col_pins[f] reads file f (a..h), so the cell
is r*8 + f. Each switch is in series with a diode from its row (anode) to
its column (cathode); columns have pull-downs. One row at a time is driven
high, the others stay low: a closed switch on an idle row is then behind a
reverse-biased diode, so any set of magnets reads without ghosts.

Pins are machine.Pin objects (or fakes with init/value and the IN, OUT,
PULL_DOWN attributes); the constructor sets their modes. scan() allocates
nothing: it writes a preallocated raw bytearray and feeds a Debouncer.
"""
from .debounce import Debouncer, DEBOUNCE_MS


class ReedMatrix:
    """ReedMatrix(row_pins, col_pins, debounce_ms=5); `.cells`, scan(now)."""

    def __init__(self, row_pins, col_pins, debounce_ms=DEBOUNCE_MS):
        self._rows = tuple(row_pins)
        self._cols = tuple(col_pins)
        for p in self._rows:
            p.init(p.OUT, value=0)
        for p in self._cols:
            p.init(p.IN, p.PULL_DOWN)
        n = len(self._rows) * len(self._cols)
        self.raw = bytearray(n)          # the last undebounced reading
        self._deb = Debouncer(n, debounce_ms)
        self.cells = self._deb.state     # debounced, 1 = occupied

    def read_raw(self):
        """Read every switch into .raw (no debounce)."""
        raw = self.raw
        cols = self._cols
        i = 0
        for row in self._rows:
            row.value(1)
            # A MicroPython call takes microseconds, longer than the
            # column's RC settling through the diode and the pull-down.
            for col in cols:
                raw[i] = 1 if col.value() else 0
                i += 1
            row.value(0)

    def scan(self, now_ms):
        """Read the matrix once; True if a debounced cell changed."""
        self.read_raw()
        return self._deb.update(self.raw, now_ms)
