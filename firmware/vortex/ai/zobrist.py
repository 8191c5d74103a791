"""Zobrist keys of battle positions, 30 bits so that they stay small ints on
the RP2040 and hashing allocates nothing.

A key is the XOR of one random value per (cell, piece code), per (cell,
terrain), per Vortex count of each side, per banned swap, and one for Dark
to act. The search updates it action by action: XOR out the cells an action
touches before push(), XOR them back in after (see Keys.touch), so the
engine's own push() decides what the action did (capture, awakening).
"""
from array import array

from vortex.engine.defs import PLACE, SWAP, VORTEX, const
from vortex.engine.tables import OFF
from vortex.ai.rng import Rng

# The engine's code fields (vortex.engine.defs), as literals in this
# module's code (tests/test_ai_native.py checks they are the engine's).
_FROM_SHIFT = const(6)
_TO_MASK = const(63)

_TILE = const(512)      # after 8 piece codes x 64 cells
_BAN = const(512 + 320)  # after 5 terrains x 64 cells (terrain 0, no tile, keys 0)
_VORT = const(_BAN + 128)
_SIDE = const(_VORT + 10)
_SIZE = const(_SIDE + 1)


_shared = None


def shared():
    """The one Keys object every search uses (its tables are constants)."""
    global _shared
    if _shared is None:
        _shared = Keys()
    return _shared


class Keys:
    """The random values (about 3.9 KB), the same on every run."""

    def __init__(self, seed=0x2545F491):
        rng = Rng(seed)
        z = array("I", range(_SIZE))  # no same-sized temporary (see new_buffer)
        for i in range(_SIZE):
            z[i] = rng.next()
        for c in range(64):  # an empty cell and a bare cell add nothing
            z[c] = 0
            z[_TILE + c] = 0
        self.z = z

    def cell(self, pos, c):
        """The key of what stands on cell c: its piece and its tile."""
        z = self.z
        return z[pos.pieces[c] << 6 | c] ^ z[_TILE + (pos.tiles[c] << 6) + c]

    def state(self, pos):
        """The key of the side to act, the Vortexes left and the ban."""
        z = self.z
        k = z[_VORT + pos.vortexes[0]] ^ z[_VORT + 5 + pos.vortexes[1]]
        if pos.ban != OFF:
            k ^= z[_BAN + pos.ban]
        if pos.side:
            k ^= z[_SIDE]
        return k

    def key(self, pos):
        """The whole key of a position, computed from scratch."""
        k = self.state(pos)
        for c in range(64):
            k ^= self.cell(pos, c)
        return k

    def touch(self, pos, a):
        """XOR of the keys of everything action a changes: the cells it
        touches and the state. XOR it into the key before push(a) and
        again after: the result is the key of the new position."""
        k = self.state(pos)
        if a < PLACE:
            return k ^ self.cell(pos, a >> _FROM_SHIFT) ^ self.cell(pos, a & _TO_MASK)
        if a < SWAP:
            return k ^ self.cell(pos, a & _TO_MASK)
        if a < VORTEX:
            code = a - SWAP
            c = code >> 1
            return k ^ self.cell(pos, c) ^ self.cell(pos, c + 8 if code & 1 else c + 1)
        c = (a - VORTEX) >> 1
        return (k ^ self.cell(pos, c) ^ self.cell(pos, c + 1) ^ self.cell(pos, c + 8)
                ^ self.cell(pos, c + 9))
