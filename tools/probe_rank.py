#!/usr/bin/env python3
"""Probe the rank boards of a prototype: the bus first, then what each
board's NFC reader and reed switches do, cell by cell (the prototype plan:
two rank boards on the controller, real tiles, pieces with their magnets at
the real height; hardware/prototype-plan.md).

    python3 tools/probe_rank.py --ranks 1,2 --reads 20 --port /dev/ttyACM0

The bus: MISO read with every reader deselected (the strobe high: no
reader's MISO buffer may drive it, so it reads 0x00; on a board with the
595 chain's return, pins.NFC_CHAIN_RETURN, that drives it: 64 bytes shifted
in must come back as the 9 bytes the chain holds, then the first 55 of
themselves), then each reader's
version register read `reads` x 8 times at the firmware's SPI clock (a
read that differs from the first is an error). Then, for each of a rank's
8 cells, it switches the reader to that cell's coil, lets the tag power up,
reads the tile `reads` times (each read in full: wake-up, anticollision,
select, READ; no cache) and scans the reeds between reads, and prints:

    bus: MISO with no reader selected 0 of 64 bytes set
    rank 1: version 0x92, 0 errors in 160 reads at 4.0 MHz
    a1  reads 20/20 ok  3.9 ms a read  tag 04565800018001 Water #1  cross-talk -  reed closed 100%

read success (a read that gives a tile of ours), the mean time of a read,
the tag that answers most there, cross-talk (reads there that gave the tag
of another cell of the rank: its coil reached that tile; "b1 3" = 3 reads
of b1's tag) and the share of reed scans with that cell's switch closed. A
summary line per rank follows. It runs on the board through mpremote (it
comes with `pip install .` and make's .venv), as `vortex write-tag` does:
    mpremote connect PORT resume exec "<program>"
which stops the game without a soft reset (main.py then keeps its watchdog
fed, as for make flash); the board needs the firmware (make uf2 or make
flash); reset it when done. --show-script prints the board's program instead.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from host_sim import cli  # noqa: E402  (and firmware/ on sys.path)

# The board's program: plain prints, "PROBE" lines the host reads back.
SCRIPT = """\
import sys, time
from machine import Pin, SPI
import pins
from vortex import tag
from vortex.hal.frontend import FrontEnd, OFF
from vortex.hal.mfrc522 import MFRC522, OK, NOTAG
from vortex.hal.reed import ReedMatrix, sio_columns
RANKS = {ranks}
READS = {reads}
spi = SPI(pins.NFC_SPI, baudrate=pins.NFC_BAUD, sck=Pin(pins.NFC_SCK),
          mosi=Pin(pins.NFC_MOSI), miso=Pin(pins.NFC_MISO))
strobe = Pin(pins.NFC_STROBE, Pin.OUT)
latch = Pin(pins.NFC_LATCH, Pin.OUT)
if sys.platform == 'rp2':
    from vortex.hal.rp2nfc import Rp2FrontEnd
    front = Rp2FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_SPI,
                        pins.NFC_STROBE, pins.NFC_LATCH, pins.NFC_CHAIN_RETURN)
else:
    front = FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_CHAIN_RETURN)
front.reset()
# MISO with every reader deselected (the strobe is high between
# transactions): the chain's return, what it holds, then what went in.
idle = bytearray(64)
want = bytes(front.image[:9]) + b'\\xee' * 55
spi.write_readinto(b'\\xee' * 64, idle)
if pins.NFC_CHAIN_RETURN:
    print('PROBE chain', sum(1 for i in range(64) if idle[i] != want[i]), len(idle))
else:                          # no return line: nothing may drive MISO
    print('PROBE idle', sum(1 for b in idle if b), len(idle))
front.select(RANKS[0])         # the chain rewritten: those bytes shifted through it
reeds = ReedMatrix([Pin(n) for n in pins.REED_ROWS], [Pin(n) for n in pins.REED_COLS],
                   pins.DEBOUNCE_MS, sio_columns(pins.REED_COLS))
buf = bytearray(16)
for rank in RANKS:
    rdr = MFRC522(front, rank)
    if not rdr.present:
        print('PROBE noreader', rank)
        continue
    first = rdr.version()
    errors = 0
    for i in range(READS * 8):
        if rdr.version() != first:
            errors += 1
    print('PROBE bus', rank, first, errors, READS * 8, pins.NFC_BAUD)
    seen = []      # per file: uid (hex) -> [reads, terrain, serial]
    stats = []     # per file: (ok reads, us, reed closed, scans)
    for f in range(8):
        front.coil(rank, f)
        front.flush()
        time.sleep_ms(6)           # the tag powers up (ISO/IEC 14443-3: within 5 ms)
        tags = {{}}
        ok = us = closed = 0
        for i in range(READS):
            t0 = time.ticks_us()
            st = rdr.read_tile(buf)
            us += time.ticks_diff(time.ticks_us(), t0)
            if st == OK:
                uid = ''.join('%02X' % b for b in rdr.uid[:rdr.uid_len])
                t = tag.decode(buf)
                e = tags.setdefault(uid, [0, t, tag.serial(buf)])
                e[0] += 1
                if t != tag.UNKNOWN:
                    ok += 1
            reeds.read_raw()
            closed += reeds.raw[rank * 8 + f]
        seen.append(tags)
        stats.append((ok, us, closed))
    front.coil(rank, OFF)
    front.flush()
    owner = {{}}      # each tag: the cell where it answers most (its own)
    for f in range(8):
        for uid in seen[f]:
            g = owner.get(uid)
            if g is None or seen[f][uid][0] > seen[g][uid][0]:
                owner[uid] = f
    for f in range(8):
        ok, us, closed = stats[f]
        tags = seen[f]
        u = None
        for uid in tags:
            if owner[uid] == f and (u is None or tags[uid][0] > tags[u][0]):
                u = uid
        terrain, serial = (tags[u][1], tags[u][2]) if u else (0, -1)
        cross = ['%d:%d' % (owner[uid], tags[uid][0]) for uid in tags if owner[uid] != f]
        print('PROBE cell', rank, f, ok, READS, us // READS, u or '-', terrain, serial,
              ','.join(cross) or '-', closed)
