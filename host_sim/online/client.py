"""The host's MQTT connection (paho-mqtt): one client of a room, carrying
bytes both ways and keeping no rule of its own (the room's protocol,
vortex.online, decides what they mean; the engine what is legal).

    c = Connection(Address.parse("127.0.0.1:1883"), "vortex-ab12-light",
                   subscribe=["vortex/v1/ab12/#"], hello=(topic, b"..."), will=(topic, b"..."))
    c.start()                        # connects in the background, and again after a drop
    c.publish(topic, payload)        # QoS 1: queued while the broker is away
    for kind, topic, payload in c.events(): ...   # "message", "up" (subscribed), "down",
                                                    # "unreachable" (a try to connect failed)

A player's client keeps its id and a persistent session (clean_session
False): the broker queues the room's QoS 1 messages while it is away and
delivers them when it is back. Its will, the presence "gone", is sent by
the broker when the connection drops without a word. paho reconnects by
itself, waiting 1 s, then twice as long each time, up to RECONNECT_MAX_S.
The events wait in a queue, and fileno() turns readable when one is there,
so a select() loop (the link) waits on the broker and the board at once.
"""
import os
import queue
import ssl
import time

QOS = 1
CLOSE_WAIT_S = 2.0  # close() waits this long, at most, for the broker's acks
KEEPALIVE_S = 10  # a vanished player is noticed (its will sent) within 1.5 keep-alives
RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 16
DEFAULT_PORT = 1883
TLS_PORT = 8883


class Address:
    """Where a broker is: HOST[:PORT], mqtt://HOST[:PORT] or mqtts://HOST[:PORT]
    (TLS, checked against the system's certificates). A user and password,
    when the broker asks for them, come from VORTEX_MQTT_USER and
    VORTEX_MQTT_PASSWORD (never the command line, which others can read)."""

    def __init__(self, host, port, tls=False):
        self.host, self.port, self.tls = host, port, tls

    @classmethod
    def parse(cls, text):
        """ValueError, in words, when text is not a broker's address."""
        scheme, sep, rest = text.partition("://")
        if not sep:
            scheme, rest = "mqtt", text
        if scheme not in ("mqtt", "mqtts"):
            raise ValueError("broker: mqtt:// or mqtts://, not %s://" % scheme[:10])
        tls = scheme == "mqtts"
        rest = rest.rstrip("/")
        if rest.startswith("["):  # [IPv6]:PORT
            host, _, port = rest[1:].partition("]")
            port = port[1:] if port.startswith(":") else port
        elif rest.count(":") == 1:
            host, _, port = rest.partition(":")
        else:  # HOST, or a bare IPv6 address
            host, port = rest, ""
        if not host or not all(c.isalnum() or c in ".-:_" for c in host) or len(host) > 253:
            raise ValueError("broker: %r is not HOST[:PORT]" % text[:60])
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise ValueError("broker: the port in %r is not 1..65535" % text[:60])
        return cls(host, int(port) if port else TLS_PORT if tls else DEFAULT_PORT, tls)

    def __str__(self):
        return "%s://%s:%d" % ("mqtts" if self.tls else "mqtt", self.host, self.port)


