"""The game record (vortex.record, docs/record.md): writing, reading back,
and a one-line reason for every kind of bad record. Random games replayed
through the engine round-trip. Plain asserts: run by pytest and, under
MicroPython, by tests/mpy_runner.py (test_link_micropython.py)."""
from vortex.engine import Position, START, new_buffer, action_text
from vortex import record
from checks import raises

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def random_game(seed, max_actions=1000, start=START):
    """(start text, actions in notation, final Position) of a game of random
    legal actions, played until it ends or max_actions; a small LCG, so that
    MicroPython and CPython play the same games."""
    pos = Position(start)
    buf = new_buffer()
    actions = []
    x = seed * 2654435761 + 1
    while len(actions) < max_actions:
        n = pos.legal_into(buf)
        if not n:
            break
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        a = buf[(x >> 8) % n]
        actions.append(action_text(a))
        pos.push(a)
    return start, actions, pos


def test_the_docstring_example():
    text = record.write({"Light": "Ana"}, None, ["W@d4", "E@e5"])
    assert text == '[Light "Ana"]\n\n1. W@d4 E@e5 *\n'
    assert record.read(text) == ({"Light": "Ana"}, START, ["W@d4", "E@e5"])


def test_tags_in_a_fixed_order_then_by_name():
    tags = {"Zeta": "z", "Result": "*", "Date": "2026.11.30", "Event": "club night",
            "Light": "Ana", "Dark": "board AI", "Alpha": "a"}
    lines = record.write(tags, None, []).split("\n")
    assert [l.split()[0][1:] for l in lines[:7]] == [
        "Event", "Date", "Light", "Dark", "Result", "Alpha", "Zeta"]
    assert record.read("\n".join(lines))[0] == tags


def test_quotes_and_backslashes_in_values():
    tags = {"Event": 'the "big" one \\ final'}
    text = record.write(tags, None, [])
    assert '[Event "the \\"big\\" one \\\\ final"]' in text
    assert record.read(text)[0] == tags


def test_a_start_position_other_than_the_start_is_a_tag():
    text = record.write({}, BATTLE, ["e2e3"])
    assert '[Start "%s"]' % BATTLE in text
    assert "33. e2e3" in text  # the turn number follows the start's ply (64)
    assert record.read(text) == ({}, BATTLE, ["e2e3"])
    assert "[Start" not in record.write({}, START, [])


def test_dark_first_is_numbered_with_dots():
    dark = BATTLE.replace(" l ", " d ").replace(" 64", " 65")
    _, actions, _ = random_game(0, max_actions=2, start=dark)
    text = record.write({}, dark, actions)
    assert "33... %s 34. %s *" % tuple(actions) in text
    assert record.read(text)[2] == actions


def test_long_games_wrap_and_read_back():
    start, actions, pos = random_game(3)
    text = record.write({"Result": record.result_text(pos.outcome())}, start, actions)
    assert max(len(l) for l in text.split("\n")) <= record.WIDTH
    assert record.read(text) == ({"Result": record.result_text(pos.outcome())}, start, actions)
    # Filled: no line could have taken the next one's first word (a turn
    # number and its action are one), and one is exactly WIDTH long.
    moves = text.split("\n\n", 1)[1].rstrip("\n").split("\n")
    assert len(moves) > 10 and any(len(l) == record.WIDTH for l in moves)
    for line, after in zip(moves, moves[1:]):
        first = after.split(" ")
        word = " ".join(first[:2]) if first[0].endswith(".") else first[0]
        assert len(line) + 1 + len(word) > record.WIDTH, (line, word)


def test_random_games_round_trip():
    for seed in range(6):
        start, actions, pos = random_game(seed, max_actions=(40, 70, 1000)[seed % 3])
        tags = {"Event": "game %d" % seed, "Result": record.result_text(pos.outcome())}
        text = record.write(tags, start, actions)
        assert record.read(text) == (tags, start, actions), seed
        assert record.write(*record.read(text)) == text


