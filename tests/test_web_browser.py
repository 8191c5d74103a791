"""The browser simulator in a real browser: Playwright driving Debian's
chromium, by mouse, against the server running the firmware in this process.
After each thing done, the page's LEDs and board are checked against the
firmware's own frame and game. Screenshots and figures go to build/screenshots/.

Skips (with the reason) where Playwright or chromium cannot be had; `make
test` installs both where it can (chromium with apt-get when root).
"""
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


@pytest.fixture(scope="module")
def page(browser, server):
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())  # "leave this game?": yes
    pg.goto(server.url)
    pg.wait_for_function("window.vortex.drawn > 0")
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
    page.wait_for_function("""c => { const e = document.querySelector(`[data-cell="${c}"]`);
        const [r, g, b] = e.dataset.rgb.split(',').map(Number); return r > 0 && g === 0 && b === 0; }""",
                           arg=cell_name(bad), timeout=3000)
    shot(page, "07-illegal-red")
    with server.game.lock:
        assert server.game.rig.board.flashing
    drag(page, cell_name(bad), cell_name(frm))
    settled(server, 0)
    # The flash runs its course (ERROR_MS), then no cell is red.
    page.wait_for_function("""() => ![...document.querySelectorAll('.cell')].some(e => {
        const [r, g, b] = e.dataset.rgb.split(',').map(Number); return r > 0 && g === 0 && b === 0; })""",
                           timeout=4000)
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


def test_hold_b_opens_the_settings_menu_on_the_leds(page, server):
    start(server)
    settled(server, 0)
    btn = page.locator("#btn-b")
    btn.hover()
    page.mouse.down()
    page.wait_for_function("window.vortex.state.menu", timeout=3000)
    page.mouse.up()
    in_step(page, server)
    assert page.is_visible("#menu-legend")
    shot(page, "11-settings-menu")
    btn.hover()
    page.mouse.down()
    page.wait_for_function("!window.vortex.state.menu", timeout=3000)
    page.mouse.up()


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
    assert answer == [400, "no cell 'z9' on the board"]
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
