"""The board's own page (docs/web.md) in chromium: built by make web's
tools/build_web.py and served as static files by the standard library's
http.server (no server logic), its serial port replaced, in these tests
only, by tests/web_serial_standin.js, which carries the bytes over a
WebSocket (tests/web_serial_bridge.py) to the virtual board's
pseudo-terminal (vortex board --serial). The page's code is the one users
run: the link, the firmware's engine and records under MicroPython.

A whole game (the board's AI against robot hands) followed and its record
saved; a record loaded onto the board; settings, a hint and the power
state; a pulled cable and the board back; a browser without Web Serial.
Skips where chromium, Playwright or the page's npm libraries are missing.
"""
import functools
import http.server
import os
import sys
import threading
import time

import pytest

from vortex import record
from vortex.engine import Position
from test_link_e2e import Proc
from web_serial_bridge import PtyBridge

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                               "(make test installs it from requirements-dev.txt)")
from test_web_browser import chromium, ARGS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDIN = os.path.join(ROOT, "tests", "web_serial_standin.js")
START = Position().text()


class _Static(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".wasm": "application/wasm",
                             ".js": "text/javascript", ".mpy": "application/octet-stream"})

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """make web's files, served as they are by http.server on loopback."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import build_web
    from host_sim.web.board import files
    why = files.missing()
    if why:
        pytest.skip(why)
    out = str(tmp_path_factory.mktemp("web"))
    build_web.build(out)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(_Static, directory=out))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def procs():
    made = []
    yield made
    for p in made:
        p.stop()


def board(procs, *args):
    b = Proc("board", "--serial", "--no-color", *args)
    procs.append(b)
    return b.until("serial: ").split(": ", 1)[1]


def page_on(browser, site, bridge, timeout_ms=20000):
    """A page with the stand-in port, connected to the board; (page, errors)."""
    ctx = browser.new_context(accept_downloads=True)
    ctx.add_init_script("window.VORTEX_SERIAL_URL = %r;" % bridge.url)
    ctx.add_init_script(path=STANDIN)
    pg = ctx.new_page()
    pg.set_default_timeout(timeout_ms)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    pg.goto(site)
    pg.wait_for_function("window.vortex.drawn > 0")
    pg.click("#connect")
    pg.wait_for_function("window.vortex.status.link === 'connected'")
    return pg, errors


def view(pg):
    return pg.evaluate("window.vortex.view")


def test_a_whole_game_followed_and_its_record_saved(procs, site, browser, tmp_path):
    pty = board(procs, "--ai", "dark", "--robot", "light", "--auto")
    with PtyBridge(pty) as bridge:
        pg, errors = page_on(browser, site, bridge)
        pg.wait_for_function("window.vortex.view && window.vortex.view.result", timeout=300000)
        v = view(pg)
        assert len(v["actions"]) > 64 and v["result"]["text"] in ("1-0", "0-1", "1/2-1/2")
        assert pg.inner_text("#result").startswith(v["result"]["winner"])
        # The board as drawn is the engine's position after the game.
        pos = Position(START)
        for a in v["actions"]:
            pos.push(pos.parse_action(a))
        assert v["position"] == pos.text()
        drawn = pg.evaluate("[...document.querySelectorAll('#board .cell')].map(e => "
                            "[e.dataset.cell, e.dataset.tile, e.dataset.piece])")
        letters = ".TSH.tsh"
        for name, tile, piece in drawn:
            c = "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)
            assert tile == "-WFEA"[pos.tiles[c]].replace("-", "") and \
                piece == (letters[pos.pieces[c]] if pos.pieces[c] else ""), name
        with pg.expect_download() as d:
            pg.click("#save-rec")
        path = str(tmp_path / "game.txt")
        d.value.save_as(path)
        tags, start, actions = record.read(open(path).read())
        assert actions == v["actions"] and start == START and tags["Date"]
        assert tags["Dark"] == "board AI" and tags["Result"] == v["result"]["text"]
        assert not errors, errors


def test_a_record_loaded_settings_hint_and_power(procs, site, browser, tmp_path):
    pty = board(procs, "--ai", "off")
    with PtyBridge(pty) as bridge:
        pg, errors = page_on(browser, site, bridge)
        # The board's power state, as `power` answers it.
        assert "LEDs up to" in pg.inner_text("#power")
        # A setting changed from the page is the board's.
        pg.select_option("[data-setting=level]", "5")
        pg.wait_for_function("document.querySelector('[data-setting=level]').value === '5' && "
                             "window.vortex.view")
        pg.select_option("[data-setting=ai]", "dark")
        pg.wait_for_function("document.querySelector('[data-setting=ai]').value === 'dark'")
        pg.select_option("[data-setting=ai]", "off")
        # A record loaded: the board takes the game (the `game` lines).
        rec = tmp_path / "in.txt"
        rec.write_text(record.write({"Site": "here"}, START, ["W@d4", "F@e5", "A@a1"]))
        pg.set_input_files("#load-rec", str(rec))
        pg.wait_for_function("window.vortex.view.actions.join(' ') === 'W@d4 F@e5 A@a1'")
        assert "W@d4" in pg.inner_text("#actions")
        # The board's own record says so (a second host would read it the same).
        with pg.expect_download() as d:
            pg.click("#save-rec")
        d.value.save_as(str(tmp_path / "out.txt"))
        assert record.read((tmp_path / "out.txt").read_text())[2] == ["W@d4", "F@e5", "A@a1"]
        # A file that is not a record: one sentence, the game untouched.
        bad = tmp_path / "bad.txt"
        bad.write_text("1. Z@z9 *\n")
        pg.set_input_files("#load-rec", str(bad))
        pg.wait_for_function("document.querySelector('#banner').textContent.startsWith("
                             "'Not a game record')")
        assert view(pg)["actions"] == ["W@d4", "F@e5", "A@a1"]
        pg.click("#hint")
        pg.wait_for_function("[...document.querySelectorAll('#messages li')].length >= 1")
        assert not errors, errors


def test_a_pulled_cable_loses_nothing_and_the_page_reconnects(procs, site, browser):
    pty = board(procs, "--ai", "dark", "--robot", "light", "--auto")
    with PtyBridge(pty) as bridge:
        pg, errors = page_on(browser, site, bridge)
        pg.wait_for_function("window.vortex.view && window.vortex.view.actions.length >= 4",
                             timeout=60000)
        bridge.pull()
        pg.wait_for_function("window.vortex.status.link.startsWith('board unplugged')")
        assert "Nothing is lost" in pg.inner_text("#banner")
        assert controls(pg) == {"disabled": CONTROLS, "blank": []}  # greyed, the board's values kept
        had = len(view(pg)["actions"])
        bridge.plug()
        pg.wait_for_function("window.vortex.status.link === 'connected'")
        assert controls(pg) == {"disabled": [], "blank": []}
        pg.wait_for_function("window.vortex.view.actions.length > %d" % had, timeout=60000)
        assert not errors, errors


CONTROLS = ["ai", "level", "clock", "brightness", "volume", "budget",
            "hint", "takeback", "new-game", "save-rec", "load-rec"]


def controls(pg):
    """Which of the page's board controls are disabled, and which settings blank."""
    return pg.evaluate("""() => {
        const els = [...document.querySelectorAll('[data-setting]')].map((e) => [e.dataset.setting, e])
          .concat(['hint', 'takeback', 'new-game', 'save-rec', 'load-rec'].map((id) => [id, document.getElementById(id)]));
        return {disabled: els.filter(([, e]) => e.disabled).map(([k]) => k),
                blank: els.filter(([, e]) => e.tagName === 'SELECT' && e.selectedIndex === -1).map(([k]) => k)};
    }""")


