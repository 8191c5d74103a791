"""Rule tests: one or more per rule and ruling of docs/rules.md (whose
Rulings section closes the seed text's open points), each on a position
written in notation. Runs under pytest and under MicroPython
(tests/mpy_runner.py): plain asserts, no pytest import.

Battle positions are built with checks.battle(tiles, pieces): the tile field
names every tile that matters and checks.fill() completes the board to 16 of
each terrain, so that the text stays short and legal.
"""
from vortex.engine import (Position, Outcome, IllegalAction, NotationError, START, LIGHT, DARK,
                           HEART_TAKEN, NO_ACTION, QUIET_END, new_buffer, parse_cell,
                           parse_action)
from vortex.engine.defs import (WATER, FIRE, EARTH, AIR, PLACE, SWAP, VORTEX, action_cells,
                                tile_goes, placed_terrain)
from vortex.engine.tables import OFF
from checks import (raises, battle, dest_list, dests, legal_texts, play, tile, piece)


# --- Board and setup -----------------------------------------------------------

def test_start_position():
    # 8 Travellers on the 2nd row, the Heart behind on the e-file, no tile yet.
    p = Position()
    assert p.text() == START
    assert [piece(p, f + "2") for f in "abcdefgh"] == ["T"] * 8
    assert [piece(p, f + "7") for f in "abcdefgh"] == ["t"] * 8
    assert piece(p, "e1") == "H" and piece(p, "e8") == "h"
    assert sum(1 for x in p.pieces if x) == 18
    assert p.side == LIGHT and list(p.vortexes) == [3, 4]
    assert p.filled == 0 and list(p.pool)[1:] == [16, 16, 16, 16]
    assert list(p.hearts) == [parse_cell("e1"), parse_cell("e8")]
    assert p.is_building() and not p.is_over() and p.outcome() is None


def test_heart_on_any_back_rank_file():
    # The setup option: each Heart anywhere on its own back rank.
    p = Position("8/8/8/8/8/8/8/8 h7/tttttttt/8/8/8/8/TTTTTTTT/7H l 3,4 - 0 0")
    assert list(p.hearts) == [parse_cell("h1"), parse_cell("a8")]
    assert len(p.legal_actions()) == 256


def test_tiles_are_laid_under_pieces():
    # Pieces stand before any tile; a placement may go under one.
    p = Position()
    assert "W@e2" in legal_texts(p) and "A@e8" in legal_texts(p)
    play(p, "W@e2")
    assert tile(p, "e2") == "W" and piece(p, "e2") == "T"


# --- Building phase --------------------------------------------------------------

def test_building_allows_only_placements():
    p = Position()
    texts = legal_texts(p)
    assert len(texts) == 256 and len(set(texts)) == 256
    assert all(t[1] == "@" for t in texts)
    play(p, "W@a1", "F@b1")  # tiles already down change nothing
    for a in ("a2a3", "a1~b1", "V+a1", "V-a1"):
        assert p.why_illegal(parse_action(a)) == "the building phase allows only placements", a
        raises(IllegalAction, p.parse_action, a)


def test_placement_needs_an_empty_cell():
    p = play(Position(), "E@d4")
    assert "W@d4" not in legal_texts(p)
    e = raises(IllegalAction, p.parse_action, "W@d4")
    assert "the cell has a tile" in str(e)
    assert len(legal_texts(p)) == 4 * 63


def test_no_placement_once_the_board_is_built():
    p = battle("4A3/8/8/3WW3/3WE3/8/8/4A3", VORTEX_PIECES)
    assert p.filled == 64
    e = raises(IllegalAction, p.parse_action, "W@d4")
    assert str(e) == "illegal action W@d4: the board is built"


def test_pool_limits_placements():
    # Ranks 1-2 hold all 16 Water tiles: no Water placement is left.
    p = Position("8/8/8/8/8/8/WWWWWWWW/WWWWWWWW 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 16")
    assert list(p.pool)[1:] == [0, 16, 16, 16]
    texts = legal_texts(p)
    assert len(texts) == 3 * 48 and not [t for t in texts if t[0] == "W"]
    e = raises(IllegalAction, p.parse_action, "W@d4")
    assert "none of that terrain is left" in str(e)
    # The pool field follows placements both ways.
    a = p.parse_action("F@d4")
    p.push(a)
    assert p.pool[FIRE] == 15
    p.pop()
    assert p.pool[FIRE] == 16


