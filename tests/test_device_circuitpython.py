"""The firmware on CircuitPython 10.2.1 on the emulated Pico (tools/pico,
runtime="circuitpython"): the CircuitPython deploy tree (the plain sources
compiled to CircuitPython .mpy, boot.py, main.py as code.py,
adafruit-circuitpython-neopixel in /lib, compiled too) on a
FAT image of CIRCUITPY. One boot: main.py's loop runs on keypad, busio and
the neopixel library; the NFC front end's driver, plain Python there,
reads the 64 tiles laid (the emulator's modelled readers); a lifted piece lights its destinations; the move put
down is saved in the flash (read back from a dump of it, as a computer
reads the drive); after a reload (Ctrl-C, Ctrl-D) the game resumes with
it; the host link answers on the USB serial; the NFC bus adapter drives
the real busio.SPI. The board's AI plays Dark, so its search (plain
Python there, deeper in the Python stack than CircuitPython gives by
default: settings.toml; its tables as small as leave the game its heap)
runs under the loop, and the board has room for it. Skipped, with the reason,
where the emulator, the image or a set-up part is missing."""
import os
import re
import sys

import pytest

from mpy import ROOT
from needs_pico import needs_pico
from test_app_idle import BATTLE
from hal_fake_fs import MemFS

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.app.board import NO_SEARCH  # noqa: E402
from vortex.engine import Position, parse_cell, new_buffer, MAX_DESTINATIONS  # noqa: E402
from vortex.engine.codes import move_to  # noqa: E402
from vortex.engine.defs import DARK  # noqa: E402
from vortex.engine.notation import action_text  # noqa: E402
from vortex.hal.store import FileStore, pack  # noqa: E402
from vortex.app import sounds  # noqa: E402
from vortex.app.board import SHORT_TABLE  # noqa: E402
import device_memory  # noqa: E402

pytestmark = needs_pico("circuitpython")

STATUS = re.compile(r"\d+ ok status side (\w+) actions (\d+) verdict \w+ asks (\S+)")
# Through the adapter: a reed row driven high shows a closed reed on its
# column (the harness's matrix); a pin pulled up reads 1; the SPI transfers
# of the MFRC522 driver (the strobe high, no reader addressed: MISO is the
# 595 chain's return, pins.NFC_CHAIN_RETURN, the bytes shifted in 9 earlier).
ADAPTER = """
import busio, microcontroller, digitalio, pins
from vortex.hal.cp.bus import SPIBus, Pin
gp = lambda n: getattr(microcontroller.pin, "GPIO%%d" %% n)
row = Pin(digitalio.DigitalInOut(gp(pins.REED_ROWS[%(rank)d])))
col = Pin(digitalio.DigitalInOut(gp(pins.REED_COLS[%(file)d])), Pin.IN, Pin.PULL_DOWN)
row.init(row.OUT, value=1)
seen = [col.value()]
row.value(0)
seen.append(col.value())
row(1)
seen.append(col())
a = Pin(digitalio.DigitalInOut(gp(pins.BUTTON_A)), Pin.IN, Pin.PULL_UP)
seen.append(a.value())
spi = SPIBus(busio.SPI(gp(pins.NFC_SCK), MOSI=gp(pins.NFC_MOSI), MISO=gp(pins.NFC_MISO)),
             pins.NFC_BAUD)
out = bytearray(b"\\xee\\x00")
into = bytearray(b"\\x55\\x55")
spi.write(b"\\x12\\x34\\x56\\x78\\x9a\\xbc\\xde\\xf0\\x11")   # the 595 chain's 9 bytes
spi.write_readinto(memoryview(out)[:2], memoryview(into)[:2])
more = bytearray(b"\\x55\\x55\\x55")
spi.readinto(more, 0xff)
print("adapter", seen, list(into), list(more))
spi.deinit()
for pin in (row, col, a):
    pin._d.deinit()  # (the pins free for main.run's parts next)
"""


def status(dev, timeout=120):
    """Ask the board's link for its status: (side, actions, the action it asks for)."""
    start = len(dev.output)
    dev.write("\r\nstatus\r\n")
    assert dev.wait(lambda: STATUS.search(dev.output, start), timeout), dev.output[-500:]
    side, actions, asks = STATUS.search(dev.output, start).groups()
    return side, int(actions), asks


def answered(dev, timeout=240):
    """The board's status once its AI has chosen (asks for) an action."""
    end = dev.now + 60_000_000_000
    while dev.now < end:
        got = status(dev, timeout)
        if got[2] != "-":
            return got
        t = dev.now
        assert dev.wait(lambda: dev.now > t + 500_000_000, timeout), dev.output[-500:]
    raise AssertionError("the AI did not answer in a minute: %r" % dev.output[-500:])


