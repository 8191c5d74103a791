"""Flash the firmware onto a Pico running CircuitPython 10 (tools/deploy.py
--runtime circuitpython; make flash RUNTIME=circuitpython).

The files are tools/deploy.py's for CircuitPython: the plain sources
compiled to CircuitPython .mpy (tools/build_mpy.py), boot.py, main.py as
code.py, pins.py, the pinned libraries in lib/ (compiled too). Two ways onto the board:

- The CIRCUITPY drive, when a computer has it mounted and may write it
  (the board was reset with button A held: boot.py leaves the drive to the
  computer). Found among the mounts (a folder named CIRCUITPY), or named
  with --drive. Files whose bytes differ are copied; CircuitPython reloads
  code.py after the copy. Reset the board without A to play (and save).
- The serial REPL otherwise (the drive not mounted, or read-only because
  the game has it): mpremote's transport (raw REPL, no soft reset) checks
  the board's CircuitPython, writes what changed since the last deploy
  (.deploy-hashes, as for MicroPython), and resets the board. The code
  writes CIRCUITPY only while the game has it: with A held at boot, mount
  the drive instead.

Either way, files from an older deploy that this one lacks are removed,
and nothing else on the drive (game.bin, a maker's files) is touched.
settings.toml is merged: the keys the board needs (build_mpy.py's
CIRCUITPYTHON_SETTINGS) are added to the drive's own when it lacks them;
a key the maker set stays as set.
"""
import glob
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, ROOT)
import build_mpy  # noqa: E402
import deploy  # noqa: E402
from host_sim import cli, version  # noqa: E402

MIN_VERSION = (10, 2)
USB_VID = 0x239A  # Adafruit's vendor ID, which CircuitPython's boards enumerate with

# Run on the board first: what deploy needs to know, "key value" a line.
LOOK = """\
import sys, os, storage
print("implementation", sys.implementation.name)
print("version", ".".join(str(n) for n in sys.implementation.version[:3]))
print("readonly", int(storage.getmount("/").readonly))
try:
    with open("settings.toml") as f:
        for line in f:
            print("settings", line.rstrip())
except OSError:
    pass
""" + deploy.LIST_HASHES


def find_drive(mounts="/proc/mounts"):
    """The folder where CIRCUITPY is mounted (Linux, macOS), or None."""
    places = []
    try:
        with open(mounts) as f:
            for line in f:
                words = line.split()
                if len(words) > 1:
                    places.append(words[1].replace("\\040", " "))
    except OSError:
        pass
    places += ["/Volumes/CIRCUITPY"] + glob.glob("/media/*/CIRCUITPY") + \
        glob.glob("/run/media/*/CIRCUITPY")
    for place in places:
        if os.path.basename(place) == "CIRCUITPY" and os.path.isdir(place):
            return place
    return None


def writable(folder):
    """True if this computer may write the folder (a read-only mount: no)."""
    return os.access(folder, os.W_OK)


SETTINGS = "settings.toml"


def merge_settings(theirs, ours):
    """settings.toml's text: theirs, plus each key of ours it does not set."""
    keys = set(line.split("=", 1)[0].strip() for line in theirs.splitlines() if "=" in line)
    add = [line for line in ours.splitlines()
           if "=" in line and line.split("=", 1)[0].strip() not in keys]
    if not add:
        return theirs
    return theirs + ("" if not theirs or theirs.endswith("\n") else "\n") + "\n".join(add) + "\n"


def _same(local, there):
    try:
        with open(local, "rb") as a, open(there, "rb") as b:
            return a.read() == b.read()
    except OSError:
        return False


