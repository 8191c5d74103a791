"""The host's MQTT connection (host_sim/online/client.py) against real
brokers: Debian's mosquitto with the project's configuration, and the
embedded amqtt of a local game. What the room's protocol relies on: QoS 1
messages queued for a player away, the will when a client vanishes, a
publish made while the broker is down delivered once it is back."""
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest

import host_sim  # noqa: F401
from host_sim.online.client import Address, Connection
from host_sim.online.broker import Embedded, Mosquitto, BrokerError, free_port

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


def test_close_sends_all_that_was_published_before(mosquitto):
    """close() waits for the broker's acks: actions published just before
    leaving, more than paho keeps in flight (20), all reach the room."""
    b = client(mosquitto, "b", subscribe=["r/#"])
    a = client(mosquitto, "a")
    until(a, up), until(b, up)
    for n in range(40):
        a.publish("r/action", b"%d" % n)
    a.close()
    seen = until(b, lambda seen: len([e for e in seen if e[0] == "message"]) == 40, timeout=3)
    assert [e[2] for e in seen if e[0] == "message"] == [b"%d" % n for n in range(40)]
    b.close()


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


def test_embedded_broker_stopped_leaves_its_port_free():
    """A local game's broker stopped: a later game's starts on the same port."""
    with Embedded() as broker:
        port = broker.port
    with Embedded(port) as again:
        a = client(again, "a")
        until(a, up)
        a.close()


def test_embedded_broker_says_nothing_over_the_game(caplog):
    """Even with logging turned up, amqtt and its state machines (transitions)
    stay quiet (a port checked by a bare connect is "no data to decode")."""
    caplog.set_level(logging.DEBUG)
    with Embedded() as broker:
        socket.create_connection(("127.0.0.1", broker.port)).close()
        a = client(broker, "a", subscribe=["r/#"])
        until(a, up)
        a.close()
    assert [r.name for r in caplog.records if r.name.split(".")[0] in ("amqtt", "transitions")] \
        == []


def test_embedded_broker_without_amqtt_says_what_to_do(monkeypatch):
    monkeypatch.setitem(sys.modules, "amqtt.broker", None)  # (an import of it fails)
    port = free_port()
    with pytest.raises(BrokerError) as e:
        Embedded(port).start()
    assert str(e.value) == (
        "no broker on 127.0.0.1:%d and no embedded one: amqtt is not installed (pip install "
        "'vortex-board[local-broker]', or make test's .venv); or give --broker ADDRESS" % port)


def test_embedded_broker_that_does_not_listen_says_so(monkeypatch):
    import amqtt.broker

    class Mute:  # an amqtt that starts without a word and listens nowhere
        def __init__(self, config, loop=None):
            pass

        async def start(self):
            pass

        async def shutdown(self):
            pass
    monkeypatch.setattr(amqtt.broker, "Broker", Mute)
    broker = Embedded()
    with pytest.raises(BrokerError) as e:
        broker.start()
    broker.stop()
    assert str(e.value) == "the embedded broker did not start on %s: no answer" % broker.address


def small_mosquitto(tmp_path, conf, **kw):
    """mosquitto (skipped where there is none) with a configuration of the test's own."""
    from host_sim.online.broker import mosquitto_missing
    if mosquitto_missing():
        pytest.skip(mosquitto_missing())
    (tmp_path / "test.conf").write_text(conf)
    return Mosquitto(str(tmp_path / "broker"), config=str(tmp_path / "test.conf"), **kw)


def test_mosquitto_that_does_not_start_says_why(tmp_path):
    """A mosquitto that exits at once (a word its configuration does not know)
    is a BrokerError with its log's last line, read from the log in its
    folder (an earlier line not UTF-8 is no matter)."""
    (tmp_path / "broker").mkdir()
    (tmp_path / "broker" / "mosquitto.log").write_bytes(b"an earlier run \xff\n")
    m = small_mosquitto(tmp_path, "allow_anonymous true\n", extra="bogus_option 1\n")
    with pytest.raises(BrokerError) as e:
        m.start()
    assert re.fullmatch(r"mosquitto did not start on port %d: \d+: Error found at %s:6\."
                        % (m.port, re.escape(str(tmp_path / "broker" / "mosquitto.conf"))),
                        str(e.value)), str(e.value)
    log = (tmp_path / "broker" / "mosquitto.log").read_bytes()
    assert log.startswith(b"an earlier run") and b'"bogus_option"' in log


def test_mosquitto_found_on_path(tmp_path, monkeypatch):
    """No mosquitto at /usr/sbin but one on PATH (another system's): that one is run."""
    import host_sim.online.broker as broker
    if broker.mosquitto_missing():
        pytest.skip(broker.mosquitto_missing())
    real = broker.MOSQUITTO if os.access(broker.MOSQUITTO, os.X_OK) else shutil.which("mosquitto")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mosquitto").symlink_to(real)
    monkeypatch.setattr(broker, "MOSQUITTO", str(tmp_path / "none" / "mosquitto"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with small_mosquitto(tmp_path, "allow_anonymous true\n") as m:
        assert m.exe == str(tmp_path / "bin" / "mosquitto")
        a = client(m, "a")
        until(a, up)
        a.close()


def test_user_and_password_from_the_environment(tmp_path, monkeypatch):
    """A broker asking for a password: the one in VORTEX_MQTT_PASSWORD lets the player in."""
    if not shutil.which("mosquitto_passwd"):
        pytest.skip("no mosquitto_passwd")
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(tmp_path / "pw"), "alice", "s3cret"],
                   check=True, capture_output=True)
    monkeypatch.setenv("VORTEX_MQTT_USER", "alice")
    monkeypatch.setenv("VORTEX_MQTT_PASSWORD", "s3cret")
    with small_mosquitto(tmp_path, "allow_anonymous false\npassword_file %s\n"
                         % (tmp_path / "pw")) as m:
        a = client(m, "a")
        until(a, up)
        a.close()


def test_keepalive_told_to_the_broker(tmp_path):
    """The broker is told KEEPALIVE_S (k10 in its log), the id and the session
    kept (c0): a vanished player's will is sent within 15 s, not paho's 90."""
    with small_mosquitto(tmp_path, "allow_anonymous true\nlog_dest stderr\nlog_type all\n"
                         "connection_messages true\n") as m:
        a = client(m, "vortex-ab12-light")
        until(a, up)
        a.close()
        log = (tmp_path / "broker" / "mosquitto.log").read_text()
    assert " as vortex-ab12-light (p2, c0, k10)." in log, log


def test_a_port_nothing_listens_on_is_not_taken_for_a_broker():
    # A broker process that lives but never opens its port (a wrong config's
    # listener elsewhere): the wait gives up, so start() says so instead of
    # handing the player a port that refuses it.
    from host_sim.online.broker import _wait_listening
    port = free_port()
    t = time.monotonic()
    assert _wait_listening(port, timeout=0.3) is False
    assert time.monotonic() - t >= 0.3
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
        s.listen()
        assert _wait_listening(port, timeout=0.3) is True