def test_a_silent_board_is_said(site, browser):
    """A port whose board answers nothing (not a Vortex, or hung)."""
    import os as _os
    import pty as _pty
    master, slave = _pty.openpty()
    try:
        with PtyBridge(_os.ttyname(slave)) as bridge:
            ctx = browser.new_context()
            ctx.add_init_script("window.VORTEX_SERIAL_URL = %r;" % bridge.url)
            ctx.add_init_script(path=STANDIN)
            pg = ctx.new_page()
            pg.goto(site)
            pg.wait_for_function("window.vortex.drawn > 0")
            # No board yet: nothing to act on, and no setting shown it does not have.
            settings = CONTROLS[:6]
            assert controls(pg) == {"disabled": CONTROLS, "blank": settings}
            pg.click("#connect")
            pg.wait_for_function("window.vortex.status.link === 'the board does not answer'",
                                 timeout=15000)
            assert "does not answer" in pg.inner_text("#banner")
            assert controls(pg) == {"disabled": CONTROLS, "blank": settings}
    finally:
        _os.close(master)
        _os.close(slave)


def test_without_web_serial_one_sentence_and_the_simulator(site, browser):
    ctx = browser.new_context()
    ctx.add_init_script("Object.defineProperty(navigator, 'serial', {value: undefined});")
    pg = ctx.new_page()
    pg.goto(site)
    pg.wait_for_function("window.vortex.drawn > 0")
    text = pg.inner_text("#no-serial")
    assert text.startswith("This browser cannot talk to a board over USB") and "simulator" in text
    assert pg.is_disabled("#connect")


@pytest.fixture
def broker(tmp_path):
    """mosquitto on loopback with its websockets listener (the page's way in)."""
    from host_sim.online.broker import Mosquitto, mosquitto_missing
    why = mosquitto_missing()
    if why:
        pytest.skip(why)
    with Mosquitto(str(tmp_path / "broker"), websockets=True) as b:
        yield b


