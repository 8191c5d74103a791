"""make flash's and make uf2's command lines (tools/deploy.py, tools/build_uf2.py)
in this process: each option reaches what it is for, a bad one is refused in
one line naming it, --help names them all. (test_deploy, test_uf2 and
test_cli run them as a maker does, as processes.)"""
import os
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_uf2  # noqa: E402
import deploy  # noqa: E402
import deploy_cp  # noqa: E402
import device_images  # noqa: E402
from host_sim.cli import Failure  # noqa: E402


@pytest.fixture
def calls(monkeypatch):
    """What the command line asked for: [(what, args, kwargs)]."""
    out = []
    monkeypatch.setattr(deploy, "deploy", lambda *a, **k: out.append(("deploy", a, k)))
    monkeypatch.setattr(deploy_cp, "run", lambda *a, **k: out.append(("deploy_cp", a, k)))
    monkeypatch.setattr(deploy.cli, "program", lambda name, path=True: "/venv/bin/" + name)
    monkeypatch.setattr(build_uf2, "build", lambda *a, **k: out.append(("build", a, k)))
    return out


@pytest.mark.parametrize("argv, want", [
    ([], ("deploy", ("/venv/bin/mpremote", "auto"), {"copy_all": False, "online": False})),
    (["--port", "/dev/ttyACM1", "--all", "--online"],
     ("deploy", ("/venv/bin/mpremote", "/dev/ttyACM1"), {"copy_all": True, "online": True})),
    (["--dry-run", "--online", "--port", "COM3"],
     ("deploy", ("mpremote", "COM3"), {"dry_run": True, "online": True})),
    (["--dry-run"], ("deploy", ("mpremote", "auto"), {"dry_run": True, "online": False})),
    (["--runtime", "circuitpython", "--drive", "/media/CIRCUITPY", "--all"],
     ("deploy_cp", ("auto", "/media/CIRCUITPY"), {"dry_run": False, "copy_all": True})),
    (["--runtime", "circuitpython", "--dry-run", "--port", "/dev/ttyACM0"],
     ("deploy_cp", ("/dev/ttyACM0", None), {"dry_run": True, "copy_all": False})),
])
def test_make_flash_s_options_reach_the_deploy(calls, argv, want):
    assert deploy.main(argv) == 0
    assert calls == [want]


@pytest.mark.parametrize("argv, why", [
    (["--drive", "/media/CIRCUITPY"], "--drive is for --runtime circuitpython"),
    (["--runtime", "arduino"], "argument --runtime: invalid choice: 'arduino'"),
    (["--port", "/dev/tty ACM0"], "is not a serial port name"),
    (["--drive", ""], "drive: empty or not printable"),
    (["--onlin"], "unrecognized arguments: --onlin"),
])
def test_make_flash_refuses_a_bad_option_in_one_line(calls, capsys, argv, why):
    with pytest.raises(SystemExit) as e:
        deploy.main(argv)
    assert e.value.code == 2 and calls == []
    err = capsys.readouterr().err.strip().splitlines()
    assert why in err[-1] and err[-1].startswith("python3 tools/deploy.py: error: "), err


def test_make_flash_s_help_names_every_option(capsys):
    with pytest.raises(SystemExit):
        deploy.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: python3 tools/deploy.py ")
    for text in ("--port PORT the board's serial port, as mpremote names it (default: auto)",
                 "--dry-run print the mpremote commands (as onto a blank board), run nothing",
                 "--all copy every file, changed or not",
                 "--online a Pico W: install umqtt.simple too (mip), to play online",
                 "what the Pico runs (default micropython; circuitpython: see tools/deploy_cp.py)",
                 "--drive DRIVE CircuitPython: the mounted CIRCUITPY folder (default: found among the "
                 "mounts; else the serial REPL)", "Flash the firmware onto a board running MicroPython"):
        assert text in out, text


def test_make_uf2_builds_from_the_micropython_given_or_the_released_one(calls, tmp_path, monkeypatch):
    mine = tmp_path / "mine.uf2"
    mine.write_bytes(b"x")
    out = tmp_path / "out" / "deeper"
    assert build_uf2.main(["--micropython", str(mine), "--out", str(out)]) == 0
    assert calls == [("build", (str(mine), str(out)), {})] and out.is_dir()
    released = tmp_path / "released.uf2"
    released.write_bytes(b"x")
    monkeypatch.setattr(device_images, "locate", lambda key: str(released) if key == "micropython" else 1 / 0)
    assert build_uf2.main(["--out", str(out)]) == 0                     # the folder there already
    assert calls[-1] == ("build", (str(released), str(out)), {})
    monkeypatch.chdir(tmp_path)
    assert build_uf2.main(["--micropython", str(mine)]) == 0            # default: build/ of the checkout
    assert calls[-1] == ("build", (str(mine), os.path.join(ROOT, "build")), {})


def test_make_uf2_without_its_micropython_says_why_in_one_line(calls, tmp_path, monkeypatch):
    with pytest.raises(Failure, match="no MicroPython UF2 at %s: download RPI_PICO-v1.28.0.uf2"
                       % str(tmp_path / "none.uf2")):
        build_uf2.main(["--micropython", str(tmp_path / "none.uf2"), "--out", str(tmp_path)])

    def missing(key):
        raise device_images.Missing("no MicroPython v1.28.0 here and none could be fetched")
    monkeypatch.setattr(device_images, "locate", missing)
    with pytest.raises(Failure, match="^no MicroPython v1.28.0 here and none could be fetched$"):
        build_uf2.main(["--out", str(tmp_path)])
    assert calls == []


def test_make_uf2_s_help_names_its_options(capsys):
    with pytest.raises(SystemExit):
        build_uf2.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: python3 tools/build_uf2.py ")
    for text in ("--micropython UF2 MicroPython's UF2 for RPI_PICO (default: v1.28.0 as released, "
                 "fetched into the user's cache)", "--out OUT the folder to write into (default build/)"):
        assert text in out, text
    with pytest.raises(SystemExit):
        build_uf2.main(["--out", ""])
