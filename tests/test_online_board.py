"""The board online with no computer: firmware/vortex/online/client.py under
the MicroPython unix port, with micropython-lib's umqtt.simple
(.venv/micropython-lib, tools/micropython_lib.py), against Debian's
mosquitto started here on free loopback ports: one with the project's rules
for a broker open to the internet (tools/mosquitto: users, their ACL,
persistence; TLS left out on loopback), one with neither users nor ACL
(tests/conftest.py's), where a stranger publishes what it likes. The
checks are tests/online_board_checks.py, run under MicroPython and again in
this process (umqtt.simple over tests/upy's socket module: where mutation
testing sees the client); their figures (the longest pass while a board
connects) are printed, never asserted."""
import importlib
import os
import re
import shutil
import socket
import subprocess
import sys

import pytest

from host_sim.online.broker import Mosquitto, mosquitto_missing
from mpy import micropython, ROOT

# micropython-lib's modules, fetched into the venv (tools/micropython_lib.py)
LIB = os.path.join(sys.prefix, "micropython-lib")
UPY = os.path.join(ROOT, "tests", "upy")
CHECKS = os.path.join(ROOT, "tests", "online_board_checks.py")
ACL = os.path.join(ROOT, "tools", "mosquitto", "acl")  # (the tests' tree: make mutate's too)
USERS = {"alice": "alice-pw-1", "bob": "bob-pw-2", "carol": "watch-only"}


def mosquitto(folder, extra):
    """Debian's mosquitto on loopback with the project's configuration
    (host_sim.online.broker) and `extra` lines; skipped where it is missing."""
    why = mosquitto_missing()
    if why:
        pytest.skip(why)
    return Mosquitto(folder, extra=extra, config=os.path.join(ROOT, "tools", "mosquitto",
                                                               "local.conf"))


@pytest.fixture
def broker(tmp_path):
    """mosquitto on loopback with tools/mosquitto/acl and USERS' passwords."""
    passwd = str(tmp_path / "passwd")
    for i, (user, pw) in enumerate(USERS.items()):
        subprocess.run(["mosquitto_passwd", "-b"] + (["-c"] if not i else []) + [passwd, user, pw],
                       check=True, capture_output=True)
    with mosquitto(str(tmp_path), "allow_anonymous false\npassword_file %s\nacl_file %s\n"
                   % (passwd, ACL)) as m:
        yield m.address


def checks_env(broker, mosquitto, tmp_path):
    """What online_board_checks reads: the brokers, the users, a folder."""
    return {"VORTEX_BROKER": broker, "VORTEX_OPEN_BROKER": mosquitto.address,
            "VORTEX_USERS": ",".join("%s:%s" % u for u in USERS.items()),
            "VORTEX_TMP": str(tmp_path)}


def test_board_online_under_micropython(broker, mosquitto, tmp_path):
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    env = dict(os.environ, MICROPYPATH=".frozen:" + LIB, **checks_env(broker, mosquitto, tmp_path))
    p = subprocess.run([micropython(), "-X", "heapsize=512K",
                        os.path.join(ROOT, "tests", "mpy_runner.py"), "online_board_checks"],
                       capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    out = p.stdout + p.stderr
    print("\n".join(line for line in out.splitlines() if line.startswith("figure:")))
    assert p.returncode == 0 and out.rstrip().endswith(" 0 failed"), out


with open(CHECKS) as f:
    NAMES = re.findall(r"^def (test_(?!zz)\w+)\(", f.read(), re.M)


@pytest.mark.parametrize("name", NAMES)
def test_board_online_in_this_process(name, broker, mosquitto, tmp_path, monkeypatch):
    """The same checks on CPython: the client and umqtt.simple as they are,
    MicroPython's socket module over CPython's (tests/upy/usocket.py)."""
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    for key, value in checks_env(broker, mosquitto, tmp_path).items():
        monkeypatch.setenv(key, value)
    monkeypatch.syspath_prepend(LIB)
    monkeypatch.syspath_prepend(UPY)
    getattr(importlib.import_module("online_board_checks"), name)()


MAIN = """
import sys
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
import main, network
from vortex.hal.store import FileStore
from vortex.online.settings import OnlineSettings
from vortex.online import protocol as p
from umqtt import simple
s = OnlineSettings()
for name, value in (("ssid", "Home%%20Net"), ("wifi-key", "radio-key-1"), ("broker", %(broker)r),
                    ("user", "alice"), ("password", %(pw)r), ("room", "pico-w"),
                    ("side", "light"), ("secret", "oak tree 7")):
    s.set(name, value)
s.on = True
FileStore(%(online)r).save(s.dump())
main.SAVE = %(save)r
main.ONLINE_SAVE = %(online)r
main.ROOM_SAVE = %(room)r
board = main.run(40)
print("joined", network.WLAN.made[0].joined)
got = {}
host, port = %(broker)r.split(":")
c = simple.MQTTClient("watch-2", host, int(port), "carol", %(carol)r)
c.set_callback(lambda t, m: got.__setitem__(t.decode(), m.decode()))
c.connect()
c.subscribe(p.room_filter("pico-w"))
for _ in range(40):
    c.wait_msg()
    if len(got) >= 2:
        break
for t in sorted(got):
    print(t, got[t])
"""


def test_main_on_a_pico_w_joins_its_room(broker, tmp_path):
    """firmware/main.py as a Pico W runs it (the radio faked, tests/fakehw/network.py):
    the online settings saved on the board, the WiFi joined with them, the
    room's seat claimed and the board's presence said on the real broker."""
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    code = MAIN % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                   "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware",
                   "broker": broker, "pw": USERS["alice"], "carol": USERS["carol"],
                   "online": str(tmp_path / "online.bin"), "save": str(tmp_path / "game.bin"),
                   "room": str(tmp_path / "room.bin")}
    p = subprocess.run([micropython(), "-X", "heapsize=512K", "-c", code], capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, MICROPYPATH=".frozen:" + LIB))
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "joined ('Home Net', 'radio-key-1')" in out
    assert "online: room pico-w on 127.0.0.1:" in out
    assert "vortex/v1/pico-w/presence/vx-e6614c3123456789 online light" in out
    assert "vortex/v1/pico-w/seat/light vx-e6614c3123456789 " in out