def test_placements_alternate_and_light_opens_the_battle():
    # 64 placements from the start: 32 each, Light first, then Light acts.
    p = Position()
    placed = [0, 0]
    buf = new_buffer()
    for i in range(64):
        assert p.is_building()
        assert p.side == i % 2
        n = p.legal_into(buf)
        assert n and all(PLACE <= buf[j] < SWAP for j in range(n))
        placed[p.side] += 1
        p.push(buf[(i * 37) % n])  # a spread of cells and terrains
        assert p.quiet == 0  # placements never count towards the 80
    assert placed == [32, 32]
    assert not p.is_building() and p.side == LIGHT and p.ply == 64
    assert list(p.pool)[1:] == [0, 0, 0, 0] and p.filled == 64
    assert not p.is_over() and p.outcome() is None
    texts = legal_texts(p)
    assert texts and not [t for t in texts if t[1] == "@"]
    assert [t for t in texts if len(t) == 4 and t[0] in "abcdefgh"]  # moves


def test_the_64th_placement_starts_the_battle():
    # h8 is the last empty cell and one Water tile is left: Dark places it.
    text = ("AAAWAWE1/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
            "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 d 3,4 - 0 63")
    p = Position(text)
    assert legal_texts(p) == ["W@h8"]
    play(p, "W@h8")
    assert p.side == LIGHT and not p.is_building() and p.quiet == 0
    assert p.text().endswith(" l 3,4 - 0 64")
    assert len(legal_texts(p)) == 222  # the second reference position


def test_a_building_position_is_never_over():
    # Placements never end the game nor count towards the 80: a building
    # position with a no-capture count is either refused or still going on.
    for quiet in ("1", "79", "80"):
        try:
            p = Position(START[:-3] + quiet + " 0")
        except NotationError as e:
            assert str(e).startswith("quiet:")
            continue
        assert not p.is_over() and p.outcome() is None, quiet
        assert len(p.legal_actions()) == 256, quiet


# --- Moves: Water ------------------------------------------------------------------

# d4: Light Traveller on Water. d7 Dark Traveller on Earth (protected), g4
# Dark Traveller on Fire, a4 Dark Heart on Earth, d2 Light Traveller.
WATER_POS = ("8/3E4/8/8/E2W2F1/8/3A4/4A3", "8/3t4/8/8/h2T2t1/8/3T4/4H3")


def test_water_slides_and_stops():
    p = battle(*WATER_POS)
    got = dest_list(p, "d4")
    assert len(got) == len(set(got))
    # North stops before the protected d7; east takes g4; south stops
    # before its own d2; west takes the Heart on the Earth of a4.
    assert sorted(got) == ["a4", "b4", "c4", "d3", "d5", "d6", "e4", "f4", "g4"]
    e = raises(IllegalAction, p.parse_action, "d4d7")
    assert "cannot move there" in str(e)


def test_water_capture_and_heart_capture():
    p = battle(*WATER_POS, rest="l 3,4 - 12 70")
    play(p, "d4g4")
    assert piece(p, "g4") == "T" and piece(p, "d4") == "."
    assert p.quiet == 0 and not p.is_over()
    p.pop()
    play(p, "d4a4")
    assert p.is_over() and p.outcome().winner == LIGHT
    assert p.outcome().reason == HEART_TAKEN


def test_water_never_jumps_or_moves_diagonally():
    p = battle(*WATER_POS)
    got = dests(p, "d4")
    for c in ("d8", "d7", "h4", "d1", "e5", "c3", "e3", "c5"):
        assert c not in got, c


# --- Moves: Fire -------------------------------------------------------------------

# d4: Light Traveller on Fire. NE: e5 empty, f6 Dark on Water (2-step capture).
# SE: e3 own piece (blocks both steps). SW: c3 Dark on Fire (1-step capture,
# and it blocks b2). NW: c5 empty, b6 Dark on Earth (protected).
FIRE_POS = ("4A3/8/1E3W2/8/3F4/2F1A3/8/4A3", "4h3/8/1t3t2/8/3T4/2t1T3/8/4H3")


def test_fire_one_or_two_diagonal():
    p = battle(*FIRE_POS)
    got = dest_list(p, "d4")
    assert len(got) == len(set(got))
    assert sorted(got) == ["c3", "c5", "e5", "f6"]


def test_fire_second_step_needs_an_empty_middle():
    p = battle(*FIRE_POS)
    # b2 lies behind the enemy on c3, f2 behind Light's own e3.
    assert "b2" not in dests(p, "d4") and "f2" not in dests(p, "d4")
    # Without the piece on c3, b2 opens.
    p2 = battle("4A3/8/1E3W2/8/3F4/4A3/8/4A3", "4h3/8/1t3t2/8/3T4/4T3/8/4H3")
    assert sorted(dests(p2, "d4")) == ["b2", "c3", "c5", "e5", "f6"]


def test_fire_two_step_capture():
    p = battle(*FIRE_POS)
    play(p, "d4f6")
    assert piece(p, "f6") == "T" and p.quiet == 0


# --- Moves: Earth ------------------------------------------------------------------

