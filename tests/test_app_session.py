"""The saved game (vortex.app.session): older saves' settings lines load
with the defaults of what they lack, a save edited by hand without its last
newline loads, the journal's records replay (a takeback back to the start,
the clock), and anything else is refused with a one-line reason, which a
board given that save says before it starts afresh.
Plain asserts."""
from vortex.app import session
from vortex.app.board import Board
from vortex.app.session import Settings
from vortex.engine import START
from vortex.engine.defs import DARK
from host_sim.web.game import MemoryStore
from test_app_scenarios import BATTLE


def save(settings=None, actions=(), left=(60000, 50000)):
    pos = session.Position(BATTLE)
    played = []
    for text in actions:
        a = pos.parse_action(text)
        pos.push(a)
        played.append(a)
    return session.dump(settings or Settings(), BATTLE, played, left).decode()


def refused(text, records=()):
    try:
        session.load(text.encode(), records)
    except ValueError as e:
        return str(e)
    assert False, "loaded: %r" % text


def test_a_save_from_before_the_ai_level_and_the_volume_loads_with_their_defaults():
    text = save(Settings(ai_side=DARK, clock_ms=300000, brightness=3, ai_level=5, volume=2))
    assert "\nsettings 1 300000 0 3 0 0 5 2\n" in text
    old = text.replace(" 5 2\n", "\n")  # 6 values: a board from before levels and sounds
    s = session.load(old.encode())[0]
    assert (s.ai_side, s.clock_ms, s.brightness) == (DARK, 300000, 3)
    assert (s.ai_level, s.volume) == (Settings().ai_level, Settings().volume)


def test_a_settings_line_of_another_length_is_refused():
    text = save()
    line = text.split("\n")[1]
    for bad in (line.rsplit(" ", 3)[0], line + " 7"):  # 5 values, 9 values
        assert refused(text.replace(line, bad)) == "save: bad settings or clock line"
    for bad in ("clock 60000", "clock 60000 50000 0", "timer 60000 50000"):
        assert refused(text.replace("clock 60000 50000", bad)) == "save: bad settings or clock line"


def test_a_save_without_its_last_newline_loads_one_line_short_does_not():
    text = save(actions=("e2e4", "d7d6"))
    settings, start, pos, left = session.load(text.rstrip("\n").encode())
    assert start == BATTLE and len(pos.stack) == 2 and left == [60000, 50000]
    assert refused(text.split("\nclock")[0]) == "save: not a vortex game"


def test_the_journal_takes_back_to_the_start_and_no_further():
    text = save(actions=("e2e4", "d7d6"))
    _, _, pos, left = session.load(text.encode(), [b"a a2a3 59000 49000", b"u 3 58000 48000"])
    assert pos.stack == [] and pos.text() == session.Position(BATTLE).text()
    assert left == [58000, 48000]
    assert refused(text, [b"u 3 58000 48000"]) == "save: takeback past the start"


def test_the_journal_s_clock_record_sets_the_time_left():
    _, _, pos, left = session.load(save(actions=("e2e4",)).encode(), [b"c 0 41000"])
    assert len(pos.stack) == 1 and left == [0, 41000]


def test_a_bad_record_is_refused_with_it_named():
    text = save()
    for bad in (b"c 1 2 3", b"a e2e4 1", b"u 1", b"x 1 2 3", b"a"):
        assert refused(text, [bad]) == "save: bad record %r" % bad
    assert refused(text, [b"a e2d3 1 2"]) == "save: illegal action e2d3"


def test_a_board_given_a_save_it_refuses_says_why_and_starts_afresh():
    text = save()
    line = text.split("\n")[1]
    store = MemoryStore()
    store.data = text.replace(line, line + " 7").encode()
    board = Board(store)
    assert board.messages == ["save not resumed: save: bad settings or clock line"]
    assert board.pos.text() == START
