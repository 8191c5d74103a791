"""make flash's and make uf2's command lines (tools/deploy.py, tools/build_uf2.py)
in this process: each option reaches what it is for, a bad one is refused in
one line naming it, --help names them all. (test_deploy, test_uf2 and
test_cli run them as a maker does, as processes.)"""
import os
import shutil
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


# --- make flash's sessions, on a small build tree made here ---------------------
MPY = 6 | 3 << 8 | 4 << 10      # sys.implementation._mpy of MicroPython v1.28 on an RP2040


def small_tree(tmp_path):
    """A build tree as tools/build_mpy.py lays one out: two modules and main.py."""
    tree = tmp_path / "tree"
    (tree / "firmware" / "vortex" / "app").mkdir(parents=True)
    (tree / "firmware" / "main.py").write_text("import vortex\n")
    (tree / "firmware" / "vortex" / "version.mpy").write_bytes(b"M\x06\x00\x1f" + b"v" * 20)
    (tree / "firmware" / "vortex" / "app" / "board.mpy").write_bytes(b"M\x06\x00\x1f" + b"b" * 20)
    return str(tree)


def look(version="1.28.0", files=(), hashes=(), platform="rp2", mpy=MPY):
    return "".join("file %s\n" % f for f in files) + (
        "platform %s\nversion %s\nmpy %d\nfirmware none\nhashes\n" % (platform, version, mpy)) + \
        "".join("%s %s\n" % (h, p) for p, h in hashes)


def test_the_board_s_last_deploy_and_its_files_give_what_to_copy_again(tmp_path):
    tree = small_tree(tmp_path)
    recorded = [("vortex/app/board.mpy", "a" * 64), ("vortex/old.mpy", "b" * 64), ("main.py", "c" * 64)]
    found = ["vortex/app/board.mpy", "vortex/stray.py"]
    old = deploy.check_board(look(files=found, hashes=recorded), tree)
    # Recorded and there: its hash; there but never recorded, or recorded
    # but gone from the board: "" (copied again, or removed as stale).
    assert old == {"vortex/app/board.mpy": "a" * 64, "vortex/stray.py": "", "vortex/old.mpy": "",
                   "main.py": "c" * 64}


@pytest.mark.parametrize("answer, why", [
    (look(version="1.27.2"), "the board runs MicroPython 1.27.2; flash v1.28 or later (README: For makers)"),
    (look(version="1.28"), None),
    (look(version="2.0.0"), None),
    (look(platform="esp32"), "the board runs MicroPython for esp32, not rp2 (a Pico)"),
    ("platform rp2\nmpy 0\nhashes\n", "the board runs MicroPython None; flash v1.28 or later"),
    (look(mpy=5 | 3 << 8 | 4 << 10), "firmware/vortex/version.mpy: .mpy format v6, the board loads v5 "
                                     "(board: MicroPython 1.28.0)"),
    ("", "the board did not answer as MicroPython does: no answer"),
    ("  Traceback (most recent call last)\n", "the board did not answer as MicroPython does: Traceback "
                                             "(most recent call last)"),
])
def test_a_board_that_cannot_run_the_build_is_refused_saying_why_in_one_line(tmp_path, answer, why):
    tree = small_tree(tmp_path)
    if why is None:
        assert deploy.check_board(answer, tree) == {}
        return
    with pytest.raises(Failure) as e:
        deploy.check_board(answer, tree)
    assert str(e.value) == why or (str(e.value).startswith(why) and why.endswith("or later")), str(e.value)


@pytest.mark.parametrize("online", [False, True])
def test_the_copy_session_copies_what_changed_then_the_hash_file_then_mip_then_resets(tmp_path, online):
    tree = small_tree(tmp_path)
    new = deploy.manifest(tree)
    old = dict(new, **{"vortex/app/board.mpy": "0" * 64, "vortex/old.mpy": "1" * 64})
    cmd, changed = deploy.copy_command("mpremote", "/dev/ttyACM0", tree, old, online)
    assert changed == ["vortex/app/board.mpy"]
    assert cmd[:5] == ["mpremote", "connect", "/dev/ttyACM0", "resume", "exec"]
    assert '["vortex/app"]' in cmd[5] and '["vortex/old.mpy"]' in cmd[5]      # its folder, the stale file
    rest = cmd[6:]
    assert rest[:5] == ["+", "fs", "cp", os.path.join(tree, "firmware", "vortex", "app", "board.mpy"),
                        ":vortex/app/board.mpy"]
    assert rest[5:10] == ["+", "fs", "cp", os.path.join(tree, deploy.HASHES), ":" + deploy.HASHES]
    assert rest[10:] == (["+", "mip", "install", "umqtt.simple"] if online else []) + ["+", "reset"]


def test_a_dry_run_prints_the_look_and_the_copy_of_everything(tmp_path, monkeypatch, capsys):
    def build(tree, release=None):
        shutil.copytree(os.path.join(small_tree(tmp_path), "firmware"), os.path.join(tree, "firmware"))
        return 3
    monkeypatch.setattr(deploy.build_mpy, "build", build)
    monkeypatch.setattr(deploy, "ROOT", str(tmp_path))
    monkeypatch.setattr(deploy.version, "current", lambda: "0.3.0")
    monkeypatch.setattr(deploy, "run", lambda *a, **k: 1 / 0)             # nothing is run
    changed = deploy.deploy("mpremote", "COM3", dry_run=True, online=True)
    out = capsys.readouterr().out
    assert out.startswith("compiled 3 modules: firmware 0.3.0\nmpremote connect COM3 resume exec ")
    look, count, copy = out.partition("\n5 of 5 files to copy\n")
    assert count and "platform" in look and copy.startswith("mpremote connect COM3 resume exec ")
    assert copy.rstrip().endswith(" + mip install umqtt.simple + reset") and len(changed) == 5


def test_mpremote_failing_is_one_line_with_its_last_words(tmp_path):
    fail = [sys.executable, "-c", "import sys; print('one'); sys.stderr.write('no device found\\n'); "
                                  "sys.exit(3)"]
    with pytest.raises(Failure, match=r"^mpremote failed \(exit 3\): no device found$"):
        deploy.run(fail, capture=True)
    with pytest.raises(Failure, match=r"^mpremote failed \(exit 3\)$"):
        deploy.run(fail)
    assert deploy.run([sys.executable, "-c", "print('ok')"], capture=True) == "ok\n"
