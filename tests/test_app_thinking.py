"""The board is never deaf while the AI thinks: the search runs the board's
own pass (vortex.app.service) every few milliseconds, so buttons are acted
on (a takeback or a new game stops the search and drops its answer), the
host link answers, and the reeds are scanned. On the virtual board, each
search node costs the device's time (Rig node_us), so a level-5 search
takes seconds of board time, as on the RP2040. Plain asserts (dual-run)."""
from host_sim.scenario import Rig
from vortex.app.buttons import A, B
from vortex.app.session import Settings
from vortex.engine.defs import DARK, LIGHT
from vortex.engine.position import START
from vortex.link.link import Link
from vortex.app.service import POLL_US, THINK_POLL_US
from link_pipe import Pipe
from test_app_idle import BATTLE

NODE_US = 264  # the emulated Pico's level-5 search: 3,788 nodes a second (make bench-device)


def thinking_rig(node_us=NODE_US):
    return Rig(BATTLE, settings=Settings(ai_side=DARK, ai_level=5), node_us=node_us)


def press_while_thinking(rig, button, after_ms, hold_ms=100):
    """Make the rig's buttons hold `button` from after_ms into the AI's
    thinking, for hold_ms; returns a dict that records when it was."""
    seen = {}

    def buttons():
        if rig.board.thinking:
            t0 = seen.setdefault("start", rig.now)
            if after_ms <= rig.now - t0 < after_ms + hold_ms:
                seen["pressed"] = rig.now
                return button
        return 0
    rig.service.buttons = buttons
    return seen


def test_a_takeback_pressed_while_the_ai_thinks_stops_it():
    rig = thinking_rig()
    seen = press_while_thinking(rig, A, 100)
    rig.run("play e2e4")
    board = rig.board
    assert "pressed" in seen  # the press fell inside the search
    assert board.pos.stack == [] and board.pos.side == LIGHT  # the human's move taken back
    assert board.pending == -1 and not board.thinking
    assert board.ai.search.stop  # stopped, not finished: its answer was dropped
    rig.service.buttons = rig._buttons
    rig.run("lift e4, place e2, settle")  # the board is put back; the game goes on
    assert rig.agrees() and board.pending == -1 and board.pos.side == LIGHT


def test_a_new_game_held_while_the_ai_thinks_stops_it():
    rig = thinking_rig()  # level 5 thinks for seconds: long enough to hold A and B
    press_while_thinking(rig, A | B, 200, hold_ms=1100)
    rig.run("play e2e4")
    board = rig.board
    assert board.start == START and board.pos.stack == []
    assert board.pending == -1 and not board.thinking


def test_the_link_answers_and_the_reeds_are_scanned_while_the_ai_thinks():
    link_pipe = Pipe()
    rig = thinking_rig()
    rig.service.link = Link(rig.board)
    rig.service.port = link_pipe
    asked = {}
    passes = {}

    def show(frame):  # each new frame: the moment to ask, once the search is under way
        b = rig.board
        if b.thinking and "at" not in asked and rig.now - passes.get("start", rig.now) >= 200:
            link_pipe.send("status\n")
            asked["at"] = rig.now
    rig.on_frame = show
    scans = rig.virtual.reeds

    real_scan = scans.scan

    def counted_scan(now):
        if rig.board.thinking:
            passes.setdefault("start", now)
            passes["last"] = now
            passes["n"] = passes.get("n", 0) + 1
            if "at" in asked and "answered" not in asked:
                for line in link_pipe.lines():
                    if " ok status " in line:
                        asked["answered"] = now
                        asked["line"] = line
        real_scan(now)
    scans.scan = counted_scan
    rig.run("play e2e4")
    board = rig.board
    assert board.pending >= 0  # it thought to the end and asks for its action
    seconds = (passes["last"] - passes["start"]) / 1000
    assert seconds > 0.5 and passes["n"] / seconds >= 100, passes  # the reeds at 100 Hz or more
    assert asked["answered"] - asked["at"] <= 50, asked  # the host answered within 50 ms
    # ... from the game, not from the position the search was looking at.
    assert "side dark actions 1 " in asked["line"], asked["line"]


def test_the_search_s_time_cap_runs_on_the_board_s_clock():
    # Level 5 stops at 3 s. Here each node costs 30 ms of board time, so the
    # cap falls after about 100 nodes of board time, however fast or loaded
    # the host is (on the host's own clock the search would go on to its node
    # budget, or stop wherever a loaded machine's 3 s fell: a flaky test).
    rig = thinking_rig(node_us=30000)
    rig.run("play e2e4")
    search = rig.board.ai.search
    assert rig.board.pending >= 0  # it answered
    assert search.nodes <= 3000 // 30 + 8  # the clock is looked at every 8 nodes


def test_a_pass_the_search_makes_keeps_the_tile_readers_wait_short():
    # An ordinary pass lets the tile scanner stay POLL_US for readers coming
    # due (the board's own work, between two such waits, would hold their
    # exchanges up); a pass made from inside the search only THINK_POLL_US,
    # so that the search keeps most of the CPU.
    rig = thinking_rig()
    tiles = rig.service.tiles
    real = tiles.poll
    budgets = {}

    def poll(now, between=None, budget_us=None):
        budgets.setdefault(rig.board.thinking, set()).add(budget_us)
        return real(now, between, budget_us)
    tiles.poll = poll
    rig.run("play e2e4")
    assert rig.board.pending >= 0  # it answered
    assert budgets == {False: {POLL_US}, True: {THINK_POLL_US}}, budgets
    assert THINK_POLL_US < POLL_US
