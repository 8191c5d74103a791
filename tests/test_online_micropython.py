"""The online protocol's core and the board's online settings (with the
link's `online` command) under the MicroPython unix port, as the board runs
them: compiled with mpy-cross (tools/build_mpy.py), in a bounded heap. The
protocol's heap holds the longest game's state (10 KB) built and read
again, with the test's copies of it; the settings' holds a board and its link."""
import pytest

from mpy import check_compiled

# The settings' module holds a board, its link and up to three online
# clients at once: 236 to 244K was its edge once issue 40's link and issue
# 38's client met (a pytest temporary path's length tipped it); the board's
# own heap is measured on the emulated Pico (docs/online.md).
HEAPS = {"test_online_protocol": "192K", "test_online_settings": "256K"}


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS[module])
