"""firmware/main.py's loop with the host link, under the MicroPython unix
port on faked hardware (tests/fakehw): commands on stdin are answered on
stdout through vortex.link.port's polled stdio, and a loop whose stdin has
nothing to say allocates nothing for the link."""
import subprocess

from mpy import ROOT, micropython

SCRIPT = """
import sys
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
import main
main.SAVE = %(save)r
board = main.run(%(ticks)d)
"""

IDLE = """
import sys, gc
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
from vortex.app.board import Board
from vortex.link.link import Link
from vortex.link.port import StdioPort
board = Board()
link = Link(board)
port = StdioPort()
for _ in range(10):  # warm up: the first calls make what they keep
    link.serve(port)
gc.collect()
before = gc.mem_alloc()
for _ in range(1000):
    link.serve(port)
print("allocated", gc.mem_alloc() - before)
"""


# 416 KB for main.py's loop compiled from source here, as tests/test_main.py
# gives it (the board loads .mpy files, which need far less).
def run(script, tmp_path, stdin, ticks=200):
    code = script % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                     "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware",
                     "save": str(tmp_path / "game.bin"), "ticks": ticks}
    return subprocess.run([micropython(), "-X", "heapsize=480K", "-c", code], input=stdin,
                          capture_output=True, timeout=300)


def test_commands_on_stdin_are_answered_by_the_loop(tmp_path):
    p = run(SCRIPT, tmp_path, b"hello\r\nposition\nfoo\nsubscribe action\nrequest W@d4\n")
    assert p.returncode == 0, p.stdout + p.stderr
    banner, *lines = p.stdout.decode().splitlines()
    assert banner == "Vortex firmware dev", banner  # run from source: the committed version.py
    assert lines[0] == "0 ok hello vortex-link 2 firmware dev", lines
    assert lines[1].startswith("1 ok position 8/8/8/8/8/8/8/8 "), lines
    assert lines[2].startswith("2 error unknown command foo"), lines
    assert lines[3:5] == ["3 ok subscribe action", "4 ok request W@d4"], lines


GONE = """
import sys
sys.path[:0] = [%(firmware)r]
from vortex.link.port import StdioPort
port = StdioPort()
got = []
while len(got) < 7:
    b = port.read_byte()
    if b >= 0:
        got.append(b)
print(got == list(b"hello\\r\\n"), port.read_byte(), [port.gone() for _ in range(3)])
"""


def test_the_stdio_port_says_once_that_its_host_went():
    # The unix port's stdin ended: the host gone, once (the RP2040's USB
    # port cannot tell: its gone() stays False).
    p = subprocess.run([micropython(), "-c", GONE % {"firmware": ROOT + "/firmware"}],
                       input=b"hello\r\n", capture_output=True, timeout=60)
    assert p.stdout.decode().strip() == "True -1 [True, False, False]", p.stdout + p.stderr


def test_an_idle_link_allocates_nothing():
    # stdin held open and silent while the link polls it a thousand times.
    code = IDLE % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                   "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware"}
    r = subprocess.Popen([micropython(), "-X", "heapsize=448K", "-c", code],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        out = r.stdout.read().decode()
    finally:
        r.stdin.close()
        r.wait(timeout=60)
    assert "allocated 0" in out, out
