"""The USB serial as the link's port: sys.stdin and sys.stdout, polled so
that the loop never waits. On the RP2040 this is the port mpremote and the
REPL use: Ctrl-C still stops main.py (the USB stack raises
KeyboardInterrupt), so the REPL stays reachable.

Writing: a chunk goes out only when poll says the port can take bytes. The
rp2 port discards output while no host has the port open, and waits (up
to its TX timeout) only when a host holds the port open without reading and
the chunk overfills its 256-byte buffer: chunks are kept small for that.
"""
import select
import sys



class StdioPort:
    CHUNK = 32  # bytes written at most per tick

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._in = getattr(self.stdin, "buffer", self.stdin)
        self._out = getattr(self.stdout, "buffer", self.stdout)
        self._one = bytearray(1)
        self._ended = False
        self._left = False
        self._rd = select.poll()
        self._rd.register(self.stdin, select.POLLIN)
        self._wr = select.poll()
        self._wr.register(self.stdout, select.POLLOUT)

    def read_byte(self):
        """The next byte from the host; -1 if none is waiting."""
        for _ in self._rd.ipoll(0):
            if self._in.readinto(self._one) == 1:  # type: ignore[misc]
                return self._one[0]
            if not self._ended:  # the end of stdin (the unix port's): the host gone
                self._ended = self._left = True
        return -1

    def gone(self):
        """True once after the host went: only the end of stdin tells here.
        The rp2 port's USB CDC shows no host closing the port (DTR) to
        Python, so on the board this stays False (docs/protocol.md)."""
        left = self._left
        self._left = False
        return left

    def write(self, data):
        """Send what the port takes now of data; return the bytes taken."""
        for _ in self._wr.ipoll(0):
            n = self._out.write(data)
            return len(data) if n is None else n
        return 0
