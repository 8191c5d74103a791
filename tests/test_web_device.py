"""`make play-device` in a real browser: the page of `make play` with the
real firmware on the emulated Pico under it (host_sim/web/device.py).
Playwright drives Debian's chromium by mouse, as tests/test_web_browser.py
does, and its checks apply where they mean the same here: after each
thing done the page shows the LED frame the device sent and the hands'
board, and the device's game (its host link) is the one expected. One
boot, then: a move by clicks and a capture by a drag; a takeback with the
page's button A (the device's button pin), the board asking for the taken
piece back, the page's tidy hands; the board's AI chosen on the page, its
action asked with the device's buzzer (heard on the page) and carried out
with the page's button. About 2 minutes on 2 cores.

Skips (with the reason) where the emulator, Playwright or chromium cannot
be had.
"""
import os
import sys
import time

import pytest

from mpy import ROOT
from needs_pico import needs_pico
from test_web_browser import (ARGS, chromium, opened, cell, drag, settled, in_step, shot,
                              battle_position)
from vortex.engine import Position
from vortex.engine.defs import HEART, cell_name
from vortex.engine.codes import is_move, move_from, move_to, piece_kind, piece_side
from vortex.app import leds
from vortex.app.session import Settings, NO_AI

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                               "(make test installs it from requirements-dev.txt)")
pytestmark = needs_pico()
SLOW = 120.0   # wall seconds for the device to settle after a hand (it runs slower than a Pico)


@pytest.fixture(scope="module")
def server():
    from host_sim.web.device import DeviceGame
    from host_sim.web.server import Server
    # A battle where Light's e1e3 lets Dark capture at once.
    s = Server(DeviceGame(Settings(ai_side=NO_AI), battle_position(1).text()))
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def page(server):
    path = chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        pg = b.new_page(viewport={"width": 1280, "height": 720})
        errors = opened(pg, server.url, 60000)
        yield pg
        assert not errors, errors
        b.close()


def test_a_move_by_clicks_and_a_capture_by_a_drag(page, server):
    pos = battle_position(1)
    settled(server, 0, SLOW)
    in_step(page, server)
    mv = pos.parse_action("e1e3")
    cell(page, "e1").click()
    page.wait_for_function("window.vortex.state.hand.length === 1")
    # The device lit the lifted piece's destinations; the page shows its frame.
    dest = [move_to(a) for a in pos.legal_actions() if is_move(a) and move_from(a) == move_from(mv)]
    for _ in range(300):
        with server.game.lock:
            lit = server.game.rig.lit()
        if all(c in lit for c in dest):
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the device never lit e1's destinations")
    in_step(page, server, agree=False)
    cell(page, "e3").click()
    pos.push(mv)
    settled(server, 1, SLOW)
    in_step(page, server)
    cap = next(a for a in pos.legal_actions() if is_move(a) and pos.pieces[move_to(a)]
               and piece_kind(pos.pieces[move_to(a)]) != HEART)
    drag(page, cell_name(move_from(cap)), cell_name(move_to(cap)))
    pos.push(cap)
    settled(server, 2, SLOW)
    in_step(page, server)
    with server.game.lock:
        assert server.game.rig.board.pos == pos
        assert server.game.rig.position() == pos.text()     # the device's own word
    shot(page, "device-01-capture")


def test_takeback_with_button_a_then_tidy(page, server):
    with server.game.lock:
        pos = Position(server.game.rig.board.pos.text())
        taken = server.game.rig.board.pos.stack[-1]
    page.locator("#btn-a").hover()
    page.mouse.down()
    time.sleep(0.3)
    page.mouse.up()
    page.wait_for_function("window.vortex.state.actions.length === 1")
    # The board asks for the capture undone: the taker's side's colour where
    # it came from.
    home = cell_name(move_from(taken))
    side = piece_side(pos.pieces[move_to(taken)])
    for _ in range(300):
        with server.game.lock:
            if server.game.rig.shows(home, leds.SIDE[side]):
                break
        time.sleep(0.1)
    else:
        raise AssertionError("the device never asked for the piece back on " + home)
    in_step(page, server, agree=False)
    page.click("#tidy")
    settled(server, 1, SLOW)
    in_step(page, server)
    shot(page, "device-02-takeback")


def test_the_boards_ai_chosen_on_the_page_and_its_action_carried_out(page, server):
    page.select_option("#ai-level", "1")
    page.select_option("#mode", "dark")          # Dark to act: the device's AI thinks
    page.wait_for_function("window.vortex.state.settings.ai === 'dark'"
                           " && window.vortex.state.settings.level === '1'")
    page.wait_for_function("window.vortex.state.pending", timeout=SLOW * 1000)
    with server.game.lock:
        b = server.game.rig.board
        pending = b.pos.action_text(b.pending)
        assert server.game.rig.ask("settings")[0] == "ai=dark"
    assert page.inner_text("#pending") == "The board asks: " + pending
    # The device's buzzer asked too: its pin's tones, heard as the sound,
    # played by the page with the firmware's notes.
    page.wait_for_function("window.vortex.state.sound && window.vortex.state.sound.name === 'asks'",
                           timeout=SLOW * 1000)
    page.wait_for_function("window.vortex.sounds.includes('asks')")
    with server.game.lock:
        sound = server.game.state()["sound"]
    assert sound["volume"] == "soft" and sound["notes"] == [[2093, 60], [0, 20], [2637, 90]]
    page.click("#carry")
    settled(server, 2, SLOW)
    in_step(page, server)
    with server.game.lock:
        assert server.game.rig.board.pos.action_text(server.game.rig.board.pos.stack[-1]) \
            == pending
    shot(page, "device-03-ai")
