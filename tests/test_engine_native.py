"""The engine's viper and native functions as machine code (the MicroPython
unix port compiles them so, as mpy-cross -march=armv6m does for the board)
against the same source as plain Python (CPython, where vortex/native.py
makes the decorators no-ops): the same legal actions in the same order, the
same destinations, over seeded random games through the building phase and
battles with Awakened pieces, Vortexes and bans. The perft and reference
tests run both ways as well; this compares whole lists over many positions."""
import os
import subprocess

from mpy import ROOT, micropython
import engine_trace

SEED, GAMES, PLIES = 7, 6, 140


def test_machine_code_and_plain_python_trace_the_same_games():
    want = engine_trace.trace(SEED, GAMES, PLIES)
    assert len(want) > GAMES * 60  # games long enough to reach the battle
    p = subprocess.run([micropython(), "tests/engine_trace.py", str(SEED), str(GAMES), str(PLIES)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, MICROPYPATH="firmware:tests"))
    assert p.returncode == 0, p.stderr
    got = p.stdout.splitlines()
    for a, b in zip(got, want):
        assert a == b, "first difference (game ply hash): micropython %r, CPython %r" % (a, b)
    assert len(got) == len(want)
