"""Property tests (CPython only, hypothesis): the engine against the
independent reference generator of tests/reference.py on random positions of
both phases; make/unmake and notation round trips; perft depth 3.
"""
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import reference as ref
from test_engine_perft import HAND, REFERENCE
from vortex.engine import (Position, action_text, new_buffer, LIGHT, DARK,
                           HEART_TAKEN, NO_ACTION, QUIET_END)
from vortex.engine.defs import ACTION_END, PLACE
from vortex.engine.perft import perft

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
PAIRS = [((f, r), (f + 1, r)) for f in range(7) for r in range(8)] + \
        [((f, r), (f, r + 1)) for f in range(8) for r in range(7)]
CELLS = [(f, r) for r in range(8) for f in range(8)]


# --- random positions, built as reference States, read by the engine as text ----

@st.composite
def states(draw, building):
    """A random position: a partial tiling (building) or a full board (battle),
    random pieces (Travellers, Awakened, Hearts; a Heart may be missing),
    side, Vortexes left, ban, quiet count and ply."""
    bag = draw(st.permutations(list("WFEA" * 16)))
    where = draw(st.permutations(CELLS))
    n = draw(st.integers(0, 63)) if building else 64
    tiles = dict(zip(where[:n], bag[:n]))
    spots = draw(st.permutations(CELLS))
    pieces = {}
    k = 0
    for side in "ld":
        for _ in range(draw(st.integers(0, 8))):
            pieces[spots[k]] = (side, draw(st.sampled_from("TTTS")))
            k += 1
    hearts = draw(st.sampled_from(["ld"] * 8 + ["l", "d"]))  # mostly both
    for side in hearts:
        pieces[spots[k]] = (side, "H")
        k += 1
    ban, quiet = None, 0
    if not building:
        if draw(st.booleans()):
            ban = frozenset(draw(st.sampled_from(PAIRS)))
        quiet = draw(st.one_of(st.integers(0, 79), st.sampled_from([0, 78, 79, 80])))
    return ref.State(tiles, pieces, draw(st.sampled_from("ld")),
                     {"l": draw(st.integers(0, 3)), "d": draw(st.integers(0, 4))},
                     ban, quiet, draw(st.integers(0, 500)))


any_state = st.one_of(states(True), states(False))


def engine_texts(pos):
    buf = new_buffer()
    return [action_text(buf[i]) for i in range(pos.legal_into(buf))]


def snapshot(pos):
    # Every field of the state, copied.
    return (bytes(pos.tiles), bytes(pos.pieces), bytes(pos.pool), bytes(pos.vortexes),
            bytes(pos.hearts), pos.side, pos.ban, pos.quiet, pos.ply, pos.filled,
            list(pos.stack), pos.text())


OUTCOME = {"heart": HEART_TAKEN, "quiet": QUIET_END, "no action": NO_ACTION}
WINNER = {"l": LIGHT, "d": DARK, None: None}


def same_outcome(pos, state):
    o, r = pos.outcome(), state.outcome()
    if r is None:
        return o is None
    return o is not None and o.winner == WINNER[r[0]] and o.reason == OUTCOME[r[1]]


# --- generation against the reference ------------------------------------------

def check_generation(state):
    pos = Position(state.text())
    assert ref.State.of(pos) == state  # the engine read what was written
    texts = engine_texts(pos)
    assert len(texts) == len(set(texts)), "repeated actions"
    assert set(texts) == state.legal()
    assert len(pos.legal_actions()) == len(texts)
    # is_legal / why_illegal agree with the list on every action code.
    legal = set(pos.legal_actions())
    for a in range(ACTION_END):
        assert pos.is_legal(a) == (a in legal), (action_text(a), pos.why_illegal(a))
    # destinations() gives each piece's moves.
    buf = new_buffer(64)
    for cell, (side, _) in state.pieces.items():
        c = ref.index(cell)
        got = {action_text(c * 64 + buf[i] % 64) for i in range(pos.destinations(c, buf))}
        want = {t for t in texts if t[:2] == ref.name(cell) and len(t) == 4 and t[1] != "@"}
        assert got == want
    assert same_outcome(pos, state)


@settings(max_examples=120, **SETTINGS)
@given(states(True))
def test_generator_matches_reference_in_building(state):
    check_generation(state)


def state_of(text):
    return ref.State.of(Position(text))


