"""The engine's dual-run tests again, under the MicroPython unix port with a
limited heap, from source (one process per module, so each gets the whole
heap); and the perft command line in 64 KB, from source and as mpy-cross
output (the form the board runs).

The unix port's 64-bit objects are bigger than the RP2040's, so a heap that
suffices here is a conservative figure. What costs most is compiling source
at import time: the engine fits 64 KB (perft 3 passed from 54 KB), but each
test module compiles on top of it, so each module gets the smallest heap that
passed steadily when measured, rounded up to leave room for new tests (just
below those figures some runs pass and some fail, by heap fragmentation).
"""
import os
import re
import subprocess
import sys

import pytest

from mpy import ROOT, micropython

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
# The last of test_engine_perft.REFERENCE: perft 3 = 96136 (docs/notation.md#perft).
LAST_REFERENCE = ("WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
                  "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 78 140")

# Heap per module: (smallest that passed when measured, the one used).
HEAPS = {
    "test_notation": ("72K", "96K"),
    "test_engine_bounds": ("64K", "96K"),
    "test_engine_perft": ("72K", "96K"),
    "test_engine_rules": ("132K", "160K"),  # 28 KB of source to compile
}


def run(args, cwd, heap):
    p = subprocess.run([micropython(), "-X", "heapsize=" + heap] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_dual_run_module_under_micropython(module):
    code, out = run(["tests/mpy_runner.py", module], ROOT, HEAPS[module][1])
    lines = out.strip().splitlines()
    m = re.match(r"(\d+) passed, (\d+) failed$", lines[-1] if lines else "")
    assert m, out
    assert int(m.group(1)) > 0 and m.group(2) == "0", out
    assert code == 0, out


def test_perft_command_in_64k_from_source():
    # The engine as source, imported and run by the command line in 64 KB.
    code, out = run(["-m", "vortex.engine.perft", LAST_REFERENCE, "3"],
                    os.path.join(ROOT, "firmware"), "64K")
    assert out.strip().splitlines()[-1:] == ["96136"], out
    assert code == 0, out


def test_perft_command_in_64k_compiled(tmp_path):
    # The engine as the board runs it: mpy-cross output (its viper code for
    # this machine instead of the RP2040's), imported from .mpy files.
    build_mpy.build(str(tmp_path), arch="host")
    code, out = run(["-m", "vortex.engine.perft", LAST_REFERENCE, "3"],
                    str(tmp_path / "firmware"), "64K")
    assert out.strip().splitlines()[-1:] == ["96136"], out
    assert code == 0, out
