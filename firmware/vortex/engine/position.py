"""Position: the state of a game, its legal actions, push and pop.

    >>> from vortex.engine import Position
    >>> p = Position()                 # the empty board, pieces set up
    >>> len(p.legal_actions())         # 64 cells x 4 terrains
    256
    >>> p.push(p.parse_action("W@d4"))
    >>> p.pop() == p.parse_action("W@d4")
    True

State lives in bytearrays and small ints; push() keeps an undo record of one
small int per action, so pop() restores the position exactly. Generation
(movegen.py) and playing (play.py) are functions bound here as methods.
"""
from .defs import (LIGHT, DARK, TRAVELLER, PLACE, QUIET_LIMIT, SIDE_NAMES, FROM_SHIFT, TO_MASK,
                   SIDE_SHIFT, KIND_MASK, RANK_SHIFT, back_rank, travellers, const)
from .tables import OFF
from .movegen import (MAX_DESTINATIONS, new_buffer, legal_into, has_legal, destinations,
                      why_illegal)
from .play import push, pop, copy_into
from . import notation

START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"

# What decided() answers besides a winning side.
DRAW = const(2)
UNDECIDED = const(-1)

# Outcome reasons.
HEART_TAKEN = "heart taken"
NO_ACTION = "no legal action"
QUIET_END = "80 quiet actions"
TIME_OUT = "time out"  # decided by the clock, outside the engine

_BLANK = object()  # copy()'s text: a blank Position to fill, nothing parsed


class Outcome:
    """How a game ended: winner is LIGHT, DARK or None (a draw)."""

    def __init__(self, winner, reason):
        self.winner = winner
        self.reason = reason

    def __eq__(self, other):
        return (isinstance(other, Outcome) and self.winner == other.winner
                and self.reason == other.reason)

    def name(self):
        """'Light wins', 'Dark wins' or 'draw'."""
        return "draw" if self.winner is None else SIDE_NAMES[self.winner] + " wins"

    def result(self):
        """The result as a game record writes it (docs/record.md), Light's
        score first: '1-0', '0-1' or '1/2-1/2' (python-chess's Outcome.result())."""
        return "1/2-1/2" if self.winner is None else ("1-0", "0-1")[self.winner]

    def __repr__(self):
        return "<Outcome %s: %s>" % (self.name(), self.reason)


class IllegalAction(ValueError):
    """An action that is well formed but not legal in the position."""


