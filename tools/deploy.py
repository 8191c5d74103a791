"""Flash the firmware onto a board running MicroPython, with mpremote.

    make flash PORT=/dev/ttyACM0          (sets up .venv, then runs this)
    python3 tools/deploy.py --port /dev/ttyACM0 [--dry-run] [--all] [--online]

The modules go over compiled to .mpy by the project's own mpy-cross (the
RP2040 then loads bytecode instead of compiling at boot), main.py and the
pin map as source. Two mpremote sessions, both with `resume` (no soft reset:
on a board already running the firmware, main.py keeps its watchdog fed
from a timer once stopped, and a soft reset would end that timer):

1. a look: the board's MicroPython version and .mpy format, checked against
   the build, the firmware version it has, and the hash file of the last
   deploy (.deploy-hashes);
2. the copy: only the files whose hash changed (all with --all), files
   left over from an older deploy removed, the new hash file, a reset.

--online (a Pico W, for play online without a computer: docs/online.md)
adds micropython-lib's MQTT client to the copy session, `mip install
umqtt.simple` (mpremote fetches it on this computer and copies it to the
board's /lib), before the reset.

It says which firmware version the board had and which it has now (the
version comes from git: host_sim/version.py). A board flashed with `make
uf2`'s file has the hash file too, so only what changed since is copied.

Needs MicroPython v1.28 or later on the Pico (README: For makers).
--runtime circuitpython deploys onto CircuitPython instead: tools/deploy_cp.py.
"""
import hashlib
import os
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, ROOT)
import build_mpy  # noqa: E402
from host_sim import cli, version  # noqa: E402

HASHES = ".deploy-hashes"  # on the board, beside main.py: "sha256 path" a line
MIN_VERSION = (1, 28)
PINS = os.path.join(ROOT, "hardware", "pins.py")
# CircuitPython's libraries (requirements-circuitpython.txt, pinned), which
# the set-up fetches from PyPI into this folder: compiled into the tree's lib/.
CP_LIBS = build_mpy.CP_LIBS
POWER = os.path.join(ROOT, "hardware", "power.py")  # the USB-C thresholds and LED budgets

# The end of what both runtimes' deploys run first: "hashes", then the hash
# file's lines (none on a board never deployed to).
LIST_HASHES = """\
print("hashes")
try:
    with open("%s") as f:
        for line in f:
            print(line.rstrip())
except OSError:
    pass
""" % HASHES

# Run on the board by session 1 (in / there): first a timer feeds the
# watchdog, armed or not (it cannot be stopped: main.py may have armed it, or
# an older main.py stopped without feeding it) until the reset that ends the
# deploy; then what deploy needs to know, "key value" a line: every file
# under vortex/ (a stale .py would shadow its new .mpy), the board's
# MicroPython, the firmware's version ("none": no firmware; "?": one from
# before versions, or one that cannot load), and the hash file's lines
# after "hashes".
LOOK = """\
import sys
try:
    from machine import WDT, Timer
    _deploy_wdt = WDT(timeout=8000)
    _deploy_timer = Timer(period=1000, callback=lambda t: _deploy_wdt.feed())
except (ImportError, AttributeError):
    pass  # not an RP2040: the unix port of the tests
import os
def _deploy_walk(folder):
    for entry in os.ilistdir(folder):
        path = folder + "/" + entry[0]
        if entry[1] == 0x4000:
            _deploy_walk(path)
        else:
            print("file", path)
try:
    _deploy_walk("vortex")
except OSError:
    pass
print("platform", sys.platform)
print("version", ".".join(str(n) for n in sys.implementation.version[:3]))
print("mpy", getattr(sys.implementation, "_mpy", 0))
try:
    from vortex.version import VERSION as _deploy_version
except ImportError:
    _deploy_version = "?" if "vortex" in os.listdir() else "none"
except Exception:
    _deploy_version = "?"
print("firmware", _deploy_version)
""" + LIST_HASHES

# Run by session 2 before the copies: make the folders, remove stale files.
PREPARE = """\
import os
for d in %s:
    try:
        os.mkdir(d)
    except OSError:
        pass
for p in %s:
    try:
        os.remove(p)
    except OSError:
        pass
"""