def test_earth_one_step_any_direction():
    # d4 Earth: c5 own, d5 Dark on Earth (protected), e5 Dark on Water.
    p = battle("4A3/8/8/2AEW3/3E4/8/8/E7", "4h3/8/8/2Tts3/3T4/8/8/H7")
    assert dests(p, "d4") == ["c3", "c4", "d3", "e3", "e4", "e5"]
    # The Heart on the Earth of a1 moves by its terrain too: one step.
    assert dests(p, "a1") == ["a2", "b1", "b2"]


# --- Moves: Air --------------------------------------------------------------------

# d4: Light Traveller on Air, ringed by pieces. d6 own, f6 Dark on Water,
# f4 Dark on Earth (protected); the knight cells are all empty.
AIR_POS = ("4A3/8/3A1W2/3FA3/3AFE2/2A5/8/4A3", "4h3/8/3T1t2/3tT3/3Ttt2/2T5/8/4H3")


def test_air_leaps_exactly_two_over_anything():
    p = battle(*AIR_POS)
    got = dest_list(p, "d4")
    assert len(got) == len(set(got))
    assert sorted(got) == ["b2", "b4", "b6", "d2", "f2", "f6"]


def test_air_has_no_one_step_and_no_knight_jump():
    p = battle(*AIR_POS)
    got = dests(p, "d4")
    for c in ("d5", "e4", "c4", "e3", "c5"):  # one step, even onto an enemy
        assert c not in got, c
    for c in ("e6", "f5", "f3", "e2", "c2", "b3", "b5", "c6"):  # knight jumps
        assert c not in got, c
    play(p, "d4f6")
    assert piece(p, "f6") == "T" and piece(p, "e5") == "T"  # nothing in between is taken


# --- Moves: the Awakened ---------------------------------------------------------

# d4: the piece under test (tile X). d6 Dark on Fire, f6 own on Air, e3 Dark on
# Earth, b4 Dark on Water, d1 Light Heart on Air, e8 Dark Heart on Air.
UNION_TILES = "4A3/8/3F1A2/8/1W1X4/4E3/8/3A4"
UNION_PIECES = "4h3/8/3t1T2/8/1t1%s4/4t3/8/3H4"


def test_awakened_moves_by_the_union_of_the_four_patterns():
    union = set()
    for t in "WFEA":
        p = battle(UNION_TILES.replace("X", t), UNION_PIECES % "T")
        union |= set(dests(p, "d4"))
    assert sorted(union) == ["b2", "b4", "b6", "c3", "c4", "c5", "d2", "d3",
                             "d5", "d6", "e4", "e5", "f2", "f4", "g4", "h4"]
    for t in "WFEA":  # whatever terrain it stands on
        p = battle(UNION_TILES.replace("X", t), UNION_PIECES % "S")
        got = dest_list(p, "d4")
        assert len(got) == len(set(got)), got  # several patterns, one action
        assert sorted(got) == sorted(union), t
        texts = legal_texts(p)
        assert len(texts) == len(set(texts))


def test_awakened_on_an_open_board():
    # Nothing in its way: every cell of every pattern, each once.
    p = battle("4A3/8/8/8/3E4/8/8/4A3", "4h3/8/8/8/3S4/8/8/4H3")
    got = dest_list(p, "d4")
    assert len(got) == len(set(got)) == 22  # Earth 8, Air 8, Water 6 more
    assert "d8" in got and "a4" in got and "h4" in got and "d1" in got
    assert "e6" not in got  # no knight jump
    for c in got:  # and every one of them is accepted as an action
        assert p.is_legal(parse_action("d4" + c)), c
        assert p.parse_action("d4" + c) == parse_action("d4" + c)


def test_a_position_with_many_legal_actions():
    # 8 Awakened pieces on a board where every pair of neighbours differs:
    # 112 swaps, 98 Vortex actions and 108 moves, 318 in all.
    p = Position("WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF/WFEAWFEA/EAWFEAWF "
                 "4h3/S2S2S1/8/1S2S3/8/S2S2S1/8/4H3 l 3,4 - 0 64")
    assert p.legal_into(new_buffer()) == 318
    assert len(p.legal_actions()) == 318
    texts = legal_texts(p)
    assert len(set(texts)) == 318
    assert len([t for t in texts if "~" in t]) == 112
    assert len([t for t in texts if t[0] == "V"]) == 98


# --- Moves: the Heart and ending squares ---------------------------------------

def test_heart_moves_by_its_terrain_and_captures():
    # Light Heart on the Air of d3; Dark Traveller on the Fire of f5.
    p = battle("4A3/8/8/5F2/8/3A4/8/8", "4h3/8/8/5t2/8/3H4/8/8")
    assert dests(p, "d3") == ["b1", "b3", "b5", "d1", "d5", "f1", "f3", "f5"]
    play(p, "d3f5")
    assert piece(p, "f5") == "H" and p.hearts[LIGHT] == parse_cell("f5")
    p.pop()
    assert p.hearts[LIGHT] == parse_cell("d3")


