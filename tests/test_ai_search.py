"""The AI's search on constructed positions: tactics it must never miss,
its bounds, and only legal actions. Runs on CPython and under MicroPython
(tests/test_ai_micropython.py)."""
from vortex.engine.position import Position
from vortex.engine.defs import AWAKENED, HEART
from vortex.ai.search import Search
from vortex.app.ai import Ai

# Earth on ranks 8-7 (where the tactics are), Water, Fire, Air below.
EARTH8 = "EEEEEEEE/EEEEEEEE/WWWWWWWW/WWWWWWWW/FFFFFFFF/FFFFFFFF/AAAAAAAA/AAAAAAAA"
MIXED = "WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE/WFEAWFEA/FEAWFEAW/EAWFEAWF/AWFEAWFE"
LEVELS = (1, 2, 3, 4, 5)


def heart_taken_by(pos, side):
    """Has `side`, acting now, an action that takes the enemy Heart?"""
    for a in pos.legal_actions():
        if a < 4096 and pos.pieces[a & 63] and pos.pieces[a & 63] & 3 == HEART:
            return True
    return False


def test_heart_capture_in_one_always_found():
    # Light's Traveller on d7 steps onto the Dark Heart on e8.
    pos = Position(EARTH8 + " 4h3/3T4/8/8/8/t7/8/4H3 l 0,0")
    for level in LEVELS:
        for seed in (1, 2, 3):
            assert pos.action_text(Ai(level=level, seed=seed).choose(pos)) == "d7e8", level


def test_heart_threat_in_one_is_defended():
    # Light's Traveller on d7 reaches the Dark Heart on e8; Dark, to act,
    # must move its Heart out of reach (it cannot take a Traveller on Earth).
    pos = Position(EARTH8 + " 4h3/3T4/8/8/8/t7/8/4H3 d 0,0")
    for level in LEVELS:
        for seed in (1, 2):
            a = Ai(level=level, seed=seed).choose(pos)
            pos.push(a)
            assert not heart_taken_by(pos, 0), (level, pos.action_text(a))
            pos.pop()


def test_awakening_in_one_preferred_to_a_quiet_move():
    pos = Position(EARTH8 + " 7h/2T5/8/8/8/8/8/4H3 l 0,0")
    for level in LEVELS:
        a = Ai(level=level, seed=5).choose(pos)
        pos.push(a)
        assert pos.pieces[a & 63] & 3 == AWAKENED, (level, pos.action_text(a))
        pos.pop()


def test_node_budget_is_respected():
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    s = Search(max_ply=4, tt_bits=8)
    for budget in (1, 50, 300):
        a = s.run(pos, 6, budget)
        assert s.nodes <= budget and pos.is_legal(a)


def test_time_cap_is_respected():
    # A clock that advances 1 ms a reading: a 3 ms cap stops the search
    # at its second check, far below the node budget.
    t = [0]

    def clock():
        t[0] += 1
        return t[0]
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    s = Search(max_ply=4, tt_bits=8, clock=clock)
    a = s.run(pos, 6, 100000, 3)
    assert s.nodes <= 4 * 64 and pos.is_legal(a)


def test_poll_is_called_while_it_thinks():
    calls = [0]

    def poll():
        calls[0] += 1
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    s = Search(max_ply=4, tt_bits=8, poll=poll)
    s.run(pos, 3, 640)
    assert s.nodes == 640 and calls[0] == 640 // 8  # every 8 nodes


def test_only_legal_actions_and_the_position_restored():
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    players = (Ai(level=2, seed=3), Ai(level=3, seed=4))
    for _ in range(16):
        if pos.outcome() is not None:
            break
        before = pos.text()
        depth = len(pos.stack)
        a = players[pos.side].choose(pos)
        assert pos.text() == before and len(pos.stack) == depth
        assert pos.is_legal(a)
        pos.push(a)


def test_deterministic_for_a_seed():
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    assert Ai(level=1, seed=9).choose(pos) == Ai(level=1, seed=9).choose(pos)
    start = Position()
    assert Ai(level=3, seed=9).choose(start) == Ai(level=3, seed=9).choose(start)


def test_building_phase_shelters_own_travellers():
    # With nothing else to weigh, Earth goes under an own Traveller.
    pos = Position()
    a = Ai(level=5, seed=1).choose(pos)
    assert pos.action_text(a)[0] == "E" and pos.pieces[a & 63] & 3 == 1 and not pos.pieces[a & 63] >> 2


def test_advance_weighs_the_awakening_term_and_a_shared_search_follows_it():
    # A Traveller two ranks from awakening: the evaluation's awakening term
    # counts twice with advance=2 (the deep levels). A search switched
    # between evaluations (the board shares one) acts and counts exactly as
    # a fresh one made for each: its weights are refilled, its table cleared.
    from vortex.ai.evaluate import RANKS
    s = Search(max_ply=4, tt_bits=8, history=False)
    light = RANKS + 1 * 8  # a Light Traveller's awakening weights, by rank
    one = [s.st[light + r] for r in range(8)]
    pos = Position(MIXED + " 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4")
    for advance in (1, 2, 1, 2):
        fresh = Search(max_ply=4, tt_bits=8, history=False)
        want = fresh.run(pos, 2, 100000, advance=advance)
        assert s.run(pos, 2, 100000, advance=advance) == want
        assert (s.nodes, s.score) == (fresh.nodes, fresh.score)
        assert [s.st[light + r] for r in range(8)] == [advance * w for w in one]
    assert max(one) > 0
