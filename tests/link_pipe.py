"""An in-memory port for the link's tests: what the host sent waits in
`inbox`, what the board sent lands in `sent`; `reading` False plays a host
that holds the port open and reads nothing."""
from vortex.version import VERSION

HELLO = "hello vortex-link 2 firmware " + VERSION  # the answer to hello, as the build has it


class Pipe:
    CHUNK = 32

    def __init__(self):
        self.inbox = bytearray()
        self.at = 0
        self.sent = bytearray()
        self.reading = True
        self.closed = False

    def send(self, data):
        self.inbox.extend(data.encode() if isinstance(data, str) else data)

    def read_byte(self):
        if self.at < len(self.inbox):
            self.at += 1
            return self.inbox[self.at - 1]
        if self.closed:
            return -2
        return -1

    def write(self, data):
        if not self.reading:
            return 0
        self.sent.extend(data)
        return len(data)

    def lines(self):
        """The whole lines sent so far, taken (a partial last line stays)."""
        text = bytes(self.sent).decode()
        cut = text.rfind("\n") + 1
        self.sent = bytearray(self.sent[cut:])
        return text[:cut].split("\n")[:-1]
