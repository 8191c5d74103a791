"""The rules engine of the terrain game: no I/O, no clock, MicroPython-ready.

    >>> from vortex.engine import Position, action_text
    >>> p = Position()
    >>> a = p.parse_action("E@e4")
    >>> p.push(a); p.text()
    '8/8/8/8/4E3/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 d 3,4 - 0 1'
"""
from .defs import (LIGHT, DARK, NO_TILE, WATER, FIRE, EARTH, AIR,
                   TRAVELLER, AWAKENED, HEART, cell_name)
from .notation import NotationError, parse_cell, parse_action, action_text
from .movegen import MAX_ACTIONS, MAX_DESTINATIONS, new_buffer
from .position import (Position, Outcome, IllegalAction, LegalActions, START,
                       HEART_TAKEN, NO_ACTION, QUIET_END, TIME_OUT)
