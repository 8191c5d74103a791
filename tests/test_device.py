"""The firmware on an emulated Pico (tools/pico: the MicroPython rp2
firmware in rp2040js, the NFC front end modelled at its registers). make
uf2's file alone boots: main.py runs its loop on the real pins, says its
version, reads the tiles laid, a lifted piece lights its destinations in
the NeoPixel frame, the move put down is saved and is there again after a
reset. With its NFC readers not answering, main.py says so and plays on
with the game's tiles. The deploy tree written by the harness runs scripts
in the raw REPL. Skipped, with the reason, where node, rp2040js or the
firmware image is missing."""
import os
import re
import sys

import pytest

from mpy import ROOT
from needs_pico import needs_pico
from test_app_idle import BATTLE

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from host_sim import version  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.engine import Position, parse_cell, cell_name, new_buffer, MAX_DESTINATIONS  # noqa: E402
from vortex.hal.store import pack  # noqa: E402
from vortex.app import sounds  # noqa: E402
from vortex.app.board import SHORT_TABLE  # noqa: E402
import device_memory  # noqa: E402

pytestmark = needs_pico()


def tiles_of(pos):
    """The tags of a position's tiles, {cell: NTAG213 memory}."""
    return {c: pico.tile(pos.tiles[c], 1 + c) for c in range(64) if pos.tiles[c]}


def ask(dev, line, timeout=60):
    """A command to main.py's link on the USB serial; its answer's line."""
    start = len(dev.output)
    dev.write(line + "\n")
    answer = re.compile(r"^\d+ (ok|error) %s\b.*\n" % line.split()[0], re.M)  # a whole line
    assert dev.wait(lambda: answer.search(dev.output, start), timeout), dev.output[-500:]
    return answer.search(dev.output, start).group(0).split(" ", 1)[1].rstrip()


def test_the_uf2_boots_plays_and_resumes_its_game_after_a_reset(uf2_file, tmp_path):
    pos = Position(BATTLE)  # every piece at home, as on a new board
    occupied = [c for c in range(64) if pos.pieces[c]]
    tiles = tiles_of(pos)
    e2 = parse_cell("e2")
    buf = new_buffer(MAX_DESTINATIONS)
    dest = [buf[i] & 63 for i in range(pos.destinations(e2, buf))]  # moves: from << 6 | to
    to = next(c for c in dest if not pos.pieces[c])
    move = "e2" + cell_name(to)
    pos.push(pos.parse_action(move))
    after = [c for c in occupied if c != e2] + [to]
    release = version.current()
    flash = str(tmp_path / "flash.bin")
    with pico.Pico(firmware=uf2_file[0], deploy=False, reeds=occupied, tiles=tiles) as dev:
        assert dev.wait(lambda: len(dev.scans) >= 100, 120), dev.output[-500:]  # 100 ticks
        assert dev.output.startswith("Vortex firmware %s\r\n" % release), dev.output[:200]
        assert dev.frames, "main.py drew nothing: %r" % dev.output[-500:]
        assert ask(dev, "hello") == "ok hello vortex-link 2 firmware " + release
        assert ask(dev, "new " + BATTLE) == "ok new"
        ask(dev, "subscribe action")
        # The first sweep read, the board agreeing: no frame for half a second.
        assert dev.wait(lambda: dev.now - dev.frames[-1][0] > 500_000_000, 120), dev.output[-500:]
        assert "NFC reader" not in dev.output          # all eight answer
        # Boot and sweeps: no reader's field ever on into an open switch (nfc.mjs).
        assert dev.reader_stats()["overcurrent"] == [0] * 8
        shown = len(dev.frames)
        dev.set_reeds([c for c in occupied if c != e2])
        assert dev.wait(lambda: len(dev.frames) > shown, 60), dev.output[-500:]
        frame = dev.frames[shown][1]
        dev.set_reeds(after)  # put down: committed, then saved
        assert dev.wait(lambda: " action 1 %s\n" % move in dev.output, 60), dev.output[-500:]
        # ... nor while a lifted piece's cells were read first and the action came.
        assert dev.reader_stats()["overcurrent"] == [0] * 8
        dev.save_flash(flash)
        assert dev.watchdog is None
    lit = [c for c in range(64) if any(frame[3 * c:3 * c + 3])]
    assert e2 in lit and all(c in lit for c in dest), (lit, dest)
    assert frame[3 * e2:3 * e2 + 3] != frame[3 * to:3 * to + 3]  # from and to told apart
    with pico.Pico(firmware=flash, deploy=False, reeds=after, tiles=tiles) as dev:  # the power back
        assert ask(dev, "position", 120) == "ok position " + pos.text()
        assert dev.watchdog is None


