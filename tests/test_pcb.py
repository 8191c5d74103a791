"""The boards as KiCad sees them (hardware/boardgen/pcb, tools/pcb.py).

KiCad 6's pcbnew is a module of Debian's python3 only, so every check runs
there as a subprocess and answers in JSON. Without KiCad (`make test` installs
it when root) these tests skip, saying why.
"""
import collections
import functools
import json
import os
import subprocess

import pytest

from mpy import ROOT

SYSPY = "/usr/bin/python3"
GENERATED = os.path.join(ROOT, "hardware", "generated")
PCB_CODE = os.path.join(ROOT, "hardware", "boardgen", "pcb")
BOARDS = ("rank", "controller")


def _kicad_missing():
    if not os.path.exists(SYSPY):
        return "no %s" % SYSPY
    r = subprocess.run([SYSPY, "-c", "import pcbnew"], capture_output=True)
    if r.returncode:
        return "Debian's python3 cannot import pcbnew (apt-get install kicad kicad-footprints)"
    if not os.path.isdir("/usr/share/kicad/footprints"):
        return "KiCad's footprints are not installed (apt-get install kicad-footprints)"
    return None


MISSING = _kicad_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def _run(code, timeout=120):
    """Run code under pcbnew's python with the PCB modules importable; its
    last stdout line is JSON."""
    prelude = "import sys, json; sys.path[:0] = [%r, %r]\n" % (PCB_CODE, os.path.dirname(PCB_CODE))
    r = subprocess.run([SYSPY, "-c", prelude + code], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@functools.lru_cache(maxsize=None)
def _drc(board):
    """KiCad's DRC of a committed board: (board, errors, unconnected, report)."""
    e, u, text = _run("import drc\ne, u, text = drc.run(%r)\nprint(json.dumps([e, u, text]))"
                      % os.path.join(GENERATED, board + ".kicad_pcb"))
    return board, e, u, text


@pytest.fixture(scope="module", params=BOARDS)
def drc(request):
    return _drc(request.param)


def test_kicad_drc_finds_no_error_but_the_unconnected_pads(drc):
    """Clearances, keep-outs (nothing but the coil inside a coil), courtyards,
    holes, edges: every DRC error other than an unconnected pad is 0."""
    board, errors, _unconnected, text = drc
    unrouted = text.count("[unconnected_items]")
    assert errors - unrouted == 0, text[:4000]


def test_kicad_drc_finds_no_dangling_track_or_via(drc):
    """A row laid past the router's junction, or a stub that changed layer
    with no via, is copper joining nothing: stubs.py cuts the first, stitch
    keeps a via at each change of layer; KiCad finds neither on a board."""
    board, _errors, _unconnected, text = drc
    for kind in ("[track_dangling]", "[via_dangling]", "[holes_co_located]"):
        assert kind not in text, "%s: %s" % (board, text[text.index(kind):][:600])


def test_the_silkscreen_lies_clear_of_every_pad_and_every_other_silkscreen_item(drc):
    """silk.py: KiCad's DRC finds no silkscreen text on a pad's mask opening
    nor over another silkscreen item; the one warning left is J2's pin mark
    (the IDC header's own silkscreen) running past the rank board's edge,
    which the fab clips. No more than one part in ten hides its reference
    for want of room."""
    board, _errors, _unconnected, text = drc
    for block in text.split("\n[")[1:]:
        if block.startswith("silk"):
            assert block.startswith("silk_over_copper") and "Line on Edge.Cuts" in block, block[:400]
    hidden = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
fps = b.GetFootprints()
print(json.dumps([len(fps), sorted(f.GetReference() for f in fps if not f.Reference().IsVisible())]))
""" % os.path.join(GENERATED, board + ".kicad_pcb"))
    parts, refs = hidden
    assert len(refs) * 10 <= parts, refs


@pytest.mark.parametrize("board", BOARDS)
def test_kicad_drc_finds_no_unconnected_pad(board):
    _board, _errors, unconnected, text = _drc(board)
    assert unconnected == 0, "%s: %d unconnected pads" % (board, unconnected)


def test_a_coils_capacitors_sit_beside_its_pads_and_leave_the_strip_below_free():
    """On the committed rank board: every coil has its pads and its four
    series capacitors in the channel on its right (the last coil's: between
    it and the electronics end), the capacitors upright in a row at the
    channel's foot, above the strip below the coils, which carries the feed
    lanes only."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
mm = pcbnew.ToMM
coil, caps = {}, {}
for fp in b.GetFootprints():
    nets = {p.GetNetname() for p in fp.Pads()}
    ends = sorted(n for n in nets if n.startswith("COIL_"))
    p = fp.GetPosition()
    if fp.GetReference().startswith("C") and ends:
        caps.setdefault(ends[0][5], []).append([mm(p.x), mm(p.y), fp.GetOrientationDegrees()])
    elif len(ends) == 2:
        coil[ends[0][5]] = [mm(p.x), mm(p.y), [[mm(q.GetPosition().x), mm(q.GetPosition().y)] for q in fp.Pads()]]
print(json.dumps([coil, caps]))
""" % os.path.join(GENERATED, "rank.kicad_pcb"))
    coil, caps = out
    assert sorted(coil) == sorted(caps) == list("abcdefgh")
    for f in "abcdefgh":
        cx, cy, pads = coil[f]
        out = [(x, y) for x, y in pads if max(abs(x - cx), abs(y - cy)) > 12.5]
        assert len(out) == 2 and all(cx + 12.5 < x < cx + 14 and cy < y < cy + 12.5 for x, y in out), (f, pads)
        assert len(caps[f]) == 4
        for x, y, rot in caps[f]:
            assert cx + 12.5 < x < cx + 22.5 and cy + 8 < y < cy + 12.5 and rot == 90, (f, x, y, rot)


def test_each_led_sits_under_its_own_tile_and_outside_every_coil():
    """On the committed rank board: LED n (in reference order) lights cell n:
    its centre lies under that cell's tile (the 33 mm square round the
    coil's centre) and under no other, and no pad of it comes within
    clearance of a coil's copper (the 24 mm square): nothing but the coil
    inside a coil, and no LED between two tiles."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
mm = pcbnew.ToMM
coils, leds = [], []
for fp in b.GetFootprints():
    p = fp.GetPosition()
    if str(fp.GetFPID().GetLibItemName()).startswith("Coil_"):
        coils.append([mm(p.x), mm(p.y)])
    elif str(fp.GetFPID().GetLibItemName()).startswith("LED_WS2812B"):
        pads = [[mm(q.GetBoundingBox().GetLeft()), mm(q.GetBoundingBox().GetTop()),
                 mm(q.GetBoundingBox().GetRight()), mm(q.GetBoundingBox().GetBottom())] for q in fp.Pads()]
        leds.append([fp.GetReference(), mm(p.x), mm(p.y), pads])
print(json.dumps([sorted(coils), leds]))
""" % os.path.join(GENERATED, "rank.kicad_pcb"))
    coils, leds = out
    leds.sort(key=lambda led: int(led[0][1:]))
    assert len(coils) == len(leds) == 8
    tile = 33.0 / 2
    for (cx, cy), (ref, x, y, pads) in zip(coils, leds):
        under = [k for k, (ox, oy) in enumerate(coils) if abs(x - ox) < tile and abs(y - oy) < tile]
        assert under == [coils.index([cx, cy])], (ref, x, y)
        for ox, oy in coils:
            for x0, y0, x1, y1 in pads:
                gap = max(x0 - (ox + 12), (ox - 12) - x1, y0 - (oy + 12), (oy - 12) - y1)
                assert gap >= 0.15, (ref, gap)


def test_the_feeds_way_from_the_strip_to_the_switches_holds_no_part():
    """On the committed rank board: from the last coil's capacitors to
    place.FANIN_EAST_MM, below place.FANIN_TOP_MM, no pad (the sixteen feed
    lines fan out there from the strip below the coils to the switches'
    pins; with the switches' passives there, the router left 1 to 5 items
    unconnected in nine builds: hardware/layout.md, Routing)."""
    out = _run("""
import pcbnew, place
b = pcbnew.LoadBoard(%r)
mm = pcbnew.ToMM
o = 20.0
def box(item):
    bb = item.GetBoundingBox()
    return [mm(bb.GetLeft()) - o, mm(bb.GetTop()) - o, mm(bb.GetRight()) - o, mm(bb.GetBottom()) - o]
caps = [box(fp) for fp in b.GetFootprints() if fp.GetReference().startswith("C")
        and any(p.GetNetname().startswith("COIL_") for p in fp.Pads())]
pads = [[fp.GetReference()] + box(p) for fp in b.GetFootprints() for p in fp.Pads()]
height = mm(b.GetBoardEdgesBoundingBox().GetHeight())
print(json.dumps([max(c[2] for c in caps), place.FANIN_EAST_MM, place.FANIN_TOP_MM, height, pads]))
""" % os.path.join(GENERATED, "rank.kicad_pcb"))
    x0, x1, y0, y1, pads = out
    assert x1 - x0 > 15
    inside = [p[0] for p in pads if p[1] < x1 and p[3] > x0 and p[2] < y1 and p[4] > y0]
    assert inside == []


def test_each_feed_pair_runs_as_two_neighbouring_rows_below_the_coils():
    """On the committed rank board (strips.py): a coil's two feed nets (the
    switch side of its series capacitors) have no copper in the strip above
    the coils (a pair split between the strips is a loop around the coils),
    and along the strip below they run on one layer, 0.5 mm apart, side by
    side from the coil's capacitors towards the switches, until the router
    takes them up (the rest of a row is cut: stubs.py). The last coil's (h)
    rows are its capacitors' own, taken up at once: they need not overlap."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
