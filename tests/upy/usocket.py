"""MicroPython's socket module as micropython-lib's umqtt.simple uses it,
over CPython's: the board's online client (firmware/vortex/online/client.py)
and umqtt.simple then run in pytest's own process, where mutation testing
sees them (tests/test_online_board.py runs the same checks under the
MicroPython unix port too). As MicroPython's streams: a blocking read(n)
reads n bytes or fails (OSError ETIMEDOUT once the socket's timeout
passes), a non-blocking one with nothing there answers None, an end of
stream answers the bytes read so far; write(buf, n) writes buf[:n], a str
as its bytes."""
import errno
import socket as _socket

getaddrinfo = _socket.getaddrinfo
IPPROTO_TCP = _socket.IPPROTO_TCP
TCP_NODELAY = _socket.TCP_NODELAY


class socket:
    def __init__(self, *args):
        self._s = _socket.socket(*args)

    def connect(self, address):
        try:
            self._s.connect(address)
        except _socket.timeout:
            raise OSError(errno.ETIMEDOUT, "timed out")

    def settimeout(self, seconds):
        self._s.settimeout(seconds)

    def setblocking(self, flag):
        self._s.setblocking(flag)

    def setsockopt(self, *args):
        self._s.setsockopt(*args)

    def read(self, n):
        out = b""
        while len(out) < n:
            try:
                chunk = self._s.recv(n - len(out))
            except BlockingIOError:  # (non-blocking: what there is)
                return out or None
            except _socket.timeout:
                raise OSError(errno.ETIMEDOUT, "timed out")
            if not chunk:
                return out
            out += chunk
        return out

    def write(self, data, n=-1):
        if isinstance(data, str):  # (MicroPython's streams write a str's bytes)
            data = data.encode()
        data = bytes(data if n < 0 else data[:n])
        try:
            self._s.sendall(data)
        except _socket.timeout:
            raise OSError(errno.ETIMEDOUT, "timed out")
        return len(data)

    def close(self):
        self._s.close()
