"""The piezo buzzer on a PWM pin: sounds played without ever making the
board's pass wait.

    bz = Buzzer(PWM(Pin(pins.BUZZER)), sounds.NOTES)
    bz.play(sound, volume, now)   # start NOTES[sound] at a volume (1 soft, 2 loud)
    bz.tick(now)                  # once a pass: the next tone when one is due

A sound is a few tones, (hz, ms, hz, ms, ...) with 0 Hz a rest. The PWM
peripheral makes the square wave by itself; the pass's tick() only changes
its frequency and duty at the end of a tone, from the clock it is given: no
sleep, no timer callback, no allocation (a tone lasts tens of ms, a pass a
few). A pass late by a whole tone skips it rather than fall behind. A new
sound cuts the one playing.

The volume is the duty cycle: the transducer is driven full swing by a
transistor, and a square wave of duty D carries a fundamental in
proportion to sin(pi * D) (its Fourier series), so 1/2 is the loudest and
1/16 about 14 dB softer (sin(pi/16) = 0.195).

pwm: a machine.PWM, or anything with freq(hz) and duty_u16(duty): a
CircuitPython backend passes one that sets a pwmio.PWMOut's (made with
variable_frequency=True) .frequency and .duty_cycle.
"""
from ..ticks import ticks_add, ticks_diff

VOLUME_DUTY = (0, 4096, 32768)  # off, soft, loud: duty_u16 out of 65536


class Buzzer:
    """Buzzer(pwm, songs): songs[sound] is a sound's tones (hz, ms, ...).
    playing: the sound playing, 0 when silent."""

    def __init__(self, pwm, songs):
        self._pwm = pwm
        self._songs = songs
        self._notes = songs[0]
        self._i = 0  # the tone playing: notes[i] Hz, until _until
        self._until = 0
        self._duty = 0
        self.playing = 0
        pwm.duty_u16(0)

    def play(self, sound, volume, now):
        """Start a sound now, at a volume (an index into VOLUME_DUTY)."""
        self._notes = self._songs[sound]
        self._duty = VOLUME_DUTY[volume]
        self.playing = sound
        self._i = -2
        self._until = now
        self.tick(now)

    def tick(self, now):
        """The next tone, if the one playing is over."""
        if not self.playing or ticks_diff(now, self._until) < 0:
            return
        notes = self._notes
        i = self._i
        until = self._until
        while ticks_diff(now, until) >= 0:
            i += 2
            if i >= len(notes):
                self._pwm.duty_u16(0)
                self.playing = 0
                return
            until = ticks_add(until, notes[i + 1])
        self._i = i
        self._until = until
        hz = notes[i]
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(self._duty)
        else:
            self._pwm.duty_u16(0)

    def stop(self):
        """Silence now."""
        self._pwm.duty_u16(0)
        self.playing = 0
