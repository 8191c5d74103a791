"""The board logic under the MicroPython unix port, as it runs on the RP2040:
compiled with mpy-cross (tools/build_mpy.py; native code for the machine
the unix port runs on), in a 128 KB heap."""
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


@pytest.mark.parametrize("module", ["test_app_order", "test_app_tiles", "test_app_games",
                                    "test_app_idle", "test_app_advice", "test_app_buttons",
                                    "test_app_powercut"])
def test_under_micropython_in_128k(tree, module):
    check(tree, module, "128K")


# The board's AI search on top (its code ~15 KB and tables ~15 KB on this
# 64-bit port, less on the RP2040, which has 202 KB free after the imports).
@pytest.mark.parametrize("module", ["test_app_scenarios", "test_app_ai"])
def test_with_the_ai_under_micropython_in_192k(tree, module):
    check(tree, module, "192K")


def check(tree, module, heap):
    code, out = run_compiled(tree, [module], heap)
    assert code == 0, out
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
