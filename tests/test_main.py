"""firmware/main.py under the MicroPython unix port with faked `machine` and
`neopixel` modules (tests/fakehw): the wiring runs, the loop feeds the
watchdog, draws the LEDs and saves the game."""
import os
import subprocess

from mpy import ROOT, micropython

SCRIPT = """
import sys
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
import gc, main, machine
machine.SPI.reader = %(reader)r
machine.ADC.u16 = %(cc)r
main.SAVE = %(save)r
board = main.run(300)
print("supply", board.supply, board.supply_ma, "read on", machine.ADC.made[0].pin.name)
bz = machine.PWM.made[0]
print("buzzer on", bz.pin.name, "duty", bz.duty)
print("transfers", machine.SPI.made[0].transfers())
import neopixel
print("fed", machine.WDT.made[0].fed, "frames", neopixel.NeoPixel.made[0].writes)
print("lit", sum(neopixel.NeoPixel.made[0].buf))
print("stack", len(board.pos.stack), "building", board.pos.is_building())
gc.collect()
print("heap", gc.mem_alloc())
"""


def run_main(tmp_path, reader=True, cc=0):
    save = str(tmp_path / "game.bin")
    code = SCRIPT % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                     "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware",
                     "save": save, "reader": reader, "cc": cc}
    # 480 KB: main's imports, the host link's and the sounds' included, compiled from
    # source here (the board loads them as .mpy, which needs far less), and eight
    # readers with their fakes.
    p = subprocess.run([micropython(), "-X", "heapsize=480K", "-c", code], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return p, save


def test_main_loop_runs_on_faked_hardware(tmp_path):
    p, save = run_main(tmp_path)
    assert "NFC reader" not in p.stdout
    assert "fed 300 " in p.stdout  # every tick
    assert "frames 0" not in p.stdout and "lit 0" not in p.stdout  # the LEDs were drawn
    assert "stack 0 building True" in p.stdout
    assert os.path.exists(save)  # the new game was saved


def test_the_leds_are_budgeted_to_what_the_usb_c_source_offers(tmp_path):
    import host_sim  # noqa: F401  (hardware/ on sys.path)
    import pins
    import power
    from vortex.app.leds import MA_IDLE
    # A 3 A source's CC level (above its threshold), and nothing on CC at
    # all (a legacy cable: default USB).
    for cc, source in ((power.CC_3A0_U16 + 4000, power.SOURCE_3A0), (0, power.SOURCE_NONE)):
        p, _ = run_main(tmp_path, cc=cc)
        want = power.LED_BUDGET_MA[source] + 64 * MA_IDLE
        assert "supply %d %d read on GP%d" % (source, want, pins.CC_SENSE) in p.stdout, p.stdout
        assert "buzzer on GP%d duty 0" % pins.BUZZER in p.stdout  # silent: nothing happened


def test_without_a_reader_the_loop_says_so_and_spends_nothing_on_it(tmp_path):
    p, save = run_main(tmp_path, reader=False)
    assert p.stdout.count("NFC reader not answering") == 1, p.stdout
    assert "fed 300 " in p.stdout and "frames 0" not in p.stdout
    transfers = int(p.stdout.split("transfers ")[1].split()[0])
    # Eight readers: set-up, one failed read, then a version read a second
    # at most: not a poll limit spun through on every tick.
    assert transfers < 8 * 12, transfers
    assert os.path.exists(save)


STOPPED = """
import sys
sys.path[:0] = [%(fake)r, %(tests)r, %(hardware)r, %(firmware)r]
import main, machine
main.SAVE = %(save)r
steps = [0]
def step(self, *args):
    steps[0] += 1
    if steps[0] == 20:
        raise KeyboardInterrupt  # mpremote's Ctrl-C
    return False
main.Board.step = step
try:
    main.run(100)
except KeyboardInterrupt:
    print("interrupted")
wdt = machine.WDT.made[0]
fed = wdt.fed
timer = machine.Timer.made[0]
for _ in range(10):
    timer.fire()
print("period", timer.period, "timeout", wdt.timeout, "fed by timer", wdt.fed - fed)
"""


def test_stopped_from_a_computer_the_watchdog_is_fed_by_a_timer(tmp_path):
    # The RP2040's watchdog cannot be stopped: after Ctrl-C (mpremote,
    # tools/deploy.py) a timer feeds it, so the REPL and a deploy outlive it.
    code = STOPPED % {"fake": ROOT + "/tests/fakehw", "tests": ROOT + "/tests",
                      "hardware": ROOT + "/hardware", "firmware": ROOT + "/firmware",
                      "save": str(tmp_path / "game.bin")}
    p = subprocess.run([micropython(), "-X", "heapsize=480K", "-c", code], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "interrupted" in p.stdout
    words = p.stdout.split("period ")[1].split()
    period, timeout, fed = int(words[0]), int(words[2]), int(words[-1])
    assert period * 2 < timeout and fed == 10, p.stdout
