"""The AI under the MicroPython unix port, compiled with mpy-cross as the
board runs it, in a limited heap with the rest of the firmware. The unix
port's objects are 64-bit, about twice the RP2040's: these heaps are upper
bounds of what the board needs (docs/device.md has the device's figures)."""
import pytest

from mpy import check_compiled

# The whole game loads the board logic beside the AI (with the engine's
# codes, shapes and setup modules: 4.5 KB more on this port than before them).
# 152K since issue 41's heap sizing and issue 38's online play (144K before,
# 146K passed when measured): their new names filled the interpreter's qstr
# pool, and MicroPython's next pool is twice the last, so loading the board
# now takes one more, 7.7 KB on this port (micropython.qstr_info(): 5 pools,
# then 6); the board's own copy of the game for the AI's search, 0.9 KB more.
# A step the next names would have cost anyway, not growth a game keeps.
HEAPS = {"test_ai_search": "128K", "test_ai_heap": "128K", "test_ai_evaluate": "128K",
         "test_ai_exact": "160K",
         "test_ai_games": "152K", "test_ai_native": "128K"}


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS[module])
