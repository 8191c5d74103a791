"""A whole game on CircuitPython 10.2.1 on the emulated Pico, as a player
plays one: main.py (code.py) with its real drivers, the NFC front end
modelled, hands carrying out a seeded random Light's actions and the
board's AI's (Dark, the default level 3) through host_sim.device.DeviceRig.
A long game once ran CircuitPython's heap out there (issue 41: a
MemoryError copying the game for the AI at action 21, and at 33, then the
watchdog's reset); this one goes past both and to its end, and the board
says on its link that its heap held (`memory`: no AI turn short of memory,
the lowest free heap before a search). Skipped, with the reason, where the
emulated CircuitPython Pico cannot run.

How long: about 60 s of device time (34 actions, each laid down and left
to settle; the AI's level 3 thinks 0.7 s a move there), about 7 minutes of
CPU (51 minutes of wall time on a 2-core machine loaded 5 times over, 7
December 2026): its own file, so that a test worker takes it while the others
run the short files (tests/conftest.py's LONGEST_FIRST). make bench-device's
heap section plays more games, at more levels, on both runtimes."""
import os
import random
import sys

import pytest

from mpy import ROOT
sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.engine.defs import DARK  # noqa: E402
from test_app_idle import BATTLE  # noqa: E402

WHY = pico.missing("circuitpython")
pytestmark = pytest.mark.skipif(WHY is not None, reason="no emulated CircuitPython Pico: %s" % WHY)
# Light's random actions, seeded: the game that ran the heap out at action
# 21 in the issue; the board's AI (Dark) takes Light's Heart at its 34th.
SEED = 2
ACTIONS = 34


def test_a_whole_game_at_the_default_level_on_circuitpython():
    from host_sim.device import DeviceRig
    rng = random.Random(SEED)
    settings = session.Settings(ai_side=DARK)  # the default level
    assert settings.ai_level == 3
    rig = DeviceRig(BATTLE, settings, runtime="circuitpython")
    lows = []
    try:
        def memory():
            words = rig.ask("memory")
            lows.append(dict(zip(words[::2], (int(w) for w in words[1::2]))))
        played = rig.play_out(lambda pos: rng.choice(list(pos.legal_actions())), answered=memory)
        out = rig.dev.output
        result = rig.board.result()
        memory()
    finally:
        rig.close()
    assert "Error" not in out and "Traceback" not in out, out[-1500:]
    assert result is not None and played >= 34, (played, result)  # past actions 21 and 33
    assert (played, result.winner) == (ACTIONS, DARK), (played, result)
    last = lows[-1]
    assert last["short"] == 0 and last["table"] >= 512, last  # never short, its table kept
    assert min(m["before"] for m in lows) == last["low"] > 0, lows
