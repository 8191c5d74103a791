"""The desktop side of the board: the same firmware code on a virtual board.

Importing host_sim puts firmware/ on sys.path, so `vortex` is the very code
that runs on the RP2040: one copy of the rules.
"""
import sys

try:
    import os.path
    FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "firmware")
except ImportError:  # MicroPython: the test runner puts firmware/ on sys.path itself
    FIRMWARE = "firmware"
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
