"""ticks_diff / ticks_add: wrap-around-safe millisecond arithmetic.

On MicroPython these are time.ticks_diff/ticks_add (C, no allocation; the
period is the port's: 2**30 on the RP2040). CPython gets the same semantics
with the RP2040's period, so tests can cross the wrap on both. CircuitPython
has no ticks_* in time: its clock is supervisor.ticks_ms, whose period is
2**29, and these are the Python ones with that period.

    >>> ticks_diff(ticks_add(0, 3), ticks_add(0, -2))
    5
"""
import sys
import time

_PERIOD = 1 << 29 if sys.implementation.name == "circuitpython" else 1 << 30
_HALF = _PERIOD >> 1


def _ticks_add(t, delta):
    """t + delta, wrapped into [0, period)."""
    return (t + delta) % _PERIOD


def _ticks_diff(a, b):
    """Signed a - b, right across one wrap when |a - b| < period/2."""
    return (a - b + _HALF) % _PERIOD - _HALF


ticks_add = getattr(time, "ticks_add", _ticks_add)
ticks_diff = getattr(time, "ticks_diff", _ticks_diff)
