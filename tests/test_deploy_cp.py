"""The maker's path onto CircuitPython: tools/deploy_cp.py (make flash
RUNTIME=circuitpython). Onto a mounted CIRCUITPY folder, and over the REPL
through a stand-in for mpremote's transport that plays a board's
filesystem in a folder (the board-side code that prepares the folders and
removes stale files really runs, under CPython there)."""
import os
import subprocess
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import deploy  # noqa: E402
import deploy_cp  # noqa: E402
from host_sim.cli import Failure  # noqa: E402


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("cptree"))
    build_mpy.build(out, runtime="circuitpython")
    return out


def test_the_drive_is_found_among_the_mounts(tmp_path):
    drive = tmp_path / "media" / "maker" / "CIRCUITPY"
    drive.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 %s vfat rw,nosuid 0 0\n" % drive)
    assert deploy_cp.find_drive(str(mounts)) == str(drive)
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\n")
    assert deploy_cp.find_drive(str(mounts)) in (None, "/Volumes/CIRCUITPY") or \
        deploy_cp.find_drive(str(mounts)).endswith("/CIRCUITPY")


def test_a_copy_onto_the_drive_lays_out_circuitpy_then_copies_only_what_differs(tree, tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "code.py").write_text('print("Hello World!")\n')  # CircuitPython's first boot
    (drive / "settings.toml").write_text('CIRCUITPY_BLE_NAME = "vortex"')  # the maker's
    first = deploy_cp.copy_to_drive(tree, str(drive))
    # The keys the board needs are added to the maker's settings.
    assert (drive / "settings.toml").read_text() == \
        'CIRCUITPY_BLE_NAME = "vortex"\n' + build_mpy.CIRCUITPYTHON_SETTINGS
    assert {"code.py", "boot.py", "pins.py", "lib/neopixel.mpy", "vortex/hal/cp/keys.mpy",
            "vortex/engine/movegen.mpy"} <= set(first)
    assert not [p for p in first if p.startswith("vortex/") and p.endswith(".py")]
    code = (drive / "code.py").read_text()
    assert code == open(os.path.join(ROOT, "firmware", "main.py")).read()  # main.py, as code.py
    # Bytecode marked for CircuitPython's loader (tools/build_mpy.py: CP_MAGIC).
    assert (drive / "vortex" / "engine" / "movegen.mpy").read_bytes()[:2] == b"C\x06"
    assert deploy_cp.copy_to_drive(tree, str(drive)) == []
    # A file edited on the drive, one left from an older deploy, the game's save.
    (drive / "vortex" / "tag.mpy").write_bytes(b"edited")
    (drive / "vortex" / "old.py").write_text("old = True\n")
    (drive / "game.bin").write_bytes(b"the game")
    with open(drive / deploy.HASHES, "a") as f:
        f.write("%s vortex/old.py\n" % ("0" * 64))
    assert deploy_cp.copy_to_drive(tree, str(drive)) == ["vortex/tag.mpy"]
    assert not (drive / "vortex" / "old.py").exists()
    assert (drive / "game.bin").read_bytes() == b"the game"
    # A key the maker set stays as set.
    (drive / "settings.toml").write_text("CIRCUITPY_PYSTACK_SIZE = 16384\n")
    assert deploy_cp.copy_to_drive(tree, str(drive)) == []
    assert (drive / "settings.toml").read_text() == "CIRCUITPY_PYSTACK_SIZE = 16384\n"


