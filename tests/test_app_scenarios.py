"""Scenario tests: scripted hands on the virtual board, checked against the
committed game and the LEDs. Plain asserts: pytest runs them on CPython and
tests/mpy_runner.py under the MicroPython unix port."""
from host_sim.scenario import Rig, scaled
from vortex.app import leds
from vortex.app.advice import todo
from vortex.app.recognise import AGREE, DISAGREE
from vortex.app.session import Settings
from vortex.app.sensing import SETTLE_MS
from vortex.engine.defs import LIGHT, DARK
from vortex.engine.notation import action_text, parse_cell

# Full board, pieces at the start, Light to act. e2 stands on Water: it slides
# e3-e6 and may take the Traveller on e7 (Fire, so not protected).
BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
# A Light Traveller on c6 (Water) with c7 and c8 empty: c6c8 awakens it.
# Dark's Heart on h8 stands on Water; Light's Awakened on h6 (Air) can take it.
AWAKE = ("AAAWAWEW/FFWEFEFF/FEWWFAEA/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEEEAWA "
         "7h/t7/2T4S/8/8/8/8/4H3 l 3,4 - 0 80")
START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"


def test_lift_shows_destinations_then_move_commits():
    rig = Rig(BATTLE)
    rig.run("lift e2")
    assert rig.shows("e2", leds.LIFTED)
    for c in ("e3", "e4", "e5", "e6"):
        assert rig.shows(c, leds.DEST), c
    assert rig.shows("e7", leds.CAPTURE)
    assert rig.board.pos.stack == []
    rig.run("place e4, settle")
    assert rig.played() == "e2e4"
    assert rig.shows("e2", leds.LAST) and rig.shows("e4", leds.LAST)
    assert rig.shows("a8", leds.SIDE[DARK])  # Dark's turn: its corners
    assert rig.agrees()


def test_capture_taken_piece_lifted_first():
    rig = Rig(BATTLE)
    rig.run("lift e7, drop, lift e2, place e7, settle")
    assert rig.played() == "e2e7"
    assert rig.board.pos.pieces[parse_cell("e7")] == 1  # Light's Traveller


def test_capture_mover_lifted_first():
    rig = Rig(BATTLE)
    rig.run("lift e2, lift e7, drop, place e7, settle")
    assert rig.played() == "e2e7"
    assert rig.board.pos.quiet == 0


def test_capture_shows_destinations_while_taken_piece_is_off():
    rig = Rig(BATTLE)
    rig.run("lift e7, drop, wait 400, lift e2")
    assert rig.shows("e2", leds.LIFTED)
    assert rig.shows("e7", leds.CAPTURE)


def test_awakening_by_a_move():
    rig = Rig(AWAKE)
    rig.run("lift c6")
    assert rig.shows("c8", leds.AWAKEN)
    rig.run("place c8, settle")
    assert rig.played() == "c6c8"
    assert rig.board.pos.pieces[parse_cell("c8")] == 2  # Awakened


def test_heart_taken_ends_the_game_with_the_winner_lit():
    rig = Rig(AWAKE)
    rig.run("lift h8, drop, lift h6, place h8, settle")
    assert rig.played() == "h6h8"
    result = rig.board.result()
    assert result is not None and result.winner == LIGHT
    assert rig.shows("a1", leds.SIDE[LIGHT]) and rig.shows("d4", leds.OFF)
    # The winner's colour all round the edge (h6h8 is on it), nothing inside.
    for f in "abcdefgh":
        for r in "12345678":
            edge = f in "ah" or r in "18"
            assert rig.shows(f + r, leds.SIDE[LIGHT] if edge else leds.OFF), f + r


def test_piece_lifted_and_put_back_is_no_action():
    rig = Rig(BATTLE)
    rig.run("lift e2, wait 500, place e2, settle")
    assert rig.board.pos.stack == []
    assert rig.shows("e3", leds.OFF) and rig.shows("e2", leds.OFF)


def test_wrong_piece_lifted_and_put_back():
    rig = Rig(BATTLE)
    rig.run("lift d7, wait 500, place d7, lift d2, place d2, settle, play e2e4")
    assert rig.played() == "e2e4"


