"""The maker's tools: the .mpy build (the deploy: tests/test_deploy.py)."""
import os
import sys

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


def test_build_compiles_every_firmware_module(tmp_path):
    n = build_mpy.build(str(tmp_path))
    sources = [os.path.relpath(os.path.join(d, f), ROOT)
               for d, _, fs in os.walk(os.path.join(ROOT, "firmware")) for f in fs if f.endswith(".py")]
    circuitpython = [s for s in sources if build_mpy.only_for(s) == "circuitpython"]
    assert "firmware/boot.py" in circuitpython and "firmware/vortex/hal/cp/keys.py" in circuitpython
    # All but main.py, which the board runs as source, and what only CircuitPython gets.
    assert n == len(sources) - 1 - len(circuitpython)
    assert os.path.exists(tmp_path / "firmware" / "main.py")
    assert os.path.exists(tmp_path / "firmware" / "vortex" / "app" / "board.mpy")
    assert not os.path.exists(tmp_path / "firmware" / "boot.py")
    assert not os.path.exists(tmp_path / "firmware" / "vortex" / "hal" / "cp")
