"""firmware/main.py under the MicroPython unix port with faked `machine` and
`neopixel` modules (tests/fakehw): the wiring runs, the loop feeds the
watchdog, draws the LEDs and saves the game."""
import os
import subprocess

from mpy import ROOT, micropython

SCRIPT = """
import sys
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
import gc, main
main.SAVE = %(save)r
board = main.run(300)
import machine, neopixel
print("fed", machine.WDT.made[0].fed, "frames", neopixel.NeoPixel.made[0].writes)
print("lit", sum(neopixel.NeoPixel.made[0].buf))
print("stack", len(board.pos.stack), "building", board.pos.is_building())
gc.collect()
print("heap", gc.mem_alloc())
"""


def test_main_loop_runs_on_faked_hardware(tmp_path):
    save = str(tmp_path / "game.bin")
    code = SCRIPT % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                     "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware",
                     "save": save}
    p = subprocess.run([micropython(), "-X", "heapsize=256K", "-c", code], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "fed 300 " in p.stdout  # every tick
    assert "frames 0" not in p.stdout and "lit 0" not in p.stdout  # the LEDs were drawn
    assert "stack 0 building True" in p.stdout
    assert os.path.exists(save)  # the new game was saved