def test_piece_slid_across_cells():
    rig = Rig(BATTLE)
    rig.run("slide e2 e3 e4 e5, settle")
    assert rig.played() == "e2e5"


def test_illegal_move_flashes_and_shows_what_to_restore():
    rig = Rig(BATTLE)
    rig.run("lift e2, place d4, wait 400")  # e2 is on Water: no diagonal
    assert rig.board.pos.stack == [] and "illegal action" in rig.board.messages  # the page's log
    flashing = set()
    for _ in range(120):  # the flash blinks red on e2 and d4
        rig.tick()
        flashing.add(rig.colour("d4"))
    assert scaled(leds.ERROR) in flashing and (0, 0, 0) in flashing
    rig.wait(2500)  # after the flash: the missing piece in its side's colour, the extra one red
    assert rig.shows("e2", leds.SIDE[LIGHT]) and rig.shows("d4", leds.EXTRA)
    rig.run("lift d4, place e2, settle")
    assert rig.board.pos.stack == [] and rig.shows("d4", leds.OFF)


def test_piece_knocked_off_its_cell():
    rig = Rig(BATTLE)
    rig.run("knock d7 d6, settle")  # Dark's piece, on Light's turn
    assert rig.board.pos.stack == []
    rig.wait(2500)
    assert rig.shows("d7", leds.SIDE[DARK]) and rig.shows("d6", leds.EXTRA)
    rig.run("lift d6, place d7, settle, play e2e3")
    assert rig.played() == "e2e3"


def test_tile_lifted_and_put_back():
    rig = Rig(BATTLE)
    rig.run("take-tile a3, wait 600, put-tile a3, settle")
    assert rig.board.pos.stack == []
    assert rig.shows("a3", leds.OFF)


def test_swap_and_its_ban():
    rig = Rig(BATTLE)
    rig.run("play c3~d3")  # c3 Water, d3 Earth
    assert rig.played() == "c3~d3"
    assert rig.shows("c3", leds.LAST) and rig.shows("d3", leds.LAST)
    rig.run("play b6~b7")  # Dark replies with a swap of its own (pieces stay)
    assert rig.played() == "c3~d3 b6~b7"
    assert rig.agrees()


def test_swapping_back_the_swap_just_played_is_refused():
    rig = Rig(BATTLE)
    rig.run("play c3~d3")
    # Dark tries to undo Light's swap: the board flashes and does not commit.
    v = rig.virtual
    rig.run("take-tile c3, take-tile d3")
    v.place_tile("d3", rig.now, which=-2)
    v.place_tile("c3", rig.now, which=-1)
    rig.settle()
    assert rig.played() == "c3~d3"
    assert rig.board.flashing and rig.colour("c3") in ((0, 0, 0), scaled(leds.ERROR))


def test_vortex_both_directions():
    for text in ("V+c3", "V-c3"):
        rig = Rig(BATTLE)
        rig.run("play " + text)
        assert rig.played() == text
        assert rig.board.pos.vortexes[LIGHT] == 2
        assert rig.agrees()
        rig = None  # one rig at a time in MicroPython's 128 KB


def test_vortex_with_pieces_on_the_block():
    rig = Rig(BATTLE)
    rig.run("play V-d1")  # d1, e1 (Heart), d2, e2 (Travellers) lifted and put back
    assert rig.played() == "V-d1"
    assert rig.agrees()


def test_vortex_direction_told_by_tile_serials():
    # The block a2 (a2 F, b2 W, a3 W, b3 F) gives the same terrains turned
    # either way: only the tiles' serials tell the two Vortexes apart.
    pos = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WFWEEEFW/FWWAWAEF/AAEWWAWA "
           "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
    for text in ("V+a2", "V-a2"):
        rig = Rig(pos)
        rig.run("play " + text)
        assert rig.played() == text
        rig = None  # one rig at a time in MicroPython's 128 KB


