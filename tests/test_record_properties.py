"""Property tests of the game record (CPython, hypothesis): every random game,
with any tags, any start and any length, reads back as written; and no text
at all makes read() raise anything but ValueError."""
from hypothesis import HealthCheck, given, settings, strategies as st

from vortex import record
from vortex.engine import START
from test_record import BATTLE, random_game

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True).filter(
    lambda n: n != record.START_TAG)
values = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=30)


@settings(max_examples=80, **SETTINGS)
@given(st.integers(0, 10 ** 6), st.integers(0, 400), st.sampled_from([START, BATTLE]),
       st.dictionaries(names, values, max_size=6))
def test_random_games_round_trip(seed, length, start, tags):
    start, actions, pos = random_game(seed, length, start)
    if pos.outcome() is not None:
        tags["Result"] = record.result_text(pos.outcome())
    else:
        tags.pop("Result", None)
    text = record.write(tags, start, actions)
    assert record.read(text) == (tags, start, actions)
    assert record.write(*record.read(text)) == text


@settings(max_examples=200, **SETTINGS)
@given(st.integers(0, 10 ** 6), st.data())
def test_any_damage_is_a_value_error_or_another_legal_game(seed, data):
    _, actions, _ = random_game(seed, 90)
    text = record.write({"Event": "x"}, None, actions)
    i = data.draw(st.integers(0, len(text)))
    j = data.draw(st.integers(i, min(len(text), i + 8)))
    damaged = text[:i] + data.draw(st.text(max_size=8)) + text[j:]
    try:
        tags, start, got = record.read(damaged)
    except ValueError as e:
        assert "\n" not in str(e)
        return
    # It still read: then it is a legal game, and it writes back to itself.
    assert record.read(record.write(tags, start, got)) == (tags, start, got)
