"""The browser simulator in a real browser: Playwright driving Debian's
chromium, by mouse, against the server running the firmware in this process.
After each thing done, the page's LEDs and board are checked against the
firmware's own frame and game. Screenshots and figures go to build/screenshots/.

Skips (with the reason) where Playwright or chromium cannot be had; `make
test` installs both where it can (chromium with apt-get when root).
"""
import io
import json
import os
import shutil
import statistics
import time

import pytest

import host_sim  # noqa: F401  (firmware/ on sys.path)
from vortex.engine import Position
from vortex.engine.defs import PLACE, SWAP, VORTEX, action_cells, tile_goes, cell_name
from vortex.engine.position import START
from vortex.app.ai import Rng
from vortex.app import leds
from vortex.app.recognise import AGREE
from vortex.app.session import Settings, NO_AI
from host_sim.scenario import scaled

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                               "(make test installs it from requirements-dev.txt)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "build", "screenshots")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
FIGURES = {}


def chromium():
    path = os.environ.get("VORTEX_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    if not path:
        pytest.skip("no chromium found: install Debian's (apt-get install chromium; make test "
                    "does it when run as root) or set VORTEX_CHROMIUM")
    return path


def battle_position(seed=7):
    """A position just after the building phase, tiles laid at random by the engine."""
    p = Position()
    r = Rng(seed)
    while p.is_building():
        acts = list(p.legal_actions())
        p.push(acts[r.below(len(acts))])
    return Position(p.text())


def cells_of(a):
    """The cells an action touches (the engine's order: a Vortex's block clockwise)."""
    buf = bytearray(4)
    return list(buf[:action_cells(a, buf)])


def choose(pos, rng):
    """A player's choice: the Heart if it can be taken, else a capture, else any legal action."""
    acts = list(pos.legal_actions())
    takes = [a for a in acts if a < PLACE and pos.pieces[a & 63]]
    hearts = [a for a in takes if pos.pieces[a & 63] & 3 == 3]
    pick = hearts or takes or acts
    return pick[rng.below(len(pick))]


@pytest.fixture(scope="module")
def server():
    from host_sim.web.game import Game
    from host_sim.web.server import Server
    s = Server(Game(Settings(ai_side=NO_AI)))
    s.start()
    t0 = time.monotonic()
    yield s
    g = s.game
    FIGURES["tick_cost_us"] = round(g.tick_s / max(1, g.ticks) * 1e6, 1)
    FIGURES["ticks_per_s"] = round(g.ticks / (time.monotonic() - t0), 1)
    s.stop()


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()
    os.makedirs(SHOTS, exist_ok=True)
    with open(os.path.join(SHOTS, "figures.json"), "w") as f:
        json.dump(FIGURES, f, indent=1)
    print("\nbrowser simulator figures:", json.dumps(FIGURES))


def opened(pg, url, timeout_ms=10000):
    """The page at url, drawn once; the list its script errors go to (the
    test asserts it empty)."""
    pg.set_default_timeout(timeout_ms)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())  # "leave this game?": yes
    pg.goto(url)
    pg.wait_for_function("window.vortex.drawn > 0")
    return errors