def test_heart_never_awakens():
    # Light Heart on the Earth of d7 steps onto rank 8; Dark's onto rank 1.
    p = battle("8/3E4/8/8/8/8/4E3/A7", "8/3H4/8/8/8/8/4h3/T7")
    play(p, "d7d8")
    assert piece(p, "d8") == "H"
    play(p, "e2e1")
    assert piece(p, "e1") == "h"
    assert " 3H4/8/8/8/8/8/8/T3h3 " in p.text()


def test_cannot_end_on_own_piece():
    # d4 on Earth, ringed by its own 7 Travellers and Heart.
    p = battle("4A3/8/8/2EEE3/2EEE3/2EEE3/8/8", "4h3/8/8/2TTT3/2TTT3/2HTT3/8/8")
    assert dest_list(p, "d4") == []
    e = raises(IllegalAction, p.parse_action, "d4d5")
    assert "cannot move there" in str(e)
    # Air and Water neither: a leap onto its own piece is not listed.
    p = battle(*AIR_POS)
    assert "d6" not in dests(p, "d4")


def test_only_the_side_to_act_moves():
    p = battle(*WATER_POS)
    assert dest_list(p, "d7") == []  # Dark's piece, Light to act
    e = raises(IllegalAction, p.parse_action, "d7d6")
    assert "not your piece" in str(e)
    e = raises(IllegalAction, p.parse_action, "h8h7")
    assert "no piece there" in str(e)


# --- Captures ------------------------------------------------------------------------

def test_travellers_and_awakened_on_earth_cannot_be_captured():
    # Light Awakened on d4 moves every way; e5 Dark Traveller and d6 Dark
    # Awakened stand on Earth, and so does Dark's Heart on b6, unprotected.
    p = battle("8/8/1E1E4/4E3/3A4/8/8/4A3", "8/8/1h1s4/4t3/3S4/8/8/4H3")
    got = dests(p, "d4")
    assert "e5" not in got and "f6" in got  # f6 by Air over e5
    assert "d6" not in got and "d5" in got and "d7" not in got
    assert "b6" in got  # the Heart is capturable on Earth
    play(p, "d4b6")
    assert p.outcome().winner == LIGHT and p.outcome().reason == HEART_TAKEN


def test_capture_removes_the_piece():
    p = battle(*FIRE_POS)
    play(p, "d4c3")
    assert piece(p, "c3") == "T" and sum(1 for x in p.pieces if x >> 2 == DARK) == 3


# --- Awakening -----------------------------------------------------------------------

def test_a_move_to_the_enemy_back_rank_awakens():
    # Light c7 on Earth; Dark f2 on Earth; d8 Dark Traveller on Fire.
    p = battle("3FA3/2E5/8/8/8/8/5E2/4A3", "3th3/2T5/8/8/8/8/5t2/4H3")
    assert p.awakens(parse_action("c7c8")) and not p.awakens(parse_action("c7c6"))
    play(p, "c7c8")
    assert piece(p, "c8") == "S"
    play(p, "f2f1")
    assert piece(p, "f1") == "s"
    # The Awakened moves by all four patterns now, and stays Awakened off rank 8.
    assert "c4" in dests(p, "c8")  # a Water slide, though c8 is Earth
    play(p, "c8c6", "f1f2")
    assert piece(p, "c6") == "S" and piece(p, "f2") == "s"
    # pop() puts the Traveller back.
    for _ in range(4):
        p.pop()
    assert piece(p, "c7") == "T" and piece(p, "f2") == "t"


def test_a_capture_on_the_back_rank_awakens():
    p = battle("3FA3/2E5/8/8/8/8/8/4A3", "3th3/2T5/8/8/8/8/8/4H3")
    play(p, "c7d8")
    assert piece(p, "d8") == "S" and p.quiet == 0


def test_own_back_rank_does_not_awaken():
    p = battle("4A3/8/8/8/8/8/1E6/4A3", "4h3/8/8/8/8/8/1T6/4H3")
    assert not p.awakens(parse_action("b2b1"))
    play(p, "b2b1")
    assert piece(p, "b1") == "T"


def test_a_traveller_placed_on_the_back_rank_stays_a_traveller():
    # A parsed Traveller on rank 8 (on Water) got there without a move.
    p = battle("WFEA4/8/8/7A/8/8/8/4A3", "T7/8/8/7h/8/8/8/4H3")
    assert piece(p, "a8") == "T"
    assert dests(p, "a8") == ["a1", "a2", "a3", "a4", "a5", "a6", "a7",
                              "b8", "c8", "d8", "e8", "f8", "g8", "h8"]
    # A tile swapped under it does not awaken it: it moves by Fire now.
    play(p, "a8~b8", "h5h7")
    assert piece(p, "a8") == "T" and tile(p, "a8") == "F"
    assert dests(p, "a8") == ["b7", "c6"]
    # Nor does a Vortex turning tiles under it.
    play(p, "V+a7")
    assert piece(p, "a8") == "T" and " T7/" in p.text()


