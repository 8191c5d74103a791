"""The desktop side of the board: the same firmware code on a virtual board.

Importing host_sim puts firmware/ on sys.path, so `vortex` is the very code
that runs on the RP2040: one copy of the rules; and hardware/, where pins.py
and power.py are, which the board has beside main.py.
"""
import sys

try:
    import os.path
    _ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    FIRMWARE = os.path.join(_ROOT, "firmware")
    HARDWARE = os.path.join(_ROOT, "hardware")
    if not os.path.isdir(HARDWARE):  # installed (pip install .): setup.py put power.py here
        HARDWARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hardware")
except ImportError:  # MicroPython: the test runner puts firmware/ on sys.path itself
    FIRMWARE = "firmware"
    HARDWARE = "hardware"
for _path in (HARDWARE, FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)