@settings(max_examples=250, **SETTINGS)
@given(states(False))
# Explicit cases first: an Awakened piece with 22 destinations; 318 legal actions.
@example(state_of("WFEAWFEA/WFEAWFEA/WFEAWFEA/WFEAWFEA/WFEAWFEA/WFEAWFEA/WFEAWFEA/WFEAWFEA "
                  "4h3/8/8/8/3S4/8/8/4H3 l 3,4 - 0 64"))
@example(state_of("WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF "
                  "4h3/S2S2S1/8/1S2S3/8/S2S2S1/8/4H3 l 3,4 - 0 64"))
def test_generator_matches_reference_in_battle(state):
    check_generation(state)


# --- make / unmake ------------------------------------------------------------

@settings(max_examples=80, **SETTINGS)
@given(any_state)
def test_push_matches_reference_and_pop_restores(state):
    # Every legal action: the engine's next position equals the reference's,
    # and pop() restores every field exactly.
    pos = Position(state.text())
    before = snapshot(pos)
    buf = new_buffer()
    for i in range(pos.legal_into(buf)):
        a = buf[i]
        mover = pos.pieces[a >> 6] if a < PLACE else 0
        awakens = pos.awakens(a)
        pos.push(a)
        assert awakens == (a < PLACE and pos.pieces[a & 63] != mover)  # the predicate is push's rule
        after = state.play(action_text(a))
        assert ref.State.of(pos) == after, action_text(a)
        assert pos.text() == after.text()
        assert pos.is_over() == after.is_over()
        if after.is_over():
            assert same_outcome(pos, after)
        assert pos.pop() == a
        assert snapshot(pos) == before


def fresh(state):
    # A battle from a random position, with the whole no-capture count ahead.
    state.quiet = 0
    return state


playout_start = st.one_of(st.just(None), states(True),
                          states(False).map(fresh)).filter(lambda s: s is None or not s.is_over())


@settings(max_examples=40, **SETTINGS)
@given(playout_start, st.randoms(use_true_random=False), st.integers(20, 200))
def test_random_playouts_pop_back_to_the_start(state, rnd, plies):
    # A random game from the start or a random position; the reference checks
    # the legal actions every ply; then every pop restores the earlier state.
    pos = Position() if state is None else Position(state.text())
    seen = [snapshot(pos)]
    buf = new_buffer()
    for _ in range(plies):
        n = pos.legal_into(buf)
        assert set(engine_texts(pos)) == ref.State.of(pos).legal()
        if not n:
            break
        pos.push(buf[rnd.randrange(n)])
        seen.append(snapshot(pos))
    assert len(pos.stack) == len(seen) - 1
    while pos.stack:
        assert snapshot(pos) == seen.pop()
        pos.pop()
    assert snapshot(pos) == seen.pop() and not seen


def test_a_battle_always_has_an_action():
    # 16 tiles of each terrain leave two different neighbours or more, so one
    # swap survives any ban: "no legal action" cannot happen in a real battle.
    for text, _ in REFERENCE[1:]:
        pos = Position(text)
        swaps = [t for t in engine_texts(pos) if "~" in t]
        assert len(swaps) >= 2
    stripes = Position(HAND[2][0])  # the fewest borders: 24 swaps
    assert len([t for t in engine_texts(stripes) if "~" in t]) == 24


# --- notation round trips -------------------------------------------------------

@settings(max_examples=200, **SETTINGS)
@given(any_state)
def test_notation_round_trip(state):
    text = state.text()
    pos = Position(text)
    assert pos.text() == text
    assert Position(pos.text()).text() == text
    assert ref.State.of(Position(text)) == state


# --- perft ---------------------------------------------------------------------

@pytest.mark.parametrize("text,values", REFERENCE, ids=["start", "built", "middle", "late"])
def test_perft_depth_3_bulk(text, values):
    assert perft(Position(text), 3, bulk=True) == values[2]


def test_perft_depth_3_full_make_unmake_of_the_last():
    text, values = REFERENCE[3]
    p = Position(text)
    assert perft(p, 3) == values[2] == 96136
    assert p.text() == text


@pytest.mark.parametrize("text,values", HAND)
def test_hand_made_perft_values_by_the_reference(text, values):
    # The values test_engine_perft.py asserts, recomputed independently.
    state = ref.State.of(Position(text))
    for d, v in enumerate(values[:2], 1):
        assert ref.perft(state, d) == v
    if state.building():  # cheap there: 4 leaves of the tree at most
        assert ref.perft(state, 3) == values[2]


def test_reference_agrees_with_the_published_perft():
    # The reference generator is itself checked against the published figures.
    for text, values in REFERENCE:
        assert ref.perft(ref.State.of(Position(text)), 2) == values[1]
