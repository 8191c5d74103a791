"""The board logic under the MicroPython unix port, as it runs on the RP2040:
compiled with mpy-cross (tools/build_mpy.py; native code for the machine
the unix port runs on), in a 192 KB heap (see below why not less)."""
import re
import sys

import pytest

from mpy import ROOT, run_compiled

sys.path.insert(0, ROOT + "/tools")
import build_mpy  # noqa: E402


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    build_mpy.build(out, with_tests=True, arch="host")
    return out


# 192 KB: the board logic with its AI and link imported, plus the host-side
# virtual board and scenario rig that only the tests load, on this 64-bit
# port, whose objects take up to twice the RP2040's room. The RP2040 has
# about 190 KB free after importing the firmware; what a whole game really
# takes there is measured on the emulated Pico (make bench-device).
@pytest.mark.parametrize("module", ["test_app_scenarios", "test_app_order", "test_app_tiles",
                                    "test_app_games", "test_app_idle", "test_app_advice",
                                    "test_app_buttons", "test_app_powercut", "test_app_ai"])
def test_under_micropython_in_192k(tree, module):
    check(tree, module, "192K")


def check(tree, module, heap):
    code, out = run_compiled(tree, [module], heap)
    assert code == 0, out
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
