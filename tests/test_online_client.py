"""The host's MQTT connection (host_sim/online/client.py) against real
brokers: Debian's mosquitto with the project's configuration, and the
embedded amqtt of a local game. What the room's protocol relies on: QoS 1
messages queued for a player away, the will when a client vanishes, a
publish made while the broker is down delivered once it is back."""
import time

import pytest

import host_sim  # noqa: F401
from host_sim.online.client import Address, Connection
from host_sim.online.broker import Embedded, Mosquitto

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed "
                    "(make test installs it from requirements-dev.txt)")


def until(conn, test, timeout=8.0):
    """Events of conn until test(all so far) is true; fails after timeout."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        seen.extend(conn.events(0.05))
        if test(seen):
            return seen
    raise AssertionError("waited %.0f s; saw %r" % (timeout, seen))


def got(topic, payload):
    return lambda seen: ("message", topic, payload) in seen


def up(seen):
    return any(e[0] == "up" for e in seen)


def client(broker, cid, **kw):
    return Connection(Address.parse(broker.address), cid, **kw).start()


@pytest.mark.parametrize("text,shown", [
    ("localhost", "mqtt://localhost:1883"), ("b.example:1884", "mqtt://b.example:1884"),
    ("mqtts://b.example", "mqtts://b.example:8883"), ("mqtt://[::1]:9", "mqtt://::1:9")])
def test_address(text, shown):
    assert str(Address.parse(text)) == shown


@pytest.mark.parametrize("text", ["", "ftp://x", "h:0", "h:99999", "h:x", "a b", "h/x:1"])
def test_address_refused_in_words(text):
    with pytest.raises(ValueError, match="^broker: "):
        Address.parse(text)


def test_queued_while_away_and_will(mosquitto):
    a = client(mosquitto, "a", subscribe=["r/#"], hello=("r/presence/a", b"here"),
               will=("r/presence/a", b"gone"))
    until(a, up)
    b = client(mosquitto, "b", subscribe=["r/#"])
    until(b, got("r/presence/a", b"here"))  # retained: read by who comes later
    a.close()
    b.publish("r/action", b"1 while away")
    a = client(mosquitto, "a", subscribe=["r/#"], will=("r/presence/a", b"gone"))
    until(a, got("r/action", b"1 while away"))  # the persistent session's queue
    a.kill()  # no DISCONNECT: the broker sends the will
    until(b, got("r/presence/a", b"gone"))
    b.close()


def test_publish_while_the_broker_is_down(mosquitto):
    a = client(mosquitto, "a", subscribe=["r/#"])
    b = client(mosquitto, "b", subscribe=["r/#"])
    until(a, up), until(b, up)
    mosquitto.stop()
    until(a, lambda seen: ("down" in [e[0] for e in seen]))
    a.publish("r/action", b"2 while down")  # paho keeps it until the broker has it
    mosquitto.start()
    seen = until(b, got("r/action", b"2 while down"))
    time.sleep(0.3)
    seen += b.events()
    assert [e for e in seen if e[0] == "message"] == [("message", "r/action", b"2 while down")]
    a.close(), b.close()


def test_broker_restart_keeps_the_queue(mosquitto):
    """Persistence on: a message queued for a player away survives the broker's restart."""
    a = client(mosquitto, "a", subscribe=["r/#"])
    until(a, up)
    a.close()
    b = client(mosquitto, "b")
    until(b, up)
    b.publish("r/action", b"3 queued")
    b.close()
    mosquitto.restart()
    a = client(mosquitto, "a", subscribe=["r/#"])
    until(a, got("r/action", b"3 queued"))
    a.close()


def test_project_config_is_the_one_started(tmp_path):
    from host_sim.online.broker import mosquitto_missing, CONFIG
    if mosquitto_missing():
        pytest.skip(mosquitto_missing())
    m = Mosquitto(str(tmp_path))
    with open(m.conf) as f, open(CONFIG) as g:
        assert f.read().startswith(g.read())
    with m:
        a = client(m, "a", clean=True)
        until(a, up)
        a.close()
    assert (tmp_path / "vortex.db").exists()  # written on the way out


def test_embedded_broker():
    with Embedded() as broker:
        a = client(broker, "a", subscribe=["r/#"])
        b = client(broker, "b", subscribe=["r/#"])
        until(a, up), until(b, up)
        b.publish("r/state", b"retained", retain=True)
        until(a, got("r/state", b"retained"))
        c = client(broker, "c", subscribe=["r/#"], clean=True)
        until(c, got("r/state", b"retained"))
        for x in (a, b, c):
            x.close()
