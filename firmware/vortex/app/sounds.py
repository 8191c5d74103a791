"""The board's sounds: which to play, decided from what the board shows.

    cues = Cues(board)
    sound = cues.update(board)     # once a pass: 0, or the sound to start now
    if sound and board.settings.volume:
        buzzer.play(sound, board.settings.volume, now)   # vortex.hal.buzzer

Cues reads the board's public fields and compares them with what it saw
last, as the host link does for its events (vortex.link.link): a sound is a
change, so each one sounds once, however many passes show it. Allocates
nothing while nothing changes.

    sound    when
    illegal  the board refuses what was done: an illegal action, or a legal
             one that is not the action it asks for (its verdict turns
             illegal or not-asked)
    asks     an action to carry out appears: the AI's, or a remote
             opponent's sent through the host link
    over     the game ends (a Heart taken, no action, 80 quiet, a time-out)
    clock    the side to act's clock falls under clock.LOW_MS; once a side,
             until its time is above that again
    memory   the AI's turn ran out of heap and the board played on with
             less (a smaller table, or the quick mover: Board.short)
Two at once: the first of over, illegal, memory, asks, clock (the AI's
action that comes with a memory sound is on the LEDs all the same).

NOTES[sound] is the sound as tones: (hz, ms, hz, ms, ...), 0 Hz a rest. A
small piezo transducer (the board's: hardware/generated/bom.csv) is loud
near its resonance, a few kHz, and faint under 1 kHz, so the tones stay
between 1 and 3.2 kHz. Each sound has a shape of its own, to be told apart
without looking: falling (wrong), two rising (your move to carry out), a
rising run ending long (the end), three quick high pips (hurry), high
low high (the board is short of memory: it plays on, weaker).
"""
from vortex.engine.defs import const
from vortex.app.recognise import ILLEGAL as _ILLEGAL_VERDICT, NOT_ASKED
from vortex.app.clock import LOW_MS

NONE = const(0)
ILLEGAL = const(1)
ASKS = const(2)
OVER = const(3)
CLOCK = const(4)
MEMORY = const(5)
NAMES = ("", "illegal", "asks", "over", "clock", "memory")

NOTES = (
    (),
    (1319, 110, 988, 220),                        # illegal: E6 falling to B5, 330 ms
    (2093, 60, 0, 20, 2637, 90),                  # asks: C7 then E7, 170 ms
    (1047, 120, 1319, 120, 1568, 120, 2093, 300),  # over: C6 E6 G6 C7, 660 ms
    (3136, 50, 0, 70, 3136, 50, 0, 70, 3136, 50),  # clock: three G7 pips, 290 ms
    (1760, 140, 0, 40, 1175, 140, 0, 40, 1760, 140),  # memory: A6 D6 A6, 500 ms
)


class Cues:
    """Cues(board): update(board) -> the sound a change calls for, or NONE.
    What the board shows when it is made counts as seen: a game resumed
    over, or with an action asked, sounds nothing at boot. update() runs
    every pass: when nothing changed it costs a few reads and compares (no
    call into the board)."""

    def __init__(self, b):
        self._verdict = b.sense.verdict
        self._pending = b.pending
        self._over = (b.timed_out or b.outcome) is not None
        self._low = _low(b.clock)
        self._short = b.short

    def update(self, b):
        v = b.sense.verdict
        p = b.pending
        over = (b.timed_out or b.outcome) is not None
        low = _low(b.clock) if b.clock is not None else 0
        short = b.short
        if (v == self._verdict and p == self._pending and over == self._over and low == self._low
                and short == self._short):
            return NONE
        # Something changed: the sound for the weightiest change, least first.
        sound = NONE
        if low & ~self._low and not over:  # a side's clock fell under LOW_MS (on its turn)
            sound = CLOCK
        if p != self._pending and p >= 0:
            sound = ASKS
        if short != self._short:
            sound = MEMORY
        if v != self._verdict and (v == _ILLEGAL_VERDICT or v == NOT_ASKED):
            sound = ILLEGAL
        if over and not self._over:
            sound = OVER
        self._verdict = v
        self._pending = p
        self._over = over
        self._low = low  # a side given time back (an increment, a new game) may be warned again
        self._short = short
        return sound


def _low(clock):
    # Bit s: side s has under LOW_MS left.
    if clock is None:
        return 0
    left = clock.left
    return (1 if left[0] < LOW_MS else 0) | (2 if left[1] < LOW_MS else 0)
