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
    # The plain sources the CircuitPython build compiles (kept beside its
    # .mpy, which are marked for CircuitPython: the unix port reads the .py).
    tree = str(tmp_path_factory.mktemp("circuitpython"))
    build_mpy.build(tree, runtime="circuitpython", keep_sources=True)
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


def test_make_in_both_forms_plays_the_same_games():
    # On CPython the viper form runs as plain Python (vortex/native.py), so
    # the two spellings of make/unmake are compared here move by move; the
    # trace above runs the viper form as machine code under the unix port.
    from vortex.engine.position import Position
    from vortex.engine.play import make_plain, unmake_plain, make_viper, unmake_viper
    for g, start in enumerate(engine_trace.STARTS):
        x = SEED + g
        a_pos, b_pos = Position(start), Position(start)
        for _ in range(PLIES):
            actions = list(a_pos.legal_actions())
            if not actions:
                break
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            a = actions[x % len(actions)]
            for other in actions[:8]:  # made and taken back: the same position again
                u, v = make_plain(a_pos, other), make_viper(b_pos, other)
                assert u == v and a_pos == b_pos
                unmake_plain(a_pos, other, u)
                unmake_viper(b_pos, other, v)
                assert a_pos == b_pos
            a_pos.push(a)
            b_pos.push(a)
            assert a_pos == b_pos


def test_the_machine_codes_numbers_are_the_engines():
    # play.py and movegen.py repeat defs' and tables' numbers as const() of
    # their own (literals in machine code): they must be the same.
    from vortex.engine import play, movegen, defs, tables
    for module in (play, movegen):
        for name in ("NO_TILE", "TRAVELLER", "AWAKENED", "HEART", "PLACE", "SWAP", "VORTEX",
                     "WATER", "FIRE", "EARTH", "AIR"):
            if hasattr(module, "_" + name):
                assert getattr(module, "_" + name) == getattr(defs, name), (module, name)
        assert module._OFF == tables.OFF
