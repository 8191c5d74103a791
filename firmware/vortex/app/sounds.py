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
Two at once: the first of over, illegal, asks, clock.

NOTES[sound] is the sound as tones: (hz, ms, hz, ms, ...), 0 Hz a rest. A
small piezo transducer (the board's: hardware/generated/bom.csv) is loud
near its resonance, a few kHz, and faint under 1 kHz, so the tones stay
between 1 and 3.2 kHz. Each sound has a shape of its own, to be told apart
without looking: falling (wrong), two rising (your move to carry out), a
rising run ending long (the end), three quick high pips (hurry).
"""
from vortex.engine.defs import const
from vortex.app.recognise import ILLEGAL as _ILLEGAL_VERDICT, NOT_ASKED
from vortex.app.clock import LOW_MS

NONE = const(0)
ILLEGAL = const(1)
ASKS = const(2)
OVER = const(3)
CLOCK = const(4)
NAMES = ("", "illegal", "asks", "over", "clock")

NOTES = (
    (),
    (1319, 110, 988, 220),                        # illegal: E6 falling to B5, 330 ms
    (2093, 60, 0, 20, 2637, 90),                  # asks: C7 then E7, 170 ms
    (1047, 120, 1319, 120, 1568, 120, 2093, 300),  # over: C6 E6 G6 C7, 660 ms
    (3136, 50, 0, 70, 3136, 50, 0, 70, 3136, 50),  # clock: three G7 pips, 290 ms
)


class Cues:
    """Cues(board): update(board) -> the sound a change calls for, or NONE.
    What the board shows when it is made counts as seen: a game resumed
    over, or with an action asked, sounds nothing at boot."""

    def __init__(self, b):
        self._verdict = b.verdict
        self._pending = b.pending
        self._over = b.result() is not None
        self._warned = 0  # bit s: side s was warned of its low clock
        clock = b.clock
        if clock is not None:
            for side in (0, 1):
                if clock.left[side] < LOW_MS:
                    self._warned |= 1 << side

    def update(self, b):
        sound = NONE
        over = b.result() is not None
        if over != self._over:
            self._over = over
            if over:
                sound = OVER
        v = b.verdict
        if v != self._verdict:
            self._verdict = v
            if (v == _ILLEGAL_VERDICT or v == NOT_ASKED) and not sound:
                sound = ILLEGAL
        p = b.pending
        if p != self._pending:
            self._pending = p
            if p >= 0 and not sound:
                sound = ASKS
        clock = b.clock
        if clock is not None:
            left = clock.left
            warned = self._warned
            if warned:  # time given back (an increment, a takeback, a new game)
                if warned & 1 and left[0] >= LOW_MS:
                    warned &= 2
                if warned & 2 and left[1] >= LOW_MS:
                    warned &= 1
            side = b.pos.side
            if not over and left[side] < LOW_MS and not warned & (1 << side):
                warned |= 1 << side
                if not sound:
                    sound = CLOCK
            self._warned = warned
        return sound
