"""The checks the boards are held to, each on boards with known answers, in
this process (tests/kicad.py): KiCad's DRC counted (pcb/drc.py); the
silkscreen's texts placed clear of pads and of each other (pcb/silk.py), and
held on the generated boards to JLCPCB's 0.15 mm from a pad by KiCad's own
DRC; each coil's feed measured (pcb/feeds.py, pcb/geom.py)."""
import math
import os
import random
import re

import pytest

from kicad import pcbnew, needs_kicad, FOOTPRINTS
from mpy import ROOT

pytestmark = needs_kicad
if pcbnew is not None:
    import drc
    import feeds
    import geom
    import netlist
    import silk

GENERATED = os.path.join(ROOT, "hardware", "generated")
# JLCPCB, "Technical Guidance: Character Design Specifications": characters
# at least 0.15 mm from solder pads, and 0.15 mm from each other's lines.
TEXT_TO_PAD_MM = 0.15
TEXT_TO_SILK_MM = 0.15
EDGE_MM = 0.5  # text to the board's edge: the routing cutter's margin (silk.py)


# --- boards built here -----------------------------------------------------------
def new_board(w, h):
    """A board w x h mm with its outline; (board, outline in board units)."""
    b = pcbnew.BOARD()
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        s = pcbnew.PCB_SHAPE(b)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetStart(pcbnew.wxPointMM(x0, y0))
        s.SetEnd(pcbnew.wxPointMM(x1, y1))
        s.SetWidth(pcbnew.FromMM(0.1))
        b.Add(s)
    return b, (0, 0, pcbnew.FromMM(w), pcbnew.FromMM(h))


def add_net(b, name):
    n = pcbnew.NETINFO_ITEM(b, name)
    b.Add(n)
    return n


def add_track(b, net, start, end, width=0.25, layer=None):
    t = pcbnew.PCB_TRACK(b)
    t.SetStart(pcbnew.wxPointMM(*start))
    t.SetEnd(pcbnew.wxPointMM(*end))
    t.SetWidth(pcbnew.FromMM(width))
    t.SetLayer(pcbnew.F_Cu if layer is None else layer)
    t.SetNet(net)
    b.Add(t)
    return t


def add_part(b, lib, name, ref, x, y, angle=0, back=False):
    fp = _footprint(lib, name)
    fp.SetReference(ref)
    fp.SetPosition(pcbnew.wxPointMM(x, y))
    fp.SetOrientationDegrees(angle)
    b.Add(fp)
    if back:
        fp.Flip(fp.GetPosition(), False)
    return fp


def saved(b, tmp_path, name="board"):
    path = str(tmp_path / (name + ".kicad_pcb"))
    b.Save(path)
    return path


# --- KiCad's DRC, counted -----------------------------------------------------------
@pytest.mark.parametrize("pairs, unconnected", [(0, 0), (1, 0), (3, 1), (2, 2)])
def test_kicad_drc_counts_each_error_and_each_unconnected_pad_of_a_board_with_known_ones(
        tmp_path, pairs, unconnected):
    """`pairs` pairs of tracks of two nets 0.05 mm apart (a clearance error
    each), `unconnected` missing connections between pads of one net; and
    things KiCad only warns about (tracks that end nowhere, a text over a
    pad), which are no errors."""
    b, _ = new_board(80, 40)
    for i in range(pairs):
        y = 5 + 8 * i
        add_track(b, add_net(b, "A%d" % i), (5, y), (25, y))
        add_track(b, add_net(b, "B%d" % i), (5, y + 0.3), (25, y + 0.3))   # 0.25 mm wide: 0.05 apart
    n1 = add_net(b, "N1")
    for k in range(unconnected + 1 if unconnected else 0):
        fp = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R%d" % (k + 1), 40 + 10 * k, 10)
        for pad in fp.Pads():
            if pad.GetNumber() == "1":
                pad.SetNet(n1)
    over = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R9", 40, 30)
    over.Reference().SetPosition(over.GetPosition())                  # its text on its pads: a warning
    errors, missing, text = drc.run(saved(b, tmp_path))
    assert (errors, missing) == (pairs + unconnected, unconnected), text
    assert text.count("[clearance]") == pairs and text.count("[unconnected_items]") == unconnected
    assert "Severity: warning" in text                                  # warnings: reported, not counted