def plan(tree, old, copy_all=False, on_board=None):
    """({board path: local file}, changed paths, stale paths, {path: sha256}).
    old: the last deploy's hashes; on_board(path, local) -> True if the
    board holds that file as it is (the drive's bytes); else the hashes say."""
    local = {dest: path for path, dest in deploy.files(tree, "circuitpython")
             if dest != SETTINGS}  # merged, not copied
    new = {dest: deploy.digest(path) for dest, path in local.items()}
    if on_board is None:
        changed = [p for p in local if copy_all or old.get(p) != new[p]]
    else:
        changed = [p for p in local if copy_all or not on_board(p, local[p])]
    stale = sorted(p for p in old if p not in local)
    return local, sorted(changed), stale, new


def had(hash_lines):
    """The firmware a board's hash file (its lines) says it has, in words:
    the version the last deploy wrote there, else one from before versions
    (hashes, no version) or none (no hash file)."""
    firmware = deploy.hashed_firmware(hash_lines) or ("?" if deploy.parse_hashes(hash_lines)
                                                       else "none")
    return deploy.had({"firmware": firmware})


def drive_hashes(drive):
    """The lines of the drive's hash file ([] without one)."""
    try:
        with open(os.path.join(drive, deploy.HASHES)) as f:
            return f.read().splitlines()
    except OSError:
        return []


def copy_to_drive(tree, drive, copy_all=False, release=None):
    """Copy what differs onto the mounted drive; return the paths copied.
    release: the build's version, for the hash file (default: the checkout's)."""
    old = deploy.parse_hashes(drive_hashes(drive))
    local, changed, stale, new = plan(
        tree, old, copy_all, lambda p, path: _same(path, os.path.join(drive, p)))
    for p in stale:
        try:
            os.remove(os.path.join(drive, p))
        except OSError:
            pass
    for p in changed:
        dest = os.path.join(drive, p)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(local[p], dest)
    try:
        with open(os.path.join(drive, SETTINGS)) as f:
            theirs = f.read()
    except OSError:
        theirs = ""
    merged = merge_settings(theirs, ours(tree))
    if merged != theirs:
        with open(os.path.join(drive, SETTINGS), "w") as f:
            f.write(merged)
        changed.append(SETTINGS)
    with open(os.path.join(drive, deploy.HASHES), "w") as f:
        f.write(deploy.hash_lines(new, release or version.current()))
    if hasattr(os, "sync"):
        os.sync()  # on the drive before anyone unplugs it
    return changed


def ours(tree):
    """The settings.toml keys of the build."""
    with open(os.path.join(tree, "firmware", SETTINGS)) as f:
        return f.read()


def check_board(look):
    """({board path: sha256 of the last deploy}, its settings.toml's text,
    the firmware it has in words), or a Failure saying why the board cannot
    take this deploy over its REPL."""
    info = {}
    settings = []
    lines = look.splitlines()
    for i, line in enumerate(lines):
        if line == "hashes":
            old = deploy.parse_hashes(lines[i + 1:])
            before = had(lines[i + 1:])
            break
        key, _, value = line.partition(" ")
        if key == "settings":
            settings.append(value)
        info[key] = value
    else:
        raise cli.Failure("the board did not answer as CircuitPython does: %s"
                          % (look.strip()[:200] or "no answer"))
    if info.get("implementation") != "circuitpython":
        raise cli.Failure("the board runs %s, not CircuitPython: flash CircuitPython %d.%d or "
                          "later, or deploy with --runtime micropython"
                          % (info.get("implementation"), MIN_VERSION[0], MIN_VERSION[1]))
    version = tuple(int(n) for n in info.get("version", "0").split(".") if n.isdigit())
    if version[:2] < MIN_VERSION:
        raise cli.Failure("the board runs CircuitPython %s; flash %d.%d or later (README: For makers)"
                          % (info.get("version"), MIN_VERSION[0], MIN_VERSION[1]))
    if info.get("readonly") != "0":
        raise cli.Failure("CIRCUITPY is the computer's (button A was held at boot): mount the "
                          "drive and run again, or reset the board without holding A")
    return old, "".join(line + "\n" for line in settings), before


