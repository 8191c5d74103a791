"""umqtt.simple's MQTTClient, as vortex.online.client uses it, over the
page's MQTT on WebSockets (the JS module `pagenet`, which drives the
vendored MQTT.js): the firmware's online client runs in the page as it runs
on a Pico W, its connection the browser's.

What differs from a socket, and how the client still sees a socket:
connect() starts the connection and returns; the page passes the client
only once the broker has answered (or failed: the next call raises
OSError, as a socket would, and the client tries again after its backoff).
A publish or a subscription is handed to MQTT.js, which keeps QoS 1 for
us; check_msg() hands over one message that came, as umqtt.simple does
(None after it, too). The page's own keepalive is MQTT.js's.
"""
try:
    import pagenet  # the page's JS module
except ImportError:  # (CPython: the tests give one)
    pagenet = None


tls = False  # wss:// (the online settings' tls), set by page.py before each pass
socket = None  # (vortex.online.client.bounded wraps it; the page makes no socket)


class MQTTException(Exception):
    pass


def _text(x):
    return x if isinstance(x, str) else bytes(x).decode()


class _Sock:
    """The client's `sock`: closing it drops the connection without a goodbye
    (the broker then publishes the will), as a board's lost link does."""

    def __init__(self, client):
        self.client = client

    def close(self):
        self.client.net.end(self.client.handle, False)


class MQTTClient:
    net = pagenet

    def __init__(self, client_id, server, port=0, user=None, password=None, keepalive=0,
                 ssl=None, ssl_params=None):
        self.client_id = _text(client_id)
        self.server = server
        self.port = port
        self.user = user
        self.password = password
        self.keepalive = keepalive
        self.cb = None
        self.will = None
        self.handle = -1
        self.sock = None

    def set_callback(self, f):
        self.cb = f

    def set_last_will(self, topic, msg, retain=False, qos=0):
        self.will = (_text(topic), _text(msg), bool(retain), qos)

    def connect(self, clean_session=True):
        w = self.will or (None, None, False, 0)
        self.handle = self.net.open(self.client_id, self.server, self.port, tls,
                                    self.user or "", self.password or "", self.keepalive,
                                    bool(clean_session), w[0] or "", w[1] or "", w[2], w[3])
        self.sock = _Sock(self)
        return False

    def _check(self):
        why = self.net.failed(self.handle)
        if why:
            raise OSError(why)

    def disconnect(self):
        self.net.end(self.handle, True)

    def ping(self):
        self._check()

    def publish(self, topic, msg, retain=False, qos=0):
        self._check()
        self.net.publish(self.handle, _text(topic), _text(msg), bool(retain), qos)

    def subscribe(self, topic, qos=0):
        self._check()
        self.net.subscribe(self.handle, _text(topic), qos)

    def check_msg(self):
        self._check()
        m = self.net.take(self.handle)
        if m is not None and self.cb is not None:
            self.cb(_text(m[0]).encode(), _text(m[1]).encode())
        return None

    def wait_msg(self):
        return self.check_msg()
