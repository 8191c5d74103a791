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
