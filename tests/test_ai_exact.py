"""The search's values and its work, checked exactly.

Values: alpha-beta with a full window returns the minimax value of its tree;
a transposition table may only save work, never change that value, as long
as every position it serves was searched as deep as asked, which holds here
(no position recurs at another ply within these depths). So the search with
its table and the same search with its table never written (NoTable: a plain
alpha-beta, the reference) must give the same root value on every position.

Work: the node counts of fixed searches are pinned. A change that makes the
search look at more nodes (a lost cut-off, a worse order) or fewer must show
here and be looked at; when a change to the search is meant, its new counts
are written below with the reason in the commit.

Plain asserts: run on CPython and under MicroPython (tests/test_ai_micropython.py)."""
from vortex.engine.position import Position
from vortex.ai.search import Search

# Few pieces, the terrains in four blocks (swaps only along their borders)
# and no Vortexes: small trees, each with transpositions (two moves of one
# side in either order), captures and Heart threats for the quiescence.
QUARTERS = "EEEEAAAA/EEEEAAAA/EEEEAAAA/EEEEAAAA/WWWWFFFF/WWWWFFFF/WWWWFFFF/WWWWFFFF"
SMALL = (
    QUARTERS + " 4h3/3t4/8/8/8/8/4T3/4H3 l 0,0",
    QUARTERS + " 4h3/2t1t3/8/3T4/8/8/3T4/4H3 d 0,0",
    QUARTERS + " 3h4/8/2t5/3T4/4t3/8/2T5/3H4 l 0,0",
    QUARTERS + " 6h1/5t2/8/4T3/8/2t5/1T6/H7 l 0,0",
)


BUDGET = 100000  # far more than any of these searches needs: one that hits it is broken


class NoTable(Search):
    """The search with its transposition table never written: no cut-off
    and no move come from it."""

    def _tt_store(self, key, depth, score, flag, action, ply=0):
        pass


# Nodes of a full search to depth 4 from each of SMALL, table and history
# on, as level 5 searches (its budget aside).
PINNED = (5347, 9546, 9228, 11189)


def counts():
    out = []
    for text in SMALL:
        s = Search(max_ply=4, tt_bits=10, history=True)
        s.run(Position(text), 4, BUDGET)
        out.append(s.nodes)
    return tuple(out)


def test_node_counts_are_pinned():
    got = counts()
    assert got == PINNED, got


def test_the_table_never_changes_the_searchs_value():
    with_table = Search(max_ply=4, tt_bits=10, history=False)
    plain = NoTable(max_ply=4, tt_bits=10, history=False)
    for text in SMALL:
        for depth in (2, 3, 4):
            clear(with_table.tt)  # no entry of another position or depth
            pos = Position(text)
            with_table.run(pos, depth, BUDGET)
            plain.run(pos, depth, BUDGET)
            assert with_table.depth == plain.depth == depth, (text, depth)
            assert with_table.score == plain.score, (text, depth, with_table.score, plain.score)
            assert pos.text() == Position(text).text()  # the position is left as it was


def clear(table):
    for i in range(len(table)):
        table[i] = 0
