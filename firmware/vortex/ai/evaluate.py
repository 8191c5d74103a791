"""The evaluation of a battle position, in hundredths of a Traveller, from
the view of the side to act.

The per-piece terms (material, awakening, cover, mobility) depend only on
the piece, its terrain and its rank, so they are one table, WEIGHTS: the
search keeps each side's sum of it up to date action by action
(vortex.ai.track) instead of recounting the board at every node. The Heart
terms come from the engine at every node (movegen.watch: which enemy pieces
reach each Heart, which own pieces stand beside it); tempo and the
no-capture race are added from the side's view. Evaluator.tally() fills
each term under its own name from scratch, so that each is tested on its
own.
"""
from array import array

from vortex.native import micropython, ptr8
from vortex.engine.defs import (EARTH, TRAVELLER, AWAKENED, HEART, KIND_MASK, SIDE_SHIFT,
                                 RANK_SHIFT, const)
from vortex.engine.movegen import watch_hearts

# The tallied terms: indices into Evaluator.terms.
MATERIAL = const(0)    # Travellers and Awakened (the Heart is the game itself)
AWAKENING = const(1)   # how near each Traveller is to the enemy back rank
COVER = const(2)       # Travellers and Awakened on Earth, which cannot be taken
MOBILITY = const(3)    # by the terrain under each piece (the Awakened: all four)
TRAVELLERS = const(4)  # the count the 80-action rule compares (plain number)
THREATS = const(5)     # pieces that reach the enemy Heart next action (number)
_TERMS = const(6)

# Values (hundredths of a Traveller).
VALUE = b"\x00\x64\xff\x00"     # by kind: Traveller 100, Awakened 255
ADVANCE = b"\x00\x00\x03\x08\x10\x1c\x30"  # Traveller by ranks advanced, 1..6
_COVER_VALUE = const(10)
_MOVES = const(b"\x00\x06\x04\x05\x06")   # by terrain: Water, Fire, Earth, Air (+ Awakened: 0)
GUARD = const(8)           # an own piece next to one's Heart
ATTACKER = const(90)       # an enemy piece that reaches one's Heart next action
VORTEX_VALUE = const(12)   # per Vortex left
QUIET_FROM = const(56)     # from this no-capture count the Traveller count weighs
QUIET_WEIGHT = const(6)    # per Traveller ahead, per quiet action past QUIET_FROM
WIN = const(20000)         # a Heart taken; a won game scores WIN - plies to it
# The same, for the machine code (a module's const() names are literals there).
_GUARD = const(8)
_ATTACKER = const(90)
_VORTEX_VALUE = const(12)
_QUIET_FROM = const(56)
_QUIET_WEIGHT = const(6)
_WIN = const(20000)
_COUNT_SHIFT = const(13)
_SCORE_MASK = const(8191)

# WEIGHTS, array('I'): [p * 5 + t] a piece code p on terrain t (material,
# cover, mobility, plus COUNT for a Traveller or an Awakened, so that a
# side's sum also counts them: sum >> COUNT_SHIFT), then [RANKS + p * 8 + rank]
# a Traveller's awakening term. An empty cell and a Heart weigh 0.
RANKS = const(40)
WEIGHTS_SIZE = const(104)
COUNT_SHIFT = const(13)
SCORE_MASK = const(8191)   # a side's per-piece score: its sum & SCORE_MASK


def piece_weight(p, t):
    """The per-piece terms of piece code p on terrain t (not its rank)."""
    kind = p & KIND_MASK
    if not kind or kind == HEART:
        return 0
    return VALUE[kind] + (_COVER_VALUE if t == EARTH else 0) + _MOVES[0 if kind == AWAKENED else t]


def rank_weight(p, rank):
    """The awakening term of piece code p on a rank."""
    if p & KIND_MASK != TRAVELLER or not 0 < rank < 7:
        return 0
    return ADVANCE[7 - rank if p >> SIDE_SHIFT else rank]


def weights(out, advance=1):
    """Fill out[0:WEIGHTS_SIZE] with WEIGHTS (see above), the awakening
    term `advance` times (advance_weights)."""
    for p in range(8):
        kind = p & KIND_MASK
        for t in range(5):
            w = piece_weight(p, t)
            out[p * 5 + t] = w + (1 << COUNT_SHIFT if kind and kind != HEART else 0)
    advance_weights(out, advance)


def advance_weights(out, advance):
    """The awakening part of WEIGHTS in out, `advance` times ADVANCE: the
    deep levels push their Travellers twice as hard (vortex.ai.levels).
    Allocates nothing."""
    for p in range(8):
        for r in range(8):
            out[RANKS + p * 8 + r] = rank_weight(p, r) * advance