TLS = """
import sys, time
sys.path[:0] = [%(firmware)r]
from umqtt import simple
from vortex.app.board import Board
from vortex.online import client
client.CA_FILE = %(ca)r
said = []
net = client.Online(Board(), simple, clock=time.ticks_ms, say=said.append, client="vx-tls")
for words in (["broker", %(broker)r], ["tls", "on"], ["room", "tls-room"], ["on"]):
    net.command(words)
end = time.ticks_add(time.ticks_ms(), 8000)
while net.state not in (client.UP,) and not net.why and time.ticks_diff(end, time.ticks_ms()) > 0:
    t = time.ticks_ms()
    net.poll()
    print("pass", time.ticks_diff(time.ticks_ms(), t))
print("state", net.status())
print("\\n".join(said))
"""


def openssl_cert(folder, name):
    """A self-signed certificate for 127.0.0.1 (its own CA): (cert.pem, key.pem, cert.der)."""
    pem, key, der = (os.path.join(folder, name + ext) for ext in (".pem", ".key", ".der"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", pem,
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=DNS:127.0.0.1,IP:127.0.0.1"], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-in", pem, "-outform", "DER", "-out", der], check=True)
    return pem, key, der


@pytest.fixture
def tls_broker(tmp_path):
    """mosquitto with a TLS listener on loopback (tools/mosquitto/mosquitto.conf's
    listener, with a certificate made here); (address, the CA's DER file)."""
    if not shutil.which("openssl"):
        pytest.skip("no openssl (apt-get install openssl)")
    pem, key, der = openssl_cert(str(tmp_path), "broker")
    with mosquitto(str(tmp_path), "certfile %s\nkeyfile %s\ntls_version tlsv1.2\n" % (pem, key)) as m:
        yield m.address, der


def run_tls(broker, ca):
    code = TLS % {"firmware": ROOT + "/firmware", "broker": broker, "ca": ca}
    # (the heap: the firmware's board and the online modules compiled from source here)
    p = subprocess.run([micropython(), "-X", "heapsize=512K", "-c", code], capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, MICROPYPATH=".frozen:" + LIB))
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_tls_to_the_broker_checks_its_certificate(tls_broker, tmp_path):
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    broker, ca = tls_broker
    out = run_tls(broker, ca)  # the broker's CA on the board: checked, joined
    assert "state up room tls-room watch" in out, out
    assert "TLS without checking" not in out
    slowest = max(int(line.split()[1]) for line in out.splitlines() if line.startswith("pass "))
    print("figure: the slowest pass joining over TLS (handshake included): %d ms" % slowest)
    _, _, other = openssl_cert(str(tmp_path), "other")
    out = run_tls(broker, other)  # another CA: refused, said, tried again later
    assert "state down (" in out and "state up" not in out, out
    out = run_tls(broker, str(tmp_path / "none.der"))  # none: encrypted, not checked, said
    assert "state up" in out and "TLS without checking the broker's certificate" in out, out


SILENT = """
import sys, time
sys.path[:0] = [%(firmware)r]
from umqtt import simple
from vortex.app.board import Board
from vortex.online import client
said = []
net = client.Online(Board(), simple, clock=time.ticks_ms, say=said.append, client="vx-silent")
for words in (["broker", %(broker)r], ["room", "r"], ["on"]):
    net.command(words)
worst = 0
for _ in range(3):
    t = time.ticks_ms()
    net.poll()
    worst = max(worst, time.ticks_diff(time.ticks_ms(), t))
print("state", net.status())
print("worst", worst)
"""


def test_a_broker_that_never_answers_costs_one_bounded_pass():
    """A broker that takes the connection and never answers (a listening
    socket that reads nothing): the pass that connects waits its socket's
    timeout, not lwIP's or the kernel's, and the board says why and tries
    again after the backoff. The wait is printed as a figure."""
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        code = SILENT % {"firmware": ROOT + "/firmware",
                         "broker": "127.0.0.1:%d" % silent.getsockname()[1]}
        p = subprocess.run([micropython(), "-X", "heapsize=512K", "-c", code],
                           capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, MICROPYPATH=".frozen:" + LIB))
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "state down (OSError" in out and "110" in out, out  # ETIMEDOUT: our timeout
    print("figure: the pass that meets a silent broker: %s ms"
          % out.split("worst ")[1].split()[0])
