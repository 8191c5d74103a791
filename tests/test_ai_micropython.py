"""The AI under the MicroPython unix port, compiled with mpy-cross as the
board runs it, in a 128 KB heap with the rest of the firmware."""
import pytest

from mpy import check_compiled


@pytest.mark.parametrize("module", ["test_ai_search", "test_ai_games", "test_ai_heap",
                                    "test_ai_evaluate", "test_ai_native"])
def test_under_micropython_in_128k(mpy_tree, module):
    check_compiled(mpy_tree, module, "128K")