def sums(pos, w, out, i):
    """Each side's sum of the weights w, from scratch: out[i + 1] Light's,
    out[i + 2] Dark's (what vortex.ai.track keeps up to date)."""
    light = dark = 0
    pieces = pos.pieces
    tiles = pos.tiles
    for c in range(64):
        p = pieces[c]
        if p:
            v = w[p * 5 + tiles[c]] + w[RANKS + p * 8 + (c >> RANK_SHIFT)]
            if p >> SIDE_SHIFT:
                dark += v
            else:
                light += v
    out[i + 1] = light
    out[i + 2] = dark


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
    """score(pos, light, dark): the score for the side to act, given each
    side's weight sum; evaluate(pos) the same from scratch. After either,
    threats[side] = enemy pieces that reach side's Heart next action.
    tally(pos) fills terms (Light minus Dark) for the tests."""

    def __init__(self):
        self.w = array("I", range(WEIGHTS_SIZE + 3))  # the weights, then sums() of one position
        weights(self.w)
        self.threats = bytearray(4)  # movegen.watch: reaching [0] Light's, [1] Dark's Heart; guards
        self.terms = array("i", bytes(4 * _TERMS))

    def score(self, pos, light, dark):
        """The score for the side to act, from each side's weight sum. If it
        can take the enemy Heart now, WIN - 1 (the game ends with its next
        action)."""
        t = self.threats
        watch_hearts(pos.hearts, pos.pieces, pos.tiles, t)
        return static(pos.side, light, dark, t, pos.vortexes, pos.quiet)

    def evaluate(self, pos):
        """The score for the side to act, counted from scratch."""
        w = self.w
        sums(pos, w, w, WEIGHTS_SIZE)
        return self.score(pos, w[WEIGHTS_SIZE + 1], w[WEIGHTS_SIZE + 2])

    def safety(self, pos, side):
        """Enemy pieces that reach one's Heart next action, own minus enemy,
        and the guards around it, own minus enemy (after score())."""
        t = self.threats
        return (t[side ^ 1] - t[side]) * ATTACKER + (t[2 + side] - t[3 - side]) * GUARD

    def tally(self, pos):
        """Each term on its own, Light minus Dark, from scratch."""
        pieces = pos.pieces
        tiles = pos.tiles
        mat = adv = cov = mob = count = 0
        for c in range(64):
            p = pieces[c]
            kind = p & KIND_MASK
            if not p or kind == HEART:
                continue
            t = tiles[c]
            sign = -1 if p >> SIDE_SHIFT else 1
            mat += sign * VALUE[kind]
            adv += sign * rank_weight(p, c >> RANK_SHIFT)
            cov += sign * (_COVER_VALUE if t == EARTH else 0)
            mob += sign * _MOVES[0 if kind == AWAKENED else t]
            count += sign
        watch_hearts(pos.hearts, pos.pieces, pos.tiles, self.threats)
        terms = self.terms
        terms[MATERIAL] = mat
        terms[AWAKENING] = adv
        terms[COVER] = cov
        terms[MOBILITY] = mob
        terms[TRAVELLERS] = count
        terms[THREATS] = self.threats[1] - self.threats[0]


@micropython.viper
def static(side: int, light: int, dark: int, threats, vortexes, quiet: int) -> int:
    """The score for `side` to act from each side's weight sum, the Heart
    counts movegen.watch_hearts() put in threats, the Vortexes left and the
    no-capture count (Evaluator.score on the arrays: the search's call)."""
    t = ptr8(threats)
    if t[side ^ 1]:
        return _WIN - 1
    s = (light & _SCORE_MASK) - (dark & _SCORE_MASK)
    ahead = (light >> _COUNT_SHIFT) - (dark >> _COUNT_SHIFT)
    if side:
        s = 0 - s
        ahead = 0 - ahead
    v = ptr8(vortexes)
    s += ((int(t[side ^ 1]) - int(t[side])) * _ATTACKER + (int(t[2 + side]) - int(t[3 - side])) * _GUARD
          + (int(v[side]) - int(v[side ^ 1])) * _VORTEX_VALUE)
    if quiet >= _QUIET_FROM:
        s += ahead * (quiet - _QUIET_FROM) * _QUIET_WEIGHT
    return s


def guards(pos, side):
    """Own pieces next to one's Heart, own minus enemy, weighted."""
    t = bytearray(4)
    watch_hearts(pos.hearts, pos.pieces, pos.tiles, t)
    return (t[2 + side] - t[3 - side]) * GUARD
