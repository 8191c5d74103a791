"""vortex write-tag (host_sim/write_tag.py), and the tag codes against the engine's (CPython).

The program write_tag sends to the board is run here under the MicroPython
unix port, against the fake front end, MFRC522s and NTAG213 of hal_fake_front
and hal_fake_rc522 behind a fake `machine` module: it must write the tag and
read it back."""
import os
import subprocess
import sys

import pytest

from host_sim import cli, write_tag
from host_sim.__main__ import main as host_main
from vortex import tag
from vortex.engine import defs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")


def test_reading_codes_are_the_engines_terrains():
    assert (tag.NO_TILE, tag.WATER, tag.FIRE, tag.EARTH, tag.AIR) == (
        defs.NO_TILE, defs.WATER, defs.FIRE, defs.EARTH, defs.AIR)


def test_prints_the_pages(capsys):
    assert host_main(["write-tag", "fire", "--serial", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Fire tile, serial 7, NTAG213 user memory:"
    assert out[1:] == ["  page 4: FD 0C 56 58", "  page 5: 01 02 07 00",
                       "  page 6: 00 00 00 00", "  page 7: 00 D9 FE 00"]
    data = bytes.fromhex("".join(l.split(":")[1] for l in out[1:]))
    assert tag.decode(data) == tag.FIRE and tag.serial(data) == 7


def test_writing_stops_the_game_without_a_soft_reset(tmp_path, monkeypatch, capsys):
    # A soft reset would end the timer that feeds main.py's watchdog once stopped.
    fake = tmp_path / "mpremote"
    fake.write_text('#!/bin/sh\necho "$1 $2 $3 $4"\necho VERIFIED\n')
    fake.chmod(0o755)
    monkeypatch.setattr(cli, "program", lambda name: str(fake))
    assert host_main(["write-tag", "fire", "--write", "--port", "/dev/ttyACM0"]) == 0
    assert "connect /dev/ttyACM0 resume exec\n" in capsys.readouterr().out


def test_names_and_cells():
    assert write_tag.parse_terrain("Water") == tag.WATER
    assert write_tag.parse_terrain("a") == tag.AIR
    assert write_tag.parse_terrain("3") == tag.EARTH
    assert write_tag.parse_cell("a1") == 0 and write_tag.parse_cell("e4") == 28
    assert write_tag.parse_cell("H8") == 63
    with pytest.raises(SystemExit):
        host_main(["write-tag", "lava"])
    with pytest.raises(SystemExit):
        host_main(["write-tag", "fire", "--cell", "i9"])


RUNNER = """
import sys
sys.path.insert(0, ROOT + '/firmware')
sys.path.insert(0, ROOT + '/tests')
sys.path.insert(0, ROOT + '/hardware')
import binascii
import pins
from hal_fakes import FakePin
from hal_fake_rc522 import FakeNtag, FakeRC522
from hal_fake_front import FakeBus
chips = [FakeRC522() for _ in range(8)]
chips[CELL >> 3].tags[CELL & 7] = FakeNtag()
bus = FakeBus(chips)
coils = []
apply = bus._apply

def seen():
    apply()
    coils.append(bus.coil(CELL >> 3))
bus._apply = seen

class Pins:
    OUT = FakePin.OUT

    def __call__(self, n, *a, **k):
        if n == pins.NFC_STROBE:
            return bus.strobe
        if n == pins.NFC_LATCH:
            return bus.latch
        return FakePin()

class machine:
    pass
machine.Pin = Pins()
machine.SPI = lambda *a, **k: bus
sys.modules['machine'] = machine
exec(open(SCRIPT).read())
print('MEM', binascii.hexlify(bytes(chips[CELL >> 3].tags[CELL & 7].mem[16:32])).decode())
print('COILS', coils[0], coils[-2], coils[-1])
print('OTHERS', sum(c.transfers for i, c in enumerate(chips) if i != CELL >> 3))
"""


def test_board_script_writes_and_verifies_under_micropython(tmp_path):
    if not os.path.exists(MICROPYTHON):
        pytest.skip("no MicroPython unix port in .venv")
    data = tag.encode(tag.EARTH, 513)
    script = tmp_path / "script.py"
    script.write_text(write_tag.script(data, 28))
    runner = tmp_path / "runner.py"
    runner.write_text("ROOT = %r\nSCRIPT = %r\nCELL = 28\n" % (ROOT, str(script)) + RUNNER)
    out = subprocess.run([MICROPYTHON, str(runner)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("VERIFIED uid 04112233445566 terrain 3 serial 513"), out.stdout
    assert lines[1] == "MEM " + data.hex()
    # e4 is rank 3's coil 4: none at first, coil 4 while writing, none after.
    assert lines[2] == "COILS -1 4 -1"
    assert lines[3] == "OTHERS 0"          # no other reader addressed
