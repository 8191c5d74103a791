"""The evaluation's terms, each on a constructed position, and the building
policy. Plain asserts: run by pytest and under MicroPython."""
from vortex.engine.position import Position
from vortex.engine.defs import LIGHT, DARK, EARTH, WATER, FIRE, AIR
from vortex.ai.evaluate import (Evaluator, MATERIAL, AWAKENING, COVER, MOBILITY, TRAVELLERS,
                                THREATS, WIN, guards, tempo, quiet_race, QUIET_FROM)
from vortex.ai import build

# Ranks 8-7 Earth, 6-5 Water, 4-3 Fire, 2-1 Air.
BANDS = "EEEEEEEE/EEEEEEEE/WWWWWWWW/WWWWWWWW/FFFFFFFF/FFFFFFFF/AAAAAAAA/AAAAAAAA"


def terms(text):
    ev = Evaluator()
    pos = Position(text)
    ev.tally(pos)
    return ev, pos


def test_material_counts_travellers_and_awakened():
    ev, _ = terms(BANDS + " 4h3/8/8/8/8/8/TT6/s3H3 l 3,4")
    assert ev.terms[MATERIAL] == 2 * 100 - 255
    assert ev.terms[TRAVELLERS] == 2 - 1


def test_awakening_grows_toward_the_enemy_back_rank():
    near, _ = terms(BANDS + " 4h3/T7/8/8/8/8/8/4H3 l 3,4")     # Light a7: one step away
    far, _ = terms(BANDS + " 4h3/8/8/8/8/8/T7/4H3 l 3,4")      # Light a2: at the start
    dark, _ = terms(BANDS + " 4h3/8/8/8/8/8/t7/4H3 l 3,4")     # Dark a2: one step away
    assert near.terms[AWAKENING] > far.terms[AWAKENING] == 0
    assert dark.terms[AWAKENING] == -near.terms[AWAKENING]


def test_cover_counts_pieces_on_earth():
    ev, _ = terms(BANDS + " 4h3/T7/8/8/8/8/t7/4H3 l 3,4")  # Light on Earth, Dark on Air
    assert ev.terms[COVER] > 0
    ev, _ = terms(BANDS + " 4h3/t7/8/8/8/8/T7/4H3 l 3,4")
    assert ev.terms[COVER] < 0


def test_mobility_by_terrain():
    water, _ = terms(BANDS + " 4h3/8/T7/8/8/8/8/4H3 l 3,4")   # on Water
    fire, _ = terms(BANDS + " 4h3/8/8/8/T7/8/8/4H3 l 3,4")    # on Fire
    assert water.terms[MOBILITY] > fire.terms[MOBILITY] > 0


def test_heart_threats_come_from_the_engine():
    # d7 on Earth reaches e8; a2 on Air does not reach e1's Heart... but
    # c3 on Fire does (one diagonal step twice: c3-d2-e1, d2 empty).
    ev, pos = terms(BANDS + " 4h3/3T4/8/8/8/2t5/8/4H3 l 3,4")
    assert ev.threats[DARK] == 1 and ev.threats[LIGHT] == 1 and ev.terms[THREATS] == 0
    ev, pos = terms(BANDS + " 4h3/3T4/8/8/8/8/8/4H3 d 3,4")
    assert ev.evaluate(pos) < 0 < ev.safety(pos, LIGHT)
    ev, pos = terms(BANDS + " 4h3/3T4/8/8/8/8/8/4H3 l 3,4")
    assert ev.evaluate(pos) == WIN - 1  # Light takes the Heart now


def test_guards_around_the_heart():
    pos = Position(BANDS + " 4h3/8/8/8/8/8/3TTT2/4H3 l 3,4")
    assert guards(pos, LIGHT) == -guards(pos, DARK) > 0


def test_tempo_counts_vortexes_left():
    pos = Position(BANDS + " 4h3/8/8/8/8/8/8/4H3 l 3,1")
    assert tempo(pos, LIGHT) > 0 > tempo(pos, DARK)


