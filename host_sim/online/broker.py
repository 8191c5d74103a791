"""MQTT brokers on this machine, for the tests, the benchmark and a local
game: mosquitto (Debian's, /usr/sbin/mosquitto) with the project's own
configuration file, and an embedded broker for a game given no broker
(amqtt: pure Python, in .venv, nothing to install system-wide).

    with Mosquitto(folder) as b:        # b.port: its loopback port
        b.restart()                     # stopped (persistence written) and started again
    with Embedded() as b: ...

Both listen on 127.0.0.1 only, on a free port unless one is given.
"""
import asyncio
import logging
import os
import pwd
import shutil
import socket
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = os.path.join(ROOT, "tools", "mosquitto", "local.conf")
MOSQUITTO = "/usr/sbin/mosquitto"
START_S = 5.0


class BrokerError(Exception):
    """A broker that could not start, said in one line."""


def free_port():
    """A TCP port free on 127.0.0.1 now (the broker binds it right after)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mosquitto_missing():
    """Why mosquitto cannot be run here, or None when it can."""
    exe = MOSQUITTO if os.access(MOSQUITTO, os.X_OK) else shutil.which("mosquitto")
    if not exe:
        return ("no mosquitto at %s: apt-get install mosquitto (make test does it when run "
                "as root)" % MOSQUITTO)
    return None


def _wait_listening(port, proc=None, timeout=START_S):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


class Mosquitto:
    """/usr/sbin/mosquitto on 127.0.0.1:port with tools/mosquitto/local.conf
    (config: that file where the caller has it), its persistence file and
    its log in folder (kept across restart())."""

    def __init__(self, folder, port=None, extra="", websockets=False, config=CONFIG):
        why = mosquitto_missing()
        if why:
            raise BrokerError(why)
        self.exe = MOSQUITTO if os.access(MOSQUITTO, os.X_OK) else shutil.which("mosquitto")
        self.folder = os.path.abspath(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.port = port or free_port()
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        self.log = os.path.join(self.folder, "mosquitto.log")
        with open(config) as f:
            text = f.read()
        # The project's file, then where this one listens and keeps its file;
        # started by root it would become the user "mosquitto", who cannot
        # write in the caller's folder: it stays whoever started it.
        user = pwd.getpwuid(os.geteuid()).pw_name
        # websockets: a second listener, MQTT over WebSockets, for the board's
        # page. mosquitto 2.0's (libwebsockets) binds every interface whatever
        # address it is given, and starts only beside a plain listener.
        self.ws_port = free_port() if websockets else None
        ws = "listener %d\nprotocol websockets\n" % self.ws_port if websockets else ""
        with open(self.conf, "w") as f:
            f.write(text + "\nlistener %d 127.0.0.1\n%spersistence_location %s/\nuser %s\n%s"
                    % (self.port, ws, self.folder, user, extra))
        self.proc = None

    @property
    def address(self):
        return "127.0.0.1:%d" % self.port

    def start(self):
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([self.exe, "-c", self.conf], stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=log)
        if not _wait_listening(self.port, self.proc):
            self.stop()
            with open(self.log, errors="replace") as f:
                last = (f.read().strip().splitlines() or ["no word from it"])[-1]
            raise BrokerError("mosquitto did not start on port %d: %s" % (self.port, last))
        return self

    def stop(self, kill=False):
        """Stop it: SIGTERM writes its persistence file first; kill=True does not."""
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        try:
            self.proc.wait(START_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self, down_s=0.0):
        self.stop()
        time.sleep(down_s)
        self.start()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class Embedded:
    """amqtt's broker in a thread of this process, for a game given no
    broker: 127.0.0.1 only, anonymous, in memory (a restart loses its
    sessions; the room's retained state brings a client back in step)."""

    def __init__(self, port=None, host="127.0.0.1"):
        self.host = host
        self.port = port or free_port()
        self.loop = None
        self.thread = None
        self.broker = None
        self.error = None

    @property
    def address(self):
        return "%s:%d" % (self.host, self.port)

    def start(self):
        try:
            from amqtt.broker import Broker
            # Its log would talk over the game (a port checked by a bare
            # connect is "no data to decode"): the game says what matters.
            logging.getLogger("amqtt").setLevel(logging.CRITICAL)
            logging.getLogger("transitions").setLevel(logging.CRITICAL)
        except ImportError:
            raise BrokerError("no broker on %s and no embedded one: amqtt is not installed "
                              "(pip install 'vortex-board[local-broker]', or make test's .venv); "
                              "or give --broker ADDRESS" % self.address)
        config = {"listeners": {"default": {"type": "tcp", "bind": "%s:%d" % (self.host, self.port),
                                            "max_connections": 0}},
                  "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                              {"allow_anonymous": True}}}
        ready = threading.Event()
        self.loop = asyncio.new_event_loop()

        def serve():
            asyncio.set_event_loop(self.loop)
            try:
                self.broker = Broker(config, loop=self.loop)
                self.loop.run_until_complete(self.broker.start())
            except Exception as e:  # noqa: BLE001 -- told to the starting thread in one line
                self.error = e
                ready.set()
                return
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, name="mqtt-broker", daemon=True)
        self.thread.start()
        ready.wait(START_S)
        if self.error is not None or not _wait_listening(self.port, timeout=1.0):
            raise BrokerError("the embedded broker did not start on %s: %s"
                              % (self.address, self.error or "no answer"))
        return self

    def stop(self):
        if self.loop is None or self.broker is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self.broker.shutdown(), self.loop).result(START_S)
        except Exception:  # noqa: BLE001 -- stopping anyway
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(START_S)
        self.loop = self.broker = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