class Position:
    """A game position. Position() is the start; Position(text) parses the
    notation of docs/notation.md and raises NotationError on bad text.

        >>> Position("8/8/8/8/8/8/8/8 7h/8/8/8/8/8/8/H7 d 0,1")
        Position('8/8/8/8/8/8/8/8 7h/8/8/8/8/8/8/H7 d 0,1 - 0 0')

    Public state (read it, change it only through push/pop):
      tiles[64]    terrain per cell (NO_TILE, WATER, FIRE, EARTH, AIR)
      pieces[64]   piece code per cell (0, or side << 2 | kind)
      side         LIGHT or DARK, to act
      vortexes[2]  Vortexes left to Light and Dark
      ban          swap code the previous action made (OFF if none)
      quiet        battle actions since the last capture
      ply          actions since the empty board
      stack        actions pushed since this object was parsed
    """

    def __init__(self, text=START):
        self.tiles = bytearray(64)
        self.pieces = bytearray(64)
        self.pool = bytearray(5)  # tiles left in the pool, per terrain
        self.vortexes = bytearray(2)
        self.hearts = bytearray(2)  # each side's Heart cell, OFF once taken
        self.side = LIGHT
        self.ban = OFF
        self.quiet = 0
        self.ply = 0
        self.filled = 0  # cells with a tile; the building phase lasts while < 64
        self.stack = []
        self._undo = []
        self._scratch = new_buffer(MAX_DESTINATIONS)
        if text is not _BLANK:
            notation.parse_position(text, self)

    # --- text ---------------------------------------------------------------
    def text(self):
        """The position in notation."""
        return notation.position_text(self)

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "Position(%r)" % self.text()

    def __eq__(self, other):
        return isinstance(other, Position) and self.text() == other.text()

    def copy(self, into=None):
        """An independent copy of the position, without the action stack: a
        new Position, or `into` (a Position) made the same in place, which
        allocates nothing (the board's AI searches one copy, made once).
        The state's bytes are copied; no notation is written or read.

            >>> p = Position(); q = p.copy(); q.push(q.parse_action("W@d4"))
            >>> p.filled, q.filled, p.copy(q) is q, q == p, q.stack
            (0, 1, True, True, [])
        """
        return copy_into(self, Position(_BLANK) if into is None else into)

    def action_text(self, action):
        return notation.action_text(action)

    def parse_action(self, text):
        """The action `text` names, if legal here; NotationError if it is not
        well formed, IllegalAction if it is not legal in this position.

            >>> Position().parse_action("d2d4")
            Traceback (most recent call last):
            vortex.engine.position.IllegalAction: illegal action d2d4: the building phase allows only placements
        """
        a = notation.parse_action(text)
        if not self.is_legal(a):
            raise IllegalAction("illegal action %s: %s" % (text, self.why_illegal(a)))
        return a

    # --- phase and end ------------------------------------------------------
    def is_building(self):
        return self.filled < 64

    def is_over(self):
        """True once a Heart is taken or the quiet count reached its limit.
        (A side with no legal action has also lost: see outcome().)"""
        return self.hearts[0] == OFF or self.hearts[1] == OFF or self.quiet >= QUIET_LIMIT

    def decided(self):
        """How a game that has ended by itself ended: LIGHT or DARK (the
        winner), DRAW, or UNDECIDED while it goes on. A Heart taken or the
        quiet count at its limit; a side left without a legal action is
        outcome()'s to see. Allocates nothing (the AI asks at every node)."""
        hearts = self.hearts
        if hearts[0] == OFF:
            return DARK
        if hearts[1] == OFF:
            return LIGHT
        if self.quiet >= QUIET_LIMIT:
            light = travellers(self.pieces, LIGHT)
            dark = travellers(self.pieces, DARK)
            return DRAW if light == dark else (LIGHT if light > dark else DARK)
        return UNDECIDED

    def outcome(self):
        """The Outcome of a finished game, or None while it goes on.

            >>> Position("8/8/8/8/8/8/8/8 8/8/8/8/8/8/8/4H3 d 3,4").outcome()
            <Outcome Light wins: heart taken>
        """
        w = self.decided()
        if w != UNDECIDED:
            hearts = self.hearts
            return Outcome(None if w == DRAW else w,
                           HEART_TAKEN if hearts[0] == OFF or hearts[1] == OFF else QUIET_END)
        if not self.has_legal():
            return Outcome(self.side ^ 1, NO_ACTION)
        return None

    # --- legal actions ------------------------------------------------------
    def legal_actions(self):
        """A view of the legal actions: len(), iteration, `in`.

            >>> len(Position().legal_actions())
            256
        """
        return LegalActions(self)

    # Generation lives in movegen.py; these bind its functions as methods.
    legal_into = legal_into
    has_legal = has_legal
    destinations = destinations
    why_illegal = why_illegal

    def is_legal(self, a):
        return not self.why_illegal(a)

    def awakens(self, a):
        """Does action a awaken its piece? Only a Traveller's move onto the
        enemy's back rank does (a tile moved under a piece never does)."""
        if a >= PLACE:
            return False
        p = self.pieces[a >> FROM_SHIFT]
        return ((p & KIND_MASK) == TRAVELLER
                and (a & TO_MASK) >> RANK_SHIFT == back_rank((p >> SIDE_SHIFT) ^ 1))

    # Playing lives in play.py; these bind its functions as methods.
    push = push
    pop = pop


class LegalActions:
    """A lazy view of a position's legal actions, in the spirit of
    python-chess's legal_moves: len(), iteration and `in` without a list."""

    def __init__(self, position):
        self.position = position

    def __len__(self):
        return self.position.legal_into(new_buffer())

    def __iter__(self):
        buf = new_buffer()
        n = self.position.legal_into(buf)
        for i in range(n):
            yield buf[i]

    def __contains__(self, a):
        return self.position.is_legal(a)

    def __repr__(self):
        return "<LegalActions (%s)>" % ", ".join(notation.action_text(a) for a in self)
