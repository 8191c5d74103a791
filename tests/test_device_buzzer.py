"""The buzzer and the USB-C source on the emulated Pico (tools/pico: the
MicroPython rp2 firmware in rp2040js, which models the PWM slices and the
ADC): make uf2's file boots with a 1.5 A source's level on CC_SENSE and
budgets its LEDs to it, and an illegal move puts the firmware's tones on
the buzzer's pin, each for its time, at the soft volume's duty, then
silence. Skipped, with the reason, where the emulated Pico cannot run."""
import os
import sys

import pytest

from mpy import ROOT
from needs_pico import needs_pico
from test_app_idle import BATTLE
from test_device import ask, tiles_of

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
import power  # noqa: E402  (hardware/, on sys.path through tools/pico)
from vortex.app import sounds  # noqa: E402
from vortex.app.leds import MA_IDLE  # noqa: E402
from vortex.engine import Position, parse_cell  # noqa: E402
from vortex.hal.buzzer import VOLUME_DUTY  # noqa: E402

pytestmark = needs_pico()
MS = 1_000_000  # ns
PASS_MS = 40  # a tone may start up to a pass late; a pass with a frame to send is the longest



def test_the_pico_budgets_its_leds_to_the_source_and_sounds_an_illegal_move(uf2_file):
    pos = Position(BATTLE)
    occupied = [c for c in range(64) if pos.pieces[c]]
    e2, d3 = parse_cell("e2"), parse_cell("d3")  # e2 stands on Water: no diagonal step
    leds = power.LED_BUDGET_MA[power.SOURCE_1A5] + 64 * MA_IDLE
    cc = (power.CC_1A5_U16 + power.CC_3A0_U16) // 2  # a 1.5 A source's level, mid-band
    with pico.Pico(firmware=uf2_file[0], deploy=False, reeds=occupied, cc_u16=cc,
                   tiles=tiles_of(pos)) as dev:
        assert ask(dev, "power", 120) == "ok power source 1.5a leds %d budget %d" % (leds, leds)
        assert ask(dev, "new " + BATTLE) == "ok new"
        # After a new game the board counts no action until it agrees, its
        # readers having read every tile again (a sweep, then the settle time).
        for _ in range(100):
            if "verdict agree" in ask(dev, "status"):
                break
            scans = len(dev.scans)
            dev.wait(lambda: len(dev.scans) >= scans + 50, 60)
        else:
            raise AssertionError("the board never agreed: " + dev.output[-300:])
        t = dev.now  # ... and agreed with its sensors still, every tile read since
        dev.wait(lambda: dev.now > t + 2000 * MS, 120)
        assert dev.tones == []  # nothing happened: silent
        dev.set_reeds([c for c in occupied if c != e2] + [d3])
        assert dev.wait(lambda: dev.tones and dev.tones[-1][1] == 0, 120), dev.tones
        moved = dev.reeds_at
    notes = sounds.NOTES[sounds.ILLEGAL]
    want = [(notes[i], notes[i + 1]) for i in range(0, len(notes), 2)]
    tones = dev.tones
    assert len(tones) == len(want) + 1 and tones[-1][1] == 0, tones
    duty = VOLUME_DUTY[1] * 1000 // 65536  # soft: per mille
    for (t, hz, d), (t_next, _, _), (want_hz, ms) in zip(tones, tones[1:], want):
        assert abs(hz - want_hz) <= want_hz / 200, (hz, want_hz)  # the PWM's divider: 0.5 %
        assert abs(d - duty) <= 2, (d, duty)
        assert ms - PASS_MS <= (t_next - t) / MS <= ms + PASS_MS, (t_next - t, ms)
    # Judged once the reeds were still for the settle time, then at once.
    assert 0 < (tones[0][0] - moved) / MS < 1000, (tones[0][0] - moved) / MS