@pytest.fixture(scope="module")
def phone(browser, server):
    """The page on a phone: 390 x 844, touch."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    pg = ctx.new_page()
    errors = opened(pg, server.url)
    yield pg
    assert not errors, errors
    ctx.close()


@pytest.fixture(scope="module")
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    errors = opened(pg, server.url)
    FIGURES["page_load_to_first_frame_ms"] = round(pg.evaluate("window.vortex.firstFrameMs"), 1)
    FIGURES["page_load_event_ms"] = round(pg.evaluate(
        "performance.getEntriesByType('navigation')[0].loadEventEnd"), 1)
    yield pg
    lat = pg.evaluate("window.vortex.latencies")
    if lat:
        FIGURES["hand_to_frame_ms"] = {"n": len(lat), "median": round(statistics.median(lat), 1),
                                       "max": round(max(lat), 1)}
    assert not errors, errors
    pg.close()


def shot(page, name):
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, name + ".png"))


def start(server, position=START, ai="off"):
    server.game.command("set", {"name": "ai", "value": ai})
    server.game.command("new", {"position": position})


def cell(page, name):
    return page.locator('[data-cell="%s"]' % name)


def drag(page, frm, to):
    cell(page, frm).hover()
    page.mouse.down()
    box = cell(page, to).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    page.mouse.up()


def settled(server, actions, timeout=10.0):
    """Wait until the firmware has judged the board with this many actions played."""
    g = server.game
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with g.lock:
            b = g.rig.board
            if len(b.pos.stack) == actions and b.judged and b.verdict == AGREE:
                return
        time.sleep(0.02)
    with g.lock:
        raise AssertionError("board not settled: %d actions, verdict %d, judged %s" % (
            len(g.rig.board.pos.stack), g.rig.board.verdict, g.rig.board.judged))


def in_step(page, server, agree=True):
    """The page shows the firmware's frame and the virtual board exactly (and the
    board agrees with the game, unless agree=False: something is in hand)."""
    g = server.game
    for _ in range(20):
        with g.lock:
            version = g.version
            frame = list(g.rig.board.frame)
            tiles = list(g.rig.virtual.tiles)
            pieces = list(g.rig.virtual.pieces)
        page.wait_for_function("v => window.vortex.drawn >= v", arg=version)
        dom = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.cell')]
            .map(e => [e.dataset.cell, [e.dataset.rgb, e.dataset.tile, e.dataset.piece]]))""")
        if g.version != version:
            continue  # a newer frame (a blink, a clock): look again
        for c in range(64):
            rgb, tile, piece = dom[cell_name(c)]
            assert rgb == "%d,%d,%d" % tuple(frame[3 * c:3 * c + 3]), cell_name(c)
            assert tile == "-WFEA"[tiles[c]].strip("-"), cell_name(c)
            assert piece == (".TSH.tsh"[pieces[c]] if pieces[c] else ""), cell_name(c)
        assert g.rig.agrees() or not agree
        return
    raise AssertionError("the page never caught up with the firmware")


def test_lay_a_tile_by_dragging_it_from_the_box(page, server):
    start(server)
    drag_from = page.locator('#pool [data-terrain="W"]')
    drag_from.hover()
    page.mouse.down()
    box = cell(page, "d4").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 20, steps=4)
    page.mouse.up()
    settled(server, 1)
    assert server.game.rig.board.pos.text().startswith("8/8/8/8/3W4/")
    in_step(page, server)
    page.wait_for_function("document.querySelector('#actions').textContent.includes('W@d4')")
    shot(page, "01-tile-laid")


def test_keyboard_play(page, server):
    start(server)
    board = page.locator("#board")
    board.focus()
    for key in ("Home",) + ("ArrowRight",) * 4 + ("ArrowUp",) * 3 + ("f",):  # a1, e4: lay Fire
        page.keyboard.press(key)
    settled(server, 1)
    assert server.game.rig.board.pos.tiles[28] == 2  # Fire on e4
    for key in ("ArrowDown", "ArrowDown", " "):  # e2: lift the piece
        page.keyboard.press(key)
    page.wait_for_function("window.vortex.state.hand.length === 1")
    page.keyboard.press(" ")  # and put it back
    settled(server, 1)
    in_step(page, server)


def test_move_capture_swap_and_vortex_by_hand(page, server):
    pos = battle_position()
    start(server, pos.text())
    settled(server, 0)
    acts = list(pos.legal_actions())
    # A move by click, click.
    mv = next(a for a in acts if a < PLACE and not pos.pieces[a & 63])
    cell(page, cell_name(mv >> 6)).click()
    page.wait_for_function("window.vortex.state.hand.length === 1")
    shot(page, "02-piece-lifted")
    in_step(page, server, agree=False)
    cell(page, cell_name(mv & 63)).click()
    settled(server, 1)
    in_step(page, server)
    pos.push(mv)
    assert server.game.rig.board.pos == pos

    # Play on until a capture is on offer, then drag the piece onto the one it takes.
    rng = Rng(3)
    while not any(a < PLACE and pos.pieces[a & 63] and pos.pieces[a & 63] & 3 != 3
                  for a in pos.legal_actions()):
        a = choose(pos, rng)
        server.game.command("act", {"action": pos.action_text(a)})
        pos.push(a)
        settled(server, len(pos.stack))
    cap = next(a for a in pos.legal_actions() if a < PLACE and pos.pieces[a & 63]
               and pos.pieces[a & 63] & 3 != 3)
    drag(page, cell_name(cap >> 6), cell_name(cap & 63))
    pos.push(cap)
    settled(server, len(pos.stack))
    assert server.game.rig.board.pos == pos
    in_step(page, server)
    shot(page, "03-captured")

    # A swap: lift two tiles with no piece on them, lay each where the other was.
    sw = next(a for a in pos.legal_actions() if SWAP <= a < VORTEX
              and not any(pos.pieces[c] for c in cells_of(a)))
    x, y = (cell_name(c) for c in cells_of(sw))
    cell(page, x).click()
    cell(page, y).click()
    page.wait_for_function("window.vortex.state.hand.length === 2")
    cell(page, x).click()  # the tile taken last (y's) goes to x
    cell(page, y).click()
    pos.push(sw)
    settled(server, len(pos.stack))
    assert server.game.rig.board.pos == pos
    in_step(page, server)
    shot(page, "04-swapped")

    # A Vortex: lift the block's four tiles, lay each one cell on, clockwise.
    vx = next((a for a in pos.legal_actions() if a >= VORTEX and not (a - VORTEX) & 1
               and not any(pos.pieces[c] for c in cells_of(a))), None)
    assert vx is not None, "no Vortex on an empty block in this position"
    cells = cells_of(vx)
    for c in cells:
        cell(page, cell_name(c)).click()
    page.wait_for_function("window.vortex.state.hand.length === 4")
    shot(page, "05-vortex-in-hand")
    for i in range(4):  # each time the first tile taken of those left: chosen, or dragged
        chip, dest = page.locator('#hand [data-item="0"]'), cell(page, cell_name(cells[tile_goes(vx, i)]))
        if i % 2:
            chip.drag_to(dest)
        else:
            chip.click()
            dest.click()
    pos.push(vx)
    settled(server, len(pos.stack))
    assert server.game.rig.board.pos == pos
    in_step(page, server)
    shot(page, "06-vortex")