def files(tree, runtime="micropython"):
    """(local file, path on the board) of everything the board gets from a
    build tree (tools/build_mpy.py's, for that runtime): the firmware and
    main.py, then the pin map and the power budgets (hardware/, beside
    main.py). CircuitPython runs code.py at boot (its own first boot writes
    a code.py that would win over main.py), so main.py goes there under that
    name; its libraries are in the tree's lib/ (build_mpy compiled them)."""
    out = []
    base = os.path.join(tree, "firmware")
    for folder, _, names in sorted(os.walk(base)):
        rel = os.path.relpath(folder, base)
        for name in sorted(names):
            dest = name if rel == "." else rel.replace(os.sep, "/") + "/" + name
            if runtime == "circuitpython" and dest == "main.py":
                dest = "code.py"
            out.append((os.path.join(folder, name), dest))
    out.append((PINS, "pins.py"))
    out.append((POWER, "power.py"))
    return out


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def manifest(tree):
    """{board path: sha256} of what the board gets from a build tree."""
    return {dest: digest(path) for path, dest in files(tree)}


def hash_lines(hashes, firmware=None):
    """The hash file: "sha256 path" a line, sorted; first, where given, the
    firmware's version as "firmware VERSION" (CircuitPython's deploy reads
    it back from a drive, where the version module cannot be imported)."""
    head = "firmware %s\n" % firmware if firmware else ""
    return head + "".join("%s %s\n" % (hashes[p], p) for p in sorted(hashes))


def hashed_firmware(lines):
    """The firmware version a hash file's lines record, or None."""
    for line in lines:
        words = line.split()
        if len(words) == 2 and words[0] == "firmware":
            return words[1]
    return None


def parse_hashes(lines):
    """{path: sha256} of a hash file's lines; torn or foreign lines are ignored."""
    out = {}
    for line in lines:
        words = line.split()
        if len(words) == 2 and len(words[0]) == 64:
            out[words[1]] = words[0]
    return out


def mpy_header(path):
    with open(path, "rb") as f:
        return f.read(4)


def parse_look(look):
    """What session 1 found: ({key: value}, the files under vortex/, the
    last deploy's {path: sha256})."""
    info = {}
    found = []
    lines = look.splitlines()
    for i, line in enumerate(lines):
        if line == "hashes":
            return info, found, parse_hashes(lines[i + 1:])
        key, _, value = line.partition(" ")
        if key == "file":
            found.append(value)
        else:
            info[key] = value
    raise cli.Failure("the board did not answer as MicroPython does: %s"
                      % (look.strip()[:200] or "no answer"))


def had(info):
    """The firmware a look found, in words."""
    firmware = info.get("firmware", "none")
    return {"none": "no Vortex firmware", "?": "a Vortex firmware from before versions"}.get(
        firmware, "firmware " + firmware)


def check_board(look, tree):
    """Refuse a board whose MicroPython cannot run the build. Returns
    {board path: sha256 of the last deploy, "" for a file found under vortex/
    that no deploy recorded}."""
    info, found, old = parse_look(look)
    if info.get("platform") != "rp2":
        raise cli.Failure("the board runs MicroPython for %s, not rp2 (a Pico)"
                          % info.get("platform"))
    version = tuple(int(n) for n in info.get("version", "0").split(".") if n.isdigit())
    if version[:2] < MIN_VERSION:
        raise cli.Failure("the board runs MicroPython %s; flash v%d.%d or later (README: For makers)"
                          % (info.get("version"), MIN_VERSION[0], MIN_VERSION[1]))
    mpy = int(info.get("mpy", "0") or 0)
    for path, _ in files(tree):
        if path.endswith(".mpy"):
            problem = mpy_problem(mpy_header(path), mpy)
            if problem:
                raise cli.Failure("%s: %s (board: MicroPython %s)" % (
                    os.path.relpath(path, tree), problem, info.get("version")))
    for path in found:
        old.setdefault(path, "")
    for path in old:
        if path.startswith("vortex/") and path not in found:
            old[path] = ""  # recorded, but gone from the board: copied again
    return old


def mpy_problem(header, board_mpy):
    """Why a .mpy file with this header cannot load on a board whose
    sys.implementation._mpy is board_mpy, or None if it can."""
    if len(header) < 4 or header[0:1] != b"M":
        return "not a .mpy file"
    if header[1] != board_mpy & 0xFF:
        return ".mpy format v%d, the board loads v%d" % (header[1], board_mpy & 0xFF)
    arch = header[2] >> 2
    # Bytecode alone loads anywhere; native code needs the board's arch and sub-version.
    if arch and (arch != board_mpy >> 10 or header[2] & 3 != (board_mpy >> 8) & 3):
        return "native code for another architecture or .mpy sub-version"
    return None


def look_command(mpremote, port):
    return [mpremote, "connect", port, "resume", "exec", LOOK]


