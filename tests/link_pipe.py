"""An in-memory port for the link's tests: what the host sent waits in
`inbox`, what the board sent lands in `sent`; `reading` False plays a host
that holds the port open and reads nothing; leave() plays the host going
away, as a port that sees it go reports it (gone())."""
from vortex.version import VERSION

HELLO = "hello vortex-link 2 firmware " + VERSION  # the answer to hello, as the build has it


class Pipe:
    CHUNK = 32

    def __init__(self):
        self.inbox = bytearray()
        self.at = 0
        self.sent = bytearray()
        self.reading = True
        self._left = False

    def send(self, data):
        self.inbox.extend(data.encode() if isinstance(data, str) else data)

    def read_byte(self):
        if self.at < len(self.inbox):
            self.at += 1
            return self.inbox[self.at - 1]
        return -1

    def leave(self):
        """The host goes away: what it sent that the board has not read goes too."""
        self.at = len(self.inbox)
        self._left = True

    def gone(self):
        left, self._left = self._left, False
        return left

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