def connection(broker, cid):
    from host_sim.online.client import Connection, Address
    c = Connection(Address.parse(broker.address), cid, clean=True).start()
    end = time.monotonic() + 5
    while not c.connected and time.monotonic() < end:
        c.events(0.05)
    return c


def retained(broker, topic, wait=0.6):
    """What the broker keeps on a topic now (a fresh subscription reads it)."""
    from host_sim.online.client import Connection, Address
    c = Connection(Address.parse(broker.address), "reader", subscribe=[topic], clean=True).start()
    got, end = None, time.monotonic() + wait
    while time.monotonic() < end:
        for event, t, payload in c.events(0.05):
            if event == "message":
                got = payload
    c.close()
    return got


def join(pg, broker, room, side, secret="oak tree 7"):
    pg.fill("#on-broker", "ws://127.0.0.1:%d" % broker.ws_port)
    pg.fill("#on-room", room)
    pg.fill("#on-secret", secret)
    pg.select_option("#on-side", side)
    pg.click("#on-join")


def test_an_online_game_between_two_pages(procs, site, browser, broker):
    """Two boards, each on its page, play each other through mosquitto: each
    board's robot hands play its seat and carry out what the board asks (the
    opponent's action, lit on its LEDs); the pages' online code is the
    firmware's (vortex.online.client) under MicroPython. Each page keeps
    the room's game in the browser's storage, and plays on from it when
    opened again over a room whose state a stranger forged (issue 38)."""
    light = board(procs, "--ai", "off", "--robot", "light", "--auto")
    dark = board(procs, "--ai", "off", "--robot", "dark", "--auto")
    with PtyBridge(light) as bl, PtyBridge(dark) as bd:
        pa, ea = page_on(browser, site, bl)
        join(pa, broker, "friday-7", "light")
        pa.wait_for_function("window.vortex.online && window.vortex.online.state === 'up' "
                             "&& window.vortex.online.actions !== null", timeout=30000)
        pb, eb = page_on(browser, site, bd)
        join(pb, broker, "friday-7", "dark")
        pb.wait_for_function("window.vortex.online && window.vortex.online.state === 'up' "
                             "&& window.vortex.online.opponent === true", timeout=30000)
        for pg in (pa, pb):
            pg.wait_for_function("window.vortex.view.actions.length >= 12", timeout=120000)
        a, b = view(pa)["actions"], view(pb)["actions"]
        n = min(len(a), len(b))
        assert a[:n] == b[:n], (a, b)  # one game on both boards
        assert "your opponent is here" in pa.inner_text("#online")
        # Each page's copy of the room's game, in the browser's storage
        # under its room and seat (page.py's _Cache): the game played.
        for pg, seat, side, played in ((pa, "light", 0, a), (pb, "dark", 1, b)):
            kept = pg.evaluate("localStorage.getItem('vortex-room friday-7 %s')" % seat)
            head, start, words = kept.split("\n", 2)
            words = words.split()
            k = min(len(words), len(played))  # (the game goes on meanwhile)
            assert head == "friday-7 %d" % side and words[:k] == played[:k]
            assert len(words) >= 10  # (the room may be a pass behind the board)
        assert not ea and not eb, (ea, eb)
        # Issue 38, both pages closed: a stranger forges the room's retained
        # state; light's page opened again (the same browser) refuses it,
        # plays on the game it kept and puts that back, never a new game.
        pb.context.close()
        ctx = pa.context
        pa.close()
        time.sleep(0.5)  # (the broker has both wills)
        from vortex.online import protocol as p
        from vortex.online.room import Room
        from vortex.engine.position import START
        eve = connection(broker, "eve")
        eve.publish(p.topic("friday-7", p.STATE), Room("friday-7", START, "guess", 0,
                                                       "eve").state(), retain=True)
        time.sleep(0.3)
        eve.close()
        assert p.read_state(retained(broker, p.topic("friday-7", p.STATE)))[3] == "eve"
        pa = ctx.new_page()
        pa.on("pageerror", lambda e: ea.append(str(e)))
        pa.goto(site)
        pa.wait_for_function("window.vortex.drawn > 0")
        pa.click("#connect")
        pa.wait_for_function("window.vortex.online && window.vortex.online.state === 'up' "
                             "&& window.vortex.online.actions >= 10", timeout=30000)
        end = time.monotonic() + 30
        state = None
        while time.monotonic() < end and not (state and p.read_state(state)[3] != "eve"):
            state = retained(broker, p.topic("friday-7", p.STATE))
        played = list(p.read_state(state)[1])
        assert len(played) >= 10 and played == view(pa)["actions"][:len(played)]
        assert not ea, ea
