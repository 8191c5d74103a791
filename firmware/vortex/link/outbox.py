"""What the board sends, in a bounded ring of whole lines, each numbered.

A message is composed in a fixed scratch buffer (begin, then text, word,
number, cell..., then end) and only then copied into the ring, so the ring
only ever holds whole lines. When the host does not read, the oldest lines
are dropped to make room and counted: the loop never waits for the host.
Nothing here allocates, except text() given a str.
"""
from vortex.engine.defs import const
from vortex.engine.codes import cell_file, cell_rank

_OUT_BYTES = const(2048)
MESSAGE_MAX = const(240)
_SEQ_WRAP = const(1000000)  # sequence numbers run 0..999999, then 0 again


class Outbox:
    def __init__(self, size=_OUT_BYTES):
        self.ring = bytearray(size)
        self.head = 0      # next byte to send
        self.tail = 0      # next byte to fill
        self.used = 0
        self.mid = False   # part of the line at head is already sent
        self.seq = 0       # the next message's number
        self.dropped = 0   # lines dropped unsent, since the start
        self.msg = bytearray(MESSAGE_MAX)
        self.n = 0
        self.view = memoryview(self.ring)

    # --- composing ----------------------------------------------------------
    def begin(self):
        """Start message number self.seq: its number and a space."""
        self.n = 0
        self.number(self.seq)
        self.byte(32)

    def byte(self, b):
        if self.n < MESSAGE_MAX - 1:  # room for the newline is kept
            self.msg[self.n] = b
            self.n += 1

    def word(self, data):
        """bytes (a constant: no allocation), then a space."""
        for b in data:
            self.byte(b)
        self.byte(32)

    def text(self, s):
        """A str, as is (it must be ASCII; allocates its encoding)."""
        for b in s.encode():
            self.byte(b)

    def number(self, v):
        if v < 0:
            self.byte(45)
            v = -v
        d = 1
        while d * 10 <= v:
            d *= 10
        while d:
            self.byte(48 + v // d % 10)
            d //= 10

    def cell(self, c):
        self.byte(97 + cell_file(c))
        self.byte(49 + cell_rank(c))

    def end(self):
        """Finish the message (trailing spaces cut) and queue it."""
        n = self.n
        while n and self.msg[n - 1] == 32:
            n -= 1
        self.msg[n] = 10
        n += 1
        size = len(self.ring)
        self.seq = self.seq + 1 if self.seq < _SEQ_WRAP - 1 else 0
        while size - self.used < n:
            if not self._drop():
                self.dropped += 1  # no room even so: this line goes
                return
        ring, msg, t = self.ring, self.msg, self.tail
        for i in range(n):
            ring[t] = msg[i]
            t += 1
            if t == size:
                t = 0
        self.tail = t
        self.used += n

    def free(self):
        return len(self.ring) - self.used

    def _drop(self):
        # Drop the oldest line not yet begun; a line partly sent is finished
        # first, so the host never sees two lines run together. False when
        # there is no such line.
        ring, size, used = self.ring, len(self.ring), self.used
        skip = self._line_len(self.head, used) if self.mid else 0
        if skip >= used:
            return False
        start = (self.head + skip) % size
        gone = self._line_len(start, used - skip)
        if skip:  # close the gap: move what follows the dropped line back
            for i in range(used - skip - gone):
                ring[(start + i) % size] = ring[(start + gone + i) % size]
            self.tail = (start + used - skip - gone) % size
        else:
            self.head = (start + gone) % size
        self.used -= gone
        self.dropped += 1
        return True

    def _line_len(self, i, limit):
        # Bytes from ring[i] to the end of its line, newline included; at most limit.
        ring, size = self.ring, len(self.ring)
        n = 0
        while n < limit:
            b = ring[i]
            n += 1
            i = i + 1 if i + 1 < size else 0
            if b == 10:
                break
        return n

    # --- sending ------------------------------------------------------------
    def pending(self, limit):
        """A memoryview of up to `limit` bytes to send next (empty when all
        is sent); then sent(n) for what the port took."""
        if not self.used:
            return self.view[0:0]
        n = len(self.ring) - self.head
        if n > self.used:
            n = self.used
        if n > limit:
            n = limit
        return self.view[self.head:self.head + n]

    def sent(self, n):
        if n <= 0:
            return
        self.head = (self.head + n) % len(self.ring)
        self.used -= n
        self.mid = self.used > 0 and self.ring[(self.head - 1) % len(self.ring)] != 10
