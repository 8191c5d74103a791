"""Build the one file a maker drops on a Pico: MicroPython with the game on
its filesystem.

    make uf2 [MICROPYTHON_UF2=path/to/RPI_PICO-v1.28.0.uf2]
    python3 tools/build_uf2.py [--micropython UF2] [--out FOLDER]

Writes FOLDER/vortex-pico-<version>.uf2 (default build/): MicroPython's own
UF2 for the RPI_PICO board as released, then a littlefs2 filesystem where the
rp2 port mounts it (tools/flash_layout.py) holding exactly what `make flash`
sends: the same .mpy build, main.py, pins.py, power.py, and the deploy's hash file, so
that a later `make flash` copies only what changed. The whole filesystem
region is written, blank blocks too: dropping the file replaces the board's
filesystem, saved game included (`make flash` keeps it).

The MicroPython UF2 (default: MicroPython v1.28.0 for RPI_PICO as released,
fetched into the user's cache by tools/device_images.py, or VORTEX_PICO_UF2)
is checked first: RP2040's family id on every block, nothing written where
the filesystem lies, MicroPython v1.28 or later, built for "Raspberry Pi
Pico with RP2040"; its sha256 is printed.
"""
import hashlib
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import build_mpy  # noqa: E402
import deploy  # noqa: E402
import uf2  # noqa: E402
from flash_layout import XIP_BASE, FS_OFFSET, fs_image  # noqa: E402
from host_sim import cli, version  # noqa: E402

BOARD = b"Raspberry Pi Pico"  # RPI_PICO's name in its banner; the Pico W's differs
FS_START = XIP_BASE + FS_OFFSET


def default_micropython():
    """The released MicroPython v1.28.0 for RPI_PICO (the emulated Pico's too), checked."""
    import device_images
    try:
        return device_images.locate("micropython")
    except device_images.Missing as e:
        raise cli.Failure(str(e))


def check_micropython(data):
    """The firmware blocks of MicroPython's UF2 for RPI_PICO, and what it is
    ("MicroPython v1.28.0 for Raspberry Pi Pico with RP2040"); cli.Failure
    saying why when it is not one this build can carry."""
    try:
        blocks = [b for b in uf2.read(data) if not b.flags & uf2.NOT_MAIN_FLASH]
    except uf2.Uf2Error as e:
        raise cli.Failure(str(e))
    for b in blocks:
        if b.family != uf2.RP2040:
            raise cli.Failure("a block for family id %s, not the RP2040's 0x%08x: a UF2 for "
                              "another chip" % ("none" if b.family is None else "0x%08x" % b.family,
                                                uf2.RP2040))
        if not XIP_BASE <= b.address or b.address + len(b.payload) > FS_START:
            raise cli.Failure("a block at 0x%08x, outside the firmware's flash (0x%08x-0x%08x, "
                              "the filesystem after it): not an RPI_PICO MicroPython"
                              % (b.address, XIP_BASE, FS_START))
        if len(b.payload) != uf2.PAYLOAD:
            raise cli.Failure("a block of %d bytes at 0x%08x; the RP2040 takes %d"
                              % (len(b.payload), b.address, uf2.PAYLOAD))
    image = b"".join(b.payload for b in sorted(blocks))
    found = re.search(rb"MicroPython v(\d+)\.(\d+)\.(\d+)", image)
    if not found:
        raise cli.Failure("no MicroPython version inside: not a MicroPython firmware")
    release = tuple(int(n) for n in found.groups())
    if release[:2] < deploy.MIN_VERSION:
        raise cli.Failure("MicroPython v%d.%d.%d inside; the firmware needs v%d.%d or later"
                          % (release + deploy.MIN_VERSION))
    board = re.search(rb"; ([ -~]{1,60}?) with (RP2\w+)\0", image)
    if not board or board.group(1) != BOARD or board.group(2) != b"RP2040":
        raise cli.Failure("MicroPython built for %s, not RPI_PICO (the Raspberry Pi Pico, whose "
                          "flash layout this file has)" % (
                              board.group(0)[2:-1].decode() if board else "an unnamed board"))
    return blocks, "MicroPython v%d.%d.%d for %s with RP2040" % (release + (BOARD.decode(),))


def build(micropython, out, release=None):
    """Write out/vortex-pico-<release>.uf2 from the MicroPython UF2 at micropython; its path."""
    with open(micropython, "rb") as f:
        data = f.read()
    blocks, what = check_micropython(data)
    print("%s: %s, sha256 %s" % (micropython, what, hashlib.sha256(data).hexdigest()))
    release = release or version.current()
    tree = os.path.join(out, "uf2")
    shutil.rmtree(tree, ignore_errors=True)
    build_mpy.build(tree, release=release)
    files = {dest: local for local, dest in deploy.files(tree)}
    files[deploy.HASHES] = deploy.hash_lines(deploy.manifest(tree)).encode()
    image = uf2.write([(b.address, b.payload) for b in blocks] + [(FS_START, fs_image(files))],
                      uf2.RP2040)
    path = os.path.join(out, "vortex-pico-%s.uf2" % release)
    with open(path, "wb") as f:
        f.write(image)
    print("%s: firmware %s, %d files, %d bytes, sha256 %s" % (
        os.path.relpath(path), release, len(files), len(image), hashlib.sha256(image).hexdigest()))
    return path


def main(argv):
    ap = cli.parser("python3 tools/build_uf2.py", __doc__)
    ap.add_argument("--micropython", type=cli.text("micropython"), metavar="UF2",
                    help="MicroPython's UF2 for RPI_PICO (default: v1.28.0 as released, "
                         "fetched into the user's cache)")
    ap.add_argument("--out", type=cli.text("out"), default=os.path.join(ROOT, "build"),
                    help="the folder to write into (default build/)")
    opts = ap.parse_args(argv)
    micropython = opts.micropython or default_micropython()
    try:
        import littlefs  # noqa: F401
    except ImportError:
        raise cli.Failure("littlefs-python not found: `make uf2` sets up .venv with it")
    if not os.path.isfile(micropython):
        raise cli.Failure("no MicroPython UF2 at %s: download RPI_PICO-v1.28.0.uf2 (micropython.org, "
                          "board RPI_PICO) and give MICROPYTHON_UF2=path" % micropython)
    os.makedirs(opts.out, exist_ok=True)
    build(micropython, opts.out)
    return 0


if __name__ == "__main__":
    cli.run(main)