def test_building_phase_placements():
    rig = Rig(START)
    assert rig.shows("d4", leds.PLACE)  # a tile may be laid on any bare cell
    rig.run("lay W d4, settle")
    assert rig.played() == "W@d4"
    assert rig.shows("d4", leds.LAST)
    rig.run("lift e7, lay F e7, place e7, settle")  # under a piece
    assert rig.played() == "W@d4 F@e7"
    assert rig.board.pos.side == LIGHT


def test_an_action_is_shown_as_soon_as_it_is_seen_and_committed_when_still():
    # Issue 16: a laid tile on the LEDs within 300 ms of its touch; the
    # board's settle alone is 300 ms, so the action shows before it commits.
    rig = Rig(START)
    rig.run("lay W d4")
    assert rig.until(lambda: rig.shows("d4", leds.LAST), SETTLE_MS)
    assert rig.board.pos.stack == [] and rig.shows("a1", leds.SIDE[LIGHT])  # not yet played
    rig.run("settle")
    assert rig.played() == "W@d4" and rig.shows("d4", leds.LAST)
    # A move put down: shown at once, the lifted piece's destinations gone.
    rig = Rig(BATTLE)
    rig.run("lift e2")
    rig.run("place e4")
    assert rig.until(lambda: rig.shows("e4", leds.LAST), SETTLE_MS)
    assert rig.shows("e2", leds.LAST) and not rig.shows("e5", leds.DEST)
    assert rig.board.pos.stack == []
    # The hands go on before it is still (the piece lifted again): the view
    # goes back to the piece in hand, and nothing is played.
    rig.run("lift e4")
    assert rig.until(lambda: rig.shows("e5", leds.DEST), SETTLE_MS)
    assert not rig.shows("e4", leds.LAST)
    rig.run("place e2, settle")
    assert rig.board.pos.stack == [] and rig.agrees()


def test_tile_with_an_unknown_tag():
    rig = Rig(START)
    rig.run("lay ? d4, settle")  # a tag that answers but is not a tile of ours
    assert rig.board.pos.stack == []
    assert rig.shows("d4", leds.EXTRA)
    rig.run("take-tile d4, settle, lay E d4, settle")
    assert rig.played() == "E@d4"


def test_vortex_with_a_tile_on_the_wrong_cell():
    rig = Rig(BATTLE)
    v = rig.virtual
    # V+c3 moves c3 -> c4 -> d4 -> d3 -> c3; the hands swap two of them wrongly.
    rig.run("take-tile c3, take-tile c4, take-tile d4, take-tile d3")
    for cell, i in (("c4", -4), ("d3", -3), ("d4", -2), ("c3", -1)):
        v.place_tile(cell, rig.now, which=i)
    rig.settle()
    assert rig.board.pos.stack == []
    assert rig.shows("d3", leds.EXTRA) or rig.shows("d4", leds.EXTRA)
    rig.run("take-tile d3, take-tile d4")
    v.place_tile("d3", rig.now, which=-1)
    v.place_tile("d4", rig.now, which=-1)
    rig.settle()
    assert rig.played() == "V+c3"


def test_heart_set_on_another_file_before_the_first_tile():
    rig = Rig(START, settings=Settings(free_hearts=1))
    rig.run("lift e1, place c1, settle")
    assert rig.board.start.split()[1].endswith("/2H5") and rig.board.pos.stack == []
    assert rig.agrees()
    rig.run("lay W d4, settle")
    assert rig.played() == "W@d4"
    rig.run("lift e8, place f8, settle")  # too late: a tile is down
    assert rig.board.pos.pieces[parse_cell("e8")] and rig.shows("f8", leds.EXTRA)


def test_heart_stays_put_without_the_option():
    rig = Rig(START)
    rig.run("lift e1, place c1, wait 400")
    assert rig.board.flashing and rig.board.start == START


def test_ai_action_carried_out():
    rig = Rig(BATTLE, settings=Settings(ai_side=DARK))
    rig.run("play e2e4")
    pending = rig.board.pending
    assert pending >= 0
    rig.run("carry")
    assert rig.board.pos.stack[-1] == pending
    assert rig.board.pos.side == LIGHT and rig.board.pending == -1