def test_readers_take_what_people_write():
    # Numbers run into actions, swaps in either order, extra blank lines, CRLF.
    start, actions, _ = random_game(5, max_actions=66)
    text = "\r\n\r\n1.%s %s\r\n2.%s\r\n" % tuple(actions[:3])
    assert record.read(text)[2] == actions[:3]
    swap = [a for a in actions if "~" in a]
    if swap:
        i = actions.index(swap[0])
        turned = swap[0][3:] + "~" + swap[0][:2]
        assert record.read(" ".join(actions[:i] + [turned]))[2] == actions[:i + 1]


def test_the_result_token_and_tag_agree():
    assert record.read("1. W@d4 1-0")[0] == {"Result": "1-0"}
    e = raises(ValueError, record.read, '[Result "0-1"]\n\n1. W@d4 1-0\n')
    assert str(e) == "movetext: ends in 1-0 but the Result tag says 0-1"


def test_a_finished_game_must_say_how_it_ended():
    start, actions, pos = random_game(1)
    assert pos.outcome() is not None
    right = record.result_text(pos.outcome())
    wrong = record.DRAW if right != record.DRAW else record.LIGHT_WINS
    e = raises(ValueError, record.read, record.write({"Result": wrong}, start, actions))
    assert str(e).startswith("result: the game ended " + right)


def test_bad_records_have_a_one_line_reason():
    cases = (
        ("1. W@d4 W@d4", "action 2: W@d4 is illegal: the cell has a tile"),
        ("1. X@d4", "action 1: action: 'X@d4'"),
        ("1. e2e4", "action 1: e2e4 is illegal: the building phase allows only placements"),
        ("W@d4 * E@e5", "movetext: the result * comes after the last action"),
        ("a. W@d4", "movetext: 'a.' is not a turn number"),
        ('[Start "8/8 l"]\n', "start: "),
        ('[Result "2-0"]\n', "tag: Result '2-0' is not one of"),
        ('[Date "x"]\n[Date "y"]\n', "line 2: tag Date given twice"),
        ("[Date]\n", "line 1: a tag is"),
        ('[Date "x]\n', "line 1: a tag is"),
        ('[Date "a"b"]\n', "line 1: a \" inside a tag value"),
        ('[Date "a\\nb"]\n', "line 1: only"),
        ('[Date "a\x1fb"]\n', "line 1: a tag value has a control character"),
        ('[9x "a"]\n', "tag: '9x' is not a name"),
        ('[a^b "a"]\n', "tag: 'a^b' is not a name"),   # between Z and a in ASCII
        ('[A[b "a"]\n', "tag: 'A[b' is not a name"),
        ('[Ab` "a"]\n', "tag: 'Ab`' is not a name"),
        (".W@d4", "movetext: '.W@d4' is not a turn number"),
        ("X1. W@d4", "movetext: 'X1.' is not a turn number"),
        ('1. W@d4\n[Event "late"]\n', "line 2: a tag after the movetext"),
        ('[Event "x"]\n\n1. W@d4 E@e5\n\n[Result "1-0"]\n', "line 5: a tag after the movetext"),
        ('1. W@d4 *\n[Start "%s"]\n' % BATTLE, "line 2: a tag after the movetext"),
    )
    for text, reason in cases:
        e = raises(ValueError, record.read, text)
        assert str(e).startswith(reason), (text, str(e))
        assert "\n" not in str(e)
    assert str(raises(ValueError, record.read, b"1. W@d4")).startswith("record: expected text")


def test_writing_refuses_what_could_not_be_read():
    assert "control character" in str(raises(ValueError, record.write, {"Event": "a\nb"},
                                             None, []))
    assert "Start is the start_text" in str(raises(ValueError, record.write,
                                                   {"Start": START}, None, []))
    assert "is not one of" in str(raises(ValueError, record.write, {"Result": "win"}, None, []))
    assert "action" in str(raises(ValueError, record.write, {}, None, ["W@z9"]))
