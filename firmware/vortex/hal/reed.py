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
PULL_DOWN attributes); the constructor sets their modes. A row's columns
are read pin by pin, or, on the RP2040 with the columns on consecutive
GPIOs, all at once from the SIO's GPIO_IN register:

    m = ReedMatrix(rows, cols, 5, sio_columns(pins.REED_COLS))

(one register load a row instead of eight Pin.value() calls). scan()
allocates nothing: it keeps one column bit mask per row, spreads them over
a preallocated raw bytearray in one viper loop, and feeds a Debouncer.
"""
from .debounce import Debouncer, DEBOUNCE_MS
from ..native import micropython, ptr8

SIO_GPIO_IN = 0xD0000004  # RP2040: the input level of every GPIO, bit n = GPIOn


def sio_columns(gpios, mem=None):
    """(mem32, first GPIO) for ReedMatrix's `sio`, or None if the column
    GPIOs are not consecutive (then they are read pin by pin). mem: the
    machine.mem32 of the rp2 port by default."""
    first = gpios[0]
    if list(gpios) != list(range(first, first + len(gpios))):
        return None
    if mem is None:
        from machine import mem32 as mem
    return mem, first


class ReedMatrix:
    """ReedMatrix(row_pins, col_pins, debounce_ms=5, sio=None); `.cells`,
    scan(now). sio: (mem32, first column GPIO) from sio_columns()."""

    def __init__(self, row_pins, col_pins, debounce_ms=DEBOUNCE_MS, sio=None):
        self._rows = tuple(row_pins)
        self._cols = tuple(col_pins)
        for p in self._rows:
            p.init(p.OUT, value=0)
        for p in self._cols:
            p.init(p.IN, p.PULL_DOWN)
        if len(self._cols) > 8:
            raise ValueError("at most 8 columns: one byte a row")
        self._mem = None   # the GPIO_IN register's reader, if the columns are read there
        self._shift = 0    # the first column's GPIO
        if sio is not None:
            self._mem, self._shift = sio
        self._masks = bytearray(len(self._rows))  # column bits per row
        n = len(self._rows) * len(self._cols)
        self.raw = bytearray(n)          # the last undebounced reading
        self._deb = Debouncer(n, debounce_ms)
        self.cells = self._deb.state     # debounced, 1 = occupied

    @micropython.native  # a quarter faster on the RP2040: no bytecode dispatch
    def read_raw(self):
        """Read every switch into .raw (no debounce)."""
        masks = self._masks
        mem = self._mem
        full = (1 << len(self._cols)) - 1
        r = 0
        for row in self._rows:
            row.value(1)
            # A MicroPython call takes microseconds, longer than the
            # column's RC settling through the diode and the pull-down.
            if mem is None:
                masks[r] = self._read_pins()
            else:
                masks[r] = (mem[SIO_GPIO_IN] >> self._shift) & full
            row.value(0)
            r += 1
        _spread(masks, self.raw, len(masks), len(self._cols))

    def _read_pins(self):
        bits = 0
        bit = 1
        for col in self._cols:
            if col.value():
                bits |= bit
            bit <<= 1
        return bits

    def scan(self, now_ms):
        """Read the matrix once; True if a debounced cell changed."""
        self.read_raw()
        return self._deb.update(self.raw, now_ms)


@micropython.viper
def _spread(masks, raw, rows: int, cols: int):
    # raw[r * cols + f] = bit f of masks[r].
    m = ptr8(masks)
    out = ptr8(raw)
    i = 0
    for r in range(rows):
        bits = m[r]
        for f in range(cols):
            out[i] = (bits >> f) & 1
            i += 1
