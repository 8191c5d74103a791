"""The game record and the host link under the MicroPython unix port, as the
board runs them: compiled with mpy-cross (tools/build_mpy.py), one process
per module. The record test holds several whole random games at once (the
game, its text, the replay), which is what needs its heap: the board never
reads a record, it writes one line at a time."""
import re
import sys

import pytest

from mpy import ROOT, run_compiled

sys.path.insert(0, ROOT + "/tools")
import build_mpy  # noqa: E402

HEAPS = {"test_record": "320K", "test_link": "192K", "test_link_fuzz": "192K"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("mpy"))
    build_mpy.build(out, with_tests=True, arch="host")
    return out


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(tree, module):
    code, out = run_compiled(tree, [module], HEAPS[module])
    m = re.search(r"(\d+) passed, (\d+) failed\s*$", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
    assert code == 0, out
