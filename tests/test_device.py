"""The deploy tree on an emulated Pico (tools/pico: the MicroPython rp2
firmware in rp2040js, the NFC front end modelled at its registers): it
boots, main.py runs its loop on the real pins, reads the tiles laid, and a
lifted piece lights its destinations in the NeoPixel frame; with its NFC
readers not answering, main.py says so and goes on. Skipped, with the
reason, where node, rp2040js or the firmware image is missing."""
import os
import sys

import pytest

from mpy import ROOT
from test_app_idle import BATTLE

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.engine import Position, parse_cell, new_buffer, MAX_DESTINATIONS  # noqa: E402
from vortex.hal.store import pack  # noqa: E402

WHY = pico.missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="no emulated Pico: %s" % WHY)


def tiles_of(pos):
    """The tags of a position's tiles, {cell: NTAG213 memory}."""
    return {c: pico.tile(pos.tiles[c], 1 + c) for c in range(64) if pos.tiles[c]}


def lift_e2(dead_readers=()):
    """main.py on BATTLE with its tiles laid: the frame once e2 is lifted,
    the destinations e2 has, and the device."""
    pos = Position(BATTLE)
    occupied = [c for c in range(64) if pos.pieces[c]]
    e2 = parse_cell("e2")
    buf = new_buffer(MAX_DESTINATIONS)
    dest = [buf[i] & 63 for i in range(pos.destinations(e2, buf))]  # moves: from << 6 | to
    game = pack(session.dump(session.Settings(), BATTLE, [], (0, 0)))
    with pico.Pico({"game.bin": game}, autorun=True, reeds=occupied, tiles=tiles_of(pos)) as dev:
        for r in dead_readers:
            dev.fault(reader=r, dead=True)
        assert dev.wait(lambda: len(dev.scans) >= 100, 120), dev.output[-500:]  # 100 ticks
        assert dev.wait(lambda: dev.frames, 60), "main.py drew nothing: %r" % dev.output[-500:]
        # The first sweep read, the board agreeing: no frame for half a second.
        assert dev.wait(lambda: dev.now - dev.frames[-1][0] > 500_000_000, 120), dev.output[-500:]
        shown = len(dev.frames)
        dev.set_reeds([c for c in occupied if c != e2])
        assert dev.wait(lambda: len(dev.frames) > shown, 60), dev.output[-500:]
        frame = dev.frames[shown][1]
    assert dev.watchdog is None
    return frame, e2, dest, dev


def test_main_boots_reads_the_tiles_and_lights_a_lifted_pieces_destinations():
    frame, e2, dest, dev = lift_e2()
    assert "NFC reader" not in dev.output          # all eight answer
    lit = [c for c in range(64) if any(frame[3 * c:3 * c + 3])]
    assert e2 in lit and all(c in lit for c in dest), (lit, dest)
    assert frame[3 * e2:3 * e2 + 3] != frame[3 * dest[0]:3 * dest[0] + 3]  # from and to told apart


def test_without_its_readers_main_says_so_and_plays_on_the_games_tiles():
    frame, e2, dest, dev = lift_e2(dead_readers=range(8))
    assert "NFC reader not answering (ranks 1, 2, 3, 4, 5, 6, 7, 8)" in dev.output
    lit = [c for c in range(64) if any(frame[3 * c:3 * c + 3])]
    assert e2 in lit and all(c in lit for c in dest), (lit, dest)


def test_scripts_run_in_the_raw_repl_and_flash_writes_persist():
    with pico.Pico() as dev:
        dev.repl()
        r = dev.exec("import os, rp2\nwith open('/n.txt', 'w') as f:\n    f.write('kept' * 300)\n"
                     "os.umount('/')\nos.mount(os.VfsLfs2(rp2.Flash()), '/')\n"
                     "print(len(open('/n.txt').read()), 'main.py' in os.listdir('/lib'))\n"
                     "import vortex.engine")
        assert (r.status, r.output.split()) == (pico.OK, ["1200", "True"]), r
        r = dev.exec("1 // 0")
        assert r.status == pico.FAILED and "ZeroDivisionError" in r.error
        alloc, free = dev.heap()
        assert alloc > 0 and free > 100_000