def test_remote_opponents_action_carried_out():
    rig = Rig(BATTLE)
    rig.run("play e2e4")
    asked = rig.board.pos.parse_action("b7c6")  # from a remote opponent, say
    rig.board.request(asked)
    rig.tick()
    assert rig.shows("b7", leds.TODO)
    rig.run("lift d7, place d6, settle")  # another legal move: refused
    assert rig.played() == "e2e4"
    rig.run("lift d6, place d7, settle, carry")
    assert rig.played() == "e2e4 b7c6"


def test_an_action_not_asked_for_is_never_drawn_as_played_while_the_hands_move():
    # A remote opponent's b7c6 asked; the hands play d7d6, legal but not
    # asked. Until they are still the view stays the hand's (d7 lifted, its
    # destinations), with e2e4 the last action and b7c6 asked for; d7d6 is
    # never drawn as the last action. Once still, it flashes as not asked.
    rig = Rig(BATTLE)
    rig.run("play e2e4")
    rig.board.request(rig.board.pos.parse_action("b7c6"))
    rig.run("lift d7")
    assert rig.shows("d7", leds.LIFTED) and rig.shows("d6", leds.DEST)
    rig.run("place d6")
    todo_shown = 0
    for _ in range((SETTLE_MS - 20) // 5):
        assert not rig.shows("d6", leds.LAST) and not rig.shows("d7", leds.LAST)
        assert rig.shows("e2", leds.LAST) and rig.shows("e4", leds.LAST)
        assert rig.shows("d7", leds.LIFTED)
        todo_shown += rig.shows("b7", leds.TODO)
        rig.tick()
    assert todo_shown and rig.played() == "e2e4"
    assert rig.until(lambda: rig.shows("d6", leds.ERROR) and rig.shows("d7", leds.ERROR), 800)
    rig.settle()
    assert rig.played() == "e2e4" and not rig.shows("d6", leds.LAST)


def test_other_action_than_the_ai_asked_is_refused():
    rig = Rig(START, settings=Settings(ai_side=LIGHT))
    want = rig.board.pending
    assert want >= 0
    cell = "h8" if action_text(want)[2:] != "h8" else "g8"  # the wrong cell
    rig.run("lay %s %s, settle" % (action_text(want)[0], cell))
    assert rig.board.pos.stack == []
    rig.run("take-tile %s, settle, carry" % cell)
    assert rig.board.pos.stack[:1] == [want]


def test_takeback_shows_what_to_restore():
    rig = Rig(BATTLE)
    rig.run("play e2e4, press a, settle")
    assert rig.board.pos.stack == [] and rig.board.messages[-1] == "takeback"  # the page's log
    rig.wait(100)
    assert rig.shows("e2", leds.SIDE[LIGHT]) and rig.shows("e4", leds.EXTRA)
    rig.run("lift e4, place e2, settle")
    assert rig.agrees() and rig.shows("e4", leds.OFF)


def test_takeback_of_a_capture_shows_each_missing_pieces_side():
    rig = Rig(BATTLE)
    rig.run("play e2e7, press a, settle")  # Light took Dark's Traveller, then took it back
    assert rig.board.pos.stack == []
    rig.wait(100)
    # The taker goes back to e2, then the taken Dark Traveller to e7: each in its side's colour.
    assert rig.shows("e2", leds.SIDE[LIGHT])
    rig.run("lift e7, place e2, settle")
    assert rig.shows("e7", leds.SIDE[DARK])
    rig.run("from-tray t e7, settle")
    assert rig.agrees() and rig.shows("e7", leds.OFF) and rig.shows("e2", leds.OFF)


def test_takeback_of_a_capture_needs_the_taker_lifted_from_the_taken_cell():
    # After the takeback the taker still stands on e7, where the game now has
    # Dark's Traveller: the reeds see e7 occupied either way. Putting the
    # taken piece on e2 instead leaves the occupancy right and the pieces
    # wrong; the board must not take that for put back.
    rig = Rig(BATTLE)
    rig.run("play e2e7, press a, settle")
    assert rig.board.pos.stack == []
    assert rig.shows("e7", leds.SIDE[DARK])  # flagged at once, though occupied
    assert "swap the piece on e7 for a Dark Traveller" in todo(rig.board)
    rig.run("from-tray t e2, settle")  # the wrong way: occupancy as the game's, pieces swapped
    assert rig.board.verdict == DISAGREE and rig.shows("e7", leds.SIDE[DARK])
    rig.run("lift e2, lift e7, place e2, place e7, settle")  # each piece to its own cell
    assert rig.agrees() and rig.board.verdict == AGREE and todo(rig.board) == ""
    assert rig.shows("e7", leds.OFF) and rig.shows("e2", leds.OFF)
    rig.run("play e2e4")  # and the game goes on from there
    assert rig.played() == "e2e4"


def test_missing_heart_pulses_in_its_sides_colour():
    rig = Rig(BATTLE)
    rig.run("lift e8, drop, settle")  # Dark's Heart off the board on Light's turn
    seen = set()
    for _ in range(120):  # about a second: both phases of the pulse
        rig.tick()
        seen.add(rig.colour("e8"))
    level = leds.LEVELS[2]
    assert seen == {scaled(leds.SIDE[DARK], level), scaled(leds.SIDE[DARK], level // leds.PULSE)}
    rig.run("from-tray h e8, settle")
    assert rig.agrees() and rig.shows("e8", leds.OFF)


def test_missing_tile_blue_before_the_piece_on_it():
    rig = Rig(BATTLE)
    rig.run("lift d7, take-tile d7, settle")  # Dark's Traveller and the tile under it
    rig.wait(2500)
    assert rig.shows("d7", leds.MISSING)
    rig.run("put-tile d7, settle")
    rig.wait(2500)
    assert rig.shows("d7", leds.SIDE[DARK])
    rig.run("place d7, settle")
    assert rig.agrees() and rig.shows("d7", leds.OFF)


def test_new_game_button():
    rig = Rig(BATTLE)
    rig.run("play e2e4, hold ab, settle")
    assert rig.board.pos.text() == START


def test_a_new_game_counts_no_action_until_the_board_shows_it():
    # The pieces still stand as the last game left them: e3 for e2 there
    # is the board to put back, not the new game's first move.
    rig = Rig(BATTLE)
    rig.run("play e2e3")
    rig.board.new_game(BATTLE)
    rig.run("settle")
    assert rig.played() == ""
    assert todo(rig.board) == "take the piece off e3; put a Light Traveller on e2"
    rig.run("lift e3, place e2, settle, play e2e3")
    assert rig.played() == "e2e3"


def test_brightness_button():
    rig = Rig(BATTLE)
    rig.run("play e2e4")
    dim = rig.colour("e4")
    rig.run("press b")
    assert rig.colour("e4") > dim


def test_clock_low_then_out():
    rig = Rig(BATTLE, settings=Settings(clock_ms=12000, increment_ms=1000))
    rig.wait(3000)  # Light's clock under 10 s: its corners blink red
    seen = set()
    for _ in range(200):
        rig.tick()
        seen.add(rig.colour("a1"))
    assert scaled(leds.LOW_CLOCK) in seen
    rig.wait(10000)
    result = rig.board.result()
    assert result is not None and result.winner == DARK and result.reason == "time out"


def test_the_clock_stops_while_the_board_is_put_back():
    rig = Rig(BATTLE, settings=Settings(clock_ms=60000))
    rig.run("lift e2, place e4, settle")
    assert rig.board.pos.stack
    rig.board.takeback()  # Light's move undone: the piece on e4 goes back to e2
    left = list(rig.board.clock.left)
    rig.wait(5000)
    assert list(rig.board.clock.left) == left  # nobody's time while it is put back
    rig.run("lift e4, place e2, settle")
    rig.wait(2000)
    assert rig.board.clock.left[LIGHT] < left[LIGHT]  # Light to act again: its time runs


def test_every_frame_within_the_current_budget():
    worst = [0]

    def check(frame):
        worst[0] = max(worst[0], leds.current_ma(frame))

    rig = Rig(BATTLE, settings=Settings(brightness=3, budget_ma=300), on_frame=check)
    rig.run("lift e2, place e4, settle, play d7d6, lift d2")
    assert 0 < worst[0] <= 300