mm = pcbnew.ToMM
sides = {}
for fp in b.GetFootprints():
    nets = sorted({p.GetNetname() for p in fp.Pads()})
    if fp.GetReference().startswith("C") and any(n.startswith("COIL_") for n in nets):
        coil = [n for n in nets if n.startswith("COIL_")][0]
        sides.setdefault(coil[5], {})[coil[-1]] = [n for n in nets if n != coil][0]
tracks = {}
for t in b.GetTracks():
    if t.GetClass() == "PCB_TRACK":
        s, e = t.GetStart(), t.GetEnd()
        tracks.setdefault(t.GetNetname(), []).append(
            [0 if t.GetLayer() == pcbnew.F_Cu else 1, mm(s.x) - 20, mm(s.y) - 20, mm(e.x) - 20, mm(e.y) - 20])
print(json.dumps([sides, {n: tracks.get(n, []) for f in sides.values() for n in f.values()}]))
""" % os.path.join(GENERATED, "rank.kicad_pcb"))
    sides, tracks = out
    assert sorted(sides) == list("abcdefgh")
    cells = 8 * 35.0            # the cells end here; the rows run 5 mm further, past the last capacitors
    middle, below = 17.4, 29.9  # the coils' centre line and the keep-outs' lower edge
    for f in "abcdefgh":
        rows = []
        for side in "AB":
            segs = tracks[sides[f][side]]
            assert all(min(y0, y1) > middle for _l, x0, y0, x1, y1 in segs if max(x0, x1) < cells), \
                (f, side, "in the upper half of the cells")
            along = [(abs(x1 - x0), layer, y0, min(x0, x1), max(x0, x1))
                     for layer, x0, y0, x1, y1 in segs if y0 == y1 and y0 > below and max(x0, x1) < cells + 5]
            assert along, (f, side)
            rows.append(max(along)[1:])
        (la, ya, a0, a1), (lb, yb, b0, b1) = rows
        assert la == lb and abs(abs(ya - yb) - 0.5) < 1e-6, (f, rows)
        if f != "h":
            assert min(a1, b1) - max(a0, b0) > 0.9 * min(a1 - a0, b1 - b0), (f, rows)


def test_no_pour_rings_a_coil_on_either_layer(tmp_path):
    """A ring of copper around a coil is a shorted turn (review defect 10):
    on the committed rank board no filled GND outline has a coil's centre in
    one of its holes, on either layer: the slots cut across the strip below
    each coil (place.py) break every ring (the pour also stands
    dims.COIL_POUR_GAP_MM off each coil). The check finds the rings when
    those slots are filled, on the board with its tracks taken out."""
    rings = """
import pcbnew
def rings(path, refill, fill_cuts):
    b = pcbnew.LoadBoard(path)
    if refill:
        pcbnew.ZONE_FILLER(b).Fill(b.Zones())
    coils = [(fp.GetReference(), pcbnew.VECTOR2I(fp.GetPosition().x, fp.GetPosition().y))
             for fp in b.GetFootprints() if str(fp.GetFPID().GetLibItemName()).startswith("Coil")]
    # The pour-only rule areas: the slots, and the pour-free square round
    # each coil (dims.COIL_POUR_GAP_MM), which holds its coil's centre.
    cuts = [z.Outline() for z in b.Zones()
            if z.GetIsRuleArea() and z.GetDoNotAllowCopperPour() and not z.GetDoNotAllowTracks()
            and not any(z.Outline().Contains(c) for _ref, c in coils)]
    found = []
    for z in b.Zones():
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            if not z.GetIsRuleArea() and z.IsOnLayer(layer):
                fill = pcbnew.SHAPE_POLY_SET(z.GetFilledPolysList(layer))
                fill.Unfracture(pcbnew.SHAPE_POLY_SET.PM_FAST)     # KiCad keeps a fill's holes as slits
                for cut in cuts if fill_cuts else ():
                    fill.BooleanAdd(cut, pcbnew.SHAPE_POLY_SET.PM_FAST)
                found += [[ref, layer] for ref, c in coils
                          if any(fill.Hole(k, h).PointInside(c) for k in range(fill.OutlineCount())
                                 for h in range(fill.HoleCount(k)))]
    return len(cuts), found
"""
    path = os.path.join(GENERATED, "rank.kicad_pcb")
    cuts, committed = _run(rings + "print(json.dumps(rings(%r, False, False)))" % path)
    assert cuts == 16 and committed == [], committed          # a slot per coil, on both layers
    bare = tmp_path / "bare.kicad_pcb"
    with open(path) as f:       # the board's file without its tracks and vias (one line each)
        bare.write_text("".join(l for l in f if not l.startswith(("  (segment ", "  (via "))))
    _cuts, found = _run(rings + "print(json.dumps(rings(%r, True, True)))" % str(bare))
    assert len(found) == 16     # eight coils, two layers


@pytest.mark.parametrize("board", BOARDS)
def test_no_via_of_the_pour_is_left_dangling(board, tmp_path):
    """pour.py keeps a stitching via only where it joins copper on both
    layers: on each committed board KiCad finds every GND via connected on
    the top and on the bottom layer (and the check does find a via put
    where neither layer has copper of the net)."""
    check = """
import pcbnew
def dangling(path):
    b = pcbnew.LoadBoard(path)
    b.BuildConnectivity()
    conn = b.GetConnectivity()
    vias = [t for t in b.GetTracks() if t.GetClass() == "PCB_VIA" and t.GetNetname() == "GND"]
    return len(vias), [[pcbnew.ToMM(v.GetPosition().x) - 20, pcbnew.ToMM(v.GetPosition().y) - 20] for v in vias
                       if not (conn.IsConnectedOnLayer(v, pcbnew.F_Cu) and conn.IsConnectedOnLayer(v, pcbnew.B_Cu))]
b = pcbnew.LoadBoard(%r)
v = pcbnew.PCB_VIA(b)
v.SetPosition(pcbnew.wxPointMM(15.0, 15.0))   # off the board: no copper on either layer
v.SetWidth(pcbnew.FromMM(0.6))
v.SetDrill(pcbnew.FromMM(0.3))
v.SetNet(b.FindNet("GND"))
b.Add(v)
b.Save(%r)
print(json.dumps([dangling(%r), dangling(%r)]))
"""
    path = os.path.join(GENERATED, board + ".kicad_pcb")
    spoilt = str(tmp_path / "spoilt.kicad_pcb")
    (vias, bad), (_n, found) = _run(check % (path, spoilt, path, spoilt))
    assert vias > 50
    assert bad == [], bad
    assert [-5.0, -5.0] in found


def test_the_controller_is_placed_by_its_connections():
    """On the committed controller: USB-C at the left edge; the Pico at the
    top edge (its micro-USB over it); the header pins wired to the Pico's
    pin-1 column under the Pico and in the column's order (the higher the
    Pico pin, the farther right its header pin: the traces run down under
    the Pico without crossing); each pull resistor level with its Pico pin,
    just outside it."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
