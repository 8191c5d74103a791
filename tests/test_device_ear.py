"""`make play-device`'s sounds: the buzzer pin's tones, as tools/pico
measures them, told back into the board's sounds (host_sim.device.Ear),
which the page then plays. No emulator needed: the tones are made here as
the firmware's player sends them, off by the PWM's divider."""
from host_sim.device import Ear
from host_sim.virtual import VirtualBuzzer
from vortex.app import sounds
from vortex.hal.buzzer import VOLUME_DUTY

MS = 1_000_000
SOFT, LOUD = (VOLUME_DUTY[v] * 1000 // 65536 for v in (1, 2))


def tones(sound, duty, t=0, off=1.004):
    """A sound's tones on the pin from t ms: (ns, Hz, duty per mille), rests
    and the end silent; each frequency `off` from the note (a divider's)."""
    out = []
    notes = sounds.NOTES[sound]
    for i in range(0, len(notes), 2):
        hz, ms = notes[i], notes[i + 1]
        out.append((t * MS, round(hz * off), duty if hz else 0))
        t += ms
    return out + [(t * MS, 0, 0)]


def heard(pin):
    bz = VirtualBuzzer()
    ear = Ear(bz)
    for tone in pin:
        ear.hear(*tone)
    return [(ms, name, volume) for ms, name, volume in bz.played]


def test_each_sound_is_heard_once_at_its_volume():
    pin = (tones(sounds.ILLEGAL, SOFT, 0) + tones(sounds.ASKS, LOUD, 1000, 0.996)
           + tones(sounds.OVER, SOFT, 2000) + tones(sounds.CLOCK, LOUD, 3000))
    assert heard(pin) == [(0, "illegal", 1), (1000, "asks", 2), (2000, "over", 1),
                          (3000, "clock", 2)]


def test_a_sound_inside_another_is_not_heard_again():
    # Over's second note is illegal's first; the asks sound after a cut.
    over = tones(sounds.OVER, LOUD)
    assert over[1][1] == round(sounds.NOTES[sounds.ILLEGAL][0] * 1.004)
    cut = over[:2] + tones(sounds.ASKS, LOUD, 150)
    assert heard(cut) == [(0, "over", 2), (150, "asks", 2)]


def test_a_tone_of_no_sound_is_heard_as_nothing():
    assert heard([(0, 440, SOFT), (5 * MS, 0, 0), (9 * MS, 1319 * 103 // 100, SOFT)]) == []