def test_the_board_on_circuitpython():
    pos = Position(BATTLE)
    occupied = [c for c in range(64) if pos.pieces[c]]
    e2 = parse_cell("e2")
    buf = new_buffer(MAX_DESTINATIONS)
    moves = [buf[i] for i in range(pos.destinations(e2, buf))]
    dest = [move_to(m) for m in moves]
    quiet = next(m for m in moves if not pos.pieces[move_to(m)])
    to = move_to(quiet)
    game = pack(session.dump(session.Settings(ai_side=DARK), BATTLE, [], (0, 0)))
    tiles = {c: pico.tile(pos.tiles[c], 1 + c) for c in range(64) if pos.tiles[c]}
    # A board with the chain's return line (chain_return): the chain read
    # back after every latch runs on CircuitPython too.
    with pico.Pico({"game.bin": game}, autorun=True, reeds=occupied, tiles=tiles,
                   runtime="circuitpython", chain_return=True) as dev:
        # The saved game resumes, the loop scans (keypad, in the background),
        # reads the tiles (all eight readers answer) and draws.
        assert dev.wait(lambda: dev.frames and len(dev.scans) >= 100, 240), dev.output[-500:]
        # Each cell read three times: tiles.CONFIRM (2) reads in a row
        # confirm a tile, and a cell's first read may come before its tag is
        # up. Lifted before the board has agreed once, a piece would leave it
        # restoring (sensing.restoring): the lift would read as a disagreement.
        read = [0] * 64
        while min(read) < 3:
            t = dev.now
            assert dev.wait(lambda: dev.now > t + 200_000_000, 240), dev.output[-500:]
            stats = dev.reader_stats()
            read = [a + b for a, b in zip(read, stats["wakes"])]
            # No reader's field ever on into its rank's open switch (nfc.mjs).
            assert stats["overcurrent"] == [0] * 8, stats["overcurrent"]
        sweeps = dev.now
        assert dev.wait(lambda: dev.now - dev.frames[-1][0] > 500_000_000, 240), dev.output[-500:]
        assert status(dev) == ("light", 0, "-")
        assert "NFC reader" not in dev.output
        # Its firmware loaded as .mpy (tools/build_mpy.py): room for the AI's search.
        assert NO_SEARCH not in dev.output, dev.output[-500:]
        # A piece lifted: its destinations on the LEDs, through the library.
        shown = len(dev.frames)
        dev.set_reeds([c for c in occupied if c != e2])

        def lit(frame):
            return [c for c in range(64) if any(frame[3 * c:3 * c + 3])]

        def destinations_shown():
            return any(e2 in lit(f) and all(c in lit(f) for c in dest) for _, f in dev.frames[shown:])
        assert dev.wait(destinations_shown, 60), ([lit(f) for _, f in dev.frames[shown:]], dest,
                                                  dev.output[-600:])
        # Put down: the move is played and saved on CIRCUITPY.
        dev.set_reeds([c for c in occupied if c != e2] + [to])
        assert dev.wait(lambda: dev.reeds_at is not None, 60)
        side, actions, asks = answered(dev)  # the AI thought and chose Dark's answer
        after = Position(BATTLE)
        after.push(quiet)
        assert (side, actions) == ("dark", 1)
        assert asks in [action_text(a) for a in after.legal_actions()], asks
        saved = MemFS()
        saved.files = pico.fat_files(dev.flash())
        store = FileStore("/game.bin", fs=saved)
        _, _, resumed, _ = session.load(store.load(), store.records())
        assert [action_text(a) for a in resumed.stack] == [action_text(quiet)]
        # Ctrl-C stops code.py (its watchdog with it); Ctrl-D reloads it,
        # and the game resumes from the flash with the move.
        dev.write("\x03")
        assert dev.wait(lambda: "Use CTRL-D to reload" in dev.output, 60), dev.output[-500:]
        dev.write("\x04")
        assert dev.wait(lambda: dev.output.count("Vortex firmware") == 2, 240), dev.output[-500:]
        assert status(dev)[:2] == ("dark", 1)
        # The NFC bus adapter on the real busio.SPI and digitalio pin.
        dev.repl()
        closed = occupied[0]
        r = dev.exec(ADAPTER % {"rank": closed >> 3, "file": closed & 7})
        assert dev.watchdog is None
        # A MemoryError forced into the AI's turn (tests/device_memory.py) on
        # the saved game, Dark to act: the tables given back (the smallest
        # already: then no search, the quick mover), the action asked for
        # all the same, said on the link and with the memory sound.
        tones = len(dev.tones)
        forced = device_memory.forced(dev, "code")
    print("CircuitPython: the first two sweeps of the 64 tiles in %.1f s of device time"
          % (sweeps / 1e9))
    assert r.status == pico.OK, r
    # No reader on the bus: MISO reads the chain's return, what was shifted in.
    assert r.output.split() == ["adapter", "[1,", "0,", "1,", "1]", "[18,", "52]", "[86,", "120,",
                                "154]"], r
    before, short, after, level, asks, events, rf = forced
    assert short == 1 and asks != "-", rf
    if before > 512:
        assert (after, level, events) == (512, 3, [SHORT_TABLE % 512]), rf
    else:
        assert (after, level, events) == (0, 0, [NO_SEARCH]), rf
    # CircuitPython's PWMOut sets a frequency less finely than MicroPython's
    # (1760 Hz comes out 1795 on its pin: 2 % sharp), so within 3 %: no
    # other sound starts within 10 % of the memory sound's first note.
    want = sounds.NOTES[sounds.MEMORY][0]
    assert any(abs(hz - want) * 100 <= 3 * want for _, hz, _ in dev.tones[tones:]), dev.tones[tones:]
