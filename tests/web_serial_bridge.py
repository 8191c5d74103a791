"""The other end of tests/web_serial_standin.js: a WebSocket server on
loopback that carries the page's bytes to a board's serial port and back.

    with PtyBridge("/dev/pts/5") as b:      # the virtual board (vortex board --serial)
        b.url                               # for the stand-in (window.VORTEX_SERIAL_URL)
        b.pull(); b.plug()                  # the cable pulled, and back
    PicoBridge(pico)                        # the emulated Pico's USB serial (tools/pico)

Each WebSocket is one opening of the port: the pseudo-terminal is opened
for it and closed with it, so the board sees its host go as over USB.
While pulled, no connection is taken (the stand-in's probes fail).
"""
import os
import select
import threading
import tty

from websockets.sync.server import serve
from websockets.http11 import Response
from websockets.datastructures import Headers


class Bridge:
    def __init__(self):
        self.plugged = True
        self.current = None  # the open WebSocket
        self.server = serve(self._handle, "127.0.0.1", 0, process_request=self._gate,
                            compression=None, max_size=None)
        self.port = self.server.socket.getsockname()[1]
        self.url = "ws://127.0.0.1:%d/" % self.port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _gate(self, connection, request):
        if not self.plugged:
            return Response(503, "Unplugged", Headers(), b"")
        return None

    def _handle(self, ws):
        if ws.request.path == "/probe":
            return
        self.current = ws
        try:
            self.serve(ws)
        finally:
            if self.current is ws:
                self.current = None

    def pull(self):
        """The cable pulled: the connection dropped, none taken until plug()."""
        self.plugged = False
        ws = self.current
        if ws is not None:
            ws.close()

    def plug(self):
        self.plugged = True

    def close(self):
        self.pull()
        self.server.shutdown()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PtyBridge(Bridge):
    def __init__(self, path):
        self.path = path
        super().__init__()

    def serve(self, ws):
        fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        done = threading.Event()

        def out():
            try:
                while not done.is_set():
                    if select.select([fd], [], [], 0.1)[0]:
                        ws.send(os.read(fd, 4096))
            except Exception:  # noqa: BLE001 -- the socket or the port closed
                pass
        t = threading.Thread(target=out, daemon=True)
        t.start()
        try:
            for msg in ws:
                os.write(fd, msg if isinstance(msg, bytes) else msg.encode())
        except Exception:  # noqa: BLE001 -- the page went away
            pass
        finally:
            done.set()
            t.join(1)
            os.close(fd)


class PicoBridge(Bridge):
    """The emulated Pico's USB serial (tools/pico's Pico: write(), .output),
    its events taken by this bridge's thread while a page is connected."""

    def __init__(self, pico, lock):
        self.pico = pico
        self.lock = lock  # held while the pico's events are taken
        super().__init__()

    def serve(self, ws):
        done = threading.Event()
        with self.lock:
            at = len(self.pico.output)

        def out():
            nonlocal at
            try:
                while not done.is_set():
                    with self.lock:
                        self.pico.wait(lambda: len(self.pico.output) > at, 0.05)
                        data = self.pico.output[at:]
                        at += len(data)
                    if data:
                        ws.send(data.encode("latin-1"))
            except Exception:  # noqa: BLE001 -- closed
                pass
        t = threading.Thread(target=out, daemon=True)
        t.start()
        try:
            for msg in ws:
                with self.lock:
                    self.pico.write((msg if isinstance(msg, bytes) else msg.encode()).decode("latin-1"))
        except Exception:  # noqa: BLE001
            pass
        finally:
            done.set()
            t.join(1)
