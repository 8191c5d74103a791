"""The board at the end of the page's link (host_sim/web/board/linked.py),
under CPython with a recorded link: its game kept from the record and the
events, the echoes of its own commands recognised, what does not follow
sent back to the record, a refused request not asked again each pass, a
game given whole in lines the link takes. The page runs the same module
under MicroPython (tests/test_web_python.py, tests/test_web_board.py)."""
from host_sim.web.board.linked import Linked, LINE_MAX
from vortex import record
from vortex.app import commands
from vortex.app.commands import CommandError
from vortex.engine import Position, action_text
from vortex.engine.position import START

import pytest


def linked(actions=("W@d4", "F@e5")):
    sent = []
    b = Linked(sent.append)
    assert b.read_record(record.write({}, START, list(actions)))
    return b, sent


def texts(b):
    return [action_text(a) for a in b.pos.stack]


def test_the_game_follows_the_events():
    b, _ = linked()
    assert b.event("action", "3 A@a1") is True and texts(b) == ["W@d4", "F@e5", "A@a1"]
    assert b.event("action", "3 A@a1") is False  # a repeat
    assert b.event("action", "5 E@b2") == "resync"  # a gap: the record says what happened
    assert b.event("action", "4 Z@z9") == "resync"  # not an action
    assert b.event("action", "x y") == "resync" and b.event("takeback", "") is False
    assert b.event("takeback", "1") is True and texts(b) == ["W@d4"]
    assert b.event("takeback", "5") == "resync"
    assert b.event("asks", "F@e5") is True and action_text(b.pending) == "F@e5"
    assert b.event("asks", "-") is True and b.pending == -1
    assert b.event("new", START) == "resync"  # a game begun on the board: read its record
    assert b.event("verdict", "agree") is False


def test_the_same_game_read_again_keeps_its_position():
    b, _ = linked()
    pos = b.pos
    assert not b.read_record(record.write({}, START, ["W@d4", "F@e5"]))
    assert b.pos is pos  # a cable back: the online client sees no new game
    assert b.read_record(record.write({}, START, ["W@d4"])) and b.pos is not pos
    with pytest.raises(ValueError):
        b.read_record("not a record at all 1. Z@z9")


def test_its_own_commands_are_not_taken_twice():
    b, sent = linked()
    assert b.takeback() and sent[-1] == "takeback" and texts(b) == ["W@d4"]
    assert b.event("takeback", "1") is False and texts(b) == ["W@d4"]  # the echo
    commands.take_game(b, START, ["W@d4", "F@e5", "A@a1"])
    assert sent[-3:] == ["game " + START, "game + W@d4 F@e5 A@a1", "game end"]
    pos = b.pos
    assert b.event("new", START) is False and b.pos is pos  # the echo
    assert b.event("new", START) == "resync"  # another one is the board's own


def test_a_refused_request_is_not_asked_again_each_pass():
    b, sent = linked()
    commands.request(b, "A@a1")
    assert sent[-1] == "request A@a1" and action_text(b.pending) == "A@a1"
    b.refused("request A@a1", "the settings menu is open on the board")
    assert b.pending == -1
    with pytest.raises(CommandError):
        commands.request(b, "A@a1")
    b.event("action", "3 E@b2")  # the game moved: asked again
    commands.request(b, "A@a2")
    assert sent[-1] == "request A@a2"


def test_a_long_game_goes_in_lines_the_link_takes():
    p = Position()
    actions = []
    while len(actions) < 64:
        a = next(iter(p.legal_actions()))
        actions.append(action_text(a))
        p.push(a)
    b, sent = linked(())
    n = len(sent)
    commands.take_game(b, START, actions)
    lines = sent[n:]
    assert lines[0] == "game " + START and lines[-1] == "game end"
    assert all(len(line) <= LINE_MAX for line in lines)
    assert " ".join(l[7:] for l in lines[1:-1]).split() == actions
    assert texts(b) == actions


def test_the_view_is_the_engines():
    import json
    b, _ = linked()
    v = json.loads(b.view())
    p = Position()
    for a in ("W@d4", "F@e5"):
        p.push(p.parse_action(a))
    assert v["position"] == p.text() and v["tiles"] == list(p.tiles)
    assert v["pieces"] == list(p.pieces) and v["actions"] == ["W@d4", "F@e5"]
    assert v["side"] == "light" and v["building"] and v["result"] is None
    assert json.loads(Linked(print).view()) is None


def test_vortex_play_serves_the_boards_page():
    """The simulator's server serves make web's files under /board/."""
    import json
    import urllib.request
    import urllib.error
    from host_sim.web.game import Game
    from host_sim.web.server import Server
    from host_sim.web.board import files
    s = Server(Game())
    s.start()
    try:
        url = "http://127.0.0.1:%d/board/" % s.server_address[1]
        with urllib.request.urlopen(url) as r:
            assert b"Connect the board" in r.read()
            assert r.headers["Content-Type"].startswith("text/html")
        with urllib.request.urlopen(url + "py/manifest.json") as r:
            names = json.loads(r.read())
        assert "page.mpy" in names or "page.py" in names
        assert any(n.startswith("vortex/online/client.") for n in names)
        with urllib.request.urlopen(url[:-1]) as r:  # /board: to /board/
            assert r.geturl().endswith("/board/")
        if files.missing() is None:
            with urllib.request.urlopen(url + "vendor/micropython.wasm") as r:
                assert r.headers["Content-Type"] == "application/wasm"
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url + "../../etc/passwd".replace("../", "%2e%2e/"))
        assert e.value.code == 404
    finally:
        s.stop()
