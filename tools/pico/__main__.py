"""python3 tools/pico SCRIPT.py: run a script on the emulated Pico."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pico import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
