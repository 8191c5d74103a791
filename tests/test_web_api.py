"""The browser simulator's server without a browser: real HTTP on localhost,
bad requests answered cleanly, the game kept, every page told of changes."""
import json
import threading
import urllib.error
import urllib.request

import pytest

import host_sim  # noqa: F401
from host_sim.web.game import Game, MemoryStore
from host_sim.web.server import Server
from host_sim.__main__ import main as host_sim_main
from vortex.app import session
from vortex.app.session import Settings, NO_AI
from vortex.engine import DARK


@pytest.fixture()
def server():
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


def test_bad_requests_get_a_reason_and_change_nothing(server):
    before = json.loads(get(server, "/api/state")[1])["position"]
    assert post(server, "lift", b"{bad") [0] == 400
    assert post(server, "lift", b"[1]") == (400, {"error": "the arguments must be a JSON object"})
    assert post(server, "fly", {}) == (400, {"error": "no such request: fly"})
    assert post(server, "lift", {"cell": "z9"}) == (400, {"error": "no cell 'z9' on the board"})
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
                            "no setting mode: ai, clock, brightness, budget, hearts, level")):
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
        host_sim_main(["web", "--help"])
    assert e.value.code == 0
    assert "--port" in capsys.readouterr().out


@pytest.mark.parametrize("args", (["--position", "nonsense"], ["--port", "70000"], ["--ai", "purple"],
                                  ["--clock", "x"]))
def test_a_bad_option_is_one_line(capsys, args):
    with pytest.raises(SystemExit) as e:
        host_sim_main(["web", "--no-browser"] + args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err