# --- Swaps ---------------------------------------------------------------------------

SWAP_TILES = "4A3/8/8/3FA3/3WEA2/8/8/4A3"  # d4 W, e4 E, f4 A, d5 F, e5 A
SWAP_PIECES = "4h3/8/8/8/3T4/8/8/4H3"


def test_swap_exchanges_two_tiles_and_no_piece():
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 - 5 70")
    play(p, "d4~e4")
    assert tile(p, "d4") == "E" and tile(p, "e4") == "W"
    assert piece(p, "d4") == "T" and piece(p, "e4") == "."
    assert p.quiet == 6 and " d4e4 " in p.text()


def different_pairs(p):
    # Cells sharing a side whose tiles differ, counted on the raw tiles.
    pairs = 0
    for c in range(64):
        if c % 8 < 7 and p.tiles[c] != p.tiles[c + 1]:
            pairs += 1
        if c < 56 and p.tiles[c] != p.tiles[c + 8]:
            pairs += 1
    return pairs


def swap_texts(p):
    return [t for t in legal_texts(p) if "~" in t]


def test_swap_needs_neighbours_with_different_terrains():
    p = battle("4A3/8/8/8/3EE3/8/8/4A3", "4h3/8/8/8/8/8/8/4H3")
    e = raises(IllegalAction, p.parse_action, "d4~e4")
    assert "the tiles have the same terrain" in str(e)
    assert p.why_illegal(SWAP + 7 * 2) == "not two neighbouring cells"  # h1 "east"
    raises(NotationError, p.parse_action, "d4~f4")
    raises(NotationError, p.parse_action, "d4~e5")
    # Every pair of different neighbours is one legal swap, and no more.
    assert len(swap_texts(p)) == different_pairs(p)
    assert len(set(swap_texts(p))) == len(swap_texts(p))


def test_swap_text_in_either_order():
    p = battle(SWAP_TILES, SWAP_PIECES)
    assert p.parse_action("e4~d4") == p.parse_action("d4~e4")
    assert p.parse_action("d5~d4") == p.parse_action("d4~d5")


def test_swap_ban_forbids_only_the_exact_pair_just_swapped():
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 - 0 70")
    play(p, "d4~e4")
    swaps = swap_texts(p)
    assert "d4~e4" not in swaps
    e = raises(IllegalAction, p.parse_action, "e4~d4")
    assert "undoes the swap" in str(e)
    # Every other swap is allowed, those sharing a cell too.
    assert len(swaps) == different_pairs(p) - 1
    for t in ("d4~d5", "e4~f4", "e4~e5"):
        assert t in swaps, t


def test_swap_ban_clears_after_another_action():
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 - 0 70")
    play(p, "d4~e4", "e8e6")  # Dark moves: the ban is gone
    assert " - " in p.text()
    play(p, "d4~e4")  # Light may swap the pair back now
    assert tile(p, "d4") == "W"
    # Light swaps, Dark swaps another pair: only Dark's pair is banned to Light.
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 - 0 70")
    play(p, "d4~e4", "e4~f4")
    texts = legal_texts(p)
    assert "e4~f4" not in texts and "d4~e4" in texts
    # A Vortex clears it too.
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 - 0 70")
    play(p, "d4~e4", "V+d4")
    assert " - " in p.text() and "d4~e4" in legal_texts(p)


def test_swap_ban_field_parses():
    p = battle(SWAP_TILES, SWAP_PIECES, "l 3,4 e4d4 0 70")
    assert "d4~e4" not in legal_texts(p) and " d4e4 " in p.text()


# --- Vortex ------------------------------------------------------------------------

VORTEX_TILES = "4A3/8/8/3WF3/3AE3/8/8/4A3"  # d5 W, e5 F, d4 A, e4 E
VORTEX_PIECES = "4h3/8/8/3t4/3T4/8/8/4H3"


def test_vortex_clockwise_orientation():
    p = battle(VORTEX_TILES, VORTEX_PIECES)
    play(p, "V+d4")
    # d5 -> e5, e5 -> e4, e4 -> d4, d4 -> d5 (rank 8 at the top).
    assert [tile(p, c) for c in ("d5", "e5", "e4", "d4")] == ["A", "W", "F", "E"]
    assert piece(p, "d4") == "T" and piece(p, "d5") == "t"  # pieces stay


def test_vortex_counter_clockwise_is_the_inverse():
    p = battle(VORTEX_TILES, VORTEX_PIECES)
    play(p, "V-d4")
    # e5 -> d5, d5 -> d4, d4 -> e4, e4 -> e5.
    assert [tile(p, c) for c in ("d5", "e5", "e4", "d4")] == ["F", "E", "A", "W"]
    play(p, "V+d4")  # Dark turns it back
    assert [tile(p, c) for c in ("d5", "e5", "e4", "d4")] == ["W", "F", "E", "A"]
    assert list(p.vortexes) == [2, 3]


