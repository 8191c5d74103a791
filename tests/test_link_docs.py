"""docs/protocol.md against the link: its sessions replayed on the virtual
board, line for line; its tables of commands, settings, events and verdicts
against the names the code answers to.

A session is a ```session block: `> LINE` is what the host sends, `# hands:
SCRIPT` is what hands do on the board (host_sim/scenario.py's commands),
any other `#` line is a comment, and every other line is what the board
sends, exactly. Each session starts from a board just powered up."""
import os
import re

import pytest

from vortex.app import commands
from vortex.app.recognise import VERDICT_NAMES, ACTION, SETUP
from vortex.link.link import COMMANDS, EVENTS, VERSION
from test_link import Host

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                    "protocol.md")
HANDS = "# hands: "
TICKS = 20  # ticks after each host line: its answer, and whatever it set going


def doc():
    with open(PATH) as f:
        return f.read()


def sessions():
    return [b.split("\n") for b in re.findall(r"```session\n(.*?)\n```", doc(), re.S)]


def replay(block):
    """The session as it goes on the board: the block's host and hands lines,
    with what the board sends after each."""
    h = Host()
    out = []
    for line in block:
        if line.startswith("> "):
            out.append(line)
            h.pipe.send(line[2:] + "\n")
            h.rig.tick(TICKS)
        elif line.startswith(HANDS):
            out.append(line)
            h.rig.run(line[len(HANDS):])
            h.rig.settle()
        elif line.startswith("#"):
            out.append(line)
        out.extend(h.pipe.lines())
    return out


def test_the_doc_has_sessions():
    assert len(sessions()) >= 3


@pytest.mark.parametrize("block", sessions(), ids=lambda b: b[0][:40])
def test_each_session_goes_as_written(block):
    assert replay(block) == block


def table(title):
    """The first cells of the rows of the table under a heading."""
    text = doc().split("\n## " + title + "\n", 1)[1].split("\n## ", 1)[0]
    return [row.split("|")[1].strip() for row in text.split("\n")
            if row.startswith("| ") and not row.startswith("| ---")][1:]


def test_the_version_and_the_commands_are_the_links():
    assert doc().startswith("# The host link: protocol version %d\n" % VERSION)
    words = [re.match(r"`(\w+)", cell).group(1) for cell in table("Commands")]
    assert words == list(COMMANDS)


def test_the_settings_are_the_commands_module_s():
    names = [cell.strip("`") for cell in table("Settings")]
    assert names == list(commands.NAMES)
    text = doc().split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    for name, values in zip(commands.NAMES, commands.MENU_VALUES):
        row = [r for r in text.split("\n") if r.startswith("| `%s`" % name)][0]
        if name != "clock":  # (any MIN+SEC: its limits are written out)
            listed = re.findall(r"`([\w+]+)`", row.split("|")[2])
            assert listed == list(values) or listed == [values[0], values[-1]], (name, listed)


def test_the_events_and_verdicts_are_the_links():
    kinds = {re.match(r"`(\w+)", cell).group(1) for cell in table("Events")}
    assert kinds == set(EVENTS) | {"takeback", "new"}  # (subscribed to as action)
    text = doc().split("\n## Events\n", 1)[1].split("\n## ", 1)[0]
    row = [r for r in text.split("\n") if r.startswith("| `verdict")][0]
    shown = [n.decode() for i, n in enumerate(VERDICT_NAMES) if i not in (ACTION, SETUP)]
    assert re.findall(r"`([\w-]+)` \(", row) == shown
