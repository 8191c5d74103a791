"""What the engine's viper code must never do: write past a buffer. Viper
pointers have no bounds checks, so the engine checks for room before it
writes and raises IndexError, as plain Python's indexing did; an action off
the board is refused before the position changes. Runs under pytest and under MicroPython (there the
viper code is machine code). On CPython the buffers' own indexing would hide a
missing check: tests/test_engine_bounds_strict.py runs these again with
pointers that fail on any access out of bounds."""
from vortex.engine import Position, new_buffer, MAX_ACTIONS, MAX_DESTINATIONS
from vortex.engine.defs import PLACE, SWAP, VORTEX
from vortex.engine.tables import SWAPS, BLOCKS

LATE = ("WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
        "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 0 140")


def refuses(fn, error):
    try:
        fn()
    except error:
        return True
    return False


def test_short_buffers_are_refused():
    # Refused before a piece's moves, the tile actions or the placements
    # could overflow: room for as many as there can be is asked.
    p = Position(LATE)
    for size in (16, 35 + 36, 129):
        assert refuses(lambda: p.legal_into(new_buffer(size)), IndexError), size
    assert refuses(lambda: p.destinations(58, new_buffer(MAX_DESTINATIONS - 1)), IndexError)
    assert refuses(lambda: Position().legal_into(new_buffer(255)), IndexError)
    assert Position().legal_into(new_buffer(256)) == 256
    assert p.legal_into(new_buffer(MAX_ACTIONS)) == 129
    assert p.destinations(58, new_buffer(MAX_DESTINATIONS)) == 10  # the Awakened on c8


def test_a_buffer_just_long_enough_is_enough():
    # The room asked is exact: the moves, then every swap and both turns of
    # every block that there could be; one entry less is refused.
    p = Position(LATE)
    moves = sum(1 for a in p.legal_actions() if a < PLACE)
    room = moves + len(SWAPS) + 2 * len(BLOCKS)
    assert p.legal_into(new_buffer(room)) == 129
    assert refuses(lambda: p.legal_into(new_buffer(room - 1)), IndexError)


def test_swaps_and_vortexes_off_the_board_are_refused_unplayed():
    p = Position(LATE)
    for a in (SWAP + 127, SWAP + 125, VORTEX + 2 * 55, VORTEX + 127):
        assert refuses(lambda: p.push(a), IndexError), a
        assert p.text() == LATE and not p.stack
