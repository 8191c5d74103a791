"""Loose track ends cut back after the routing (hardware/boardgen/pcb/stubs.py).

stubs.py needs no KiCad (plain geometry on the router's routes), so these
run on every machine; the boards' own check is test_pcb.py's (KiCad's DRC
finds no dangling track or via).
"""
import os
import sys

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "hardware", "boardgen", "pcb"))
import stubs  # noqa: E402

HALF = {"signal": 0.1, "power": 0.25}
VIA_R = 0.3


class Route:
    """The router's Route as stubs.py reads it."""

    def __init__(self, net, segments, vias=()):
        self.net, self.segments, self.vias = net, list(segments), list(vias)


def _pad(x, y, r=0.5, layers=(0,)):
    return (layers, (x - r, y - r, x + r, y + r))


def test_a_row_laid_past_the_place_the_router_joined_it_is_cut_back_there():
    """A strip's row from its capacitor's pad at x 0 to the strip's end at
    x 20; the switch's track joins it at x 12 from below: the 8 mm past the
    junction go, the pad's end and the junction stay."""
    row = Route("SA_f", [(0, (0.0, 0.0), (20.0, 0.0), "signal")])
    join = Route("SA_f", [(0, (12.0, 6.0), (12.0, 0.0), "signal")])
    pads = {"SA_f": [_pad(0, 0), _pad(12, 6)]}
    assert stubs.trim([row, join], pads, HALF, VIA_R) == (8.0, 0)
    assert row.segments == [(0, (0.0, 0.0), (12.0, 0.0), "signal")]
    assert join.segments == [(0, (12.0, 6.0), (12.0, 0.0), "signal")]


def test_a_track_nothing_holds_goes_and_so_does_a_via_with_copper_on_one_layer():
    """A bottom-layer piece touching nothing goes; a via whose only copper is
    one top-layer track goes, and then that track, loose, goes too; the
    net's real connection (pad to pad) is kept."""
    keep = Route("N", [(0, (0.0, 0.0), (5.0, 0.0), "signal")])
    lone = Route("N", [(1, (30.0, 0.0), (35.0, 0.0), "signal")])
    spur = Route("N", [(0, (5.0, 0.0), (5.0, 4.0), "signal")], [(5.0, 4.0)])
    pads = {"N": [_pad(0, 0), _pad(5, 0)]}
    assert stubs.trim([keep, lone, spur], pads, HALF, VIA_R) == (9.0, 1)
    assert keep.segments == [(0, (0.0, 0.0), (5.0, 0.0), "signal")]
    assert lone.segments == [] and spur.segments == [] and spur.vias == []


def test_an_end_whose_copper_meets_another_track_off_its_centre_line_is_held():
    """The router ends on its grid, a laid line may run off it: an end 0.12 mm
    from the line's centre (0.2 mm tracks) meets its copper, as KiCad joins
    them (BUS_COL_b at J1); a via held on both layers stays."""
    line = Route("C", [(1, (0.0, 0.0), (10.0, 0.0), "signal")])
    drop = Route("C", [(1, (4.0, 5.0), (4.0, 0.12), "signal")])
    hop = Route("C", [(1, (10.0, 0.0), (10.0, 3.0), "signal"), (0, (10.0, 3.0), (14.0, 3.0), "signal")],
                [(10.0, 3.0)])
    pads = {"C": [_pad(0, 0, layers=(0, 1)), _pad(4, 5, layers=(0, 1)), _pad(14, 3)]}
    routes = [line, drop, hop]
    before = [list(r.segments) for r in routes]
    assert stubs.trim(routes, pads, HALF, VIA_R) == (0.0, 0)
    assert [r.segments for r in routes] == before and hop.vias == [(10.0, 3.0)]


def test_a_track_through_a_lone_pad_with_both_ends_loose_goes_whole():
    """Cut from each end to the pad's centre, nothing is left: it joined the
    pad to nothing. Another width class (power) is held the same way."""
    through = Route("P", [(0, (-5.0, 0.0), (5.0, 0.0), "power")])
    assert stubs.trim([through], {"P": [_pad(0, 0)]}, HALF, VIA_R) == (10.0, 0)
    assert through.segments == []


def test_an_end_on_a_via_is_held_and_the_pours_net_is_left_alone():
    """A drop to a via, the via on a bottom-layer row: nothing to cut. GND's
    loose piece stays (skip): the pour, filled later, holds its ends."""
    drop = Route("S", [(0, (0.0, 0.0), (0.0, 3.0), "signal"), (1, (0.0, 3.0), (8.0, 3.0), "signal")],
                 [(0.0, 3.0)])
    gnd = Route("GND", [(1, (30.0, 0.0), (31.0, 0.0), "signal")])
    pads = {"S": [_pad(0, 0), _pad(8, 3, layers=(1,))]}
    assert stubs.trim([drop, gnd], pads, HALF, VIA_R, skip=("GND",)) == (0.0, 0)
    assert len(drop.segments) == 2 and drop.vias == [(0.0, 3.0)] and len(gnd.segments) == 1
