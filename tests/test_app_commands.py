"""The bounds of every setting (vortex.app.commands): each least and greatest
value taken and read back, one past each refused with a one-line reason,
against the limits docs/protocol.md gives the host (its Settings table)."""
import os
import re

import pytest

from mpy import ROOT
from vortex.app import commands
from vortex.app.commands import CommandError, change, value
from vortex.app.session import Settings


def documented():
    """{name: the values cell} of docs/protocol.md's Settings table."""
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        text = f.read().split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [r.split("|") for r in text.split("\n") if r.startswith("| `")]
    return {r[1].strip().strip("`"): r[2].strip() for r in rows}


def bounds(cell):
    """(least, greatest) of each 'A to B' range in a cell, in order."""
    return [(int(a), int(b)) for a, b in re.findall(r"`?(\d+)`? to `?(\d+)`?", cell)]


def refused(name, text):
    s = Settings()
    before = commands.settings_text(s)
    with pytest.raises(CommandError) as e:
        change(s, name, text)
    reason = str(e.value)
    assert reason and "\n" not in reason and name in reason, reason
    assert commands.settings_text(s) == before  # nothing half set
    return reason


def taken(name, text):
    s = Settings()
    change(s, name, text)
    assert value(s, name) == text
    return s


def test_every_setting_is_documented_with_its_limits():
    assert list(documented()) == list(commands.NAMES)


@pytest.mark.parametrize("name", [n for n in commands.NAMES if n != "clock"])
def test_each_value_is_taken_and_one_past_each_end_is_refused(name):
    values = commands.MENU_VALUES[commands.NAMES.index(name)]
    for v in values:
        taken(name, v)
    numbers = [int(v) for v in values if v.isdigit()]
    if numbers:
        ranges = bounds(documented()[name])
        if ranges:  # "`0` to `3`": every number between, no other
            assert ranges == [(min(numbers), max(numbers))]
            assert numbers == list(range(min(numbers), max(numbers) + 1))
        for n in numbers:  # one past each end, and each value's neighbours not listed
            for m in (n - 1, n + 1):
                if str(m) not in values:
                    refused(name, str(m))
        refused(name, str(max(numbers)) + "0")
        refused(name, "0" + str(min(numbers)))  # the text, not a number, is the value
    refused(name, "")
    refused(name, values[0] + "x")
    refused(name, " " + values[0])


def test_the_clock_takes_0_to_180_minutes_and_0_to_60_seconds_and_no_more():
    assert bounds(documented()["clock"]) == [(0, commands.MAX_CLOCK_MIN),
                                             (0, commands.MAX_INCREMENT_S)]
    top_m, top_s = commands.MAX_CLOCK_MIN, commands.MAX_INCREMENT_S
    for m, inc in ((0, 0), (top_m, 0), (0, top_s), (top_m, top_s), (1, 1), (top_m - 1, top_s - 1)):
        s = taken("clock", "%d+%d" % (m, inc))
        assert (s.clock_ms, s.increment_ms) == (m * 60000, inc * 1000)
    for text in ("%d+0" % (top_m + 1), "0+%d" % (top_s + 1), "%d+%d" % (top_m + 1, top_s + 1),
                 "-1+0", "0+-1", "5", "5+", "+5", "5+3+1", "1.5+0", "0x10+0", "999999+0",
                 "1000000+0", "٣+0", ""):
        refused("clock", text)
    for name in commands.NAMES:  # the menu's own choices are within the bounds
        for v in commands.MENU_VALUES[commands.NAMES.index(name)]:
            taken(name, v)


def test_an_unknown_setting_names_the_settings():
    for f in (lambda: change(Settings(), "colour", "red"), lambda: value(Settings(), "colour")):
        with pytest.raises(CommandError) as e:
            f()
        assert "colour" in str(e.value) and all(n in str(e.value) for n in commands.NAMES)


def test_the_reasons_name_the_values():
    assert refused("brightness", "4") == "brightness is 0, 1, 2 or 3"
    assert refused("ai", "both") == "ai is off, light or dark"
    assert refused("clock", "181+0") == "clock is MINUTES+SECONDS, as 10+5 (0+0: none; from the next game)"
    long_name = "x" * 30
    with pytest.raises(CommandError) as e:
        change(Settings(), long_name, "1")
    assert str(e.value) == "no setting %s: %s" % ("x" * 20, ", ".join(commands.NAMES))


def test_a_hint_is_refused_while_the_board_waits_for_its_own_action():
    from host_sim.scenario import Rig
    from vortex.engine.defs import LIGHT
    rig = Rig(settings=Settings(ai_side=LIGHT))  # the AI's action to carry out
    with pytest.raises(CommandError) as e:
        commands.hint(rig.board)
    assert str(e.value) == "no hint now: the board waits for an action of its own"


def test_the_record_tags_say_who_played_with_what_settings():
    from host_sim.scenario import Rig
    from vortex.engine.defs import DARK
    rig = Rig(settings=Settings(ai_side=DARK, clock_ms=600000, increment_ms=5000))
    tags = commands.record_tags(rig.board, "2026.12.02")
    assert tags == {"Site": "Vortex board", "Light": "player", "Dark": "board AI",
                    "Settings": commands.settings_text(rig.board.settings), "Result": "*",
                    "Date": "2026.12.02"}
    assert "Date" not in commands.record_tags(rig.board)
    assert "clock=10+5" in tags["Settings"] and "ai=dark" in tags["Settings"]