def test_action_cells_and_tile_goes_say_what_push_does():
    # The geometry the board lights and recognises by is the one push plays.
    cells = bytearray(4)
    for text in ("V+d4", "V-d4", "d4~e4", "d4~d5"):
        p = battle(VORTEX_TILES, VORTEX_PIECES)
        a = parse_action(text)
        n = action_cells(a, cells)
        before = [p.tiles[cells[i]] for i in range(n)]
        p.push(a)
        for i in range(n):
            assert p.tiles[cells[tile_goes(a, i)]] == before[i], (text, i)
    assert action_cells(parse_action("e2e4"), cells) == 2 and list(cells[:2]) == [12, 28]
    assert action_cells(parse_action("A@c3"), cells) == 1 and cells[0] == 18
    assert placed_terrain(parse_action("A@c3")) == AIR


def test_vortex_directions_are_distinct_actions():
    # A chequered block: both turns give the same tiles, yet are two actions.
    p = battle("4A3/8/8/3FW3/3WF3/8/8/4A3", VORTEX_PIECES)
    texts = legal_texts(p)
    assert "V+d4" in texts and "V-d4" in texts
    assert p.parse_action("V+d4") != p.parse_action("V-d4")
    q = battle("4A3/8/8/3FW3/3WF3/8/8/4A3", VORTEX_PIECES)
    play(p, "V+d4")
    play(q, "V-d4")
    assert p.text() == q.text()
    # Every block with two terrains or more gives two actions.
    blocks = 0
    for c in range(64):
        if c % 8 < 7 and c < 56:
            four = set((p.tiles[c], p.tiles[c + 1], p.tiles[c + 8], p.tiles[c + 9]))
            blocks += len(four) > 1
    assert len([t for t in legal_texts(p) if t[0] == "V"]) == 2 * blocks


def test_vortex_of_one_terrain_is_illegal():
    p = battle("4A3/8/8/3WW3/3WW3/8/8/4A3", VORTEX_PIECES)
    e = raises(IllegalAction, p.parse_action, "V+d4")
    assert str(e) == "illegal action V+d4: the four tiles have one terrain"
    raises(IllegalAction, p.parse_action, "V-d4")
    p = battle("4A3/8/8/3WW3/3WE3/8/8/4A3", VORTEX_PIECES)  # three and one
    assert "V+d4" in legal_texts(p) and "V-d4" in legal_texts(p)


def test_vortex_counts_three_and_four_and_running_out():
    p = battle(VORTEX_TILES, VORTEX_PIECES)
    assert list(p.vortexes) == [3, 4]
    play(p, "V+d4", "V+d4", "V+d4", "V+d4", "V+d4", "V+d4")
    assert list(p.vortexes) == [0, 1] and p.side == LIGHT
    assert not [t for t in legal_texts(p) if t[0] == "V"]
    e = raises(IllegalAction, p.parse_action, "V+d4")
    assert "no Vortex left" in str(e)
    play(p, "d4~e4")  # Dark still has one
    assert "V-d4" in legal_texts(p)
    play(p, "V-d4")
    assert list(p.vortexes) == [0, 0]
    assert not [t for t in legal_texts(p) if t[0] == "V"]
    p.pop()
    assert list(p.vortexes) == [0, 1]


def test_vortex_blocks_stay_on_the_board():
    p = battle(VORTEX_TILES, VORTEX_PIECES)
    for t in legal_texts(p):
        if t[0] == "V":  # lower-left cell a1..g7
            assert t[2] in "abcdefg" and t[3] in "1234567", t
    assert p.why_illegal(VORTEX + 2 * parse_cell("h1")) == "not a 2x2 block on the board"
    assert p.why_illegal(VORTEX + 2 * parse_cell("a8")) == "not a 2x2 block on the board"
    raises(NotationError, p.parse_action, "V+h4")


# --- The no-capture count and the end ------------------------------------------

# d4 Water, e4 Air; every cell a piece may stand on in these tests is named.
QUIET_TILES = "A3A2A/A7/8/8/3WA3/8/AA6/A3A2A"


def test_quiet_count_moves_swaps_vortexes_but_not_placements():
    p = battle(QUIET_TILES, "4h3/8/8/8/3Tt3/8/8/4H3", "l 3,4 - 7 90")
    play(p, "d4d5")
    assert p.quiet == 8
    play(p, "d4~e4")
    assert p.quiet == 9
    play(p, "V+d4")
    assert p.quiet == 10
    p = play(Position(), "W@a1", "F@a2")
    assert p.quiet == 0