o = b.GetBoardEdgesBoundingBox()
mm = pcbnew.ToMM
def box(fp):
    bbs = [g.GetBoundingBox() for g in fp.GraphicalItems() if g.GetLayer() == pcbnew.F_CrtYd]
    return [mm(min(r.GetLeft() for r in bbs) - o.GetLeft()), mm(min(r.GetTop() for r in bbs) - o.GetTop()),
            mm(max(r.GetRight() for r in bbs) - o.GetLeft()), mm(max(r.GetBottom() for r in bbs) - o.GetTop())]
def xy(pad):
    return [mm(pad.GetPosition().x - o.GetLeft()), mm(pad.GetPosition().y - o.GetTop())]
fps = {fp.GetReference(): fp for fp in b.GetFootprints()}
pico = {p.GetNetname(): xy(p) for p in fps["U2"].Pads() if p.GetNetname() not in ("", "GND", "+3V3")}
pairs = [[pico[p.GetNetname()], xy(p)] for p in fps["J2"].Pads() if p.GetNetname() in pico]
pulls = []
for ref, fp in fps.items():
    nets = [p.GetNetname() for p in fp.Pads()]
    if ref.startswith("R") and len(nets) == 2 and any(x in pico for x in nets) \\
            and any(x in ("GND", "+3V3") for x in nets):
        pulls.append([pico[[x for x in nets if x in pico][0]], box(fp)])
print(json.dumps({"usb": box(fps["J1"]), "pico": box(fps["U2"]), "pairs": pairs, "pulls": pulls}))
""" % os.path.join(GENERATED, "controller.kicad_pcb"))
    assert out["usb"][0] < 1.0 and out["pico"][1] < 1.0
    pico_x0, pico_x1 = out["pico"][0], out["pico"][2]
    column = sorted((p, h) for p, h in out["pairs"] if p[0] < (pico_x0 + pico_x1) / 2)
    assert len(column) == 16
    xs = [h[0] for _p, h in sorted(column, key=lambda ph: ph[0][1])]
    assert xs == sorted(xs, reverse=True)
    assert all(pico_x0 <= x <= pico_x1 for x in xs)
    assert len(out["pulls"]) >= 9
    for (px, py), (x0, y0, x1, y1) in out["pulls"]:
        assert y0 < py < y1, "a pull resistor beside its Pico pin"
        assert 0 < min(abs(x0 - pico_x1), abs(pico_x0 - x1)) < 0.5


@pytest.mark.parametrize("board", BOARDS)
def test_every_netlist_pin_is_a_pad_with_the_same_net_and_no_pad_has_another(board):
    out = _run("""
import pcbnew, netlist
b = pcbnew.LoadBoard(%r)
pads = {}
for fp in b.GetFootprints():
    for p in fp.Pads():
        pads.setdefault((fp.GetReference(), p.GetNumber()), set()).add(p.GetNetname())
n = netlist.read(%r)
print(json.dumps({"pads": [[r, p, sorted(v)] for (r, p), v in pads.items()],
                  "pins": [[r, p, net] for (r, p), net in n.pin_nets().items()],
                  "parts": sorted(n.parts)}))
""" % (os.path.join(GENERATED, board + ".kicad_pcb"), os.path.join(GENERATED, board + ".net")))
    pads = {(r, p): set(v) for r, p, v in out["pads"]}
    pins = {(r, p): net for r, p, net in out["pins"]}
    for key, net in pins.items():
        assert key in pads, "%s pin %s is no pad on the board" % key
        assert pads[key] == {net}, (key, net, pads[key])
    for key, nets in pads.items():
        if key[0] in out["parts"] and key not in pins:
            assert nets <= {""}, "%s pad %s carries %s, the netlist leaves it open" % (key + (nets,))
    placed = {r for r, _p in pads if not r.startswith("H")}
    assert placed == set(out["parts"])


def test_the_vortex_footprints_are_the_ones_the_code_draws(tmp_path):
    """The library is generated: the committed one equals a fresh one."""
    out = _run("import footprints\nprint(json.dumps(footprints.library()))")
    lib = os.path.join(GENERATED, "vortex.pretty")
    assert sorted(os.listdir(lib)) == sorted(out)
    for name, text in out.items():
        with open(os.path.join(lib, name)) as f:
            assert f.read() == text, "hardware/generated/vortex.pretty/%s is stale: run `make pcb`" % name


def test_the_coil_footprint_is_the_coil_of_dims():
    """Turns, outer side and the trace of the printed coil as drawn: the
    spiral's length matches physics.square_spiral_length."""
    out = _run("""
import math, dims, physics, footprints
pts = footprints.coil_path()
length = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:]))
xs = [p[0] for p in pts]
print(json.dumps([length, max(xs) - min(xs) + dims.COIL_TRACE_MM, dims.COIL_OUTER_MM,
                  physics.square_spiral_length(dims.COIL_TURNS, dims.COIL_OUTER_MM,
                                               dims.COIL_TRACE_MM, dims.COIL_SPACE_MM)]))
""")
    length, side, outer, expected = out
    assert abs(side - outer) < 1e-9
    # the drawn spiral steps in by one pitch per side, the formula per turn
    assert abs(length - expected) / expected < 0.05


@pytest.mark.parametrize("board", BOARDS)
def test_a_board_is_stale_when_its_netlist_or_the_layout_code_changed(board):
    """Each board carries in its title block the digest of what it was made
    from (its netlist, dims.py, the layout code); the digest of today's
    sources must equal it. (`tools/pcb.py check` regenerates every file and
    compares; that takes minutes, this milliseconds.)"""
    out = _run("""
import pcbnew, board
b = pcbnew.LoadBoard(%r)
print(json.dumps([b.GetTitleBlock().GetComment(1), board.source_digest(%r)]))
""" % (os.path.join(GENERATED, board + ".kicad_pcb"), os.path.join(GENERATED, board + ".net")))
    stored, current = out
    assert stored == "source digest " + current, "hardware/generated/%s.kicad_pcb is stale: run `make pcb`" % board


FEEDS = os.path.join(GENERATED, "feeds.csv")


def _rank_unconnected():
    return _run("import drc\nprint(json.dumps(drc.run(%r)[1]))" % os.path.join(GENERATED, "rank.kicad_pcb"))


def test_feeds_csv_exists_exactly_when_the_rank_board_is_fully_routed():
    """A feed measured on a half-routed board would mislead the matching:
    without the file physics.py uses its estimate."""
    assert os.path.exists(FEEDS) == (_rank_unconnected() == 0)


def test_feeds_csv_is_what_the_committed_rank_board_measures():
    out = _run("""
import pcbnew, netlist, feeds
b = pcbnew.LoadBoard(%r)
print(json.dumps(feeds.csv_text(feeds.measure(b, netlist.read(%r)))))
""" % (os.path.join(GENERATED, "rank.kicad_pcb"), os.path.join(GENERATED, "rank.net")))
    with open(FEEDS) as f:
        assert f.read() == out, "hardware/generated/feeds.csv is stale: run `make pcb`"


def test_feeds_measure_one_row_per_coil_in_cell_order():
    """The measurement itself, on the committed rank board whatever its
    routing: one row per coil in cell order, lengths and inductances >= 0,
    the inductance growing with the length at a given spacing."""
    rows = _run("""
import pcbnew, netlist, feeds
b = pcbnew.LoadBoard(%r)
print(json.dumps(feeds.measure(b, netlist.read(%r))))
""" % (os.path.join(GENERATED, "rank.kicad_pcb"), os.path.join(GENERATED, "rank.net")))
    assert [r[1] for r in rows] == list(range(8))
    assert all(r[0] == "rank" and r[2] > 0 and r[3] > 0 for r in rows)


def test_the_pair_inductance_formula_on_a_known_case():
    """Two strips 0.2 mm wide, 1 mm apart, 100 mm long: mu0/pi acosh(10) 0.1 m
    = 119.7 nH (the two-wire line, d = w/2)."""
    out = _run("import feeds\nprint(json.dumps(feeds.pair_inductance_nh(100, 1.0, 0.2)))")
    assert abs(out - 119.7) < 0.5


