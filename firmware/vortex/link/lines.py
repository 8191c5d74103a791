"""Input lines assembled byte by byte in a fixed buffer: no allocation per byte."""
from vortex.engine.defs import const

LINE_MAX = const(200)  # longest command: "new " and a position (about 150)
NONE = const(0)        # nothing complete yet
LINE = const(1)        # buf[:length] holds a line of printable ASCII
TOO_LONG = const(2)    # a line ended that did not fit: it was thrown away
BAD_BYTE = const(3)    # a line ended that held a byte outside printable ASCII (bad)


class LineReader:
    """feed(byte) -> NONE, LINE, TOO_LONG or BAD_BYTE. A line ends at CR or
    LF (a terminal sends CR, a program LF, some CRLF: the empty line between
    is no line); backspace and DEL take back a byte, as a person typing
    expects. Any other byte outside printable ASCII (a tab too) spoils its
    line."""

    def __init__(self, size=LINE_MAX):
        self.buf = bytearray(size)
        self.n = 0  # bytes of the line being read
        self.length = 0  # bytes of the line last completed (LINE): buf[:length]
        self.bad = -1  # the first byte outside printable ASCII in this line
        self.bad_byte = 0  # that byte, once BAD_BYTE is returned
        self._over = False

    def feed(self, b):
        if b == 10 or b == 13:
            n, over, bad = self.n, self._over, self.bad
            self.n = 0
            self._over = False
            if bad >= 0:
                self.bad_byte = bad
                self.bad = -1
                return BAD_BYTE
            if over:
                return TOO_LONG
            self.length = n
            return LINE if n else NONE
        if b == 8 or b == 127:
            if self.n and not self._over:
                self.n -= 1
            return NONE
        if b < 32 or b > 126:
            if self.bad < 0:
                self.bad = b
            return NONE
        if self.n == len(self.buf):
            self._over = True
        else:
            self.buf[self.n] = b
            self.n += 1
        return NONE

    def reset(self):
        """Forget a partial line (the host went away mid-line)."""
        self.n = 0
        self.bad = -1
        self._over = False