def test_quiet_count_resets_on_capture():
    p = battle(QUIET_TILES, "4h3/8/8/8/3Tt3/8/8/4H3", "l 3,4 - 79 90")
    play(p, "d4e4")
    assert p.quiet == 0 and not p.is_over() and p.outcome() is None
    p.pop()
    assert p.quiet == 79


def _quiet_end(pieces):
    # Light makes the 80th quiet action (a swap); return the outcome.
    p = battle(QUIET_TILES, pieces, "l 3,4 - 79 150")
    assert not p.is_over()
    play(p, "d4~e4")
    assert p.quiet == 80 and p.is_over()
    assert legal_texts(p) == [] and len(p.legal_actions()) == 0
    return p.outcome()


def test_quiet_end_more_travellers_wins():
    o = _quiet_end("4h3/8/8/8/3T4/8/TT6/4H3")  # 3 to 0
    assert o.winner == LIGHT and o.reason == QUIET_END
    o = _quiet_end("t3h3/t7/8/8/3T4/8/8/4H3")  # 1 to 2
    assert o.winner == DARK and o.reason == QUIET_END


def test_quiet_end_counts_awakened_not_hearts():
    # Light: 1 Traveller + Heart; Dark: 1 Traveller + 1 Awakened.
    o = _quiet_end("4h3/8/8/8/3T4/8/8/s3H2t")
    assert o.winner == DARK
    # Equal counts draw; a Heart is not a Traveller.
    o = _quiet_end("4h3/8/8/8/3T4/8/8/s3H3")
    assert o.winner is None and o.reason == QUIET_END
    o = _quiet_end("4h3/8/8/8/8/8/8/4H3")
    assert o.winner is None


def test_eighty_quiet_actions_end_the_game():
    # From quiet 0, 80 quiet actions and no more.
    p = battle(QUIET_TILES, "4h3/8/8/8/3T4/8/8/4H3", "l 3,4 - 0 64")
    buf = new_buffer()
    for i in range(80):
        assert not p.is_over()
        n = p.legal_into(buf)
        swaps = [buf[j] for j in range(n) if SWAP <= buf[j] < VORTEX]
        p.push(swaps[i % len(swaps)])
    assert p.quiet == 80 and p.is_over() and p.legal_into(buf) == 0
    assert p.outcome().reason == QUIET_END and p.outcome().winner == LIGHT


def test_quiet_field_is_bounded_by_the_rule():
    # The engine has no clock (a time-out is decided outside it): the rule of
    # 80 alone bounds a game, and no position counts past 80.
    p = battle(QUIET_TILES, "4h3/8/8/8/8/8/8/4H3", "l 3,4 - 80 100")
    assert p.is_over() and p.outcome().reason == QUIET_END
    tiles = p.text().split()[0]
    e = raises(NotationError, Position, tiles + " 4h3/8/8/8/8/8/8/4H3 l 3,4 - 81 100")
    assert str(e).startswith("quiet:")


def test_taking_the_heart_ends_the_game_at_once():
    p = battle(*WATER_POS, rest="l 3,4 - 0 70")
    play(p, "d4a4")
    o = p.outcome()
    assert o.winner == LIGHT and o.reason == HEART_TAKEN and p.is_over()
    assert p.hearts[DARK] == 255 and piece(p, "a4") == "T"
    assert p.legal_into(new_buffer()) == 0 and list(p.legal_actions()) == []
    assert p.why_illegal(parse_action("d2d3")) == "the game is over"
    p.pop()
    assert not p.is_over() and p.hearts[DARK] == parse_cell("a4")
    # Dark takes Light's Heart: Dark wins.
    p = battle("4A3/8/8/8/8/8/8/W3W3", "8/8/8/8/8/8/8/h3H3", "d 3,4 - 40 99")
    play(p, "a1e1")
    assert p.outcome().winner == DARK and p.outcome().reason == HEART_TAKEN


def test_a_heart_taken_on_the_eightieth_action_wins():
    # Quiet count 79: the capture ends the game by the Heart, not by the count.
    p = battle(*WATER_POS, rest="l 3,4 - 79 150")
    play(p, "d4a4")
    assert p.quiet == 0 and p.outcome() == Outcome(LIGHT, HEART_TAKEN)


def test_a_side_without_a_legal_action_loses():
    # Unreachable in play: 16 tiles of each terrain always leave two swaps
    # or more. So the board is written field by field: all Earth, Light's
    # Heart on a1 walled in by Dark Travellers that Earth protects.
    p = Position("8/8/8/8/8/8/8/8 7h/8/8/8/8/8/tt6/Ht6 l 3,4 - 0 64")
    for c in range(64):
        p.tiles[c] = EARTH
    p.filled = 64
    p.pool[EARTH] = 0
    assert not p.is_over()  # is_over() does not look for actions
    assert p.legal_into(new_buffer()) == 0
    o = p.outcome()
    assert o.winner == DARK and o.reason == NO_ACTION


