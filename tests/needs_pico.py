"""The mark every test of the emulated Pico carries (as `pytestmark =
needs_pico()` or on the test): `pico` (tests/test_offline.py picks them out
by it) and skipped, saying why, where a part is missing here (no Node, no
rp2040js, no image here and none to be had); failed where an image is here
but refused (device_images.Refused: a damaged cache, or a check that
refuses the real file), which must never pass for "no device here"."""
import os
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import device_images  # noqa: E402
import pico  # noqa: E402


class Marks(list):
    """pytest marks: a module's pytestmark, or a test's decorator."""

    def __call__(self, test):
        for mark in self:
            test = mark(test)
        return test


def needs_pico(runtime="micropython"):
    """The marks for a test that boots `runtime` on the emulated Pico."""
    try:
        why = pico.missing(runtime, strict=True)
    except device_images.Refused as e:
        return Marks([pytest.mark.pico, pytest.mark.refused(reason=str(e))])
    what = "emulated CircuitPython Pico" if runtime == "circuitpython" else "emulated Pico"
    return Marks([pytest.mark.pico, pytest.mark.skipif(why is not None, reason="no %s: %s" % (what, why))])


def micropython_image():
    """The MicroPython UF2 the emulated Pico boots: skips, saying why, where
    none is to be had; fails where one is here but refused."""
    try:
        return device_images.locate("micropython")
    except device_images.Refused as e:
        pytest.fail(str(e), pytrace=False)
    except device_images.Missing as e:
        pytest.skip("no MicroPython UF2: %s" % e)