ONLINE_LIBS = ("umqtt.simple",)  # what a Pico W plays online with (mip, micropython-lib)


def copy_command(mpremote, port, tree, old, online=False):
    """One mpremote session: make the folders, remove stale files, copy what
    changed, then the new hash file (written into tree), the online libraries
    if asked (mip), then reset. Returns the command and the board paths it copies."""
    local = {dest: path for path, dest in files(tree)}
    new = manifest(tree)
    changed = sorted(p for p in new if old.get(p) != new[p])
    stale = sorted(p for p in old if p not in new)
    folders = sorted(set(p.rsplit("/", 1)[0] for p in changed if "/" in p))  # parents first
    cmd = [mpremote, "connect", port, "resume", "exec", PREPARE % (_list(folders), _list(stale))]
    for p in changed:
        cmd += ["+", "fs", "cp", local[p], ":" + p]
    hash_file = os.path.join(tree, HASHES)
    with open(hash_file, "w") as f:
        f.write(hash_lines(new))
    cmd += ["+", "fs", "cp", hash_file, ":" + HASHES]
    if online:
        cmd += ["+", "mip", "install"] + list(ONLINE_LIBS)
    cmd += ["+", "reset"]
    return cmd, changed


def _list(paths):
    # A Python list literal in double quotes: shell-quoted, it reads as written.
    return "[%s]" % ", ".join('"%s"' % p for p in paths)


def show(cmd):
    print(" ".join(shlex.quote(c) for c in cmd))


def main(argv):
    ap = cli.parser("python3 tools/deploy.py", __doc__)
    ap.add_argument("--port", type=cli.port, default="auto",
                    help="the board's serial port, as mpremote names it (default: auto)")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the mpremote commands (as onto a blank board), run nothing")
    ap.add_argument("--all", action="store_true", help="copy every file, changed or not")
    ap.add_argument("--online", action="store_true",
                    help="a Pico W: install umqtt.simple too (mip), to play online")
    ap.add_argument("--runtime", default="micropython", choices=build_mpy.RUNTIMES,
                    help="what the Pico runs (default micropython; circuitpython: see "
                         "tools/deploy_cp.py)")
    ap.add_argument("--drive", type=cli.text("drive"),
                    help="CircuitPython: the mounted CIRCUITPY folder (default: found among "
                         "the mounts; else the serial REPL)")
    opts = ap.parse_args(argv)
    if opts.runtime == "circuitpython":
        import deploy_cp
        deploy_cp.run(opts.port, opts.drive, dry_run=opts.dry_run, copy_all=opts.all)
        return 0
    if opts.drive:
        ap.error("--drive is for --runtime circuitpython")
    if opts.dry_run:
        deploy("mpremote", opts.port, dry_run=True, online=opts.online)
    else:
        deploy(cli.program("mpremote"), opts.port, copy_all=opts.all, online=opts.online)
    return 0


def deploy(mpremote, port, dry_run=False, copy_all=False, online=False):
    """Build, look at the board, copy what changed, reset; returns the board
    paths copied. dry_run: print the commands (as onto a blank board)."""
    tree = os.path.join(ROOT, "build", "flash")  # kept: the printed commands name its files
    shutil.rmtree(tree, ignore_errors=True)
    release = version.current()
    print("compiled %d modules: firmware %s" % (build_mpy.build(tree, release=release), release))
    look = look_command(mpremote, port)
    if dry_run:
        show(look)
        old = {}
    else:
        answer = run(look, capture=True)
        old = check_board(answer, tree)
        before = had(parse_look(answer)[0])
        print("the board has %s" % before)
    if copy_all:
        old = {p: "" for p in old}  # copy everything, still remove what is stale
    cmd, changed = copy_command(mpremote, port, tree, old, online)
    print("%d of %d files to copy" % (len(changed), len(files(tree))))
    if dry_run:
        show(cmd)
    else:
        run(cmd)
        print("deployed: the board had %s, it has firmware %s now, and has restarted"
              % (before, release))
    return changed


def run(cmd, capture=False):
    """Run an mpremote command; its output (if captured). A failure is one line."""
    r = subprocess.run(cmd, capture_output=capture, text=True)
    if r.returncode:
        why = (r.stderr or r.stdout or "").strip().splitlines() if capture else []
        raise cli.Failure("mpremote failed (exit %d)%s" % (r.returncode, ": " + why[-1] if why else ""))
    return r.stdout


if __name__ == "__main__":
    cli.run(main)
