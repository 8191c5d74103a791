"""Fake hardware for the hal tests: pins and a reed matrix (the NFC front
end's fakes are in hal_fake_rc522 and hal_fake_front). Plain Python, so the
tests run on CPython and under the MicroPython unix port alike (KMK style:
the drivers get these objects in place of machine.Pin / machine.SPI)."""


class FakePin:
    """A machine.Pin stand-in: init(mode, pull, value=), value([v])."""
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, name="pin"):
        self.name = name
        self.mode = None
        self.pull = None
        self.v = 0
        self.writes = 0
        self.hook = None  # called with each level written (a latch's edge, say)

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.v = value

    def value(self, v=None):
        if v is None:
            return self.read()
        self.v = 1 if v else 0
        self.writes += 1
        if self.hook is not None:
            self.hook(self.v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def read(self):
        return self.v


class FakeMatrix:
    """8 row pins, 8 column pins and 64 switches, each in series with a
    diode from its row to its column; columns pulled down."""

    def __init__(self):
        self.closed = bytearray(64)
        self.rows = [FakePin("row%d" % r) for r in range(8)]
        self.cols = [_ColPin(self, f) for f in range(8)]
        self.max_rows_high = 0

    def high_rows(self):
        return sum(1 for r in self.rows if r.v)


class FakeSio:
    """The RP2040's SIO GPIO_IN register as machine.mem32 reads it, the
    columns of `matrix` on GPIOs first..first+7; `noise` sets other GPIOs
    (rows, buttons) that a reader must mask out."""

    def __init__(self, matrix, first=8, noise=0):
        self.m = matrix
        self.first = first
        self.noise = noise
        self.loads = 0

    def __getitem__(self, addr):
        assert addr == 0xD0000004, hex(addr)
        self.loads += 1
        bits = self.noise & ~(0xFF << self.first)
        for col in self.m.cols:
            bits |= col.read() << (self.first + col.f)
        return bits


class _ColPin(FakePin):
    def __init__(self, matrix, f):
        FakePin.__init__(self, "col%d" % f)
        self.m = matrix
        self.f = f

    def read(self):
        m = self.m
        high = 0
        v = 0
        for r in range(8):
            if m.rows[r].v:
                high += 1
                if m.closed[r * 8 + self.f]:
                    v = 1        # current flows row -> switch -> diode -> col
        if high > m.max_rows_high:
            m.max_rows_high = high
        return v
