"""Where the tile readers read first (vortex.app.sensing: Sensing.watch and
read_first): the cells where tiles may change, passed on to the reader's
expect() only when they change, since each expect() renews the cell's hold
and its place in its rank's ring. Plain asserts."""
from vortex.app.sensing import Sensing, ANY
from vortex.engine import Position, START
from vortex.engine.notation import parse_cell
from vortex.tag import WATER


class _Reader:
    def __init__(self):
        self.expected = []

    def expect(self, cell):
        self.expected.append(cell)


def _told(sense):
    reader = _Reader()
    sense.read_first(reader)
    return reader.expected


def test_a_tile_laid_amid_empty_cells_while_the_board_is_built_tells_the_reader_nothing_new():
    pos = Position(START)  # no tile laid yet: every cell is watched
    occ = bytearray(1 if pos.pieces[c] else 0 for c in range(64))
    tiles, ids = bytearray(64), bytearray(64)
    sense = Sensing()
    sense.accepted(pos, tiles, ids)
    assert _told(sense) == list(range(64))
    assert _told(sense) == []
    # d4 and its neighbours were watched already: the same cells, nothing to tell.
    tiles[parse_cell("d4")] = WATER
    sense.step(pos, ANY, False, 10, occ, tiles, ids)
    assert _told(sense) == []