class Board:
    """mpremote's SerialTransport, over a folder: exec() runs the board-side
    code with CPython in it (LOOK is answered as CircuitPython 10.2.1 would,
    its storage module being CircuitPython's own)."""

    def __init__(self, folder, version="10.2.1", readonly=0, name="circuitpython"):
        self.folder = folder
        self.answer = (name, version, readonly)
        self.calls = []

    def enter_raw_repl(self, soft_reset=True):
        assert not soft_reset  # the game is left as it is until the reset
        self.calls.append("raw")

    def exec(self, code):
        if code == deploy_cp.LOOK:
            self.calls.append("look")
            name, version, readonly = self.answer
            out = "implementation %s\nversion %s\nreadonly %d\n" % (name, version, readonly)
            try:
                with open(os.path.join(self.folder, "settings.toml")) as f:
                    out += "".join("settings " + line for line in f)
            except OSError:
                pass
            out += "hashes\n"
            try:
                with open(os.path.join(self.folder, deploy.HASHES)) as f:
                    out += f.read()
            except OSError:
                pass
            return out.encode()
        self.calls.append("exec")
        p = subprocess.run([sys.executable, "-c", code], cwd=self.folder, capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        return p.stdout.encode()

    def fs_writefile(self, dest, data, chunk_size=256):
        with open(os.path.join(self.folder, dest), "wb") as f:  # no folder made: as mpremote
            f.write(data)
        self.calls.append("write " + dest)

    def exec_raw_no_follow(self, code):
        assert "microcontroller.reset()" in code
        self.calls.append("reset")


def test_over_the_repl_what_changed_then_a_reset(tree, tmp_path, capsys):
    board = Board(str(tmp_path))
    first = deploy_cp.copy_over_repl(board, tree, release="1.2.3")
    assert capsys.readouterr().out == "the board has no Vortex firmware\n"
    assert (tmp_path / deploy.HASHES).read_text().startswith("firmware 1.2.3\n")
    assert (tmp_path / "code.py").exists() and (tmp_path / "lib" / "neopixel.mpy").exists()
    assert (tmp_path / "settings.toml").read_text() == build_mpy.CIRCUITPYTHON_SETTINGS
    assert board.calls[:3] == ["raw", "look", "exec"] and board.calls[-2:] == ["exec", "reset"]
    assert board.calls[-3] == "write " + deploy.HASHES
    assert len([c for c in board.calls if c.startswith("write ")]) == len(first) + 1
    board.calls = []
    assert deploy_cp.copy_over_repl(board, tree, release="1.2.3") == []
    assert capsys.readouterr().out == "the board has firmware 1.2.3\n"
    (tmp_path / "vortex" / "old.py").write_text("x")
    with open(tmp_path / deploy.HASHES, "a") as f:
        f.write("%s vortex/old.py\n" % ("0" * 64))
    assert deploy_cp.copy_over_repl(board, tree) == []
    assert not (tmp_path / "vortex" / "old.py").exists()
    assert len(deploy_cp.copy_over_repl(board, tree, copy_all=True)) == len(first) - 1  # settings kept


@pytest.mark.parametrize("answer, why", [
    (("micropython", "1.28.0", 0), "not CircuitPython"),
    (("circuitpython", "9.2.8", 0), "flash 10.2 or later"),
    (("circuitpython", "10.2.1", 1), "button A was held"),
])
def test_a_board_that_cannot_take_the_deploy_is_refused(tree, tmp_path, answer, why):
    board = Board(str(tmp_path), version=answer[1], readonly=answer[2], name=answer[0])
    with pytest.raises(Failure, match=why):
        deploy_cp.copy_over_repl(board, tree)
    assert board.calls == ["raw", "look"]  # nothing written
    with pytest.raises(Failure, match="did not answer as CircuitPython"):
        deploy_cp.check_board("Traceback (most recent call last)")


def test_dry_run_names_every_file_and_where():
    p = subprocess.run([sys.executable, "tools/deploy.py", "--runtime", "circuitpython",
                        "--dry-run", "--port", "/dev/ttyACM0"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert " -> code.py" in p.stdout and " -> lib/neopixel.mpy" in p.stdout
    assert p.stdout.rstrip().splitlines()[-1].endswith("files to copy to the serial REPL on /dev/ttyACM0")


def test_the_deploy_says_which_firmware_the_drive_had_and_has_now(tmp_path):
    from host_sim import version
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    argv = [sys.executable, "tools/deploy.py", "--runtime", "circuitpython", "--drive", str(drive)]
    now = version.current()
    said = []
    for _ in range(2):
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0 and not p.stderr, p.stderr
        said.append(p.stdout.splitlines())
    assert said[0][0].endswith("files: firmware %s" % now)
    assert said[0][1] == "the drive has no Vortex firmware"
    assert said[0][2].endswith("copied to %s: firmware %s; CircuitPython reloads code.py. Reset the "
                               "board (without holding A) to play and save." % (drive, now))
    assert said[1][1] == "the drive has firmware %s" % now
    assert said[1][2].startswith("0 of ")
    # A drive from a deploy before versions: hashes, no version line.
    lines = (drive / deploy.HASHES).read_text().splitlines()
    assert lines[0] == "firmware " + now
    assert deploy_cp.had(lines[1:]) == "a Vortex firmware from before versions"
