"""MicroPython's ustruct, for umqtt.simple under CPython (usocket.py says why)."""
from struct import *  # noqa: F401,F403
