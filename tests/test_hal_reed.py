"""ReedMatrix on a fake diode matrix. Runs under MicroPython too."""
import gc

from hal_fakes import FakeMatrix, FakePin, FakeSio
from vortex.hal.reed import ReedMatrix, sio_columns


def make(ms=5):
    m = FakeMatrix()
    return m, ReedMatrix(m.rows, m.cols, debounce_ms=ms)


def make_sio(ms=5, noise=0):
    # The columns read from the SIO register, as on the RP2040.
    m = FakeMatrix()
    sio = FakeSio(m, 8, noise)
    return m, ReedMatrix(m.rows, m.cols, ms, sio_columns(range(8, 16), sio)), sio


def test_pins_are_configured():
    m, r = make()
    for p in m.rows:
        assert p.mode == FakePin.OUT and p.v == 0
    for p in m.cols:
        assert p.mode == FakePin.IN and p.pull == FakePin.PULL_DOWN
    assert len(r.cells) == 64 and r.cells == bytearray(64)


def test_every_cell_alone_maps_to_rank_times_8_plus_file():
    for m, r in (make(ms=0), make_sio(ms=0)[:2]):
        for c in range(64):
            m.closed[c] = 1
            r.read_raw()
            assert [i for i in range(64) if r.raw[i]] == [c]
            m.closed[c] = 0


def test_sio_reads_a_row_in_one_load_and_masks_other_gpios():
    m, r, sio = make_sio(ms=0, noise=0x3FFFFFFF)   # every other GPIO high
    for c in (0, 9, 14, 49, 63):
        m.closed[c] = 1
    r.read_raw()
    assert [i for i in range(64) if r.raw[i]] == [0, 9, 14, 49, 63]
    assert sio.loads == 8
    assert m.max_rows_high == 1 and all(p.v == 0 for p in m.rows)


def test_sio_columns_only_on_consecutive_gpios():
    mem = object()
    assert sio_columns((8, 9, 10, 11, 12, 13, 14, 15), mem) == (mem, 8)
    assert sio_columns((2, 3, 4), mem) == (mem, 2)
    assert sio_columns((8, 9, 11, 10, 12, 13, 14, 15), mem) is None
    assert sio_columns((8, 10, 12), mem) is None


def test_one_row_at_a_time_and_rows_left_low():
    m, r = make()
    m.closed[0] = m.closed[63] = 1
    r.scan(0)
    assert m.max_rows_high == 1
    assert all(p.v == 0 for p in m.rows)


def test_no_ghosts_with_diodes():
    # Three corners of a rectangle closed: without diodes the fourth
    # would read closed too.
    m, r = make(ms=0)
    for c in (9, 14, 49):
        m.closed[c] = 1
    r.read_raw()
    assert [i for i in range(64) if r.raw[i]] == [9, 14, 49]
    for c in range(64):
        m.closed[c] = 1
    r.read_raw()
    assert r.raw == bytearray(b"\x01" * 64)


def test_scan_debounces():
    m, r = make(ms=5)
    m.closed[12] = 1
    assert not r.scan(0)
    m.closed[12] = 0                 # bounce
    assert not r.scan(0)
    m.closed[12] = 1
    assert not r.scan(1)
    assert not r.scan(5)
    assert r.scan(6)
    assert r.cells[12] == 1 and sum(r.cells) == 1
    assert not r.scan(7)
    m.closed[12] = 0
    assert not r.scan(8)
    assert r.scan(13)
    assert r.cells[12] == 0


def test_start_position_reads_back():
    m, r = make()
    for c in list(range(8, 16)) + list(range(48, 56)) + [4, 60]:
        m.closed[c] = 1
    r.scan(100)
    assert r.scan(105)
    assert r.cells == m.closed


def test_scan_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    # Pins that allocate nothing, unlike the matrix fake.
    class P:
        IN = 0
        OUT = 1
        PULL_DOWN = 2

        def __init__(self):
            self.v = 0

        def init(self, *a, **k):
            pass

        def value(self, v=None):
            if v is None:
                return self.v
            self.v = v

    class Mem:
        def __init__(self):
            self.v = 0

        def __getitem__(self, addr):
            return self.v

    rows = [P() for _ in range(8)]
    cols = [P() for _ in range(8)]
    mem = Mem()
    for r in (ReedMatrix(rows, cols), ReedMatrix(rows, cols, 5, sio_columns(range(8, 16), mem))):
        cols[3].v = 1
        r.scan(0)
        gc.collect()
        gc.disable()
        try:
            a = gc.mem_alloc()
            for t in range(1, 30):
                cols[5].v = t & 1
                mem.v = (t & 1) << 13 | 0x3F0000FF
                r.scan(t)
            used = gc.mem_alloc() - a
        finally:
            gc.enable()
        assert used == 0, used
