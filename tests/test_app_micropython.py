"""The board logic under the MicroPython unix port, as it runs on the RP2040:
compiled with mpy-cross (tools/build_mpy.py; native code for the machine
the unix port runs on), in a 224 KB heap (see below why not less)."""
import pytest

from mpy import check_compiled


# 224 KB: the board logic with its AI (the board's shared search, sized for
# level 5: a 1,024-entry table and a history table), its sounds and its link
# imported, plus the host-side virtual board and scenario rig that only the
# tests load, on this 64-bit port, whose objects take up to twice the
# RP2040's room. The RP2040 has about 160 KB free after importing the
# firmware; what a whole game really takes there is measured on the emulated
# Pico (make bench-device).
MODULES = ["test_app_scenarios", "test_app_order", "test_app_tiles", "test_app_games",
           "test_app_idle", "test_app_advice", "test_app_buttons", "test_app_powercut",
           "test_app_ai", "test_app_clock", "test_app_thinking", "test_app_noise",
           "test_app_sounds", "test_app_power", "test_app_memory", "test_app_front_fault"]
# The thinking tests hold the board's level-5 search and a host link at once,
# three rigs in a row; the AI's tests and the scenarios make the search (26 KB
# in blocks up to 8 KB) in the middle of a rig's game, whose virtual buzzer
# keeps the sounds it played: room of their own, on this port. The memory
# tests make and remake level 5's tables (an 8 KB block, a 4 KB one) beside
# rigs and a link: blocks this port's heap, broken up by them, has at 384 KB.
HEAPS = {"test_app_thinking": "256K", "test_app_ai": "256K", "test_app_scenarios": "256K",
         "test_app_memory": "384K"}


@pytest.mark.parametrize("module", MODULES)
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS.get(module, "224K"))
