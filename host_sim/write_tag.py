"""Print, or write through the board, the tag bytes of a terrain tile:
vortex write-tag (python3 -m host_sim write-tag from a checkout).

    vortex write-tag fire --serial 12
        page 4: FD 0C 56 58
        ...                      the 16 bytes for pages 4-7 (hardware/tag-format.md)

    vortex write-tag fire --serial 12 --write --cell e4 --port /dev/ttyACM0
        writes them on the tag lying on cell e4 of a board running our
        firmware, through the MFRC522 of the cell's rank, then reads them
        back. It runs
            mpremote connect PORT resume exec "<script>"
        which stops the game without a soft reset (main.py then keeps its
        watchdog fed, as for make flash; a soft reset would let it restart
        the board mid-write); reset the board when the tags are written.
        mpremote comes with `pip install .` and make's .venv; the board must
        have the firmware (make uf2 or make flash). --show-script prints
        that script instead.

Any phone app that writes raw NTAG pages (e.g. NXP TagInfo / TagWriter
"write memory") can write the printed pages too.
"""
import argparse
import subprocess
import sys

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from . import cli
from vortex import tag

EPILOG = __doc__.split("\n\n", 1)[1]  # `vortex write-tag --help`: the examples and the apps
TERRAINS = {"water": tag.WATER, "w": tag.WATER, "fire": tag.FIRE,
            "f": tag.FIRE, "earth": tag.EARTH, "e": tag.EARTH,
            "air": tag.AIR, "a": tag.AIR}

SCRIPT = """\
import time
from machine import Pin, SPI
import pins
from vortex import tag
from vortex.hal.frontend import FrontEnd, OFF
from vortex.hal.mfrc522 import MFRC522, OK
spi = SPI(pins.NFC_SPI, baudrate=pins.NFC_BAUD, sck=Pin(pins.NFC_SCK),
          mosi=Pin(pins.NFC_MOSI), miso=Pin(pins.NFC_MISO))
front = FrontEnd(spi, Pin(pins.NFC_STROBE, Pin.OUT), Pin(pins.NFC_LATCH, Pin.OUT),
                 pins.NFC_READERS)
front.reset()
rank, f = {cell} >> 3, {cell} & 7
rdr = MFRC522(front, rank)
front.coil(rank, f)
front.flush()
time.sleep_ms(10)
data = {data!r}
ok = False
for attempt in range(50):
    if rdr.request(True) == OK and rdr.select() == OK:
        ok = True
        for p in range(4):
            ok = ok and rdr.write(tag.FIRST_PAGE + p, data[4 * p:4 * p + 4]) == OK
        rdr.halt()
        break
    time.sleep_ms(100)
buf = bytearray(16)
st = rdr.read_tile(buf)
uid = ''.join('%02X' % b for b in rdr.uid[:rdr.uid_len])
front.coil(rank, OFF)
front.flush()
if ok and st == OK and bytes(buf) == data:
    print('VERIFIED uid', uid, 'terrain', tag.decode(buf), 'serial', tag.serial(buf))
else:
    print('FAILED write', ok, 'read', st, 'uid', uid)
"""


def parse_terrain(s):
    s = s.lower()
    if s in TERRAINS:
        return TERRAINS[s]
    if s.isdigit() and tag.WATER <= int(s) <= tag.AIR:
        return int(s)
    raise argparse.ArgumentTypeError("terrain: water, fire, earth, air or 1-4")


def parse_cell(s):
    s = s.lower()
    if len(s) == 2 and s[0] in "abcdefgh" and s[1] in "12345678":
        return (int(s[1]) - 1) * 8 + "abcdefgh".index(s[0])
    raise argparse.ArgumentTypeError("cell: a1 .. h8")


def pages(data):
    """The lines 'page N: XX XX XX XX' for 16 bytes from page 4."""
    return ["page %d: %s" % (tag.FIRST_PAGE + p,
                             " ".join("%02X" % b for b in data[4 * p:4 * p + 4]))
            for p in range(4)]


def script(data, cell):
    """The MicroPython program that writes `data` on the tag on `cell`."""
    return SCRIPT.format(data=bytes(data), cell=cell)


def add_arguments(ap):
    """The arguments of `vortex write-tag`."""
    ap.add_argument("terrain", type=parse_terrain, help="water, fire, earth, air (or w f e a, 1-4)")
    ap.add_argument("--serial", type=cli.int_in(0, 0xFFFF, "serial"), default=0,
                    help="the tile's serial, 0..65535 (tells identical tiles apart)")
    ap.add_argument("--write", action="store_true",
                    help="write through the board with mpremote")
    ap.add_argument("--cell", type=parse_cell, default=0,
                    help="the cell the tile lies on (default a1)")
    ap.add_argument("--port", type=cli.port, default="auto", help="mpremote connect target")
    ap.add_argument("--show-script", action="store_true", help="print the board-side script")


def run(a):
    """Print the pages (and the script, and write them); returns an exit code."""
    data = tag.encode(a.terrain, a.serial)
    name = ("-", "Water", "Fire", "Earth", "Air")[a.terrain]
    print("%s tile, serial %d, NTAG213 user memory:" % (name, a.serial))
    for line in pages(data):
        print("  " + line)
    if a.show_script:
        print(script(data, a.cell))
    if a.write:
        cmd = [cli.program("mpremote"), "connect", a.port, "resume", "exec", script(data, a.cell)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(out.stdout)
        sys.stderr.write(out.stderr)
        return 0 if "VERIFIED" in out.stdout else 1
    return 0
