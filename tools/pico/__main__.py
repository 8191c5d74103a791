"""python3 tools/pico SCRIPT.py: run a script on the emulated Pico."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pico import main  # noqa: E402
from host_sim import cli  # noqa: E402  (on sys.path through pico's imports)

cli.run(main)
