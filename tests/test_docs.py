"""The documentation against the engine: every diagram of docs/rules.md, and
every position and action written in docs/rules.md and docs/notation.md.
(Their `>>>` examples run in test_doctests.py.)

A move diagram is a ```text block whose first line is "P on <Terrain>" (a
Traveller) or "S on <Terrain>" (an Awakened piece), then rank rows and a
file row; a tile diagram's first line is a swap or Vortex, then "rank,
tiles before, tiles after" rows and a file row (see docs/rules.md's legend).
"""
import os
import re

import pytest

from checks import battle, dests
from vortex.engine import Position, parse_action, action_text, cell_name, parse_cell
from vortex.engine.notation import board_text

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")
TERRAINS = {"Water": "W", "Fire": "F", "Earth": "E", "Air": "A"}
# Diagram mark -> the piece standing there (tiles: see the move test).
PIECES = {"P": "T", "S": "S", "T": "T", "H": "H", "x": "t", "#": "t", "t": "t", "h": "h"}
REACHED = "*x"


def read(name):
    with open(os.path.join(DOCS, name)) as f:
        return f.read()


def blocks(text, lang="text"):
    """The fenced code blocks of a markdown text in `lang`, as line lists."""
    return [b.split("\n") for b in re.findall(r"```%s\n(.*?)\n```" % lang, text, re.S)]


def grid(rows):
    """{cell name: [marks]} from rank rows ("4  . P *") and the file row."""
    files = rows[-1].split()
    out = {}
    for row in rows[:-1]:
        rank, *marks = row.split()
        for i, m in enumerate(marks):
            out.setdefault(files[i % len(files)] + rank, []).append(m)
    return out, files


def field(marks, letter_of):
    """A board field of the notation from {cell name: mark}, via letter_of(mark)."""
    letters = ".WFEATSHtsh"  # code 0 is an empty cell
    codes = bytearray(64)
    for name, mark in marks.items():
        codes[parse_cell(name)] = letters.index(letter_of(mark))
    return board_text(codes, letters)


MOVE_DIAGRAMS = [b for b in blocks(read("rules.md")) if re.match(r"[PS] on \w+$", b[0])]
TILE_DIAGRAMS = [b for b in blocks(read("rules.md")) if re.match(r"(V[+-]|\w\d~)", b[0])]


def test_rules_has_a_diagram_per_pattern_and_per_tile_action():
    assert sorted(b[0] for b in MOVE_DIAGRAMS) == [
        "P on Air", "P on Earth", "P on Fire", "P on Water", "S on Earth"]
    assert sorted(b[0].split()[0] for b in TILE_DIAGRAMS) == ["V+d4", "V-d4", "d4~e4"]


@pytest.mark.parametrize("diagram", MOVE_DIAGRAMS, ids=[b[0] for b in MOVE_DIAGRAMS])
def test_move_diagram_agrees_with_the_engine(diagram):
    mover, _, terrain = diagram[0].split()
    cells, _ = grid(diagram[1:])
    marks = {c: m[0] for c, m in cells.items() if m[0] != "." and m[0] != "*"}
    start = [c for c, m in marks.items() if m == mover]
    assert len(start) == 1, "one %s per diagram" % mover
    # A diagram smaller than the board gets its Hearts outside, in the corners.
    for heart, corner in (("H", "a1"), ("h", "h8")):
        if heart not in marks.values():
            assert corner not in cells, "draw the Hearts on a diagram this large"
            marks[corner] = heart

    def tile(mark):
        if mark == mover:
            return TERRAINS[terrain]
        return "E" if mark == "#" else "W"  # Earth only where the diagram says

    pos = battle(field(marks, tile), field(marks, PIECES.get))
    want = sorted(c for c, m in cells.items() if m[0] in REACHED)
    assert dests(pos, start[0]) == want


@pytest.mark.parametrize("diagram", TILE_DIAGRAMS, ids=[b[0].split()[0] for b in TILE_DIAGRAMS])
def test_tile_diagram_agrees_with_the_engine(diagram):
    action = diagram[0].split()[0]
    cells, files = grid(diagram[1:])
    assert files[:len(files) // 2] == files[len(files) // 2:]
    before = {c: m[0] for c, m in cells.items()}
    after = {c: m[1] for c, m in cells.items()}
    before.update(a1="W", h8="W")  # under the Hearts, away from the tiles shown
    pos = battle(field(before, str), "7h/8/8/8/8/8/8/H7")
    pos.push(pos.parse_action(action))
    for c, t in after.items():
        assert "-WFEA"[pos.tiles[parse_cell(c)]] == t, c


# --- positions and actions written in the docs ----------------------------------

POSITION = re.compile(r"[WFEA1-8]+(?:/[WFEA1-8]+){7} [TSHtsh1-8]+(?:/[TSHtsh1-8]+){7}"
                      r"(?: [ld] \d,\d(?: (?:-|[a-h][1-8][a-h][1-8]) \d+ \d+)?)")
ACTION = re.compile(r"`([WFEA]@[a-h][1-8]|[a-h][1-8][a-h][1-8]|[a-h][1-8]~[a-h][1-8]|"
                    r"V[+-][a-h][1-8])`")


def positions(name):
    """Every position written in a doc, except on a `>>>` line that expects
    an error: its doctest checks that one."""
    lines = read(name).split("\n") + [""]
    return [m.group(0) for i, line in enumerate(lines[:-1]) if "Traceback" not in lines[i + 1]
            for m in POSITION.finditer(line)]


@pytest.mark.parametrize("name", ["rules.md", "notation.md"])
def test_every_position_in_the_docs_parses(name):
    found = positions(name)
    assert found
    for text in found:
        p = Position(text)
        assert p.text().startswith(text), text  # fields left out are the defaults


@pytest.mark.parametrize("name", ["rules.md", "notation.md"])
def test_every_action_in_the_docs_parses(name):
    found = ACTION.findall(read(name))
    assert found
    for text in found:
        a = parse_action(text)
        if "~" in text:  # either order reads; the written form is index order
            assert action_text(a) in (text, text[3:] + "~" + text[:2])
        else:
            assert action_text(a) == text


def test_cell_names_and_indexes_match_the_notation_page():
    # "a1 = 0, h1 = 7, a2 = 8, h8 = 63"
    for name, index in re.findall(r"([a-h][1-8]) = (\d+)", read("notation.md")):
        assert parse_cell(name) == int(index) and cell_name(int(index)) == name