def serial_port(port):
    """The device of a CircuitPython board's serial port ("auto": the first
    port with CircuitPython's USB vendor ID)."""
    if port != "auto":
        return port
    from serial.tools import list_ports
    for p in list_ports.comports():
        if p.vid == USB_VID:
            return p.device
    raise cli.Failure("no CircuitPython board on a serial port (USB vendor 0x%04x): plug it in, "
                      "or name its port with --port" % USB_VID)


def ancestors(paths):
    """Every folder the paths need, parents first."""
    out = set()
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            out.add("/".join(parts[:i]))
    return sorted(out, key=lambda f: (f.count("/"), f))


def copy_over_repl(transport, tree, copy_all=False, release=None):
    """Look, copy what changed since the last deploy, reset; return the
    paths copied. transport: mpremote's SerialTransport (or a stand-in);
    release: the build's version (default: the checkout's)."""
    transport.enter_raw_repl(soft_reset=False)
    old, theirs, before = check_board(transport.exec(LOOK).decode("utf-8", "replace"))
    print("the board has %s" % before)
    if copy_all:
        old = {p: "" for p in old}
    local, changed, stale, new = plan(tree, old, copy_all)
    transport.exec(deploy.PREPARE % (deploy._list(ancestors(changed)), deploy._list(stale)))
    for p in changed:
        with open(local[p], "rb") as f:
            transport.fs_writefile(p, f.read(), chunk_size=1024)
    merged = merge_settings(theirs, ours(tree))
    if merged != theirs:
        transport.fs_writefile(SETTINGS, merged.encode(), chunk_size=1024)
        changed.append(SETTINGS)
    transport.fs_writefile(deploy.HASHES, deploy.hash_lines(new, release or version.current())
                           .encode(), chunk_size=1024)
    transport.exec("import os\nos.sync()")
    # A reset, not a reload: a new boot.py runs only at boot.
    transport.exec_raw_no_follow("import microcontroller\nmicrocontroller.reset()")
    return changed


def run(port, drive=None, dry_run=False, copy_all=False):
    """Build, then copy onto the drive or over the REPL; returns the paths copied."""
    drive = drive or find_drive()
    if drive and not os.path.isdir(drive):  # (said before the build's seconds)
        raise cli.Failure("no folder %s (the CIRCUITPY drive)" % drive)
    tree = os.path.join(ROOT, "build", "flash-circuitpython")
    shutil.rmtree(tree, ignore_errors=True)
    release = version.current()
    print("compiled %d files: firmware %s" % (build_mpy.build(tree, runtime="circuitpython",
                                                              release=release), release))
    if dry_run:
        local, changed, _, _ = plan(tree, {}, True)
        where = drive if drive else "the serial REPL on %s" % port
        for p in changed:
            print("%s -> %s" % (os.path.relpath(local[p], ROOT), p))
        print("%d files to copy to %s" % (len(changed), where))
        return changed
    if drive and writable(drive):
        print("the drive has %s" % had(drive_hashes(drive)))
        changed = copy_to_drive(tree, drive, copy_all, release)
        print("%d of %d files copied to %s: firmware %s; CircuitPython reloads code.py. Reset "
              "the board (without holding A) to play and save." % (len(changed), len(deploy.files(
                  tree, "circuitpython")), drive, release))
        return changed
    if drive:
        print("%s is read-only here (the game has it): over the serial REPL" % drive)
    from mpremote.transport_serial import SerialTransport
    from mpremote.transport import TransportError
    device = serial_port(port)
    try:
        transport = SerialTransport(device, baudrate=115200)
    except TransportError as e:
        raise cli.Failure("cannot open %s: %s" % (device, e))
    try:
        changed = copy_over_repl(transport, tree, copy_all, release)
    except TransportError as e:
        raise cli.Failure("the board's REPL on %s: %s" % (device, str(e).strip().splitlines()[-1:]))
    finally:
        transport.close()
    print("%d files copied over %s; the board has firmware %s now and has restarted"
          % (len(changed), device, release))
    return changed
