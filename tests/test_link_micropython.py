"""The game record and the host link under the MicroPython unix port, from
source, one process per module. The record test holds several whole random
games at once (the game, its text, the replay), which is what needs the
heap: the board never reads a record, it only writes one line at a time."""
import re
import subprocess

import pytest

from mpy import ROOT, micropython

HEAPS = {"test_record": "320K", "test_link": "256K"}


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_dual_run_module_under_micropython(module):
    p = subprocess.run([micropython(), "-X", "heapsize=" + HEAPS[module], "tests/mpy_runner.py",
                        module], cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    m = re.search(r"(\d+) passed, (\d+) failed\s*$", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
    assert p.returncode == 0, out
