"""Identical tiles that trade places (issue 6): which of two tiles of one
terrain lands where does not matter to the rules, and players cannot tell
them apart. Terrains decide the action; serials only choose between
candidates that terrains cannot tell apart; where serials cannot either,
the legal candidate is taken. Dual-run, like test_app_scenarios."""
from host_sim.scenario import Rig
from vortex.engine.defs import action_cells, tile_goes
from vortex.engine.notation import parse_action, parse_cell
from test_app_idle import BATTLE  # a small module: test_app_scenarios would not fit beside these in 128 KB

# In BATTLE, block a4 (a4 W, a5 W, b5 F, b4 W) turned clockwise gives the
# terrains of the swap b4~b5, counter-clockwise those of a5~b5; block c3
# (c3 W, c4 F, d4 E, d3 E) holds two Earth tiles; block f5 (f5 E, f6 A,
# g6 E, g5 A) two pairs, so both turns give the same terrains.

def lay(rig, text, exchange=()):
    """Carry out a swap or Vortex by hand, the tiles of the cells in
    `exchange` (pairs of one terrain) landing on each other's destination."""
    v = rig.virtual
    a = parse_action(text)  # its form only: some are illegal on purpose
    buf = bytearray(4)
    cells = list(buf[:action_cells(a, buf)])
    dest = {c: cells[tile_goes(a, i)] for i, c in enumerate(cells)}
    for x, y in exchange:
        x, y = parse_cell(x), parse_cell(y)
        assert v.tiles[x] == v.tiles[y]
        dest[x], dest[y] = dest[y], dest[x]
    held = [c for c in cells if v.pieces[c]]
    for c in held:
        rig.do("lift", c)
    for c in cells:
        rig.do("take-tile", c)
    for i, c in enumerate(cells):
        v.place_tile(dest[c], rig.now, which=i - len(cells))
        rig.tick(2)
    for c in reversed(held):
        rig.do("place", c)
    rig.settle()


def laid(text, exchange=(), position=BATTLE):
    """What the board commits when the hands lay text (see lay) from a
    fresh position; None unless the board then agrees with the hands. One
    rig at a time: under MicroPython's small heap two would not fit."""
    rig = Rig(position)
    lay(rig, text, exchange)
    return rig.played() if rig.agrees() else None


def test_swap_and_vortex_with_the_same_terrains_told_by_serials():
    for text in ("b4~b5", "V+a4", "a5~b5", "V-a4"):
        assert laid(text) == text


def test_vortex_with_identical_tiles_exchanged():
    # V+c3 sends d4's Earth to d3 and d3's to c3: laid the other way round.
    assert laid("V+c3", exchange=[("d4", "d3")]) == "V+c3"
    assert laid("V-c3", exchange=[("d4", "d3")]) == "V-c3"


def test_vortex_on_a_block_with_two_pairs_of_identical_tiles():
    # Both turns give A E A E: every way of laying the look-alikes is a
    # Vortex of f5; the serials name its direction where they can.
    for text, other in (("V+f5", "V-f5"), ("V-f5", "V+f5")):
        for exchange, want in (([], text), ([("f5", "g6"), ("f6", "g5")], other),
                               ([("f5", "g6")], None), ([("f6", "g5")], None)):
            got = laid(text, exchange)
            assert got in ((want,) if want else ("V+f5", "V-f5")), (text, exchange, got)


def unread_serials(rig, *cells):
    """The tags of these cells' tiles answer without a serial, from now on."""
    for c in cells:
        rig.virtual.serials[parse_cell(c)] = 0
    rig.settle()  # the reader's sweeps read them again


def test_serials_unread_the_legal_candidate_is_taken():
    # The swap b4~b5 was just played by Dark: undoing it is banned, so the
    # same terrains are Light's V+a4.
    rig = Rig(BATTLE.replace(" - 0 64", " b4b5 1 65"))
    unread_serials(rig, "a4", "a5", "b5", "b4")
    lay(rig, "b4~b5")
    assert rig.played() == "V+a4"
    # No Vortex left: the same terrains are the swap.
    rig = Rig(BATTLE.replace("3,4", "0,4"))
    unread_serials(rig, "a4", "a5", "b5", "b4")
    lay(rig, "V+a4")
    assert rig.played() == "b4~b5"


def test_serials_read_an_illegal_vortex_is_refused():
    # With no Vortex left, the serials tell a turn from the swap it resembles.
    rig = Rig(BATTLE.replace("3,4", "0,4"))
    lay(rig, "V+a4")
    assert rig.board.pos.stack == [] and rig.board.flashing


def test_serials_unread_the_action_asked_for_is_taken():
    # Block a4 turned clockwise reads as the swap b4~b5; both are legal, and
    # with the serials unread the swap, first in the engine's order, is taken
    # (above). When the board asks for the turn (an opponent's or its AI's
    # action to carry out) and the hands lay it, it is the turn: the board
    # does not answer "not asked" to the very action it asked for.
    from vortex.app import commands
    from vortex.app.board import REMOTE_HERE
    from vortex.engine.defs import LIGHT
    for asked in ("V+a4", "b4~b5"):
        rig = Rig(BATTLE)
        rig.board.set_remote(REMOTE_HERE, LIGHT)
        unread_serials(rig, "a4", "a5", "b5", "b4")
        commands.request(rig.board, asked)
        rig.wait(20)
        assert rig.board.pos.action_text(rig.board.pending) == asked
        lay(rig, asked)
        assert rig.played() == asked, asked
