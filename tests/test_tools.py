"""The maker's tools: the .mpy build (the deploy: tests/test_deploy.py)."""
import os
import sys

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


def test_build_compiles_every_firmware_module(tmp_path):
    n = build_mpy.build(str(tmp_path))
    sources = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "firmware"))
               for f in fs if f.endswith(".py")]
    assert n == len(sources) - 1  # all but main.py, which the board runs as source
    assert os.path.exists(tmp_path / "firmware" / "main.py")
    assert os.path.exists(tmp_path / "firmware" / "vortex" / "app" / "board.mpy")
