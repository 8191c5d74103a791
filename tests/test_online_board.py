"""The board online with no computer: firmware/vortex/online/client.py under
the MicroPython unix port, with micropython-lib's umqtt.simple
(.venv/micropython-lib, tools/micropython_lib.py), against Debian's
mosquitto started here on a free loopback port with the project's rules
for a broker open to the internet (tools/mosquitto: users, their ACL,
persistence; TLS left out on loopback). The checks are
tests/online_board_checks.py; their figures (the longest pass while a
board connects) are printed, never asserted."""
import getpass
import os
import shutil
import socket
import subprocess
import time

import pytest

from mpy import micropython, ROOT

MOSQUITTO = "/usr/sbin/mosquitto"
LIB = os.path.join(ROOT, ".venv", "micropython-lib")
ACL = os.path.join(ROOT, "tools", "mosquitto", "acl")
USERS = {"alice": "alice-pw-1", "bob": "bob-pw-2", "carol": "watch-only"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def broker(tmp_path):
    """mosquitto on loopback with tools/mosquitto/acl and USERS' passwords."""
    if not os.access(MOSQUITTO, os.X_OK):
        pytest.skip("no mosquitto at %s: apt-get install mosquitto (make test does, as root)"
                    % MOSQUITTO)
    passwd = str(tmp_path / "passwd")
    for i, (user, pw) in enumerate(USERS.items()):
        subprocess.run(["mosquitto_passwd", "-b"] + (["-c"] if not i else []) + [passwd, user, pw],
                       check=True, capture_output=True)
    port = free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text("listener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\n"
                    "acl_file %s\npersistence true\npersistence_location %s/\n"
                    "max_packet_size 10752\nlog_dest stderr\nlog_type error\n"
                    # as root it would become the user mosquitto, who cannot read tmp_path
                    "user %s\n" % (port, passwd, ACL, tmp_path, getpass.getuser()))
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stderr=subprocess.PIPE)
    end = time.monotonic() + 5
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < end, proc.stderr.read()
            time.sleep(0.02)
    yield "127.0.0.1:%d" % port
    proc.terminate()
    proc.wait(5)


def test_board_online_under_micropython(broker):
    if not os.path.isfile(os.path.join(LIB, "umqtt", "simple.py")):
        pytest.skip("no umqtt.simple in %s: python3 tools/micropython_lib.py (make test does)"
                    % LIB)
    env = dict(os.environ, VORTEX_BROKER=broker, MICROPYPATH=".frozen:" + LIB,
               VORTEX_USERS=",".join("%s:%s" % u for u in USERS.items()))
    p = subprocess.run([micropython(), "-X", "heapsize=512K",
                        os.path.join(ROOT, "tests", "mpy_runner.py"), "online_board_checks"],
                       capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    out = p.stdout + p.stderr
    print("\n".join(line for line in out.splitlines() if line.startswith("figure:")))
    assert p.returncode == 0 and out.rstrip().endswith(" 0 failed"), out


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
                   "online": str(tmp_path / "online.bin"), "save": str(tmp_path / "game.bin")}
    p = subprocess.run([micropython(), "-X", "heapsize=512K", "-c", code], capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, MICROPYPATH=".frozen:" + LIB))
    out = p.stdout + p.stderr
    assert p.returncode == 0, out
    assert "joined ('Home Net', 'radio-key-1')" in out
    assert "online: room pico-w on 127.0.0.1:" in out
    assert "vortex/v1/pico-w/presence/vx-e6614c3123456789 online light" in out
    assert "vortex/v1/pico-w/seat/light vx-e6614c3123456789 " in out