def test_has_legal_answers_as_the_list_does_on_any_tiles():
    # has_legal() stops at the first legal swap. A 2x2 block of mixed
    # terrain has two pairs of neighbours that differ (its four sides make a
    # ring, which cannot change terrain just once) and a ban forbids one
    # swap: so a swap is legal wherever a turn is, and only a board of one
    # terrain, unreachable in play, leaves the answer to the pieces. Written
    # field by field: Earth but for one block in the corners, on the edges
    # and inside, every mix of Water in it, the ban on each of its sides.
    p = Position("8/8/8/8/8/8/8/8 7h/8/8/8/8/8/tt6/Ht6 l 3,4 - 0 64")
    p.filled = 64
    buf = new_buffer()
    for c in range(64):
        p.tiles[c] = EARTH
    assert not p.has_legal() and p.legal_into(buf) == 0  # Light walled in on a1
    p.side = DARK
    assert p.has_legal() and p.legal_into(buf) > 0  # Dark's pieces can move
    p.side = LIGHT
    for b in (0, 6, 27, 48, 54):  # a1, g1, d4, a7, g7
        for mix in range(1, 15):
            for c in range(64):
                p.tiles[c] = EARTH
            for i, d in enumerate((0, 1, 8, 9)):
                if mix >> i & 1:
                    p.tiles[b + d] = WATER
            for ban in (OFF, 2 * b, 2 * b + 1, 2 * (b + 1) + 1, 2 * (b + 8)):
                p.ban = ban
                assert p.has_legal() and p.legal_into(buf) > 0, (b, mix, ban)


def test_a_finished_game_has_no_legal_action():
    p = battle(*WATER_POS, rest="l 3,4 - 80 70")
    assert p.is_over() and len(p.legal_actions()) == 0
    assert p.destinations(parse_cell("d4"), new_buffer()) == 0
    for a in (parse_cell("d4") * 64 + parse_cell("d5"), SWAP, VORTEX):
        assert p.why_illegal(a) == "the game is over"


# --- push / pop -----------------------------------------------------------------------

def test_push_pop_restore_text_exactly():
    # A battle with captures, an awakening, a swap (ban), a Vortex and a
    # Heart taken, popped back to its start, comparing every text.
    p = battle("3FA3/2E5/8/8/W2W2F1/8/3A4/4A3", "3th3/2T5/8/8/t2T2t1/8/3T4/4H3",
               "l 3,4 - 33 80")
    texts = [p.text()]
    hearts = [tuple(p.hearts)]  # (not in the text: where each Heart stands, kept by push and pop)
    for a in ("d4g4", "d8f6", "c7c8", "a4a5", "g4e2", "d8~e8", "V-c7", "e8d7", "c8d7"):
        play(p, a)
        texts.append(p.text())
        hearts.append(tuple(p.hearts))
    assert piece(p, "d7") == "S" and p.outcome().winner == LIGHT
    while p.stack:
        assert p.text() == texts.pop() and tuple(p.hearts) == hearts.pop()
        p.pop()
    assert p.text() == texts.pop() and not texts
    assert piece(p, "c7") == "T" and piece(p, "d4") == "T" and piece(p, "g4") == "t"
    # And through placements.
    p = Position()
    for a in ("W@d4", "F@e2", "E@a1", "A@h8"):
        play(p, a)
    while p.stack:
        p.pop()
    assert p.text() == START and list(p.pool)[1:] == [16, 16, 16, 16] and p.filled == 0


def test_a_copy_is_the_same_position_and_its_own():
    # Copied byte for byte, never through its text: a copy plays on alone,
    # and a copy made into another Position (the board's AI searches one,
    # made once) takes its whole state and drops that one's actions.
    p = battle("3FA3/2E5/8/8/W2W2F1/8/3A4/4A3", "3th3/2T5/8/8/t2T2t1/8/3T4/4H3",
               "l 3,4 - 33 80")
    for a in ("d4g4", "d8f6", "d8~e8"):  # a capture, a swap's ban
        play(p, a)
    q = p.copy()
    assert q.text() == p.text() and q.stack == [] and tuple(q.hearts) == tuple(p.hearts)
    assert list(q.pool) == list(p.pool) and q.filled == p.filled
    text = p.text()
    play(q, "V-c7")
    assert p.text() == text and q.text() != text
    r = Position()
    play(r, "W@d4")
    assert p.copy(r) is r and r.text() == text and r.stack == [] and r.filled == 64
    for a in r.legal_actions():  # it plays from the copied position, its undo its own
        r.push(a)
        r.pop()
    assert r.text() == text and p.text() == text
    # The building phase: the pool and the count of tiles laid come along.
    b = Position()
    play(b, "W@d4")
    c = b.copy()
    assert list(c.pool)[1:] == [15, 16, 16, 16] and c.filled == 1 and c.is_building()
    play(c, "F@e5")
    assert b.text() != c.text() and b.filled == 1
