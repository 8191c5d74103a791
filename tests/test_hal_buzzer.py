"""The buzzer's player (vortex.hal.buzzer) and the CC line's reader
(vortex.hal.supply) on fake PWM and ADC. Runs under MicroPython too."""
import gc

from vortex.hal.buzzer import Buzzer, VOLUME_DUTY
from vortex.hal.supply import CCSense
from vortex.ticks import ticks_add

# Sound 1: a tone, a rest, a tone; sound 2: one long tone.
SONGS = ((), (1000, 100, 0, 50, 2000, 100), (3000, 400))


class FakePWM:
    """machine.PWM's freq() and duty_u16(): each call kept, in order."""

    def __init__(self):
        self.calls = []
        self.hz = 0
        self.duty = 0

    def freq(self, hz):
        self.hz = hz
        self.calls.append(("freq", hz))

    def duty_u16(self, duty):
        self.duty = duty
        self.calls.append(("duty", duty))

    def sounding(self):
        return self.hz if self.duty else 0


def test_a_sound_plays_its_tones_from_the_clock_of_the_passes():
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    assert pwm.duty == 0 and not bz.playing  # silent from the start
    bz.play(1, 2, 1000)
    assert (pwm.sounding(), pwm.duty, bz.playing) == (1000, VOLUME_DUTY[2], 1)
    heard = []
    for now in range(1000, 1400, 5):  # a pass every 5 ms
        bz.tick(now)
        heard.append((now, pwm.sounding()))
    changes = [heard[0]] + [b for a, b in zip(heard, heard[1:]) if a[1] != b[1]]
    assert changes == [(1000, 1000), (1100, 0), (1150, 2000), (1250, 0)]
    assert not bz.playing


def test_a_pass_between_two_tones_changes_nothing():
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    bz.play(2, 1, 0)
    n = len(pwm.calls)
    for now in range(1, 400):
        bz.tick(now)
    assert len(pwm.calls) == n  # no write to the PWM until the tone ends
    bz.tick(400)
    assert pwm.duty == 0 and not bz.playing


def test_a_late_pass_skips_what_it_missed_and_keeps_the_time():
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    bz.play(1, 1, 0)
    bz.tick(160)  # the rest (100-150) went by unheard: the second tone, from 150
    assert pwm.sounding() == 2000
    bz.tick(249)
    assert pwm.sounding() == 2000  # it ends at 250, as written, not at 160 + 100
    bz.tick(250)
    assert pwm.sounding() == 0 and not bz.playing
    assert ("freq", 0) not in pwm.calls  # a rest is a duty of 0, never a frequency of 0


def test_a_new_sound_cuts_the_one_playing():
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    bz.play(2, 2, 0)
    bz.play(1, 1, 200)
    assert (pwm.sounding(), pwm.duty, bz.playing) == (1000, VOLUME_DUTY[1], 1)
    heard = set()
    for now in range(200, 460, 5):
        bz.tick(now)
        heard.add(pwm.sounding())
    assert heard == {1000, 0, 2000}  # sound 1 whole, none of sound 2's 3000 Hz left
    assert not bz.playing


def test_soft_is_quieter_than_loud_and_stop_silences():
    assert 0 == VOLUME_DUTY[0] < VOLUME_DUTY[1] < VOLUME_DUTY[2] == 32768  # 50 %: the loudest
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    bz.play(2, 1, 0)
    bz.stop()
    assert pwm.duty == 0 and not bz.playing
    bz.tick(1000)
    assert pwm.duty == 0


def test_the_clock_may_wrap_in_the_middle_of_a_sound():
    pwm = FakePWM()
    bz = Buzzer(pwm, SONGS)
    start = ticks_add(0, -120)  # 120 ms before the ticks wrap to 0
    bz.play(1, 2, start)
    bz.tick(ticks_add(start, 99))
    assert pwm.sounding() == 1000
    bz.tick(ticks_add(start, 100))
    assert pwm.sounding() == 0 and bz.playing  # the rest, across the wrap
    bz.tick(ticks_add(start, 150))
    assert pwm.sounding() == 2000
    bz.tick(ticks_add(start, 250))
    assert not bz.playing


def test_ticking_allocates_nothing():
    pwm = FakePWM()
    pwm.calls = None  # (the fake's own record would allocate)
    pwm.freq = lambda hz: None
    pwm.duty_u16 = lambda duty: None
    bz = Buzzer(pwm, SONGS)
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: nothing to measure
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for now in range(0, 1000, 5):
        bz.tick(now)  # idle
    bz.play(1, 2, 1000)
    for now in range(1000, 1400, 5):
        bz.tick(now)  # playing
    growth = gc.mem_alloc() - before
    gc.enable()
    assert growth == 0, growth


class FakeADC:
    """read_u16() gives these readings in turn (then the last again)."""

    def __init__(self, readings):
        self.readings = list(readings)
        self.reads = 0

    def read_u16(self):
        self.reads += 1
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def test_the_cc_line_is_the_rounded_mean_of_its_reads_after_one_thrown_away():
    adc = FakeADC([60000] + [9000, 9010, 8990, 9004, 9001, 8999, 9003, 9000])
    assert CCSense(adc).read_u16() == 9001  # 72007 / 8, rounded; the first read ignored
    assert adc.reads == 9
    adc = FakeADC([0, 100, 101, 101])
    assert CCSense(adc, reads=3).read_u16() == 101  # 302 / 3 = 100.7