def test_quiet_race_weighs_the_traveller_count_near_80():
    early = Position(BANDS + " 4h3/8/8/8/8/8/TT6/4H3 l 3,4 - 10")
    late = Position(BANDS + " 4h3/8/8/8/8/8/TT6/4H3 l 3,4 - 78")
    assert quiet_race(early, 2) == 0 < quiet_race(late, 2)
    assert quiet_race(late, -2) < 0 and late.quiet > QUIET_FROM


def test_building_policy_has_purpose():
    pos = Position()
    # Earth under an own Traveller, never under an enemy one.
    assert build.score(pos, LIGHT, EARTH, 11) > build.score(pos, LIGHT, WATER, 11)
    assert build.score(pos, LIGHT, EARTH, 51) < 0
    # Air two cells from the enemy Heart (e8) opens a lane; Fire on its diagonal.
    assert build.lane(AIR, 60, 44) and build.lane(FIRE, 60, 42) and build.lane(WATER, 60, 4)
    assert not build.lane(AIR, 60, 43) and not build.lane(EARTH, 60, 44)
    assert build.score(pos, LIGHT, AIR, 44) > build.score(pos, LIGHT, AIR, 43)


def mirrored(text):
    """The position with the sides swapped: the ranks upside down, each
    piece the other side's, the other side to act, the Vortexes left
    swapped (the ban, a swap's cells, left out)."""
    f = text.split()
    vl, vd = f[3].split(",")
    return " ".join(["/".join(reversed(f[0].split("/"))),
                     "".join(c.lower() if c.isupper() else c.upper()   # (no swapcase in MicroPython)
                             for c in "/".join(reversed(f[1].split("/")))),
                     "d" if f[2] == "l" else "l", vd + "," + vl, "-"] + f[5:])


def battles(n, seed=1):
    """n positions of the battle phase from games played by a fixed rule."""
    out = []
    x = seed
    while len(out) < n:
        pos = Position()
        for _ in range(64 + x % 40):     # the 64 placements, then up to 40 battle actions
            acts = list(pos.legal_actions())
            if not acts or pos.is_over():
                break
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            pos.push(acts[x % len(acts)])
        if not pos.is_building() and not pos.is_over():
            out.append(pos.text())
    return out


def test_a_position_and_its_mirror_score_the_same_for_the_side_to_act():
    # Every term is the same for either side: Dark's counted as Light's with
    # the board upside down. Near the end of the 80 quiet actions too, where
    # the Traveller count weighs (the race, from either side).
    ev = Evaluator()
    for text in battles(12):
        for quiet in (0, QUIET_FROM, 70, 79):
            f = text.split()
            f[3], f[4], f[5] = "2,1", "-", str(quiet)
            one = " ".join(f)
            a, b = ev.evaluate(Position(one)), ev.evaluate(Position(mirrored(one)))
            assert a == b, (one, a, b)


def test_the_quiet_race_favours_the_side_ahead_whichever_side_acts():
    ev = Evaluator()
    light_ahead = BANDS + " 4h3/8/8/8/8/8/TT6/4H3 %s 3,3 - %d"   # two Travellers to none
    for text in (light_ahead, mirrored(light_ahead % ("l", 0)).replace(" d 3,3 - 0", " %s 3,3 - %d")):
        ahead = "l" if text is light_ahead else "d"
        behind = "d" if ahead == "l" else "l"
        # The later in the count, the better for the side ahead, the worse for the other.
        assert ev.evaluate(Position(text % (ahead, QUIET_FROM))) \
            < ev.evaluate(Position(text % (ahead, 70))) < ev.evaluate(Position(text % (ahead, 79)))
        assert ev.evaluate(Position(text % (behind, QUIET_FROM))) \
            > ev.evaluate(Position(text % (behind, 70))) > ev.evaluate(Position(text % (behind, 79)))
