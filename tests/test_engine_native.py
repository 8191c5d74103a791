"""The engine's viper and native functions as machine code (the MicroPython
unix port compiles them so, as mpy-cross -march=armv6m does for the board)
against the same source as plain Python (CPython, where vortex/native.py
makes the decorators no-ops): the same legal actions in the same order, the
same destinations, over seeded random games through the building phase and
battles with Awakened pieces, Vortexes and bans. The perft and reference
tests run both ways as well; this compares whole lists over many positions.

And the CircuitPython build (tools/build_mpy.py --runtime circuitpython: the
same source with the decorators commented out) traced as bytecode on the
unix port: the plain path CircuitPython runs, on a MicroPython VM."""
import os
import subprocess
import sys

import pytest

from mpy import ROOT, micropython
import engine_trace

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

SEED, GAMES, PLIES = 7, 6, 140


@pytest.fixture(scope="module")
def want():
    lines = engine_trace.trace(SEED, GAMES, PLIES)
    assert len(lines) > GAMES * 60  # games long enough to reach the battle
    return lines


@pytest.fixture(scope="module")
def plain_tree(tmp_path_factory):
    tree = str(tmp_path_factory.mktemp("circuitpython"))
    build_mpy.build(tree, runtime="circuitpython")
    return tree


@pytest.mark.parametrize("firmware", ["machine code", "circuitpython build"])
def test_machine_code_and_plain_python_trace_the_same_games(want, plain_tree, firmware):
    path = "firmware" if firmware == "machine code" else os.path.join(plain_tree, "firmware")
    p = subprocess.run([micropython(), "tests/engine_trace.py", str(SEED), str(GAMES), str(PLIES)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, MICROPYPATH=path + ":tests"))
    assert p.returncode == 0, p.stderr
    got = p.stdout.splitlines()
    for a, b in zip(got, want):
        assert a == b, "first difference (game ply hash): micropython %r, CPython %r" % (a, b)
    assert len(got) == len(want)
