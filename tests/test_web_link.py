"""The page's link host (host_sim/web/board/link.js) and the Python host's
(host_sim/link_host.py's BoardPort) read the same transcripts the same way:
docs/protocol.md's sessions, as the firmware sends them
(tests/test_link_docs.py replays them on the board), each line's sequence
number, kind, text and the command it answers. One protocol, two hosts,
one set of vectors. Runs the JavaScript with node; skips without it."""
import json
import os
import shutil
import subprocess

import pytest

from host_sim.link_host import BoardPort
from test_link_docs import sessions, replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK_JS = os.path.join(ROOT, "host_sim", "web", "board", "link.js")
REPLAY = os.path.join(ROOT, "tests", "web_link_replay.js")


class _Serial:
    def __init__(self):
        self.data = b""
        self.in_waiting = 0

    def read(self, n):
        data, self.data = self.data, b""
        return data


def python_host(steps):
    """BoardPort's reading of the transcript (its serial port a buffer)."""
    b = object.__new__(BoardPort)
    b.ser, b.errors, b.port = _Serial(), (OSError,), "transcript"
    b.partial, b.seq, b.lost, b.waiting, b.backlog = b"", None, 0, [], []
    out = []
    for what, text in steps:
        if what == "send":
            b.waiting.append(text.split()[0].lower())
        else:
            b.ser.data = (text + "\n").encode()
            for kind, rest, command in b.messages():
                out.append([b.seq, kind, rest, command])
    return out


def js_host(steps):
    r = subprocess.run(["node", REPLAY, LINK_JS], input=json.dumps(steps), capture_output=True,
                       text=True, timeout=60, check=True)
    return json.loads(r.stdout)


@pytest.mark.parametrize("block", sessions(), ids=lambda b: b[0][:30])
def test_both_hosts_read_each_session_alike(block):
    if not shutil.which("node"):
        pytest.skip("no node: the page's JavaScript is tested with Node.js")
    steps = []
    for line in replay(block):
        if line.startswith("> "):
            steps.append(["send", line[2:]])
        elif line[:1].isdigit():
            steps.append(["recv", line])
    py, js = python_host(steps), js_host(steps)
    assert [tuple(x) for x in js] == [tuple(x) for x in py]
    assert any(x[3] for x in py)  # (answers matched, not only events)