def test_without_its_readers_main_says_so_and_plays_on_the_games_tiles():
    pos = Position(BATTLE)
    occupied = [c for c in range(64) if pos.pieces[c]]
    e2 = parse_cell("e2")
    buf = new_buffer(MAX_DESTINATIONS)
    dest = [buf[i] & 63 for i in range(pos.destinations(e2, buf))]
    game = pack(session.dump(session.Settings(), BATTLE, [], (0, 0)))
    with pico.Pico({"game.bin": game}, autorun=True, reeds=occupied, tiles=tiles_of(pos)) as dev:
        for r in range(8):
            dev.fault(reader=r, dead=True)
        assert dev.wait(lambda: len(dev.scans) >= 100, 120), dev.output[-500:]  # 100 ticks
        assert dev.wait(lambda: dev.frames, 60), "main.py drew nothing: %r" % dev.output[-500:]
        assert dev.wait(lambda: dev.now - dev.frames[-1][0] > 500_000_000, 120), dev.output[-500:]
        shown = len(dev.frames)
        dev.set_reeds([c for c in occupied if c != e2])
        assert dev.wait(lambda: len(dev.frames) > shown, 60), dev.output[-500:]
        frame = dev.frames[shown][1]
        assert dev.watchdog is None
    assert "NFC reader not answering (ranks 1, 2, 3, 4, 5, 6, 7, 8)" in dev.output
    lit = [c for c in range(64) if any(frame[3 * c:3 * c + 3])]
    assert e2 in lit and all(c in lit for c in dest), (lit, dest)


def test_scripts_run_in_the_raw_repl_and_flash_writes_persist():
    with pico.Pico({"game.bin": device_memory.GAME}) as dev:
        dev.repl()
        # Mounted again as rp2's _boot.py mounts it (progsize=256): with
        # VfsLfs2's default 32 the board's next save failed (OSError 28 or 36).
        r = dev.exec("import os, rp2\nwith open('/n.txt', 'w') as f:\n    f.write('kept' * 300)\n"
                     "os.umount('/')\nos.mount(os.VfsLfs2(rp2.Flash(), progsize=256), '/')\n"
                     "print(len(open('/n.txt').read()), 'main.py' in os.listdir('/lib'))\n"
                     "import vortex.engine")
        assert (r.status, r.output.split()) == (pico.OK, ["1200", "True"]), r
        r = dev.exec("1 // 0")
        assert r.status == pico.FAILED and "ZeroDivisionError" in r.error
        alloc, free = dev.heap()
        assert alloc > 0 and free > 100_000
        # A MemoryError forced into the AI's turn (tests/device_memory.py):
        # the tables given back, the action asked for all the same, said on
        # the link and with the memory sound.
        tones = len(dev.tones)
        before, short, after, level, asks, events, r = device_memory.forced(dev)
        assert (short, after, level) == (1, 512, 3) and before > after, r
        assert asks != "-" and events == [SHORT_TABLE % 512], r
        assert any(abs(hz - sounds.NOTES[sounds.MEMORY][0]) < 20 for _, hz, _ in dev.tones[tones:])
