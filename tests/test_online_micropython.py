"""The online protocol's core under the MicroPython unix port, as the board
runs it: compiled with mpy-cross (tools/build_mpy.py), in a bounded heap."""
import pytest

from mpy import check_compiled

HEAPS = {"test_online_protocol": "128K"}


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS[module])
