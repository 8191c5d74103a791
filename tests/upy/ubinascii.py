"""MicroPython's ubinascii, for umqtt.simple under CPython (usocket.py says why)."""
from binascii import *  # noqa: F401,F403
