"""The online protocol's core and the board's online settings (with the
link's `online` command) under the MicroPython unix port, as the board runs
them: compiled with mpy-cross (tools/build_mpy.py), in a bounded heap. The
protocol's heap holds the longest game's state (10 KB) built and read
again, with the test's copies of it; the settings' holds a board and its link."""
import pytest

from mpy import check_compiled

HEAPS = {"test_online_protocol": "192K", "test_online_settings": "240K"}


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS[module])