def test_a_drc_report_without_its_count_of_unconnected_pads_says_so_and_no_report_is_an_error(
        tmp_path, monkeypatch):
    b, _ = new_board(10, 10)
    path = saved(b, tmp_path)

    def report(text):
        def write(board, rpt, units, all_track_errors):
            with open(rpt, "w") as f:
                f.write(text)
            return True
        return write
    monkeypatch.setattr(pcbnew, "WriteDRCReport", report("** Found 2 DRC violations **\n"
                                                         "    Rule: x; Severity: error\n" * 2))
    assert drc.run(path)[:2] == (2, -1)                                 # -1: no count given
    monkeypatch.setattr(pcbnew, "WriteDRCReport", lambda *a: False)
    with pytest.raises(RuntimeError, match="wrote no report for %s" % re.escape(path)):
        drc.run(path)


def test_kicad_drc_of_a_file_that_is_no_board_is_an_error(tmp_path):
    path = tmp_path / "nothing.kicad_pcb"
    path.write_text("not a board\n")
    with pytest.raises(Exception):
        drc.run(str(path))


# --- the silkscreen's texts -----------------------------------------------------------
def _mm_box(item):
    bb = item.GetBoundingBox()
    mm = pcbnew.ToMM
    return mm(bb.GetLeft()), mm(bb.GetTop()), mm(bb.GetRight()), mm(bb.GetBottom())


def _gap(a, b):
    """The distance between two boxes (mm), 0 when they meet."""
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return math.hypot(dx, dy)


SIDES = {"F": ("F.SilkS", "F.Cu"), "B": ("B.SilkS", "B.Cu")}


def _texts(b):
    """[(footprint, text, side)] of every visible text on a silkscreen."""
    out = []
    for fp in b.GetFootprints():
        for t in [fp.Reference()] + [i for i in fp.GraphicalItems() if isinstance(i, pcbnew.FP_TEXT)]:
            if t.IsVisible() and t.GetLayer() in (pcbnew.F_SilkS, pcbnew.B_SilkS):
                out.append((fp, t, "F" if t.GetLayer() == pcbnew.F_SilkS else "B"))
    unique = {}
    for fp, t, side in out:
        unique[(fp.GetReference(), t.GetText(), side, t.GetPosition().x, t.GetPosition().y)] = (fp, t, side)
    return list(unique.values())


def check_texts_clear(b, outline_mm):
    """Every visible text on a silkscreen: 0.15 mm from every pad on its
    side, from every silkscreen line and from every other text, inside the
    board by EDGE_MM, and beside its own part."""
    pads = {"F": [], "B": []}
    lines = {"F": [], "B": []}
    for fp in b.GetFootprints():
        for side, (silk_layer, copper) in SIDES.items():
            layer = b.GetLayerID(copper)
            pads[side] += [(fp.GetReference(), _mm_box(p)) for p in fp.Pads() if p.IsOnLayer(layer)]
            lines[side] += [(fp.GetReference(), _mm_box(i)) for i in fp.GraphicalItems()
                            if i.GetLayer() == b.GetLayerID(silk_layer) and not isinstance(i, pcbnew.FP_TEXT)]
    texts = _texts(b)
    x0, y0, x1, y1 = outline_mm
    for n, (fp, t, side) in enumerate(texts):
        box = _mm_box(t)
        name = "%s %r" % (fp.GetReference(), t.GetText())
        for ref, p in pads[side]:
            assert _gap(box, p) >= TEXT_TO_PAD_MM - 1e-6, (name, "pad of", ref, _gap(box, p))
        for ref, line in lines[side]:
            assert _gap(box, line) >= TEXT_TO_SILK_MM - 1e-6, (name, "line of", ref, _gap(box, line))
        for fp2, t2, side2 in texts[n + 1:]:
            if side2 == side:
                assert _gap(box, _mm_box(t2)) >= TEXT_TO_SILK_MM - 1e-6, (name, fp2.GetReference())
        assert x0 + EDGE_MM <= box[0] and box[2] <= x1 - EDGE_MM and y0 + EDGE_MM <= box[1] \
            and box[3] <= y1 - EDGE_MM, (name, box)
        assert _gap(box, _courtyard(fp)) < 2.0, (name, "not beside its part")
    return len(texts)