def test_illegal_move_flashes_red_then_is_restored(page, server):
    pos = battle_position()
    start(server, pos.text())
    settled(server, 0)
    acts = set(pos.legal_actions())
    frm = 12  # e2... any own Traveller with an empty cell it may not reach
    bad = next(t for t in range(24, 40) if not pos.pieces[t] and (frm << 6 | t) not in acts)
    drag(page, cell_name(frm), cell_name(bad))
    # The firmware flashes the action's cells red; the page shows exactly that frame.
    red = "%d,%d,%d" % scaled(leds.ERROR)
    page.wait_for_function("""([c, red]) => document.querySelector(`[data-cell="${c}"]`).dataset.rgb === red""",
                           arg=[cell_name(bad), red], timeout=3000)
    shot(page, "07-illegal-red")
    with server.game.lock:
        assert server.game.rig.board.flashing
    drag(page, cell_name(bad), cell_name(frm))
    settled(server, 0)
    # The flash runs its course (ERROR_MS), then no cell is red.
    page.wait_for_function("""red => ![...document.querySelectorAll('.cell')].some(e => e.dataset.rgb === red)""",
                           arg=red, timeout=4000)
    in_step(page, server)
    shot(page, "08-illegal-restored")


def test_takeback_with_button_a_then_tidy(page, server):
    pos = battle_position()
    start(server, pos.text())
    settled(server, 0)
    mv = next(a for a in pos.legal_actions() if a < PLACE and not pos.pieces[a & 63])
    drag(page, cell_name(mv >> 6), cell_name(mv & 63))
    settled(server, 1)
    page.locator("#btn-a").hover()
    page.mouse.down()
    time.sleep(0.15)
    page.mouse.up()
    page.wait_for_function("window.vortex.state.actions.length === 0")
    # The LEDs now ask for the piece back: its side's colour where it was
    # (a Heart's pulses), red where it stands; the page shows that frame.
    home = cell_name(mv >> 6)
    for _ in range(150):
        with server.game.lock:
            if server.game.rig.shows(home, leds.SIDE[pos.pieces[mv >> 6] >> 2]):
                break
        time.sleep(0.02)
    else:
        raise AssertionError("the firmware never asked for the piece back on " + home)
    in_step(page, server, agree=False)
    shot(page, "09-takeback-put-back")
    page.click("#tidy")
    settled(server, 0)
    in_step(page, server)
    assert server.game.rig.board.pos == Position(pos.text())


def test_game_against_the_ai_to_its_end_with_tidy_hands(page, server):
    pos = battle_position()
    with server.game.lock:
        server.game.rig.board.settings.ai_level = 1  # the quickest searching level: a short test
    start(server, pos.text(), ai="dark")
    settled(server, 0)
    rng = Rng(11)
    for _ in range(2000):
        with server.game.lock:
            b = server.game.rig.board
            if b.result() is not None:
                break
            ai_to_act = b.settings.ai_side == b.pos.side
            pending = b.pending
            n = len(b.pos.stack)
        if ai_to_act:
            if pending < 0:  # the AI thinks in slices between ticks: wait for its action
                time.sleep(0.05)
                continue
            page.click("#carry")
        else:
            page.fill("#act-text", pos.action_text(choose(pos, rng)))
            page.press("#act-text", "Enter")
        page.wait_for_function("n => window.vortex.state.actions.length > n", arg=n, timeout=60000)
        with server.game.lock:
            pos = Position(server.game.rig.board.pos.text())
    page.wait_for_function("!document.querySelector('#result').hidden")
    with server.game.lock:
        result = server.game.rig.board.result()
    assert result is not None
    assert page.inner_text("#result").endswith("(%s)" % result.reason)
    in_step(page, server)
    FIGURES["ai_game_actions"] = len(server.game.rig.board.pos.stack)
    shot(page, "10-game-over")


