"""The game record and the host link under the MicroPython unix port, as the
board runs them: compiled with mpy-cross (tools/build_mpy.py), one process
per module. The record test holds several whole random games at once (the
game, its text, the replay), which is what needs its heap: the board never
reads a record, it writes one line at a time. The link's test holds the
board with its service pass, a pipe and the bursts it sends at once."""
import pytest

from mpy import check_compiled

HEAPS = {"test_record": "320K", "test_link": "256K", "test_link_fuzz": "224K"}  # test_link: 248 K; test_link_fuzz: 192 K passed in make test (xdist) and failed in a plain run, 200 K passed


@pytest.mark.parametrize("module", sorted(HEAPS))
def test_under_micropython(mpy_tree, module):
    check_compiled(mpy_tree, module, HEAPS[module])