def _courtyard(fp):
    """The part's courtyard box (mm), or its pads' where it has none."""
    boxes = [_mm_box(i) for i in fp.GraphicalItems() if i.GetLayer() in (pcbnew.F_CrtYd, pcbnew.B_CrtYd)] \
        or [_mm_box(p) for p in fp.Pads()]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


PARTS = [("Resistor_SMD", "R_0603_1608Metric", "R"), ("Capacitor_SMD", "C_0402_1005Metric", "C"),
         ("Package_TO_SOT_SMD", "SOT-23", "Q"), ("Package_SO", "SOIC-8_3.9x4.9mm_P1.27mm", "U"),
         ("LED_SMD", "LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "D")]


_LOADED = {}


def _footprint(lib, name):
    """A fresh copy of a library footprint (each is read from its file once)."""
    if (lib, name) not in _LOADED:
        _LOADED[lib, name] = pcbnew.FootprintLoad(os.path.join(FOOTPRINTS, lib + ".pretty"), name)
    return pcbnew.FOOTPRINT(_LOADED[lib, name])


def crowded(seed, w=26, h=18, tries=120):
    """Parts of several sizes dropped at random (turned or not, some on the
    back) wherever their courtyards do not meet: a board about as crowded
    as the rank board."""
    rng = random.Random(seed)
    b, outline = new_board(w, h)
    taken = []
    for _ in range(tries):
        lib, name, prefix = rng.choice(PARTS)
        fp = _footprint(lib, name)
        fp.SetPosition(pcbnew.wxPointMM(rng.uniform(1.5, w - 1.5), rng.uniform(1.5, h - 1.5)))
        fp.SetOrientationDegrees(rng.choice((0, 90, 180, 270)))
        box = silk.courtyard(fp)
        if any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in taken):
            continue
        taken.append(box)
        fp.SetReference("%s%d" % (prefix, len(taken)))
        b.Add(fp)
        if rng.random() < 0.25:
            fp.Flip(fp.GetPosition(), False)
    return b, outline


@pytest.mark.parametrize("seed", range(4))
def test_texts_placed_on_a_crowded_board_keep_clear_of_pads_silkscreen_and_the_edge(seed):
    b, outline = crowded(seed)
    before = len([t for t in _texts(b)])
    shown, hidden = silk.place_texts(b, outline)
    assert shown + hidden == before and shown == len(_texts(b))
    assert hidden * 4 <= before, (shown, hidden)       # crowded, but most texts find room
    mm = [pcbnew.ToMM(v) for v in outline]
    assert check_texts_clear(b, mm) == shown


def test_a_reference_on_a_neighbours_pads_moves_beside_its_part_and_hides_with_no_room():
    b, outline = new_board(20, 10)
    upper = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R2", 10, 5.0)
    lower = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R1", 10, 6.6)
    ref = _mm_box(lower.Reference())
    assert any(_gap(ref, _mm_box(p)) == 0 for p in upper.Pads())     # the case: on R2's pads
    assert silk.place_texts(b, outline) == (2, 0)
    check_texts_clear(b, (0, 0, 20, 10))
    tiny, outline = new_board(2.4, 1.6)
    alone = add_part(tiny, "Resistor_SMD", "R_0603_1608Metric", "R3", 1.2, 0.8)
    assert silk.place_texts(tiny, outline) == (0, 1) and not alone.Reference().IsVisible()


def test_a_pin_mark_goes_beside_its_pin_clear_of_everything_or_hides_with_no_room():
    """The LED's own "1" (its library's pin mark, which its library draws
    over its outline): beside pad 1, clear, its neighbours' pads where it
    would go or not; hidden on a board with no room for it."""
    def mark(fp):
        return next(i for i in fp.GraphicalItems() if isinstance(i, pcbnew.FP_TEXT) and i.GetText() == "1")

    for neighbour in (False, True):
        b, outline = new_board(40, 30)
        led = add_part(b, PARTS[4][0], PARTS[4][1], "D1", 20, 15)
        if neighbour:
            add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R1", 16.3, 12.1)   # beside pad 1
        silk.place_texts(b, outline)
        pad1 = next(p for p in led.Pads() if p.GetNumber() == "1")
        assert mark(led).IsVisible() and _gap(_mm_box(mark(led)), _mm_box(pad1)) < 1.5, neighbour
        check_texts_clear(b, (0, 0, 40, 30))
    b, outline = new_board(5.4, 5.4)
    led = add_part(b, PARTS[4][0], PARTS[4][1], "D1", 2.7, 2.7)
    assert silk.place_texts(b, outline) == (0, 2) and not mark(led).IsVisible()


def test_a_text_already_clear_stays_and_hidden_or_unprinted_references_are_left_alone():
    """A footprint's own text where it is clear stays there, and keeps its
    room from the texts placed after it; a reference that is hidden stays
    hidden, one on another layer than a silkscreen stays where it is; a
    part with no pads has its text placed beside its courtyard."""
    b, outline = new_board(30, 20)

    def padless(ref, x, y, text, dx, dy):
        """A part with a courtyard 4 x 2 mm, no pads, and its own text at (dx, dy)."""
        fp = pcbnew.FOOTPRINT(b)
        fp.SetReference(ref)
        b.Add(fp)
        fp.SetPosition(pcbnew.wxPointMM(x, y))
        yard = pcbnew.FP_SHAPE(fp)
        yard.SetShape(pcbnew.SHAPE_T_RECT)
        yard.SetLayer(pcbnew.F_CrtYd)
        yard.SetStart0(pcbnew.wxPointMM(-2, -1))
        yard.SetEnd0(pcbnew.wxPointMM(2, 1))
        fp.Add(yard)
        mark = pcbnew.FP_TEXT(fp)
        mark.SetText(text)
        mark.SetLayer(pcbnew.F_SilkS)
        fp.Add(mark)
        mark.SetPos0(pcbnew.wxPointMM(dx, dy))
        fp.SetPosition(fp.GetPosition())                    # (its texts placed from their offsets)
        return fp, mark

    m1, mark = padless("M1", 15, 10, "X", 0, -3)            # clear where it is
    stays = mark.GetPosition()
    hidden = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R1", 5, 5)
    hidden.Reference().SetVisible(False)
    fab = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R2", 25, 5)
    fab.Reference().SetLayer(pcbnew.F_Fab)
    at = fab.Reference().GetPosition()
    m2, on_pads = padless("M2", 20, 15, "Y", -15, -10)      # on R1's pads: beside M2's courtyard
    shown, hidden_count = silk.place_texts(b, outline)
    assert mark.IsVisible() and mark.GetPosition() == stays
    assert not hidden.Reference().IsVisible()
    assert fab.Reference().GetLayer() == pcbnew.F_Fab and fab.Reference().GetPosition() == at
    assert (shown, hidden_count) == (4, 0)                 # the marks and M1's and M2's references
    assert m1.Reference().IsVisible() and _gap(_mm_box(m1.Reference()), (13, 9, 17, 11)) < 2.0
    assert on_pads.IsVisible() and _gap(_mm_box(on_pads), (18, 14, 22, 16)) < 2.0
    check_texts_clear(b, (0, 0, 30, 20))


def test_a_text_on_the_back_keeps_clear_of_the_back_s_pads_and_not_the_front_s():
    b, outline = new_board(20, 10)
    front = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R1", 10, 5)
    back = add_part(b, "Resistor_SMD", "R_0603_1608Metric", "R2", 10, 5, back=True)
    assert silk.place_texts(b, outline) == (2, 0)
    assert back.Reference().GetLayer() == pcbnew.B_SilkS
    check_texts_clear(b, (0, 0, 20, 10))
    # R1's reference keeps clear of R1's pads only (R2's are on the back).
    assert min(_gap(_mm_box(front.Reference()), _mm_box(p)) for p in front.Pads()) >= TEXT_TO_PAD_MM


@pytest.mark.parametrize("board", ["rank", "controller"])
def test_no_silkscreen_text_lies_within_0_15_mm_of_a_pad_or_over_silkscreen_on_the_generated_boards(
        board, tmp_path):
    """KiCad's own DRC, the board's silkscreen clearance set to JLCPCB's
    0.15 mm: no text (a reference, a pin mark) on or within 0.15 mm of a
    pad's mask opening, none over another silkscreen item; and each text's
    box 0.15 mm from every pad and silkscreen item (the characters' cell,
    as silk.py keeps it: the strokes alone can pass where the box does not,
    and boards regenerated with no clearance in silk.py pass KiCad's
    check but not this one). The boards' library outlines lie nearer their
    own pads than that, as their libraries draw them: lines, not texts,
    and left alone."""
    b = pcbnew.LoadBoard(os.path.join(GENERATED, board + ".kicad_pcb"))
    b.GetDesignSettings().m_SilkClearance = pcbnew.FromMM(TEXT_TO_PAD_MM)
    path = saved(b, tmp_path)
    _errors, _unconnected, text = drc.run(path)
    assert "silk clearance 0.1500 mm" in text or "[silk" not in text, text[:2000]
    texts = [v for v in text.split("\n[")[1:] if v.startswith("silk")
             and re.search(r"\): (Reference|Value|Footprint Text) ", v)]
    assert texts == [], "%s: %d texts too near a pad or over silkscreen:\n%s" % (
        board, len(texts), "\n[".join(texts[:5]))
    # Each text's box too, as silk.py places them: 0.15 mm from every pad
    # and silkscreen item, inside the edge, beside its part.
    edge = b.GetBoardEdgesBoundingBox()
    mm = pcbnew.ToMM
    assert check_texts_clear(b, (mm(edge.GetLeft()), mm(edge.GetTop()), mm(edge.GetRight()),
                                 mm(edge.GetBottom()))) > 40          # (the boards' texts are seen)


# --- the feeds ---------------------------------------------------------------------------
def _two_wire_nh(length_mm, spacing_mm, width_mm):
    """The known case: a two-wire line of flat strips, d = w / 2 (Grover)."""
    return 4e-7 * math.acosh(spacing_mm / (width_mm / 2)) * length_mm * 1e-3 * 1e9


def test_the_pair_inductance_formula_on_known_cases():
    assert feeds.pair_inductance_nh(100, 1.0, 0.2) == pytest.approx(119.7, abs=0.1)
    for length, spacing, width in ((10, 0.5, 0.2), (47, 3.0, 0.3), (300, 0.35, 0.25)):
        assert feeds.pair_inductance_nh(length, spacing, width) == pytest.approx(
            _two_wire_nh(length, spacing, width), rel=1e-9)
    # Strips nearer than their own half width: no less than nothing.
    assert 0 < feeds.pair_inductance_nh(10, 0.05, 0.2) < 0.1


def test_the_feed_loop_is_taken_along_the_pair_at_each_places_spacing():
    a = [((0, 0), (100, 0))]
    b = [((0, 1), (50, 1)), ((50, 1), (100, 1))]
    assert feeds.loop_inductance_nh(a, b, 0.2) == pytest.approx(119.7, abs=0.1)
    assert feeds.loop_inductance_nh(b, a, 0.2) == pytest.approx(119.7, abs=0.1)
    parted = [((0, 1), (50, 1)), ((50, 1), (50, 10)), ((50, 10), (100, 10))]
    halves = _two_wire_nh(50, 1.0, 0.2) + _two_wire_nh(50, 10.0, 0.2)
    assert halves < feeds.loop_inductance_nh(a, parted, 0.2) < 1.3 * halves
    assert feeds.loop_inductance_nh(a, [], 0.2) == 0 == feeds.loop_inductance_nh([], b, 0.2)
    short = [((0, 0), (0.4, 0))]                                   # shorter than a step: one sample
    assert feeds.loop_inductance_nh(short, [((0, 1), (0.4, 1))], 0.2) == pytest.approx(
        _two_wire_nh(0.4, 1.0, 0.2))


def test_the_nearest_point_of_a_segment():
    assert geom.nearest((5, 3), (0, 0), (10, 0)) == (3.0, 5.0)
    assert geom.nearest((-3, 4), (0, 0), (10, 0)) == (5.0, 0.0)      # before its start
    assert geom.nearest((13, 4), (0, 0), (10, 0)) == (5.0, 10.0)     # past its end
    d, t = geom.nearest((1, 1), (0, 0), (4, 4))
    assert d == pytest.approx(0) and t == pytest.approx(math.sqrt(2))
    assert geom.nearest((3, 4), (0, 0), (0, 0)) == (5.0, 0.0)       # a point


def _netlist(nets, parts):
    return netlist.Netlist({ref: netlist.Part(ref, "", fp, {}, "") for ref, fp in parts.items()}, nets)


def test_each_coils_feed_is_measured_through_its_series_parts_to_the_switch():
    """Two coils, in cell order whatever their references' order: L2's feed
    A runs 10 mm to a series capacitor and 40 mm on to the switch, its feed
    B 50 mm beside it, 0.5 mm apart, through a ferrite bead and a resistor;
    L10's pair is 20 mm long, 2 mm apart, and a three-pin part on it ends
    the feed there."""
    parts = {"L2": "vortex:Coil_30mm", "L10": "vortex:Coil_30mm", "C1": "Capacitor_SMD:C_0603_1608Metric",
             "FB1": "Inductor_SMD:L_0603_1608Metric", "R1": "Resistor_SMD:R_0603_1608Metric",
             "U1": "Package_SO:SOIC-16", "Q1": "Package_TO_SOT_SMD:SOT-23"}
    nets = {"A2": [("L2", "1"), ("C1", "1")], "A2S": [("C1", "2"), ("U1", "3")],
            "B2": [("L2", "2"), ("FB1", "1")], "B2F": [("FB1", "2"), ("R1", "1")], "B2S": [("R1", "2"), ("U1", "4")],
            "A10": [("L10", "1"), ("Q1", "1")], "A10Q": [("Q1", "2"), ("U1", "5")],
            "B10": [("L10", "2"), ("U1", "6")], "GND": [("Q1", "3"), ("U1", "8")]}
    b, _ = new_board(120, 60)
    w = 0.25
    add_track(b, add_net(b, "A2"), (0, 10), (10, 10), w)
    add_track(b, add_net(b, "A2S"), (10, 10), (50, 10), w)
    add_track(b, add_net(b, "B2"), (0, 10.5), (20, 10.5), w)          # through an inductor and a resistor
    add_track(b, add_net(b, "B2F"), (20, 10.5), (30, 10.5), w)
    add_track(b, add_net(b, "B2S"), (30, 10.5), (50, 10.5), w)
    add_track(b, add_net(b, "A10"), (0, 30), (20, 30), w)
    add_track(b, add_net(b, "A10Q"), (20, 30), (90, 30), w)         # past Q1: not the feed's
    add_track(b, add_net(b, "B10"), (0, 32), (20, 32), w)
    add_net(b, "GND")
    rows = feeds.measure(b, _netlist(nets, parts))
    assert [r[:3] for r in rows] == [("rank", 0, 50.0), ("rank", 1, 20.0)]
    assert rows[0][3] == pytest.approx(_two_wire_nh(50, 0.5, w), abs=0.1)
    assert rows[1][3] == pytest.approx(_two_wire_nh(20, 2.0, w), abs=0.1)
    assert feeds.csv_text(rows) == ("board,coil,feed_length_mm,feed_inductance_nH\n"
                                    "rank,0,50.0,%.1f\nrank,1,20.0,%.1f\n" % (rows[0][3], rows[1][3]))