def test_the_feed_loop_is_taken_along_the_pair_at_each_places_spacing():
    """feeds.loop_inductance_nh: a pair 1 mm apart for 100 mm is the known
    case whatever its tracks' cuts (one side in two segments: the spacing is
    to the nearest copper, not to a track's middle); a pair that parts half
    way (10 mm apart for the second half, with the 10 mm between) has more,
    about the two halves' sum plus the cross piece's."""
    out = _run("""
import feeds
a = [((0, 0), (100, 0))]
b = [((0, 1), (50, 1)), ((50, 1), (100, 1))]
parted = [((0, 1), (50, 1)), ((50, 1), (50, 10)), ((50, 10), (100, 10))]
halves = feeds.pair_inductance_nh(50, 1.0, 0.2) + feeds.pair_inductance_nh(50, 10.0, 0.2)
print(json.dumps([feeds.loop_inductance_nh(a, b, 0.2), feeds.loop_inductance_nh(a, parted, 0.2), halves]))
""")
    close, parted, halves = out
    assert abs(close - 119.7) < 0.5
    assert halves < parted < 1.3 * halves


def test_build_of_one_board_writes_that_board_alone_and_the_committed_one(tmp_path):
    """`tools/pcb.py build --board controller` (the quick loop while placing:
    the controller alone routes in under a minute) writes the controller's
    files only, no rank board and no feeds.csv, and what it writes is the
    committed board, byte for byte (the build is deterministic)."""
    r = subprocess.run([SYSPY, os.path.join(ROOT, "tools", "pcb.py"), "build", "--board", "controller",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    made = sorted(n for n in os.listdir(tmp_path) if n != "vortex.pretty")
    assert made == ["controller.kicad_pcb", "controller.kicad_pro"]
    for name in made:
        with open(os.path.join(tmp_path, name)) as a, open(os.path.join(GENERATED, name)) as b:
            assert a.read() == b.read(), "hardware/generated/%s differs from a fresh build" % name


def test_build_of_an_unknown_board_is_one_line():
    r = subprocess.run([SYSPY, os.path.join(ROOT, "tools", "pcb.py"), "build", "--board", "pawn"],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.strip() == "pcb: no such board: pawn (the boards: rank, controller)"


def test_a_missing_board_file_is_one_line():
    r = subprocess.run([SYSPY, os.path.join(ROOT, "tools", "pcb.py"), "drc", "/nonexistent.kicad_pcb"],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.strip() == "pcb: no such board file: /nonexistent.kicad_pcb"


def test_the_router_goes_around_a_wall_and_keeps_its_clearance():
    """A 10 x 6 mm grid, a wall across the top layer with one gap: the route
    from one pad to the other takes the gap or a via under the wall, and no
    cell it uses lies within clearance of the wall."""
    out = _run("""
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 6, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.mark_rect((0,), (4.9, 0, 5.1, 6), BLOCKED)
a = route.Terminal("A.1", [(0,) + g.cell(1, 3)], (1, 3))
b = route.Terminal("B.1", [(0,) + g.cell(9, 3)], (9, 3))
r = route.route_net(g, 7, ["signal"], [a, b], 0.6)
print(json.dumps([r.failed, r.segments, r.vias]))
""")
    failed, segments, vias = out
    assert failed == []
    assert vias, "the wall spans the top layer: the route must pass under it"
    for layer, (x0, y0), (x1, y1), _cls in segments:
        if layer == 0:     # on the wall's layer, every point stays 0.25 mm clear of it
            assert max(x0, x1) <= 4.9 - 0.25 + 1e-9 or min(x0, x1) >= 5.1 + 0.25 - 1e-9


# One top-layer lane joins a small board's two halves and no via fits:
# S (through-hole pads) and L (top pads only) both want the lane.
ONE_LANE = """
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.block_vias((0, 0, 10, 4), 1.0)
g.mark_rect((0,), (3, 0, 7, 1.65), BLOCKED)
g.mark_rect((0,), (3, 2.35, 7, 4), BLOCKED)
def pad(name, x, y, layers):
    return route.Terminal(name, [(l,) + g.cell(x, y) for l in layers], (x, y))
s = [pad("S1.1", 2.5, 2, (0, 1)), pad("S2.1", 7.5, 2, (0, 1))]
l = [pad("L1.1", 1, 2, (0,)), pad("L2.1", 9, 2, (0,))]
log = []
"""


def test_rip_up_and_reroute_gives_the_lane_to_the_net_that_needs_it():
    """The strict passes alone: one top-layer lane joins the board's two
    halves and no via fits anywhere. S (through-hole pads, routed first)
    takes the lane, so L (top pads only) fails; the second pass routes L
    first and S goes along the bottom: both routed, and the passes logged."""
    out = _run(ONE_LANE + """
routes = route.route_all(g, [("S", 1, ["signal"], s), ("L", 2, ["signal"], l)], 0.6, 0, log.append, passes=3)
print(json.dumps([log, [(r.net, r.failed, sorted({seg[0] for seg in r.segments})) for r in routes]]))
""")
    log, routes = out
    assert log == ["routing pass 1: 1 pads unrouted in 1 nets", "routing pass 2: 0 pads unrouted in 0 nets"]
    assert routes == [["S", [], [1]], ["L", [], [0]]]


def test_negotiated_congestion_gives_the_lane_to_the_net_that_needs_it():
    """One top-layer lane joins the board's two halves and no via fits
    anywhere. S (through-hole pads, routed first) takes the lane in the
    strict first pass, so L (top pads only) fails: no order of a plain maze
    router helps S first. The negotiation routes L through S's copper, both
    now share cells, the present-congestion cost makes S's bottom-layer
    detour the cheaper one when both are rerouted: both routed, nothing
    shared."""
    out = _run(ONE_LANE + """
routes = route.route_all(g, [("S", 1, ["signal"], s), ("L", 2, ["signal"], l)], 0.6, 5, log.append, passes=1)
print(json.dumps([log, [(r.net, r.failed, sorted({seg[0] for seg in r.segments})) for r in routes]]))
""")
    log, routes = out
    assert log[0] == "routing pass 1: 1 pads unrouted in 1 nets"
    assert log[1].startswith("negotiation 1: 1 nets rerouted, 2 nets share cells")
    assert log[2].startswith("negotiation 2: 2 nets rerouted, 0 nets share cells, 0 pads unreachable")
    assert routes == [["S", [], [1]], ["L", [], [0]]]


# Two nets with top-layer pads only (A above B), one top-layer lane and no
# via anywhere: only one of them can be routed.
TWO_ON_TOP = """
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.block_vias((0, 0, 10, 4), 1.0)
g.mark_rect((0,), (3, 0, 7, 1.65), BLOCKED)
g.mark_rect((0,), (3, 2.35, 7, 4), BLOCKED)
g.mark_rect((1,), (0, 0, 10, 4), BLOCKED)
def pad(name, x, y):
    return route.Terminal(name, [(0,) + g.cell(x, y)], (x, y))
a = [pad("A1.1", 1, 1.5), pad("A2.1", 9, 1.5)]
b = [pad("B1.1", 1, 2.5), pad("B2.1", 9, 2.5)]
log = []
"""


def test_when_the_negotiation_cannot_share_out_a_lane_one_net_stays_unrouted_not_shorted():
    """Two nets with top-layer pads only and one top lane: no solution. The
    negotiation runs out, the nets still sharing are rerouted strictly in
    order: the first gets the lane, the second is left unrouted (the DRC
    then counts an unconnected pad, never a short). No repairs: the
    negotiation's own result."""
    out = _run(TWO_ON_TOP + """
routes = route.route_all(g, [("A", 1, ["signal"], a), ("B", 2, ["signal"], b)], 0.6, 3, log.append, passes=1,
                         repairs=0)
print(json.dumps([log, [(r.net, r.failed) for r in routes]]))
""")
    log, routes = out
    assert log[0] == "routing pass 1: 1 pads unrouted in 1 nets"
    assert [line.split(",")[1] for line in log[1:4]] == [" 2 nets share cells"] * 3
    assert log[4] == "legalised: 2 nets rerouted without sharing, 1 pads unrouted"
    assert routes == [["A", []], ["B", ["B2.1"]]]


def test_a_pour_via_keeps_off_another_nets_pin_when_it_can():
    """A GND pad with another net's pin up and to its left: the cheapest
    stitch (a run along the top layer's x) would put the via 0.5 mm from
    that pin, in its escape; the via goes where it keeps 0.75 mm from the
    cells next to the pin instead."""
    out = _run("""
from grid import Grid
import route
g = Grid(0, 0, 6, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
gnd, pin = (1.85, 1.85, 2.15, 2.15), (1.0, 1.2, 1.3, 1.5)
g.mark_rect((0,), gnd, 1)
g.mark_rect((0,), pin, 5)
for r in (gnd, pin):
    g.block_vias(r, 0.45)
t = route.Terminal("G.1", [(0,) + g.cell(2, 2)], (2, 2))
r = route.stitch(g, 1, "signal", t, 0.6)
print(json.dumps([r.failed, r.vias]))
""")
    failed, vias = out
    assert failed == [] and len(vias) == 1
    (x, y), = vias
    dx = max(1.0 - x, x - 1.3, 0)
    dy = max(1.2 - y, y - 1.5, 0)
    assert (dx * dx + dy * dy) ** 0.5 >= 0.75 + 0.1 + 0.15, (x, y)


def test_a_fine_pitch_pin_keeps_its_way_out_for_its_own_net():
    """A TSSOP's pin 4 (left row): for 2 mm beyond its pad, straight away
    from the part, the top layer is its net's alone (another net's track laid
    along the row would wall the pins in); beyond that and on the bottom
    layer nothing is claimed, and a two-pad part gets no such lane."""
    out = _run("""
import pcbnew, board
from grid import Grid, FREE
g = Grid(0, 0, 12, 12, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
def placed(fpid):
    fp = board.load_footprint(fpid, "")
    fp.SetPosition(board._mm(6, 6))
    return fp
u = placed("Package_SO:TSSOP-16_4.4x5mm_P0.65mm")
pad = [p for p in u.Pads() if p.GetNumber() == "4"][0]
x0, y0, x1, y1 = board._pad_rect(pad)
board._reserve_escape(g, u, pad, (0,), 7, 2.0)
y = (y0 + y1) / 2
at = lambda layer, x: int(g.track["signal"][(layer,) + g.cell(x, y)])
c = placed("Capacitor_SMD:C_0402_1005Metric")
before = g.track["signal"].copy()
for p in c.Pads():
    board._reserve_escape(g, c, p, (0,), 8, 2.0)
print(json.dumps([at(0, x0 - 1.0), at(0, x0 - 1.9), at(0, x0 - 2.75), at(1, x0 - 1.0),
                  bool((g.track["signal"] == before).all()), FREE]))
""")
    near, end, beyond, bottom, two_pads_untouched, free = out
    assert near == 7 and end == 7
    assert beyond == free and bottom == free
    assert two_pads_untouched


def test_the_search_estimate_counts_the_way_round_a_keep_out():
    """A 20 x 10 mm board, a keep-out wall across it with a gap at the top
    only: from the bottom left to the bottom right the coarse distance counts
    the climb to the gap and back (what Manhattan misses), a cell walled in
    on every side has no distance, and the route found follows the gap."""
    out = _run("""
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 20, 10, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.mark_rect((0, 1), (9.5, 2, 10.5, 10), BLOCKED)
g.mark_rect((0, 1), (15, 6, 20, 6.5), BLOCKED)
g.mark_rect((0, 1), (15, 6, 15.5, 10), BLOCKED)
t = [(0,) + g.cell(19, 9)]
field = route._distance_field(g, [(0,) + g.cell(13, 9)])
walled = route._distance_field(g, t)
a = route.Terminal("A.1", [(0,) + g.cell(2, 9)], (2, 9))
b = route.Terminal("B.1", [(0,) + g.cell(13, 9)], (13, 9))
r = route.route_net(g, 7, ["signal"], [a, b], 0.6)
cy, cx = g.cell(2, 9)
print(json.dumps([field[cy // 4][cx // 4], walled[cy // 4][cx // 4], r.failed,
                  min(min(p[1], q[1]) for _l, p, q, _c in r.segments)]))
""")
    coarse, walled, failed, top = out
    assert coarse >= 11 + 2 * 6      # 11 mm across, and up to the gap and down again
    assert walled is None
    assert failed == [] and top < 2.0



def test_the_pours_tree_goes_round_the_copper_routed_before_it():
    """The pour is route_all's last job, counted like every other net's
    copper. A signal track runs across the top layer between two GND pads:
    the tree joins them without coming within clearance of that track on
    its layer."""
    out = _run("""
from grid import Grid
import route
g = Grid(0, 0, 10, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
def pad(name, x, y):
    return route.Terminal(name, [(0,) + g.cell(x, y)], (x, y))
pour = route.Pour("GND", 2, [pad("G1.1", 5, 0.75), pad("G2.1", 5, 3.25)], g.copy())
s, gnd = route.route_all(g, [("S", 1, ["signal"], [pad("S1.1", 1, 2), pad("S2.1", 9, 2)])], 0.6, 0, None,
                         passes=1, pour=pour)
print(json.dumps([s.segments, gnd.failed, gnd.segments, gnd.vias]))
""")
    signal, failed, segments, vias = out
    assert failed == [] and segments
    assert [seg[0] for seg in signal] == [0]

    def dist(p, seg):
        (ax, ay), (bx, by) = seg
        vx, vy = bx - ax, by - ay
        t = 0.0 if vx == vy == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / (vx * vx + vy * vy)))
        return ((p[0] - ax - t * vx) ** 2 + (p[1] - ay - t * vy) ** 2) ** 0.5
    track = signal[0][1:3]
    for layer, a, b, _cls in segments:
        if layer == 0:
            for k in range(101):
                p = (a[0] + (b[0] - a[0]) * k / 100, a[1] + (b[1] - a[1]) * k / 100)
                assert dist(p, track) >= 0.2 + 0.15 - 1e-6, (a, b)
    for v in vias:
        assert dist(v, track) >= 0.1 + 0.3 + 0.15 - 1e-6


# Two coils' keep-outs (x 5-25 and 35-55, y 2-12) above a strip (y 12-20) and
# each coil's four series capacitors in the channel on its right, side A's
# pair nearer the coil: strips.py lays the pairs in the strip.
STRIP = """
from grid import Grid, BLOCKED
import strips
g = Grid(0, 0, 80, 20, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
number = {}
def net(name):
    return number.setdefault(name, len(number))
for x0 in (5, 35):
    g.mark_rect((0, 1), (x0, 2, x0 + 20, 12), BLOCKED)
pairs = []
for k, x0 in enumerate((25, 55)):
    pair = []
    for side, xs in (("A", (2.0, 4.0)), ("B", (6.0, 8.0))):
        name = "S%s_%d" % (side, k)
        pads = [("C%d%s.%d" % (k, side, i), (x0 + x - 0.48, 10.5, x0 + x + 0.48, 11.4)) for i, x in enumerate(xs)]
        for _key, rect in pads:
            g.mark_rect((0,), rect, net(name))
        pair.append((name, pads))
    pairs.append(pair)
rows = strips.rows(12 + 0.28, 20 - 0.43, 0.25)
planner = strips.Planner(g, number)
"""


def test_the_strips_plan_lays_each_feed_pair_on_two_neighbouring_rows_the_last_nearest_the_coils():
    """The pair that starts furthest right takes the rows nearest the coils
    (the other's drops pass where they have not begun), the pairs take the
    layers in turn, and in a pair the side starting further right has the
    upper row; a bottom-layer drop starts at a via below its pad. Every
    piece stays in its channel or its row."""
    out = _run(STRIP + """
laid, left = strips.lay_pairs(planner, pairs, {0: rows, 1: rows}, 70.0, 0.6)
print(json.dumps([rows, left, [[l.net, l.segments, l.vias, l.pads] for l in laid]]))
""")
    rows, left, laid = out
    assert left == []
    by = {net: (segs, vias, pads) for net, segs, vias, pads in laid}
    assert sorted(by) == ["SA_0", "SA_1", "SB_0", "SB_1"]

    def row(net):
        horizontal = [(layer, a[1]) for layer, a, b in by[net][0] if a[1] == b[1] and b[0] == 70.0]
        assert len(horizontal) == 1, net
        return horizontal[0]
    assert row("SB_1") == (0, rows[0]) and row("SA_1") == (0, rows[1])
    assert row("SB_0") == (1, rows[0]) and row("SA_0") == (1, rows[1])
    assert len(by["SA_0"][1]) == 2 and by["SA_1"][1] == []       # a via per pad on the bottom layer only
    assert sorted(by["SA_0"][2]) == ["C0A.0", "C0A.1"]
    for net, (segs, _vias, _pads) in by.items():
        k = int(net[-1])
        for layer, a, b in segs:
            if a[0] == b[0]:                 # a drop: inside its own channel
                assert 25 + 30 * k < a[0] < 35 + 30 * k, (net, a)


def test_the_strips_plan_will_not_lay_copper_across_another_nets_pad():
    """A pad of another net on a pair's row: the plan stops with one line
    naming the piece, it does not lay a short."""
    out = _run(STRIP + """
g.mark_rect((0, 1), (64.0, rows[1] - 0.2, 64.5, rows[1] + 0.2), net("X"))
try:
    strips.lay_pairs(planner, pairs, {0: rows, 1: rows}, 70.0, 0.6)
    print(json.dumps(None))
except strips.PlanError as e:
    print(json.dumps(str(e)))
""")
    assert out and "SA_1" in out and "the row" in out and "\\n" not in out


def test_the_reed_row_visits_each_channel_and_never_runs_under_its_capacitors():
    """The chain through three channels' diodes (bottom layer): in a channel
    it rises at the left, reaches the diode's pad, and comes down at the
    right; along the strip's row it only runs between channels, so it
    crosses no drop from the capacitors between its rise and descent."""
    out = _run(STRIP + """
g.mark_rect((0, 1), (65, 2, 85, 12), BLOCKED)
pads = [("D%d.2" % k, (x0 + 2.5, 6.0, x0 + 3.4, 7.2)) for k, x0 in enumerate((25, 55))]
for _key, rect in pads:
    g.mark_rect((1,), rect, net("ROW"))
laid = strips.lay_chain(planner, "ROW", pads, [(25, 35), (55, 65)], rows[0], 0.28)
print(json.dumps([laid.segments, laid.pads]))
""")
    segments, pads = out
    assert pads == ["D0.2", "D1.2"]
    assert all(layer == 1 for layer, _a, _b in segments)
    along = [(min(a[0], b[0]), max(a[0], b[0])) for _l, a, b in segments if a[1] == b[1] > 12]
    assert along, "the chain runs along the strip between the channels"
    for x0, x1 in along:
        assert x0 >= 34 and x1 <= 56, (x0, x1)        # from the first channel's right to the next one's left


def test_a_repair_round_rips_up_the_net_in_the_way_and_routes_both():
    """No negotiation, one strict pass: S (through-hole pads, routed first)
    takes the only top-layer lane and L (top pads only) fails. The repair
    routes L allowed to cross, finds S in its way, rips S up, routes L
    first and S after it (along the bottom): both routed, and the round
    logged with what it gained."""
    out = _run(ONE_LANE + """
routes = route.route_all(g, [("S", 1, ["signal"], s), ("L", 2, ["signal"], l)], 0.6, 0, log.append, passes=1)
print(json.dumps([log, [(r.net, r.failed, sorted({seg[0] for seg in r.segments})) for r in routes]]))
""")
    log, routes = out
    assert log == ["routing pass 1: 1 pads unrouted in 1 nets",
                   "repair 1: 0 pads unrouted (1 fewer, 1 moved)"]
    assert routes == [["S", [], [1]], ["L", [], [0]]]


def test_a_repair_moves_a_failure_once_and_never_back():
    """Two nets with top-layer pads only and one lane: whichever goes first
    takes it. Repairing B gives B the lane and leaves A unrouted: as many
    pads unrouted, but a failure not met before, so it is kept (A's own
    repair might then find a way). Repairing A would only bring back B's
    failure, so it is undone, and the rounds stop: one pad unrouted, never
    more, nothing shorted."""
    out = _run(TWO_ON_TOP + """
routes = route.route_all(g, [("A", 1, ["signal"], a), ("B", 2, ["signal"], b)], 0.6, 0, log.append, passes=1)
print(json.dumps([log, [(r.net, r.failed, len(r.segments) > 0) for r in routes]]))
""")
    log, routes = out
    assert log[1:] == ["repair 1: 1 pads unrouted (0 fewer, 1 moved)",
                       "repair 2: 1 pads unrouted (0 fewer, 0 moved)"]
    assert routes == [["A", ["A2.1"], False], ["B", [], True]]


def test_the_pours_tree_is_a_forest_when_its_first_pad_is_walled_in():
    """The first GND pad sits in a box of other copper on both layers: no
    tree grows from it. The pads it cannot reach grow a tree of their own
    (the pour joins it as a whole), and only the walled-in pad is left."""
    out = _run("""
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 6, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.mark_rect((0, 1), (0.5, 0.5, 3.5, 3.5), BLOCKED)
g.mark_rect((0, 1), (1.5, 1.5, 2.5, 2.5), 0)          # the hole in the box: the walled-in pad's cell
def pad(name, x, y):
    return route.Terminal(name, [(0,) + g.cell(x, y)], (x, y))
gnd = route.route_forest(g, 2, ["signal"], [pad("G1.1", 2, 2), pad("G2.1", 6, 5), pad("G3.1", 9, 1)], 0.6)
print(json.dumps([gnd.failed, len(gnd.segments)]))
""")
    failed, segments = out
    assert failed == ["G1.1"]
    assert segments > 0


# A barrier across a one-layer board (no vias) with two gaps: a one-track
# corridor in the middle (y 4) and a gap by the bottom edge (y 7.5). A
# signal net S runs from the left edge to the right edge; its cheapest way
# is the corridor. The pour's two pads stand top left and bottom right of
# the corridor: with S through it, they are walled apart.
CORRIDOR = """
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 12, 8, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.block_vias((0, 0, 12, 8), 1.0)
g.mark_rect((1,), (0, 0, 12, 8), BLOCKED)
for y0, y1 in ((0, 3.65), (4.35, 7.0)):
    g.mark_rect((0,), (5, y0, 7, y1), BLOCKED)
def pad(name, x, y):
    return route.Terminal(name, [(0,) + g.cell(x, y)], (x, y))
jobs = [("S", 1, ["signal"], [pad("S1.1", 0.25, 4), pad("S2.1", 11.75, 4)])]
def run(**how):
    pour = route.Pour("GND", 2, [pad("G1.1", 4.5, 2.5), pad("G2.1", 7.5, 5.5)], g.copy())
    log = []
    s, gnd = route.route_all(g, jobs, 0.6, log=log.append, passes=1, pour=pour, **how)
    return [s.failed, gnd.failed, max(b[1] for _l, a, b, _c in s.segments), log]
"""


def test_a_pad_of_the_pour_walled_in_by_a_signal_is_reached_by_a_repair():
    """Without repairs the pour's tree, routed after S, cannot join its pads;
    the repair aimed at the pour rips S up, joins the pads through the
    corridor and routes S again through the gap by the edge."""
    out = _run(CORRIDOR + """
print(json.dumps([run(iterations=0, repairs=0), run(iterations=0)]))
""")
    (s0, gnd0, _y0, _log0), (s1, gnd1, y1, log1) = out
    assert s0 == [] and gnd0 == ["G1.1", "G2.1"]       # neither pad joined: a tree of one is none
    assert s1 == [] and gnd1 == [] and y1 > 7.0, log1
    assert log1[0] == "routing pass 1: 2 pads unrouted in 0 nets, GND tree: 0 of 2 pads reached (not G1.1, G2.1)"
    assert log1[-1] == "GND tree: 2 of 2 pads reached"


def test_the_pour_negotiates_for_the_corridor_and_the_signal_moves():
    """The pour takes part in the negotiation like a net: S gives the
    corridor up to it there, with no repair."""
    out = _run(CORRIDOR + """
print(json.dumps(run(iterations=10, repairs=0)))
""")
    s, gnd, y, log = out
    assert s == [] and gnd == [] and y > 7.0, log
    assert any(line.startswith("negotiation 1:") for line in log)


def test_a_fine_pitch_pins_stitch_goes_out_of_its_parts_rows():
    """route.stitch's beyond: a GND pad nearer its right edge than its left
    puts its via on the right, the nearer spot; told that its way out of
    its part lies to the left (x below the pad's edge at 4.6), past that edge."""
    out = _run("""
from grid import Grid
import route
out = []
for beyond in (None, (0, -1, 4.6)):
    g = Grid(0, 0, 10, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
    g.block_vias((4.6, 1.0, 5.5, 3.0), 0.45)       # no via in the pad
    t = route.Terminal("U1.14", [(0,) + g.cell(5.25, 2)], (5.25, 2))
    r = route.stitch(g, 2, "signal", t, 0.6, beyond=beyond)
    out.append([r.failed, r.vias])
print(json.dumps(out))
""")
    (f0, v0), (f1, v1) = out
    assert f0 == f1 == []
    assert v0[0][0] > 5.5 and v1[0][0] < 4.6


def test_a_stitch_that_passes_under_its_part_has_a_via_at_each_change_of_layer():
    """The pad's layer walled between the pad and every via spot out of the
    part's rows (beyond: x past 4, within the stitch's 3 mm): the stub dives under the wall on the
    bottom layer and comes up beyond it. Each bottom-layer piece ends at a
    via of the stitch on both sides, and the stub ends at the last via."""
    out = _run("""
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.mark_rect((0,), (3.0, 0.0, 3.75, 4.0), BLOCKED)     # the wall, on the top layer only
g.block_vias((1.5, 1.5, 2.5, 2.5), 0.45)               # no via in the SMD pad
t = route.Terminal("U1.14", [(0,) + g.cell(2, 2)], (2, 2))
r = route.stitch(g, 2, "signal", t, 0.6, beyond=(0, 1, 4.0))
print(json.dumps([r.failed, r.segments, r.vias]))
""")
    failed, segments, vias = out
    assert failed == []
    vias = [tuple(v) for v in vias]
    bottom = [s for s in segments if s[0] == 1]
    ends = collections.Counter(tuple(p) for s in bottom for p in (s[1], s[2]))
    assert {p for p, n in ends.items() if n == 1} == set(vias)         # the dive runs via to via
    assert len(vias) == 2 and vias[0][0] < 3.0 and vias[1][0] > 4.0
    assert all(max(s[1][0], s[2][0]) < 3.0 for s in segments if s[0] == 0)   # no top copper past the last via


def test_a_reference_on_a_neighbours_pads_moves_beside_its_part_or_hides_with_no_room():
    """Two 0603 resistors 1.6 mm apart, one above the other: the lower one's
    reference (its library puts it above the part) lies on the upper one's
    pads. silk.place_texts moves each beside its own part, clear of every
    pad; on a board hardly bigger than the part the reference is hidden."""
    out = _run("""
import pcbnew
import silk
LIB = "/usr/share/kicad/footprints/Resistor_SMD.pretty"
def board(size, where):
    b = pcbnew.BOARD()
    for ref, (x, y) in where.items():
        fp = pcbnew.FootprintLoad(LIB, "R_0603_1608Metric")
        fp.SetReference(ref)
        b.Add(fp)
        fp.SetPosition(pcbnew.wxPointMM(x, y))
    edge = (0, 0, pcbnew.FromMM(size[0]), pcbnew.FromMM(size[1]))
    return b, edge
def boxes(b):
    mm = pcbnew.ToMM
    out = {}
    for fp in b.GetFootprints():
        r = fp.Reference().GetBoundingBox()
        out[fp.GetReference()] = [fp.Reference().IsVisible(), [mm(r.GetLeft()), mm(r.GetTop()), mm(r.GetRight()), mm(r.GetBottom())],
                                  [mm(fp.GetPosition().x), mm(fp.GetPosition().y)],
                                  [[mm(p.GetBoundingBox().GetLeft()), mm(p.GetBoundingBox().GetTop()),
                                    mm(p.GetBoundingBox().GetRight()), mm(p.GetBoundingBox().GetBottom())] for p in fp.Pads()]]
    return out
b, edge = board((20, 10), {"R1": (10, 6.6), "R2": (10, 5.0)})
before = boxes(b)
shown = silk.place_texts(b, edge)
after = boxes(b)
tiny, edge = board((2.4, 1.6), {"R3": (1.2, 0.8)})
print(json.dumps([before, shown, after, silk.place_texts(tiny, edge), boxes(tiny)]))
""")
    before, shown, after, tiny_shown, tiny = out

    def meets(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    pads = [p for ref in before for p in before[ref][3]]
    assert any(meets(before["R1"][1], p) for p in before["R2"][3])     # the case: on R2's pads
    assert shown == [2, 0]
    for ref, (visible, box, (x, y), _pads) in after.items():
        assert visible and not any(meets(box, p) for p in pads), (ref, box)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        assert abs(cx - x) + abs(cy - y) < 3.0, (ref, box, x, y)             # beside its own part
    assert not meets(after["R1"][1], after["R2"][1])
    assert tiny_shown == [0, 1] and tiny["R3"][0] is False


def test_a_grids_copy_keeps_its_own_maps():
    out = _run("""
from grid import Grid, BLOCKED
g = Grid(0, 0, 4, 4, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
g.coarse_open()
c = g.copy()
c.mark_rect((0, 1), (1, 1, 3, 3), BLOCKED)
print(json.dumps([int((g.track["signal"] == BLOCKED).sum()), int((c.track["signal"] == BLOCKED).sum()) > 0,
                  c.fields is not g.fields, c._coarse is None]))
""")
    assert out == [0, True, True, True]


# Two coils' keep-outs, a reed pad in the channel after each (A left, B
# right) and a two-row header at the right (rows at y 6 and 8.54, 2.54 mm
# pitch, 1.7 mm pads; board edge at x 100): strips.py lays the column lines
# along the edge, round the header's east end and up to it from below.
COLUMNS = """
from grid import Grid, BLOCKED
import strips
g = Grid(0, 0, 100, 20, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
number = {"A": 1, "B": 2}
for x0 in (5, 35):
    g.mark_rect((0, 1), (x0, 5, x0 + 20, 15), BLOCKED)
def pad(net, ref, x, y, r):
    rect = (x - r, y - r, x + r, y + r)
    g.mark_rect((0, 1), rect, number.get(net, BLOCKED))
    return (ref, rect)
reeds = {"A": pad("A", "SW1.2", 30.0, 10.0, 0.8), "B": pad("B", "SW2.2", 60.0, 10.0, 0.8)}
header = {(x, y): pad(None, "J1.%d" % n, x, y, 0.85) for n, (x, y) in
          enumerate([(80.0, 6.0), (82.54, 6.0), (85.08, 6.0), (80.0, 8.54), (82.54, 8.54), (85.08, 8.54)])}
def column(net, xy):
    key, rect = header[xy]
    g.mark_rect((0, 1), rect, number[net])
    gap = (round(xy[0] + 1.27, 6), 7.27) if xy[1] < 7 else None
    return strips.Column(net, reeds[net], (key, rect), gap)
rows = strips.rows(0.43, 5 - 0.28, 0.25)
back = strips.rows(9.39 + 0.28, 20, 0.25)
planner = strips.Planner(g, number)
"""


def test_the_column_lines_run_along_the_edge_round_the_header_and_rise_to_it_without_crossing():
    """A's reed is further left: A takes the row nearest the edge and the
    top bundle lane, turns down outermost past the header's east end, comes
    back furthest from the header and rises westmost, straight into its pad
    in the header's lower row; B, inside it all the way, rises east of A,
    up the gap east of its neighbour to its pad in the upper row. Every
    piece is on the bottom layer."""
    out = _run(COLUMNS + """
laid = strips.lay_columns(planner, [column("B", (82.54, 6.0)), column("A", (80.0, 8.54))],
                          rows, 70.0, [0.42, 0.79], 99.5, back)
print(json.dumps([back[:2], [[l.net, l.segments, l.pads] for l in laid]]))
""")
    back, laid = out
    by = {net: (segs, pads) for net, segs, pads in laid}
    assert sorted(by["A"][1]) == ["J1.3", "SW1.2"] and sorted(by["B"][1]) == ["J1.1", "SW2.2"]
    assert {layer for net in by for layer, _a, _b in by[net][0]} == {1}

    def ys(net):
        return sorted({a[1] for _l, a, b in by[net][0] if a[1] == b[1]})

    def xs(net):
        return sorted({a[0] for _l, a, b in by[net][0] if a[0] == b[0]})
    assert {0.5, 0.42, back[1]} <= set(ys("A")) and {1.0, 0.79, back[0]} <= set(ys("B"))
    assert 99.5 in xs("A") and 99.0 in xs("B")                # the U-turn: A outside B
    assert [b for _l, a, b in by["A"][0]][-1] == [80.0, 8.54]
    assert 83.81 in xs("B")                                   # up the gap east of its neighbour
    assert [b for _l, a, b in by["B"][0]][-1] == [82.54, 6.0]


def test_the_column_lines_in_an_order_that_would_cross_stop_the_plan_with_one_line():
    """The same header with A's and B's pins swapped: A, coming back
    furthest from the header, would rise east of B and cross B's line. The
    plan says so, in one line naming the order it found."""
    out = _run(COLUMNS + """
try:
    strips.lay_columns(planner, [column("A", (82.54, 6.0)), column("B", (80.0, 8.54))],
                       rows, 70.0, [0.42, 0.79], 99.5, back)
    print(json.dumps(None))
except strips.PlanError as e:
    print(json.dumps(str(e)))
""")
    assert out and "B, A" in out and "\n" not in out


def test_the_pours_tree_reaches_a_stitched_pad_walled_in_on_its_layer_at_its_via():
    """A GND pad on the top layer in a box of other copper on that layer
    only: its stitch puts a via inside the box. The tree, from a GND pad on
    the bottom layer, reaches it at that via (the stitched terminal holds
    the stub and the via); with the pad alone as the terminal it cannot."""
    out = _run("""
from grid import Grid, BLOCKED
import route
g = Grid(0, 0, 10, 6, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
for wall in ((0.5, 1.5, 1.3, 5.5), (2.7, 1.5, 3.5, 5.5), (0.5, 1.5, 3.5, 2.3), (0.5, 4.7, 3.5, 5.5)):
    g.mark_rect((0,), wall, BLOCKED)      # the box, on the top layer only: room for one via beside the pad
g.block_vias((1.75, 2.75, 2.25, 3.25), 0.45)             # no via in the SMD pad
pad = route.Terminal("G1.1", [(0,) + g.cell(2, 3)], (2, 3))
other = route.Terminal("G2.1", [(1,) + g.cell(8, 3)], (8, 3))
r = route.stitch(g, 2, "signal", pad, 0.6)
results = []
for t in (pad, route.stitched(g, pad, r)):
    results.append(route.route_forest(g.copy(), 2, ["signal"], [other, t], 0.6).failed)
print(json.dumps([r.failed, len(r.vias), results]))
""")
    stitch_failed, vias, (alone, with_stitch) = out
    assert stitch_failed == [] and vias == 1
    assert sorted(alone) == ["G1.1", "G2.1"] and with_stitch == []      # alone: neither pad joined


def test_a_repair_two_levels_deep_moves_the_net_in_the_way_and_the_one_in_its_way():
    """Three one-track lanes (top layer, no vias) and three nets whose pads
    stand one above the other: N (top), V, W. V has taken the top lane and
    W the middle one, so N is walled in. Repairing N rips V up; V then finds
    the middle lane taken by W. One level deep, that is a move (V unrouted
    instead of N) and the next round repairs V; two levels deep, V is
    repaired in the same move (W to the bottom lane): all routed at once."""
    out = _run("""
from grid import Grid, BLOCKED
import route
def run(depth):
    g = Grid(0, 0, 10, 6, 0.25, {"signal": 0.1}, 0.15, 0.3, 0.03)
    g.block_vias((0, 0, 10, 6), 1.0)
    g.mark_rect((1,), (0, 0, 10, 6), BLOCKED)
    for y0, y1 in ((0, 0.65), (1.35, 2.65), (3.35, 4.65), (5.35, 6)):
        g.mark_rect((0,), (3, y0, 7, y1), BLOCKED)
    def pad(name, x, y):
        return route.Terminal(name, [(0,) + g.cell(x, y)], (x, y))
    jobs = [(n, k + 1, ["signal"], [pad(n + "1.1", 0.5, y), pad(n + "2.1", 9.5, y)])
            for k, (n, y) in enumerate((("N", 1), ("V", 3), ("W", 5)))]
    b = route._Board(g, jobs, 0.6, 1.0)
    b.cong.strict = True
    def lay(name, pts):             # a net's route as given, counted like a routed one
        r = route.Route(name, "signal")
        r.segments = [(0, a, c, "signal") for a, c in zip(pts, pts[1:])]
        b.routes[name], b.feet[name] = r, g.footprint(r.segments, r.vias)
        b.centres[name] = route._centres(g, r, b.owns[name])
        b.cong.add(b.feet[name], +1)
    lay("V", [(0.5, 3), (2.0, 3), (2.0, 1), (8.0, 1), (8.0, 3), (9.5, 3)])
    lay("W", [(0.5, 5), (2.5, 5), (2.5, 3.5), (2.75, 3), (7.25, 3), (7.5, 3.5), (7.5, 5), (9.5, 5)])
    b.reroute("N")
    before = b.routes["N"].failed
    log = []
    route._repair(b, ["N", "V", "W"], 8, log.append, depth)
    return before, log, [b.routes[n].failed for n in "NVW"]
print(json.dumps([run(1), run(2)]))
""")
    (before1, log1, after1), (before2, log2, after2) = out
    assert before1 == before2 == ["N2.1"]
    assert log1 == ["repair 1: 1 pads unrouted (0 fewer, 1 moved)", "repair 2: 0 pads unrouted (1 fewer, 1 moved)"]
    assert log2 == ["repair 1: 0 pads unrouted (1 fewer, 1 moved)"]
    assert after1 == after2 == [[], [], []]


def test_the_usb_c_receptacles_front_is_where_its_drawing_puts_the_board_edge():
    """GCT's USB4105 drawing puts the board's edge at the shell's front
    (KiCad's footprint draws that "PCB Edge" line): on the controller the
    line lies on the outline or at most one placement step (0.25 mm) past it,
    never behind it (it was 1.07 mm behind: a plug's overmould met the board)."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
j = next(f for f in b.GetFootprints() if "USB_C" in str(f.GetFPID().GetLibItemName()))
named = any(isinstance(i, pcbnew.FP_TEXT) and i.GetText() == "PCB Edge" for i in j.GraphicalItems())
lines = [i for i in j.GraphicalItems() if isinstance(i, pcbnew.FP_SHAPE) and i.GetLayer() == pcbnew.Dwgs_User]
ends = [(pcbnew.ToMM(i.GetStart().x), pcbnew.ToMM(i.GetEnd().x)) for i in lines]
left = min(pcbnew.ToMM(d.GetStart().x) for d in b.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts)
print(json.dumps([named, ends, left]))
""" % os.path.join(GENERATED, "controller.kicad_pcb"))
    named, ends, left = out
    assert named and len(ends) == 1 and ends[0][0] == ends[0][1]       # on the left edge: upright
    assert -0.25 - 1e-6 <= ends[0][0] - left <= 1e-6, (ends, left)


@pytest.mark.parametrize("board", BOARDS)
def test_the_coils_are_out_of_bom_and_placement_and_the_origin_is_the_bottom_left_corner(board):
    """The printed coils are copper, not parts: KiCad's exclude-from-BOM and
    -from-placement attributes (KiKit honours them); the drill/place origin
    (aux origin) is the board's bottom-left corner, the one origin of the
    Gerbers, the drill and the placement."""
    out = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
edges = [d for d in b.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts]
left = min(min(d.GetStart().x, d.GetEnd().x) for d in edges)
bottom = max(max(d.GetStart().y, d.GetEnd().y) for d in edges)
aux = b.GetDesignSettings().GetAuxOrigin()
coils = [f.GetAttributes() for f in b.GetFootprints() if "Coil" in str(f.GetFPID().GetLibItemName())]
both = pcbnew.FP_EXCLUDE_FROM_BOM | pcbnew.FP_EXCLUDE_FROM_POS_FILES
print(json.dumps([[aux.x, aux.y], [left, bottom], [a & both == both for a in coils]]))
""" % os.path.join(GENERATED, board + ".kicad_pcb"))
    aux, corner, coils = out
    assert aux == corner
    assert all(coils) and len(coils) == (8 if board == "rank" else 0)


def test_the_picos_test_point_pads_are_where_its_data_sheet_puts_them():
    """TP2 (USB D-) and TP3 (USB D+) at (1, -24.3) and (-1, -24.3) mm from
    the module's centre (the Pico data sheet's SMT footprint, figure 5);
    neither pad reaches the Pico's TP1 (GND, at (0, -21), 1.5 mm square)."""
    out = _run("import footprints\nprint(json.dumps(footprints.PICO_TP))")
    assert out == {"TP2": [1.0, -24.3], "TP3": [-1.0, -24.3]}
    for x, y in out.values():
        assert abs(x) > 0.75 + 0.75 or abs(y + 21) > 0.75 + 0.75     # 1.5 mm pads apart
