"""The engine's bounds checks, proven on CPython too. On the board, a viper
pointer (ptr8, ptr16) reads and writes without any check, so the engine's
viper code checks for room itself and raises IndexError before it touches
memory (tests/test_engine_bounds.py, which also runs under the MicroPython
unix port, where the viper code is machine code). On CPython the pointer
"casts" return the buffer, whose own indexing raises IndexError as the
explicit check would, so a missing check goes unseen there. Here every
engine module's pointers are replaced by ones that fail loudly on any
access out of bounds, and the bounds tests run again: a check that is
missing now fails on CPython as well."""
import sys

import pytest

import test_engine_bounds
from vortex import native


class OutOfBounds(AssertionError):
    """A viper pointer would have read or written past its buffer."""


class StrictPointer:
    def __init__(self, buf):
        self.buf = buf

    def _check(self, i):
        if not 0 <= i < len(self.buf):
            raise OutOfBounds("pointer access at %d of %d" % (i, len(self.buf)))

    def __getitem__(self, i):
        self._check(i)
        return self.buf[i]

    def __setitem__(self, i, v):
        self._check(i)
        self.buf[i] = v


@pytest.fixture
def strict_pointers(monkeypatch):
    casts = (native.ptr8, native.ptr16)
    modules = [m for name, m in sys.modules.items()
               if name.startswith("vortex.") and m is not None]
    patched = 0
    for m in modules:
        for attr in ("ptr8", "ptr16"):
            if any(getattr(m, attr, None) is cast for cast in casts):
                monkeypatch.setattr(m, attr, StrictPointer)
                patched += 1
    assert patched >= 4  # at least movegen's and play's, and vortex.native's own
    yield


@pytest.mark.parametrize("name", [n for n in dir(test_engine_bounds) if n.startswith("test_")])
def test_bounds_with_strict_pointers(strict_pointers, name):
    getattr(test_engine_bounds, name)()


def test_random_games_stay_in_bounds(strict_pointers):
    # Every pointer access of generation, push and pop in whole games, each
    # checked: none strays off its buffer.
    from vortex.engine import Position, new_buffer
    from vortex.ai.rng import Rng
    buf, dest = new_buffer(), new_buffer(36)
    for seed in range(3):
        rng = Rng(seed + 1)
        pos = Position()
        for _ in range(150):
            n = pos.legal_into(buf)
            if not n:
                break
            for c in range(64):
                pos.destinations(c, dest)
            a = buf[rng.below(n)]
            pos.push(a)
            assert pos.pop() == a
            pos.push(a)
