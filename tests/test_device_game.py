"""Whole games on the emulated Pico: the real firmware with its real drivers
and main.py, the NFC front end modelled at its registers, hands laying and
lifting tiles and pieces (host_sim.device.DeviceRig). Asserted as a player
and a host see the board: its LED frames and its host link's `status` and
`position`. Skipped, with the reason, where the emulated Pico cannot run.

How long they take (device time; wall time is several times more, see
docs/device.md): the battle game below, about 10 s. The game from the empty
board is test_device_build.py's (a file of its own, so that the test
workers share the longest games out)."""
import os
import random
import sys

import pytest

from mpy import ROOT
from needs_pico import needs_pico
from test_app_idle import BATTLE

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.engine.defs import DARK, LIGHT  # noqa: E402
from vortex.engine.codes import is_move, move_to  # noqa: E402
from vortex.engine.defs import SWAP  # noqa: E402
from vortex.engine.notation import action_text  # noqa: E402
from vortex.engine.position import Position  # noqa: E402

pytestmark = needs_pico()


def device_rig(*args, **kw):
    from host_sim.device import DeviceRig
    return DeviceRig(*args, **kw)


def a_capture_position(seed=3):
    """From BATTLE, quiet random moves until Light can capture: the text."""
    rng = random.Random(seed)
    pos = Position(BATTLE)
    for _ in range(400):
        if pos.side == 0 and any(is_move(a) and pos.pieces[move_to(a)] for a in pos.legal_actions()):
            return pos.text()
        quiet = [a for a in pos.legal_actions() if is_move(a) and not pos.pieces[move_to(a)]]
        pos.push(rng.choice(quiet))
    raise AssertionError("no capture found")


def agrees_on_the_link(rig):
    """The host link says what the mirror of the game says, and the board agrees."""
    st = rig.status()
    assert st["actions"] == str(len(rig.board.pos.stack)), st
    assert st["verdict"] == "agree", st
    assert rig.position() == rig.board.pos.text()
    assert rig.agrees(), (rig.virtual.text(), rig.board.pos.text(), rig.virtual.hand)


def lit(rig, cell):
    return any(rig.colour(cell))


def test_a_battle_with_the_ai_a_takeback_and_a_power_cut():
    start = a_capture_position()
    settings = session.Settings(ai_side=DARK, ai_level=1)
    rig = device_rig(start, settings)
    try:
        pos = rig.board.pos
        agrees_on_the_link(rig)
        # Light captures: the taken piece off first, then the taker across.
        cap = next(a for a in pos.legal_actions() if is_move(a) and pos.pieces[move_to(a)])
        rig.play(cap, settle=False)
        assert action_text(pos.stack[-1]) == action_text(cap)
        # The AI (Dark) answers: the board asks for its action, hands carry it out.
        assert rig.until(lambda: rig.board.pending >= 0, 10000), rig.status()
        asked = rig.board.pending
        assert rig.until(lambda: any(lit(rig, c) for c in range(64)), 2000)  # shown to be done
        rig.play(asked, settle=False)
        assert pos.stack[-1] == asked
        # The link's "asks -" follows the action's line, maybe in a later read.
        assert rig.until(lambda: rig.board.pending < 0, 2000), rig.status()
        rig.settle()
        agrees_on_the_link(rig)
        # Light swaps two tiles (or turns a Vortex): the hands move tiles, pieces lifted first.
        tile_action = next(a for a in pos.legal_actions() if a >= SWAP)
        rig.play(tile_action, settle=False)
        assert pos.stack[-1] == tile_action
        assert rig.until(lambda: rig.board.pending >= 0, 10000)
        rig.run("carry")
        agrees_on_the_link(rig)
        n = len(pos.stack)
        # A takeback with button A: against the AI, back to Light's turn.
        rig.run("press a")
        assert rig.until(lambda: len(pos.stack) == n - 2, 3000), rig.status()
        rig.run("tidy")
        agrees_on_the_link(rig)
        # A power cut in the middle of the game: the emulator stopped dead
        # just after an action, booted again from its flash.
        move = next(a for a in pos.legal_actions() if is_move(a) and not pos.pieces[move_to(a)])
        rig.play(move, settle=False)
        played = [action_text(a) for a in pos.stack]
        flash = rig.power_cut()
        truth = rig.virtual
    finally:
        rig.close()
    rig = device_rig(start, settings, actions=played, flash=flash, truth=truth)
    try:
        agrees_on_the_link(rig)                 # resumed from flash, the board as it stands
        assert rig.until(lambda: rig.board.pending >= 0, 10000)   # the AI's turn goes on
        rig.run("carry")
        agrees_on_the_link(rig)
        assert rig.board.pos.text() != Position(start).text()
    finally:
        rig.close()


def test_while_its_ai_thinks_the_board_answers_scans_and_takes_a_takeback():
    # Level 5 thinks for seconds of device time (10,000 nodes). Meanwhile the
    # firmware's own pass runs from the search: the host link answers within
    # 50 ms, the reeds are scanned at least 100 times a second, and button A
    # takes the move back, which stops the search and drops its answer.
    rig = device_rig(BATTLE, session.Settings(ai_side=DARK, ai_level=5))
    try:
        pos = rig.board.pos
        n = len(pos.stack)
        rig.play(pos.parse_action("e2e4"), settle=False)
        assert len(pos.stack) == n + 1 and rig.board.pending < 0
        start = rig.dev.now
        rig.status()
        answered_ms = (rig.dev.now - start) / 1e6   # from before the command was written
        assert rig.board.pending < 0, "the AI answered first: nothing was measured while it thought"
        assert answered_ms < 50, answered_ms
        rig.run("press a")
        assert rig.until(lambda: len(pos.stack) == n, 1000), rig.status()
        assert rig.board.pending < 0
        taken = rig.dev.now
        scans = sum(1 for t in rig.dev.scans if start <= t <= taken)
        assert scans / ((taken - start) / 1e9) >= 100, (scans, (taken - start) / 1e6)
        # Its answer never comes: the move it was for is gone, and Light is to act.
        rig.until(lambda: rig.board.pending >= 0, 4000)
        assert rig.board.pending < 0 and pos.side == LIGHT
        rig.run("tidy")
        agrees_on_the_link(rig)
    finally:
        rig.close()
