"""The browser simulator's server without a browser: real HTTP on localhost,
bad requests answered cleanly, the game kept, every page told of changes."""
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

import host_sim  # noqa: F401
from host_sim.web.game import Game, MemoryStore
from host_sim.web.server import Server, MAX_BODY
from host_sim.__main__ import main as host_sim_main
from vortex.app import session
from vortex.app.session import Settings, NO_AI
from vortex.engine import DARK, Position
from vortex.app.recognise import AGREE


@pytest.fixture()
def server():
    s = Server(Game(Settings()))
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def shared():
    """One server for the tables of bad requests, which change nothing."""
    s = Server(Game(Settings()))
    s.start()
    yield s
    s.stop()


def get(s, path):
    with urllib.request.urlopen(s.url + path.lstrip("/"), timeout=5) as r:
        return r.status, r.read()


def post(s, op, body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(s.url + "api/" + op, data=data, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_serves_the_page_and_nothing_outside_static(server):
    status, body = get(server, "/")
    assert status == 200 and b"<title>Vortex board simulator</title>" in body
    assert get(server, "/static/app.js")[0] == 200
    for path in ("/static/../game.py", "/static/%2e%2e/game.py", "/nothing"):
        with pytest.raises(urllib.error.HTTPError) as e:
            get(server, path)
        assert e.value.code == 404


def test_the_version_is_the_simulators(server):
    from host_sim import version
    assert json.loads(get(server, "/api/version")[1]) == {"version": version.current()}


def test_bad_requests_get_a_reason_and_change_nothing(server):
    before = json.loads(get(server, "/api/state")[1])["position"]
    assert post(server, "lift", b"{bad") [0] == 400
    assert post(server, "lift", b"[1]") == (400, {"error": "the arguments must be a JSON object"})
    assert post(server, "fly", {}) == (400, {"error": "no such request: fly"})
    assert post(server, "lift", {"cell": "z9"}) == (400, {"error": "cell: no cell 'z9' on the board"})
    assert post(server, "lift", {"cell": 64})[0] == 400
    assert post(server, "lift", {}) [0] == 400
    assert post(server, "put", {"cell": "e4"}) == (200, {"error": "the hand is empty"})
    assert post(server, "lift", {"cell": "e4"}) == (200, {"error": "no tile on e4"})
    assert post(server, "move", {"from": "e1", "to": "e2"}) == (
        200, {"error": "e2 holds a piece of the same side"})
    assert post(server, "move", {"from": "e1", "to": "e1"}) == (200, {})
    assert post(server, "lift", {"cell": "e2", "id": "x"})[0] == 400
    status, answer = post(server, "new", {"position": "8/8 nonsense"})
    assert status == 200 and answer["error"].startswith("position not loaded:")
    assert post(server, "act", {"action": "Q@z9"})[1]["error"]
    assert post(server, "view", {"ply": 3})[0] == 400
    state = json.loads(get(server, "/api/state")[1])
    assert state["position"] == before and state["hand"] == []


def raw(s, head, body=b"", wait=3.0):
    """Send a request as bytes; (status, JSON answer, seconds taken), the
    connection closed by the server (or the wait run out: status None)."""
    host, port = s.server_address[:2]
    t0 = time.monotonic()
    with socket.create_connection((host, port), timeout=wait) as c:
        c.sendall(head.replace(b"\n", b"\r\n") + b"\r\n" + body)
        got = b""
        try:
            while True:  # the server answers and closes; a client that stays gets nothing more
                chunk = c.recv(65536)
                if not chunk:
                    break
                got += chunk
                if b"\r\n\r\n" in got:
                    top, _, rest = got.partition(b"\r\n\r\n")
                    n = int(top.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    if len(rest) >= n:
                        break
        except socket.timeout:
            return None, None, time.monotonic() - t0
    top, _, rest = got.partition(b"\r\n\r\n")
    return int(top.split()[1]), json.loads(rest), time.monotonic() - t0


def post_head(op, length):
    return b"POST /api/%s HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: %s\n" % (
        op.encode(), length.encode())


@pytest.mark.parametrize("length, body, codes", (
    ("-1", b"", (400,)),                        # once: no answer, a thread waiting for ever
    ("-5", b'{"cell": "e2"}', (400,)),
    ("abc", b"{}", (400,)),
    ("1e3", b"{}", (400,)),
    (str(MAX_BODY + 1), b'{"cell": ', (400, 413)),  # the body not waited for, nor read
    ("99999999999999999999", b"", (400, 413)),
))
def test_a_bad_content_length_is_answered_at_once_in_one_line(shared, capfd, length, body, codes):
    server = shared
    status, answer, took = raw(server, post_head("lift", length), body)
    assert status in codes and took < 2.0, (status, took)
    assert set(answer) == {"error"} and "\n" not in answer["error"] and answer["error"]
    # The server goes on serving, and said nothing to its terminal.
    assert post(server, "lift", {"cell": "e2"}) == (200, {})
    assert post(server, "put", {"cell": "e2"}) == (200, {})
    assert "Traceback" not in capfd.readouterr().err


def test_deep_json_is_a_400_in_one_line(server, capfd):
    for deep in (b"[" * 100000, b'{"cell": ' * 50000, b"[" * 100000 + b"]" * 100000):
        status, answer = post(server, "lift", deep)
        assert status == 400 and "\n" not in answer["error"], (status, answer)
    assert "Traceback" not in capfd.readouterr().err
    assert json.loads(get(server, "/api/state")[1])["hand"] == []


# Every request with each of its arguments wrong in kind: a 400 naming the
# argument, in one line; nothing done (game.py checks them all one way).
BAD_ARGUMENTS = [
    ("button", {"a": "yes"}), ("button", {"b": 2}), ("button", {"a": None}),
    ("button", {"a": True, "c": True}),
    ("lift", {"cell": "e2", "tile": "yes"}), ("lift", {"cell": ["e2"]}), ("lift", {"cel": "e2"}),
    ("lift", {"cell": True}), ("lift", {"cell": 2.5}),
    ("put", {"cell": "e4", "item": "0"}), ("put", {"cell": "e4", "item": 1.5}), ("put", {}),
    ("move", {"from": "e2"}), ("move", {"from": "e2", "to": 28.0}),
    ("move", {"from": "e2", "to": "e4", "tile": "no"}),
    ("lay", {"terrain": 1, "cell": "d4"}), ("lay", {"terrain": "X", "cell": "d4"}),
    ("lay", {"terrain": "", "cell": "d4"}), ("lay", {"terrain": "WF", "cell": "d4"}),
    ("from-tray", {"piece": 1, "cell": "a3"}), ("from-tray", {"piece": "T"}),
    ("aside", {"item": "last"}),
    ("act", {"action": 12}), ("act", {"action": ["e2e4"]}),
    ("tidy", {"all": True}), ("takeback", {"n": 2}), ("hint", {"side": "light"}),
    ("new", {"position": 5}), ("new", {"mode": "two"}),
    ("set", {"name": "ai"}), ("set", {"name": 1, "value": "off"}),
    ("set", {"name": "ai", "value": ["off"]}), ("set", {"name": "ai", "value": None}),
    ("set", {"name": "level", "value": True}),
    ("record", {"text": 3}), ("record", {}),
    ("sensors", {"misread": "lots"}), ("sensors", {"bounce_ms": -1}), ("sensors", {"misread": 501}),
    ("sensors", {"bounce_ms": 1.5}), ("sensors", {"noise": 3}), ("sensors", {"supply": "5a"}),
    ("sensors", {"supply": 3}), ("sensors", {"supply": "none"}),
    ("view", {"ply": "1"}), ("view", {"ply": -1}), ("view", {}),
]


@pytest.mark.parametrize("op, args", BAD_ARGUMENTS)
def test_every_request_checks_its_arguments(shared, op, args):
    server = shared
    before = json.loads(get(server, "/api/state")[1])
    status, answer = post(server, op, args)
    assert status == 400 and set(answer) == {"error"}, (status, answer)
    assert "\n" not in answer["error"] and len(answer["error"]) < 200
    after = json.loads(get(server, "/api/state")[1])
    for key in ("position", "hand", "tiles", "pieces", "settings", "sensors", "tray"):
        assert after[key] == before[key], key


def test_every_request_is_in_the_bad_arguments_table():
    from host_sim.web.game import REQUESTS
    assert {op for op, _ in BAD_ARGUMENTS} == set(REQUESTS)


def test_the_docs_name_every_request_with_its_arguments():
    from host_sim.web.game import REQUESTS
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "docs", "simulator.md")) as f:
        text = " ".join(f.read().split())
    for op, params in REQUESTS.items():
        want = "`%s {%s}`" % (op, ", ".join(params)) if params else "`%s`" % op
        assert want in text, want


def test_the_opponent_changes_now_and_is_saved_with_the_game():
    store = MemoryStore()
    s = Server(Game(Settings(), store=store))
    s.start()
    try:
        assert post(s, "set", {"name": "ai", "value": "dark"}) == (200, {})
        assert post(s, "set", {"name": "level", "value": 1}) == (200, {})
        settings = s.game.rig.board.settings
        assert (settings.ai_side, settings.ai_level) == (DARK, 1)
        assert session.load(store.load())[0].fields() == settings.fields()
        state = json.loads(get(s, "/api/state")[1])
        assert (state["settings"]["ai"], state["settings"]["level"]) == ("dark", "1")
        # The board's own words for what it refuses (vortex.app.commands), as the link's.
        for bad, error in (({"name": "ai", "value": "blue"}, "ai is off, light or dark"),
                           ({"name": "level", "value": 6}, "level is 1, 2, 3, 4 or 5"),
                           ({"name": "level", "value": "0"}, "level is 1, 2, 3, 4 or 5"),
                           ({"name": "mode", "value": "two"},
                            "no setting mode: ai, clock, brightness, budget, hearts, level, volume")):
            assert post(s, "set", bad) == (200, {"error": error})
        assert (settings.ai_side, settings.ai_level) == (DARK, 1)  # nothing changed
        assert post(s, "set", {"name": "ai", "value": "off"}) == (200, {})
        assert (settings.ai_side, settings.ai_level) == (NO_AI, 1)
    finally:
        s.stop()


def test_hands_move_things_and_the_firmware_answers(server):
    assert post(server, "lay", {"terrain": "W", "cell": "d4", "id": 7}) == (200, {})
    state = json.loads(get(server, "/api/state")[1])
    assert state["ack"] == 7 and state["tiles"][27] == 1
    assert post(server, "act", {"action": "F@e5"}) == (200, {})
    g = server.game
    with g.lock:
        g.rig.settle()
        assert [g.rig.board.pos.action_text(a) for a in g.rig.board.pos.stack] == ["W@d4", "F@e5"]
    view = post(server, "view", {"ply": 1})[1]
    assert view["tiles"][27] == 1 and view["tiles"][36] == 0
    # A piece taken off the board waits beside it, and a hand can take it back.
    assert post(server, "lift", {"cell": "a2"}) == (200, {})
    assert post(server, "aside", {}) == (200, {})
    assert json.loads(get(server, "/api/state")[1])["tray"][1] == 1
    assert post(server, "from-tray", {"piece": "T", "cell": "a2"}) == (200, {})
    assert post(server, "from-tray", {"piece": "T", "cell": "a3"})[1]["error"].startswith(
        "no Light Traveller in the tray")
    # A tile laid where a piece stands: the hand lifts it, lays the tile, puts it back.
    assert post(server, "lay", {"terrain": "E", "cell": "e2"}) == (200, {})
    state = json.loads(get(server, "/api/state")[1])
    assert state["tiles"][12] == 3 and state["pieces"][12] == 1 and state["hand"] == []


def test_the_next_hand_counts_at_once_after_a_new_game_or_a_tidy(server):
    # "New game" lays the board out at once; the firmware must have seen it
    # before the next hand, or that hand's action is taken for a board still
    # being put back (it once stayed at "put the board back" for good).
    g = server.game
    full = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
            "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
    for first, then in ((full, None), (None, full)):
        assert post(server, "new", {"position": first} if first else {}) == (200, {})
        if then:
            with g.lock:  # the board, not the game, now shows another position
                g.rig.virtual.arrange(Position(then), g.rig.now)
            assert post(server, "tidy", {}) == (200, {})
        with g.lock:
            assert g.rig.board.verdict == AGREE and g.rig.board.judged
            before = len(g.rig.board.pos.stack)
            g.rig.play(g.rig.board.pos.parse_action("e2e3" if first else "W@d4"), settle=False)
            assert len(g.rig.board.pos.stack) == before + 1


def test_the_source_sets_the_budget_and_the_state_carries_each_sound(server):
    import power                       # hardware/power.py (host_sim puts hardware/ on the path)
    a3 = power.LED_BUDGET_MA[power.SOURCE_3A0] + 64     # the 64 LEDs' idle draw on top
    state = json.loads(get(server, "/api/state")[1])
    assert (state["supply"], state["supply_ma"], state["budget_ma"]) == ("3a", a3, a3)
    assert state["sound"] is None and state["settings"]["volume"] == "soft"
    assert post(server, "sensors", {"supply": "usb"}) == (200, {})
    state = json.loads(get(server, "/api/state")[1])
    assert (state["supply"], state["budget_ma"]) == ("usb", 242)
    assert state["current_ma"] <= 242
    assert post(server, "set", {"name": "budget", "value": 300}) == (200, {})
    assert json.loads(get(server, "/api/state")[1])["budget_ma"] == 242  # a cap never raises it
    # A placement off the building phase's rules: the board refuses it and sounds.
    full = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
            "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
    assert post(server, "new", {"position": full}) == (200, {})
    assert post(server, "set", {"name": "volume", "value": "loud"}) == (200, {})
    assert post(server, "act", {"action": "e2d3"})[1]["note"].startswith("illegal e2d3")
    g = server.game
    with g.lock:
        g.rig.until(lambda: g.rig.virtual.buzzer.count, 3000)
    sound = json.loads(get(server, "/api/state")[1])["sound"]
    assert (sound["id"], sound["name"], sound["volume"]) == (1, "illegal", "loud")
    assert sound["notes"] == [[1319, 110], [988, 220]]
    # A record loaded makes a new rig: sound ids go on from where they were.
    with g.lock:
        g._fresh(g.rig.board.settings, full)
        g.rig.board.request(g.rig.board.pos.parse_action("e2e4"))
        g.rig.tick(2)
    assert json.loads(get(server, "/api/state")[1])["sound"]["id"] == 2


def test_every_page_hears_of_a_change(server):
    def first_events(n, out):
        with urllib.request.urlopen(server.url + "events", timeout=5) as r:
            while len(out) < n:
                line = r.readline()
                if line.startswith(b"data: "):
                    out.append(json.loads(line[6:]))

    seen = [[], []]
    threads = [threading.Thread(target=first_events, args=(2, out)) for out in seen]
    for t in threads:
        t.start()
    while any(not out for out in seen):
        threading.Event().wait(0.01)
    post(server, "lift", {"cell": "e2"})
    for t in threads:
        t.join(5)
    assert seen[0][-1]["hand"] == seen[1][-1]["hand"] == [["piece", 1]]


def test_help_only_prints_help(capsys):
    with pytest.raises(SystemExit) as e:
        host_sim_main(["play", "--help"])
    assert e.value.code == 0
    assert "--port" in capsys.readouterr().out


@pytest.mark.parametrize("args", (["--position", "nonsense"], ["--port", "70000"], ["--ai", "purple"],
                                  ["--clock", "x"]))
def test_a_bad_option_is_one_line(capsys, args):
    with pytest.raises(SystemExit) as e:
        host_sim_main(["play", "--no-browser"] + args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err