def test_opponent_chosen_mid_game_plays_at_once(page, server):
    start(server)
    settled(server, 0)
    page.select_option("#ai-level", "1")
    page.select_option("#mode", "dark")  # on Light's turn: the AI waits for Light
    page.wait_for_function("window.vortex.state.settings.ai === 'dark'"
                           " && window.vortex.state.settings.level === '1'", timeout=3000)
    assert page.is_hidden("#pending")
    light = Position(START)
    page.fill("#act-text", light.action_text(next(iter(light.legal_actions()))))
    page.press("#act-text", "Enter")
    page.wait_for_function("window.vortex.state.pending", timeout=10000)
    with server.game.lock:
        b = server.game.rig.board
        assert (b.settings.ai_side, b.settings.ai_level, len(b.pos.stack)) == (1, 1, 1)
        pending = b.pos.action_text(b.pending)
    assert page.inner_text("#pending") == "The board asks: " + pending
    server.game.command("set", {"name": "ai", "value": "off"})  # as from another tab
    server.game.command("set", {"name": "level", "value": "3"})
    page.wait_for_function("document.querySelector('#mode').value === 'off'"
                           " && document.querySelector('#ai-level').value === '3'", timeout=3000)


def test_history_sensors_and_two_tabs(page, server, browser):
    start(server)
    for a in ("W@d4", "F@e5"):
        server.game.command("act", {"action": a})
    settled(server, 2)
    page.click('#actions [data-ply="1"]')
    page.wait_for_function("document.querySelector('[data-cell=\"e5\"]').dataset.tile === ''")
    assert page.get_attribute('[data-cell="d4"]', "data-tile") == "W"
    shot(page, "12-history")
    page.click("#live")
    page.check("#sensor-toggle")
    page.wait_for_selector("#sensor-grid div")
    # Noisy sensors: the reeds chatter, the tags misread; the firmware still gets it right.
    page.locator("#bounce").fill("30")
    page.locator("#misread").fill("200")
    page.wait_for_function("window.vortex.state.sensors.misread === 200 && window.vortex.state.sensors.bounce_ms === 30")
    page.locator('#pool [data-terrain="E"]').click()
    cell(page, "a3").click()
    settled(server, 3)
    with server.game.lock:
        assert server.game.rig.board.pos.tiles[16] == 3
    shot(page, "13-sensors")
    server.game.command("sensors", {"bounce_ms": 0, "misread": 0})
    other = browser.new_page(viewport={"width": 390, "height": 844})
    other.goto(server.url)
    other.wait_for_function("window.vortex.drawn > 0")
    cell(page, "d4").click()  # a hand in one tab; the other sees it
    other.wait_for_function("document.querySelector('[data-cell=\"d4\"]').dataset.tile === ''")
    assert not other.evaluate("document.scrollingElement.scrollWidth > window.innerWidth")
    other.screenshot(path=os.path.join(SHOTS, "14-phone.png"), full_page=True)
    other.close()
    cell(page, "d4").click()
    settled(server, 3)


def test_bad_input_gets_a_message_and_loses_nothing(page, server):
    start(server)
    server.game.command("act", {"action": "W@d4"})
    settled(server, 1)
    page.fill("#position", "8/8/8 nonsense")
    page.click("#load-pos")
    page.wait_for_selector("#banner:not([hidden])")
    assert "position" in page.inner_text("#banner")
    assert len(server.game.rig.board.pos.stack) == 1
    answer = page.evaluate("""() => fetch('/api/lift', {method: 'POST', body: '{"cell": "z9"}'})
        .then(r => r.json().then(j => [r.status, j.error]))""")
    assert answer == [400, "cell: no cell 'z9' on the board"]
    page.set_input_files("#load-rec", files=[{"name": "bad.txt", "mimeType": "text/plain",
                                               "buffer": b"[Light \"x\"\n\n1. Q@z9 *"}])
    page.wait_for_function("document.querySelector('#banner').textContent.includes('record')")
    assert len(server.game.rig.board.pos.stack) == 1
    # The connection drops and comes back: the page says so, the game is still there.
    page.context.set_offline(True)
    page.click("#takeback")
    page.wait_for_selector("#banner:not([hidden])")
    shot(page, "15-connection-lost")
    page.context.set_offline(False)
    page.wait_for_function("window.vortex.state.actions.length === 1")
    in_step(page, server)


