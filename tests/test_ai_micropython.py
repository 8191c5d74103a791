"""The AI under the MicroPython unix port, compiled with mpy-cross as the
board runs it, in a 128 KB heap with the rest of the firmware."""
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


@pytest.mark.parametrize("module", ["test_ai_search", "test_ai_games", "test_ai_heap",
                                    "test_ai_evaluate"])
def test_under_micropython_in_128k(tree, module):
    code, out = run_compiled(tree, [module], "128K")
    assert code == 0, out
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