"""

TERRAINS = ("-", "Water", "Fire", "Earth", "Air", "unknown")
FILES = "abcdefgh"


def script(ranks, reads):
    """The board's program for ranks (0-7 each), reads per cell."""
    return SCRIPT.format(ranks=tuple(ranks), reads=reads)


def _cells(rows, rank, reads):
    out = []
    total_ok = total_us = 0
    for r in rows:
        f, ok, n, us, uid, terrain, serial, cross, closed = (
            int(r[3]), int(r[4]), int(r[5]), int(r[6]), r[7], int(r[8]), int(r[9]), r[10], int(r[11]))
        name = "%s%d" % (FILES[f], rank + 1)
        what = "no tag" if uid == "-" else "%s %s #%d" % (uid, TERRAINS[terrain], serial) \
            if serial >= 0 else "%s not a tile of ours" % uid
        talk = "-" if cross == "-" else ", ".join(
            "%s%d %s" % (FILES[int(g)], rank + 1, k) for g, k in (x.split(":") for x in cross.split(",")))
        out.append("%s  reads %d/%d ok  %.1f ms a read  tag %s  cross-talk %s  reed closed %d%%"
                   % (name, ok, n, us / 1000, what, talk, 100 * closed // max(n, 1)))
        total_ok += ok
        total_us += us
    out.append("rank %d: %d of %d reads ok (%d%%), %.1f ms a read on average"
               % (rank + 1, total_ok, len(rows) * reads, 100 * total_ok // max(len(rows) * reads, 1),
                  total_us / len(rows) / 1000))
    return out


def report(lines, ranks, reads):
    """The program's PROBE lines as the table a person reads; None if there
    are none (the board said something else)."""
    rows = [line.split() for line in lines if line.startswith("PROBE")]
    if not rows:
        return None
    out = []
    for r in rows:
        if r[1] == "idle":
            out.append("bus: MISO with no reader selected %s of %s bytes set%s"
                       % (r[2], r[3], "" if r[2] == "0" else " (a MISO buffer drives the bus: check each "
                                                              "74LVC1G125's enable)"))
        if r[1] == "chain":
            out.append("bus: the chain's return on MISO, no reader selected: %s of %s bytes wrong%s"
                       % (r[2], r[3], "" if r[2] == "0" else
                          " (check CHAIN_RET, the last board's loop-back and the 74LVC1G126; or a "
                          "MISO buffer drives the bus: each 74LVC1G125's enable)"))
    for rank in ranks:
        mine = [r for r in rows if r[1] in ("bus", "cell", "noreader") and int(r[2]) == rank]
        if any(r[1] == "noreader" for r in mine):
            out.append("rank %d: its NFC reader does not answer (check its wiring, its select line "
                       "and NRSTPD)" % (rank + 1))
            continue
        for r in mine:
            if r[1] == "bus":
                out.append("rank %d: version 0x%02X, %s errors in %s reads at %.1f MHz"
                           % (rank + 1, int(r[3]), r[4], r[5], int(r[6]) / 1e6))
        cells = [r for r in mine if r[1] == "cell"]
        if cells:
            out += _cells(cells, rank, reads)
    return out


def _ranks(text):
    """--ranks: "1,2" -> (0, 1); each 1-8, no repeats."""
    try:
        ranks = tuple(int(x) - 1 for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("ranks: numbers 1-8 separated by commas, e.g. 1,2")
    if not ranks or any(not 0 <= r < 8 for r in ranks) or len(set(ranks)) != len(ranks):
        raise argparse.ArgumentTypeError("ranks: numbers 1-8 separated by commas, each once")
    return ranks


def main(argv=None):
    ap = cli.parser("python3 tools/probe_rank.py", __doc__)
    ap.add_argument("--ranks", type=_ranks, default=(0, 1),
                    help="the ranks to probe, 1-8, comma-separated (default 1,2: the prototype's two boards)")
    ap.add_argument("--reads", type=cli.int_in(1, 1000, "reads"), default=20,
                    help="reads per cell (default 20)")
    ap.add_argument("--port", type=cli.port, default="auto", help="mpremote connect target")
    ap.add_argument("--show-script", action="store_true", help="print the board's program")
    a = ap.parse_args(argv)
    code = script(a.ranks, a.reads)
    if a.show_script:
        print(code)
        return 0
    cmd = [cli.program("mpremote"), "connect", a.port, "resume", "exec", code]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = report(p.stdout.splitlines(), a.ranks, a.reads)
    if p.returncode or lines is None:
        why = (p.stderr.strip().splitlines() or p.stdout.strip().splitlines() or ["no answer"])[-1]
        print("probe_rank: %s" % why, file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    cli.run(main)