def test_works_at_1280x720_and_390x844(page, server):
    for w, h in ((1280, 720), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        assert not page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth")
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w
        shot(page, "16-viewport-%dx%d" % (w, h))
    page.set_viewport_size({"width": 1280, "height": 720})


def test_the_page_shows_the_simulators_version(page, server):
    page.wait_for_function("document.getElementById('version').textContent !== ''")
    assert page.text_content("#version") == server.version


# e2 stands on Water: it slides up the e-file and may take the Traveller on e7.
BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def press(pg, target):
    """A click with the mouse, a tap on a phone."""
    loc = cell(pg, target) if isinstance(target, str) and len(target) == 2 else (
        pg.locator(target) if isinstance(target, str) else target)
    if pg.viewport_size["width"] < 600:
        loc.tap()
    else:
        loc.click()


def carry(pg, source, target):
    """Carry what is under one locator to another, in small steps: with the
    mouse, or on a phone with a finger (touch events, as Chromium gets them
    from a touch screen)."""
    target.scroll_into_view_if_needed()
    source.scroll_into_view_if_needed()
    a, b = source.bounding_box(), target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1 = b["x"] + b["width"] / 2  # the middle of its part in view
    y1 = (max(b["y"], 0) + min(b["y"] + b["height"], pg.viewport_size["height"])) / 2
    if pg.viewport_size["width"] >= 600:
        pg.mouse.move(x0, y0)
        pg.mouse.down()
        pg.mouse.move(x1, y1, steps=5)
        pg.mouse.up()
        return
    cdp = pg.context.new_cdp_session(pg)
    try:
        for i, kind in enumerate(["touchStart"] + ["touchMove"] * 5 + ["touchEnd"]):
            k = min(i, 5) / 5
            points = [] if kind == "touchEnd" else [{"x": x0 + (x1 - x0) * k, "y": y0 + (y1 - y0) * k}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    finally:
        cdp.detach()


def drawn(pg, server):
    """Wait until the page has drawn the server's latest state."""
    pg.wait_for_function("v => window.vortex.drawn >= v", arg=server.game.version)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_piece_taken_by_clicks_goes_beside_the_board_by_click_and_by_drag(
        request, server, device):
    pg = request.getfixturevalue("page" if device == "desktop" else "phone")
    for how in ("click", "drag"):
        start(server, BATTLE)
        settled(server, 0)
        drawn(pg, server)
        press(pg, "e2")  # lift yours, lift theirs, choose yours in the hand, put it down
        pg.wait_for_function("window.vortex.state.hand.length === 1")
        press(pg, "e7")
        pg.wait_for_function("window.vortex.state.hand.length === 2")
        press(pg, '#hand .piece-chip.light')
        press(pg, "e7")
        settled(server, 1)
        pg.wait_for_function("JSON.stringify(window.vortex.state.hand) === '[[\"piece\",5]]'")
        shot(pg, "17-taken-piece-in-hand-%s" % device)
        aside = server.game.state()["tray"][5]
        if how == "click":
            press(pg, "#aside")
        else:
            carry(pg, pg.locator('#hand [data-item="0"]'), pg.locator("#tray-shelf"))
        pg.wait_for_function("window.vortex.state.hand.length === 0", timeout=3000)
        assert server.game.state()["tray"][5] == aside + 1  # a Dark Traveller beside the board
        settled(server, 1)
        in_step(pg, server)


def test_an_action_not_asked_for_is_said_in_words(page, server):
    start(server, START, ai="light")  # the AI lays Light's first tile: the board asks for it
    page.wait_for_function("window.vortex.state.pending", timeout=10000)
    asked = page.evaluate("window.vortex.state.pending")
    pos = Position(START)
    cell_name_ = asked[2:]
    other = next(t for t in "WFEA" if t != asked[0]
                 and pos.is_legal(pos.parse_action("%s@%s" % (t, cell_name_))))
    press(page, '#pool [data-terrain="%s"]' % other)
    press(page, cell_name_)
    laid = "%s@%s" % (other, cell_name_)
    page.wait_for_function("window.vortex.state.verdict === 'not-asked'", timeout=5000)
    text = page.inner_text("#verdict")
    assert "%s is not the action the board asks for: %s" % (laid, asked) in text
    assert "illegal" not in text.lower()
    shot(page, "18-not-asked")
    server.game.command("tidy", {})


def test_hold_b_opens_the_settings_menu_with_every_row_labelled(page, phone, server):
    from vortex.app import commands
    start(server)
    settled(server, 0)
    for pg in (page, phone):
        drawn(pg, server)
        before = boxes(pg)
        btn = pg.locator("#btn-b")
        btn.hover()
        pg.mouse.down()
        pg.wait_for_function("window.vortex.state.menu", timeout=3000)
        pg.mouse.up()
        pg.wait_for_function("!document.querySelector('#menu-legend').hidden")
        in_step(pg, server)
        rows = pg.locator("#menu-legend > *")
        assert rows.count() == len(commands.NAMES)
        for i, name in enumerate(commands.NAMES):  # row i: rank 8 - i, where the LEDs show it
            row = rows.nth(i)
            assert row.inner_text().strip(), name
            assert row.get_attribute("data-name") == name
            r, c = row.bounding_box(), cell(pg, "h%d" % (8 - i)).bounding_box()
            assert abs((r["y"] + r["height"] / 2) - (c["y"] + c["height"] / 2)) < 2, name
        assert boxes(pg) == before  # the menu shifted nothing
        shot(pg, "11-settings-menu-%d" % pg.viewport_size["width"])
        btn.hover()
        pg.mouse.down()
        pg.wait_for_function("!window.vortex.state.menu", timeout=3000)
        pg.mouse.up()


LAYOUT = ("#board", "#verdict", "#turn", "#hand", "#tray-shelf", ".panel .card:nth-child(2)")


def boxes(pg):
    """Where the page's main parts are on the page (not the screen: scrolling
    moves nothing), rounded to the pixel."""
    return pg.evaluate("""sels => Object.fromEntries(sels.map(s => {
        const r = document.querySelector(s).getBoundingClientRect();
        return [s, [r.x + scrollX, r.y + scrollY, r.width, r.height].map(Math.round)]; }))""",
                       list(LAYOUT))


def test_on_a_phone_the_status_is_in_view_and_the_tile_box_goes_with_the_building(
        phone, server):
    start(server, START, ai="dark")
    settled(server, 0)
    drawn(phone, server)
    assert phone.is_visible("#pool-shelf")  # the board is being built
    phone.fill("#act-text", "W@d4")
    phone.press("#act-text", "Enter")
    phone.wait_for_function("window.vortex.state.pending", timeout=10000)
    phone.evaluate("window.scrollTo(0, 0)")
    for sel in ("#turn", "#verdict", "#pending", "#board"):
        b = phone.locator(sel).bounding_box()
        assert b["y"] >= 0 and b["y"] + b["height"] <= 844, (sel, b)
    shot(phone, "19-phone-asks")
    start(server, BATTLE)
    settled(server, 0)
    drawn(phone, server)
    assert phone.is_hidden("#pool-shelf")  # the battle: no tiles to lay
    assert not phone.evaluate("document.scrollingElement.scrollWidth > window.innerWidth")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_banner_shifts_nothing(request, server, device):
    pg = request.getfixturevalue("page" if device == "desktop" else "phone")
    start(server, BATTLE)
    settled(server, 0)
    drawn(pg, server)
    pg.fill("#act-text", "Q@z9")  # nonsense: the board says what is wrong
    before = boxes(pg)
    pg.press("#act-text", "Enter")
    pg.wait_for_selector("#banner:not([hidden])")
    assert boxes(pg) == before
    banner = pg.locator("#banner").bounding_box()
    assert banner["y"] >= 0 and banner["y"] + banner["height"] <= pg.viewport_size["height"]
    shot(pg, "20-banner-%s" % device)
    pg.locator("#banner").click()  # a click puts it away
    pg.wait_for_selector("#banner", state="hidden")
    assert boxes(pg) == before


def cell_pixels(pg, name):
    """A cell as the page draws it: a function of a region (a test on (dx,
    dy), the offset from the cell's centre in cells) to its mean colour."""
    from PIL import Image
    img = Image.open(io.BytesIO(cell(pg, name).screenshot())).convert("RGB")
    w, h = img.size
    px = img.load()

    def mean(inside):
        got = [px[x, y] for y in range(h) for x in range(w)
               if inside((x + 0.5) / w - 0.5, (y + 0.5) / h - 0.5)]
        assert got, "no pixel in the region"
        return tuple(sum(c[i] for c in got) / len(got) for i in range(3))
    return mean


def window(dx, dy):  # the tile's window over the LED (its middle)
    return dx * dx + dy * dy < 0.07 ** 2


def face(dx, dy):  # the tile's own colour: its lower right, clear of letter and symbol
    return 0.25 < dx < 0.36 and 0.25 < dy < 0.36


def ring(dx, dy):  # the cell round a piece standing on it
    return 0.38 ** 2 < dx * dx + dy * dy < 0.46 ** 2


def test_the_leds_read_on_every_tile_and_round_a_piece(page, phone, server):
    from colour import APART, de2000, srgb
    from vortex.app import commands
    # What to put back: a Fire tile laid where an Air tile was (red), Light's
    # Travellers off an Air tile and an Earth tile (Light's colour).
    start(server, BATTLE)
    settled(server, 0)
    for op, args in (("lift", {"cell": "e4"}), ("aside", {}), ("lay", {"terrain": "F", "cell": "e4"}),
                     ("lift", {"cell": "d2"}), ("aside", {}), ("lift", {"cell": "g2"}), ("aside", {})):
        assert server.game.command(op, args) == {}
    for _ in range(100):
        with server.game.lock:
            rig = server.game.rig
            if rig.shows("e4", leds.EXTRA) and rig.shows("d2", leds.SIDE[0]):
                break
        time.sleep(0.02)
    for pg in (page, phone):
        in_step(pg, server, agree=False)
        pg.locator("#board").screenshot(path=os.path.join(
            SHOTS, "21-what-to-put-back-%d.png" % pg.viewport_size["width"]))
        dark = srgb(cell_pixels(pg, "e5")(window))  # a window with its LED off
        for name in ("e4", "d2"):  # red on Fire, Light's colour on Air
            mean = cell_pixels(pg, name)
            lit, tile = srgb(mean(window)), srgb(mean(face))
            assert de2000(lit, tile) >= APART, (pg.viewport_size, name, de2000(lit, tile))
            assert de2000(lit, dark) >= APART, (pg.viewport_size, name)
    # A tile asked for under a piece: the LED's ring round the piece, blinking.
    start(server, START)
    settled(server, 0)
    with server.game.lock:
        commands.request(server.game.rig.board, "E@c2")  # a remote opponent's placement
    for pg in (page, phone):
        rings = []
        for _ in range(8):  # over two blinks: lit and dark
            rings.append(srgb(cell_pixels(pg, "c2")(ring)))
            time.sleep(0.12)
        spread = max(de2000(a, b) for a in rings for b in rings)
        assert spread >= APART, (pg.viewport_size, spread)
        pg.locator("#board").screenshot(path=os.path.join(
            SHOTS, "22-tile-asked-under-a-piece-%d.png" % pg.viewport_size["width"]))
    server.game.command("new", {})


# Web Audio, recorded: each oscillator's type, frequency and start and stop
# times, each gain's value changes, on the page's own clock (a fake
# AudioContext put in before the page's script runs).
FAKE_AUDIO = """
window.__audio = { tones: [], gains: [] };
class FakeParam {
  constructor(list) { this.list = list; }
  setValueAtTime(v, t) { this.list.push([v, t]); return this; }
  linearRampToValueAtTime(v, t) { this.list.push([v, t]); return this; }
}
class FakeNode { connect(n) { return n; } }
class FakeOscillator extends FakeNode {
  constructor() { super(); this.type = "sine"; this.hz = []; this.frequency = new FakeParam(this.hz); }
  start(t) { this.t0 = t; }
  stop(t) { window.__audio.tones.push({ type: this.type, hz: this.hz[0][0], start: this.t0, stop: t }); }
}
class FakeGain extends FakeNode {
  constructor() { super(); const g = []; window.__audio.gains.push(g); this.gain = new FakeParam(g); }
}
window.AudioContext = class {
  constructor() { this.currentTime = 12.5; this.state = "running"; this.destination = new FakeNode(); }
  createOscillator() { return new FakeOscillator(); }
  createGain() { return new FakeGain(); }
  resume() { return Promise.resolve(); }
};
"""


def test_the_page_plays_each_board_sound_once_with_the_firmware_s_tones(browser, server):
    from vortex.app import sounds
    start(server, BATTLE)
    settled(server, 0)
    server.game.command("set", {"name": "volume", "value": "soft"})
    server.game.command("act", {"action": "e2d3"})  # a sound before the page opens: not played
    with server.game.lock:
        assert server.game.rig.until(lambda: server.game.rig.virtual.buzzer.played, 3000)
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.add_init_script(FAKE_AUDIO)
    pg.goto(server.url)
    pg.wait_for_function("window.vortex.drawn > 0")
    server.game.command("tidy", {})
    settled(server, 0)
    assert pg.evaluate("window.__audio.tones") == []

    def heard(n):
        pg.wait_for_function("window.__audio.tones.length >= %d" % n, timeout=5000)
        time.sleep(0.3)  # states keep coming (the flash): no tone twice
        return pg.evaluate("window.__audio")

    server.game.command("act", {"action": "e2d3"})
    audio = heard(2)
    notes = sounds.NOTES[sounds.ILLEGAL]
    tones = audio["tones"]
    assert [t["hz"] for t in tones] == [notes[0], notes[2]] and {t["type"] for t in tones} == {"square"}
    for tone, ms in zip(tones, (notes[1], notes[3])):
        assert abs(tone["stop"] - tone["start"] - ms / 1000) < 1e-6
    assert abs(tones[1]["start"] - tones[0]["stop"]) < 1e-6  # one after the other
    soft = max(v for g in audio["gains"] for v, _ in g)
    assert pg.evaluate("window.vortex.sounds") == ["illegal"]
    # Loud is louder; off plays nothing; a request asks with its own tones, rests left out.
    server.game.command("tidy", {})
    settled(server, 0)
    server.game.command("set", {"name": "volume", "value": "loud"})
    with server.game.lock:
        commands_request(server, "e2e4")
    audio = heard(4)
    asks = sounds.NOTES[sounds.ASKS]
    assert [t["hz"] for t in audio["tones"][2:]] == [asks[0], asks[4]]
    assert abs(audio["tones"][3]["start"] - audio["tones"][2]["stop"] - asks[3] / 1000) < 1e-6
    loud = max(v for g in audio["gains"][2:] for v, _ in g)
    assert loud > 4 * soft
    server.game.command("set", {"name": "volume", "value": "off"})
    server.game.command("act", {"action": "d2c3"})  # not the action asked for
    time.sleep(1.0)
    assert len(pg.evaluate("window.__audio.tones")) == 4
    assert pg.evaluate("window.vortex.sounds") == ["illegal", "asks"]
    server.game.command("set", {"name": "volume", "value": "soft"})
    server.game.command("tidy", {})
    assert not errors, errors
    pg.close()


def commands_request(server, text):
    from vortex.app import commands
    commands.request(server.game.rig.board, text)


def test_online_the_page_shows_the_opponent_gone_and_back(browser, mosquitto):
    """vortex play --online: the page's own server in a room on mosquitto
    (the mosquitto fixture: tests/conftest.py), the opponent a Player in
    this process. The page says who is here, shows the opponent's action
    to carry out, and says when the opponent is gone and when back."""
    from host_sim.web.game import Game
    from host_sim.web.server import Server
    from host_sim.online.client import Address
    from host_sim.online.player import Player
    from vortex.engine import LIGHT, DARK
    from vortex.engine.notation import action_text
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    address = Address.parse(mosquitto.address)

    def opponent():
        return Player(address, "page-room", "s", DARK, device="dddddddd", settle_s=0.3).start()

    def wait(what, test, timeout=10.0):
        """The opponent's client polled (it has no loop of its own) until test()."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            dark.poll(0.02)
            if test():
                return
        raise AssertionError("waited for " + what)

    def shown(opponent):
        wait("the page to show the opponent " + opponent, lambda: pg.evaluate(
            "document.querySelector('#online').dataset.opponent") == opponent)

    game = Game(Settings(ai_side=NO_AI))
    game.play_online(Player(address, "page-room", "s", LIGHT, device="llllllll", settle_s=0.3).start())
    s = Server(game)
    s.start()
    dark = opponent()
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    errors = opened(pg, s.url)
    try:
        online = pg.locator("#online")
        online.wait_for(state="visible")
        shown("here")
        assert "you play light; your opponent (dark) is here" in online.inner_text()
        assert "ok" in online.get_attribute("class")
        game.command("act", {"action": "W@d4"})  # the page's hands: light's action goes to the room
        wait("light's action", lambda: dark.ready() and dark.room.actions == ["W@d4"])
        dark.act("F@e5")
        wait("the board to ask for F@e5", lambda: "F@e5" in pg.locator("#pending").inner_text())
        shot(pg, "online-asks")
        dark.conn.kill()  # gone without a word: the broker sends its will
        shown("gone")
        assert "your opponent (dark) is gone" in online.inner_text()
        assert "down" in online.get_attribute("class")
        shot(pg, "online-gone")
        dark = opponent()
        shown("here")
        game.command("act", {})  # carry out the opponent's action the board asks for
        wait("the room's game on both sides", lambda: game.online.player.room.actions
             == ["W@d4", "F@e5"] == [action_text(a) for a in game.rig.board.pos.stack])
        assert not errors, errors
    finally:
        pg.close()
        s.stop()
        game.online.player.close()
        dark.close()
