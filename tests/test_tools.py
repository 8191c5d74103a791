"""The maker's tools: the .mpy build and the deploy commands (dry run)."""
import os
import subprocess
import sys

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import deploy  # noqa: E402


def test_build_compiles_every_firmware_module(tmp_path):
    n = build_mpy.build(str(tmp_path))
    sources = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "firmware"))
               for f in fs if f.endswith(".py")]
    assert n == len(sources) - 1  # all but main.py, which the board runs as source
    assert os.path.exists(tmp_path / "firmware" / "main.py")
    assert os.path.exists(tmp_path / "firmware" / "vortex" / "app" / "board.mpy")


def test_deploy_copies_every_module_and_the_pin_map(tmp_path):
    build_mpy.build(str(tmp_path))
    cmds = deploy.commands(str(tmp_path), "/dev/ttyACM0")
    assert all(c[:3] == ["mpremote", "connect", "/dev/ttyACM0"] for c in cmds)
    dests = [c[-1] for c in cmds if c[3:5] == ["fs", "cp"]]
    assert ":main.py" in dests and ":pins.py" in dests and ":vortex/engine/tables.mpy" in dests
    assert cmds[-1][-1] == "reset"


def test_deploy_dry_run():
    p = subprocess.run([sys.executable, "tools/deploy.py", "--dry-run"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "mpremote fs cp" in p.stdout and "mpremote reset" in p.stdout
