"""The evaluation of a battle position, in hundredths of a Traveller, from
the view of the side to act.

One pass over the board tallies the per-piece terms, each kept apart under
its name (Evaluator.terms, Light minus Dark) so that each is tested on its
own; the Heart terms (threats, guards), tempo and the no-capture race are
added from the side's view. How pieces move is the engine's business:
threats come from its move generation (movegen.reach), asked only of the
pieces near a Heart or on its rank or file, never from a copy of the rules.
"""
from array import array

from vortex.engine.defs import WATER, EARTH, TRAVELLER, AWAKENED, HEART, QUIET_LIMIT, const
from vortex.engine.tables import OFF, STEP
from vortex.engine.movegen import reach, new_buffer, MAX_DESTINATIONS

# The tallied terms: indices into Evaluator.terms.
MATERIAL = const(0)    # Travellers and Awakened (the Heart is the game itself)
AWAKENING = const(1)   # how near each Traveller is to the enemy back rank
COVER = const(2)       # Travellers and Awakened on Earth, which cannot be taken
MOBILITY = const(3)    # by the terrain under each piece (the Awakened: all four)
TRAVELLERS = const(4)  # the count the 80-action rule compares (plain number)
THREATS = const(5)     # pieces that reach the enemy Heart next action (number)
TERMS = const(6)

# Values (hundredths of a Traveller).
VALUE = b"\x00\x64\xff\x00"     # by kind: Traveller 100, Awakened 255
ADVANCE = b"\x00\x00\x03\x08\x10\x1c\x30"  # Traveller by ranks advanced, 1..6
COVER_VALUE = const(10)
MOVES = b"\x00\x06\x04\x05\x06"   # by terrain: Water, Fire, Earth, Air (+ Awakened: 0)
GUARD = const(8)           # an own piece next to one's Heart
ATTACKER = const(90)       # an enemy piece that reaches one's Heart next action
VORTEX_VALUE = const(12)   # per Vortex left
QUIET_FROM = const(56)     # from this no-capture count the Traveller count weighs
QUIET_WEIGHT = const(6)    # per Traveller ahead, per quiet action past QUIET_FROM
WIN = const(20000)         # a Heart taken; a won game scores WIN - plies to it


def guards(pos, side):
    """Own pieces next to one's Heart, own minus enemy."""
    return _guards(pos, side) - _guards(pos, side ^ 1)


def _guards(pos, side):
    h = pos.hearts[side]
    if h == OFF:
        return 0
    n = 0
    pieces = pos.pieces
    for d in range(8):
        t = STEP[(h << 3) + d]
        if t != OFF and pieces[t] and pieces[t] >> 2 == side:
            n += GUARD
    return n


def tempo(pos, side):
    """Vortexes left, own minus enemy."""
    return (pos.vortexes[side] - pos.vortexes[side ^ 1]) * VORTEX_VALUE


def quiet_race(pos, travellers):
    """Near the end of the 80 no-capture actions the side with more
    Travellers (Awakened included) wins: `travellers` ahead (own minus
    enemy) weigh more as the count nears its limit."""
    q = pos.quiet
    if q < QUIET_FROM:
        return 0
    return travellers * (q - QUIET_FROM) * QUIET_WEIGHT


class Evaluator:
    """evaluate(pos): the score for the side to act. tally(pos) fills terms
    (Light minus Dark) and threats[side] (enemy pieces that reach side's
    Heart next action)."""

    def __init__(self):
        self.buf = new_buffer(MAX_DESTINATIONS)
        self.terms = array("i", bytes(4 * TERMS))
        self.threats = bytearray(2)

    def tally(self, pos):
        pieces = pos.pieces
        tiles = pos.tiles
        hearts = pos.hearts
        threats = self.threats
        threats[0] = threats[1] = 0
        mat = adv = cov = mob = count = 0
        for c in range(64):
            p = pieces[c]
            if not p:
                continue
            side = p >> 2
            kind = p & 3
            t = tiles[c]
            h = hearts[side ^ 1]
            # Only pieces within two cells of the Heart, or sliding ones
            # (on Water, or Awakened) on its rank or file, can reach it; the
            # engine says whether they do.
            if h != OFF:
                dr = (c >> 3) - (h >> 3)
                df = (c & 7) - (h & 7)
                if ((-3 < dr < 3 and -3 < df < 3
                     or (not dr or not df) and (t == WATER or kind == AWAKENED))
                        and self._reaches(pos, c, h)):
                    threats[side ^ 1] += 1
            if kind == HEART:
                continue
            v = VALUE[kind] + (COVER_VALUE if t == EARTH else 0)
            m = MOVES[0 if kind == AWAKENED else t]
            a = 0
            if kind == TRAVELLER:
                rank = c >> 3
                if 0 < rank < 7:
                    a = ADVANCE[7 - rank if side else rank]
            if side:
                mat -= VALUE[kind]
                adv -= a
                cov -= v - VALUE[kind]
                mob -= m
                count -= 1
            else:
                mat += VALUE[kind]
                adv += a
                cov += v - VALUE[kind]
                mob += m
                count += 1
        terms = self.terms
        terms[MATERIAL] = mat
        terms[AWAKENING] = adv
        terms[COVER] = cov
        terms[MOBILITY] = mob
        terms[TRAVELLERS] = count
        terms[THREATS] = threats[1] - threats[0]

    def _reaches(self, pos, c, h):
        buf = self.buf
        for i in range(reach(pos, c, buf)):
            if buf[i] & 63 == h:
                return True
        return False

    def safety(self, pos, side):
        """Enemy pieces that reach one's Heart next action (after tally()),
        own minus enemy, and the guards around it."""
        t = self.threats
        return (t[side ^ 1] - t[side]) * ATTACKER + guards(pos, side)

    def evaluate(self, pos):
        """The score for the side to act. If it can take the enemy Heart now,
        WIN - 1 (the game ends with its next action)."""
        side = pos.side
        self.tally(pos)
        if self.threats[side ^ 1]:
            return WIN - 1
        t = self.terms
        s = t[MATERIAL] + t[AWAKENING] + t[COVER] + t[MOBILITY]
        if side:
            s = -s
        return (s + self.safety(pos, side) + tempo(pos, side)
                + quiet_race(pos, -t[TRAVELLERS] if side else t[TRAVELLERS]))