class Connection:
    """One MQTT client: a fixed id, QoS 1, a persistent session unless
    clean (a spectator's, which needs no queue), subscribed to `subscribe`
    on every connect, `hello` published (retained) on every connect and
    `will` left with the broker."""

    def __init__(self, address, client_id, subscribe=(), hello=None, will=None, clean=False):
        import paho.mqtt.client as mqtt  # here: the rest of host_sim needs only python3
        self.address = address
        self.client_id = client_id
        self.topics = list(subscribe)
        self.hello = hello
        self.connected = False
        self.wake = None  # called (from paho's thread) when an event is queued
        self._events = queue.Queue()
        self._unacked = []  # paho's MessageInfo of each QoS 1 publish not yet acked
        self._wake_r = self._wake_w = None  # the pipe fileno() gives, made by start()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
        c.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        c.max_queued_messages_set(0)  # no limit: a player's actions wait out a broker's absence
        if will is not None:
            c.will_set(will[0], will[1], QOS, retain=True)
        user = os.environ.get("VORTEX_MQTT_USER")
        if user:
            c.username_pw_set(user, os.environ.get("VORTEX_MQTT_PASSWORD"))
        if address.tls:
            c.tls_set(cert_reqs=ssl.CERT_REQUIRED)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_connect_fail = self._on_connect_fail
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe
        self._subscribing = None
        self._session = b""
        self.client = c

    # --- paho's thread -------------------------------------------------------------
    def _put(self, event):
        self._events.put(event)
        if self._wake_w is not None:
            try:
                os.write(self._wake_w, b"!")
            except (BlockingIOError, OSError):
                pass  # the pipe is full (a byte waits already) or closed
        if self.wake is not None:
            self.wake()

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        if reason.is_failure:
            self._put(("down", None, str(reason)))
            return
        self.connected = True
        self._session = b"session kept" if flags.session_present else b"new session"
        if self.hello is not None:
            client.publish(self.hello[0], self.hello[1], QOS, retain=True)
        if self.topics:  # "up" once the broker has the subscriptions: from then on nothing is missed
            self._subscribing = client.subscribe([(t, QOS) for t in self.topics])[1]
        else:
            self._put(("up", None, self._session))

    def _on_subscribe(self, client, userdata, mid, reasons, properties=None):
        if mid == self._subscribing:
            self._put(("up", None, self._session))

    def _on_disconnect(self, client, userdata, flags, reason, properties=None):
        was, self.connected = self.connected, False
        if was:
            self._put(("down", None, str(reason)))

    def _on_connect_fail(self, client, userdata):
        self._put(("unreachable", None, "no answer"))

    def _on_message(self, client, userdata, msg):
        self._put(("message", msg.topic, msg.payload))

    # --- the owner's thread ---------------------------------------------------------
    def start(self):
        """Connect in the background (and again whenever the connection drops)."""
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self.client.connect_async(self.address.host, self.address.port, KEEPALIVE_S)
        self.client.loop_start()
        return self

    def publish(self, topic, payload, retain=False):
        """Send at QoS 1; kept and sent again until the broker has it, across reconnects."""
        info = self.client.publish(topic, payload, QOS, retain=retain)
        # One published while the broker is away is queued by paho, but its
        # MessageInfo keeps that error and raises when asked: not waited for.
        self._unacked = [i for i in self._unacked + [info] if i.rc == 0 and not i.is_published()]

    def fileno(self):
        return self._wake_r

    def events(self, timeout=0.0):
        """What happened since the last call, oldest first: (kind, topic, payload)
        with kind "message", "up", "down" or "unreachable". Waits up to timeout for the first."""
        out = []
        if self._wake_r is not None:
            try:
                os.read(self._wake_r, 4096)
            except (BlockingIOError, OSError):
                pass
        try:
            out.append(self._events.get(timeout=timeout) if timeout else self._events.get_nowait())
            while True:
                out.append(self._events.get_nowait())
        except queue.Empty:
            pass
        return out

    def close(self, goodbye=None):
        """Leave: goodbye (topic, payload) published first (a clean leave
        sends no will), then disconnect and stop paho's thread."""
        if goodbye is not None and self.connected:
            self.publish(goodbye[0], goodbye[1], retain=True)
        # A move made just before leaving reaches the broker before the
        # DISCONNECT is acted on: wait (bounded) for each QoS 1 publish's ack.
        end = time.monotonic() + CLOSE_WAIT_S
        for info in self._unacked:
            left = end - time.monotonic()
            if not self.connected or left <= 0:
                break
            try:
                info.wait_for_publish(left)
            except (RuntimeError, ValueError):
                break  # paho: not connected any more, or the message was dropped
        self._unacked = []
        self.client.disconnect()
        self.client.loop_stop()
        for fd in (self._wake_r, self._wake_w):
            if fd is not None:
                os.close(fd)
        self._wake_r = self._wake_w = None

    def kill(self):
        """Vanish without a word, as a crashed process or a pulled cable
        (the tests' fault): the socket is closed, no DISCONNECT sent, so the
        broker sends the will."""
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            sock.close()
