"""A board from a netlist: footprints placed, routed, poured, outlined.

Runs under Debian's python3 with KiCad 6's pcbnew. Notes on that API, for
the next reader (KiCad 6.0.11):

* design rules: BOARD_DESIGN_SETTINGS.GetNetClasses().GetDefaultPtr() is the
  default net class (GetDefault() gives an unusable SwigPyObject).
* lengths are integers in nanometres (pcbnew.FromMM / ToMM), points are
  wxPoint; FOOTPRINT.SetOrientationDegrees turns counter-clockwise on screen.
* FootprintLoad(folder.pretty, name) reads one footprint; a new board item
  gets a random KIID unless KIID.SeedGenerator(seed) is called first (that is
  what makes the saved file reproducible).
* a footprint whose tags start with "net tie" may join its pads' nets with
  its own copper (KiCad 6's rule; KiCad 7 has net-tie pad groups instead).
* ZONE_FILLER(board).Fill(board.Zones()) fills pours without the GUI, but
  only on a board loaded from a file (LoadBoard); on a BOARD() made in Python
  it segfaults. A rule area is a ZONE with SetIsRuleArea(True).
"""
import os

import pcbnew

import controller_place
import footprints
import place
import pour
import route
import silk
import strips
import stubs
from grid import BLOCKED, Grid

STD_LIBS = "/usr/share/kicad/footprints"

GRID_MM = 0.25
CLEARANCE_MM = 0.15        # JLCPCB and PCBWay: 0.1 mm (4 mil) minimum on 2 layers
MARGIN_MM = 0.03           # a corner meets a straight step closer than its ends
SIGNAL_MM = 0.2
POWER_MM = 0.4
VIA_MM, VIA_DRILL_MM = 0.6, 0.3
HOLE_GAP_MM = 0.3          # drill to drill
EDGE_CLEARANCE_MM = 0.3
BUNDLE_MARGIN_MM = 0.02    # the column bundle's lanes, a hair over the rule (KiCad rounds to nm)
ORIGIN = (20.0, 20.0)      # the board's top-left corner on KiCad's page
POUR = "GND"
THERMAL_PAD_MM2 = 4.0      # an SMD pad of the pour's net this big may hold its vias
# Per board (measured: hardware/layout.md, Routing): route.route_all's strict
# rip-up-and-reroute passes, their A* weight and the negotiation iterations
# after them; whether the power nets go first (the rank board's +5V must find
# a lane along all eight LEDs before the strips fill); and how far beyond a
# fine-pitch pad its way out is kept for its own net (a track of another net
# laid along a row of TSSOP pins, with a via's room, walls them in on both
# layers). The controller, routed without either, keeps its routing: the
# escape lanes there cut two of its ribbon's GND pins off the pour.
ROUTING = {
    "rank": {"passes": 1, "greed": 1.5, "iterations": 20, "power_first": True, "escape_mm": 2.0},
    "controller": {"passes": 4, "greed": 1.0, "iterations": 0, "power_first": False, "escape_mm": 0.0},
}
FINE_PITCH_MM = 0.6        # a pad narrower than this, on a part of 5 pads or more
MOUNTING_HOLE = ("MountingHole", "MountingHole_2.7mm_M2.5")


class BoardError(ValueError):
    """A netlist or layout this builder cannot turn into a board."""


def _mm(x, y):
    return pcbnew.wxPointMM(ORIGIN[0] + x, ORIGIN[1] + y)


def load_footprint(fpid, vortex_dir):
    if ":" not in fpid:
        raise BoardError("footprint %r names no library" % fpid)
    lib, name = fpid.split(":", 1)
    folder = vortex_dir if lib == footprints.LIB else os.path.join(STD_LIBS, lib + ".pretty")
    fp = pcbnew.FootprintLoad(folder, name) if os.path.isdir(folder) else None
    if fp is None:
        raise BoardError("footprint %s not found in %s" % (fpid, folder))
    # the library's name with the footprint's, as KiCad's own update from a
    # netlist writes it: KiKit's rotation corrections and pcbdraw's drawings
    # of the parts are looked up by "library:footprint"
    fp.SetFPID(pcbnew.LIB_ID(lib, name))
    return fp


def courtyard(fp):
    """The courtyard's box relative to the footprint's origin, unturned (mm)."""
    x0, y0, x1, y1 = silk.courtyard(fp)
    p = fp.GetPosition()
    return (pcbnew.ToMM(x0 - p.x), pcbnew.ToMM(y0 - p.y), pcbnew.ToMM(x1 - p.x), pcbnew.ToMM(y1 - p.y))


def edge_line(fp):
    """Where a connector's drawing puts the board's edge: the y of the
    footprint's "PCB Edge" line (KiCad's library draws it on Dwgs.User from
    the maker's drawing) relative to its origin, unturned; None without one."""
    items = list(fp.GraphicalItems())
    if not any(isinstance(t, pcbnew.FP_TEXT) and t.GetText() == "PCB Edge" for t in items):
        return None
    p = fp.GetPosition()
    lines = [i for i in items if isinstance(i, pcbnew.FP_SHAPE) and i.GetLayer() == pcbnew.Dwgs_User
             and i.GetShape() == pcbnew.SHAPE_T_SEGMENT and i.GetStart().y == i.GetEnd().y]
    if not lines:
        return None
    return pcbnew.ToMM(lines[0].GetStart().y - p.y)


def pad_offsets(fp):
    """{pad number: [(x, y)]} relative to the footprint's origin, unturned (mm)."""
    p = fp.GetPosition()
    result = {}
    for pad in fp.Pads():
        if pad.GetNumber():
            q = pad.GetPosition()
            result.setdefault(pad.GetNumber(), []).append((pcbnew.ToMM(q.x - p.x), pcbnew.ToMM(q.y - p.y)))
    return result


def _settings(board):
    ds = board.GetDesignSettings()
    nc = ds.GetNetClasses().GetDefaultPtr()
    nc.SetClearance(pcbnew.FromMM(CLEARANCE_MM))
    nc.SetTrackWidth(pcbnew.FromMM(SIGNAL_MM))
    nc.SetViaDiameter(pcbnew.FromMM(VIA_MM))
    nc.SetViaDrill(pcbnew.FromMM(VIA_DRILL_MM))
    ds.m_MinClearance = pcbnew.FromMM(CLEARANCE_MM)
    ds.m_TrackMinWidth = pcbnew.FromMM(SIGNAL_MM)
    ds.m_ViasMinSize = pcbnew.FromMM(VIA_MM)
    ds.m_MinThroughDrill = pcbnew.FromMM(VIA_DRILL_MM)
    ds.m_CopperEdgeClearance = pcbnew.FromMM(EDGE_CLEARANCE_MM)
    ds.m_HoleToHoleMin = pcbnew.FromMM(HOLE_GAP_MM - 0.05)
    ds.m_HoleClearance = pcbnew.FromMM(CLEARANCE_MM)


def _outline(board, rect):
    x0, y0, x1, y1 = rect
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(_mm(*a))
        s.SetEnd(_mm(*b))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(pcbnew.FromMM(0.1))
        board.Add(s)


def _zone(board, rect, layer, net=None, keepout=False, pour_only=False):
    z = pcbnew.ZONE(board)
    z.SetLayer(layer)
    poly = z.Outline()
    poly.NewOutline()
    x0, y0, x1, y1 = rect
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        p = _mm(x, y)
        poly.Append(p.x, p.y)
    if keepout:
        z.SetIsRuleArea(True)
        z.SetDoNotAllowCopperPour(True)
        z.SetDoNotAllowTracks(not pour_only)
        z.SetDoNotAllowVias(not pour_only)
        z.SetDoNotAllowPads(False)
        z.SetDoNotAllowFootprints(False)
    else:
        z.SetNetCode(net.GetNetCode())
        z.SetLocalClearance(pcbnew.FromMM(0.3))
        z.SetMinThickness(pcbnew.FromMM(0.25))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetThermalReliefGap(pcbnew.FromMM(0.3))
        z.SetThermalReliefSpokeWidth(pcbnew.FromMM(0.3))
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        z.SetAssignedPriority(0) if hasattr(z, "SetAssignedPriority") else z.SetPriority(0)
    board.Add(z)
    return z


def _pad_rect(pad):
    bb = pad.GetBoundingBox()
    return (pcbnew.ToMM(bb.GetLeft()) - ORIGIN[0], pcbnew.ToMM(bb.GetTop()) - ORIGIN[1],
            pcbnew.ToMM(bb.GetRight()) - ORIGIN[0], pcbnew.ToMM(bb.GetBottom()) - ORIGIN[1])


def _area(rect):
    return (rect[2] - rect[0]) * (rect[3] - rect[1])


def _pad_layers(pad):
    return tuple(i for i, l in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if pad.IsOnLayer(l))


def _is_net_tie(fp):
    return fp.GetKeywords().startswith("net tie")


def _is_custom(pad):
    return pad.GetShape() == pcbnew.PAD_SHAPE_CUSTOM


def _terminal_cells(grid, pad, layers):
    """Cells whose centre lies in the pad (for a custom pad: its anchor)."""
    if _is_custom(pad):
        p = pad.GetPosition()
        iy, ix = grid.cell(pcbnew.ToMM(p.x) - ORIGIN[0], pcbnew.ToMM(p.y) - ORIGIN[1])
        return [(l, iy, ix) for l in layers]
    x0, y0, x1, y1 = _pad_rect(pad)
    iy0, ix0 = grid.cell(x0, y0)
    iy1, ix1 = grid.cell(x1, y1)
    cells = []
    for iy in range(iy0, iy1 + 1):
        for ix in range(ix0, ix1 + 1):
            x, y = grid.xy(iy, ix)
            if pad.HitTest(_mm(x, y)):
                cells += [(l, iy, ix) for l in layers]
    return cells


def _way_out(fp, pad):
    """A fine-pitch pad's way out of its part (a pad under FINE_PITCH_MM
    wide on a part of five pads or more): (axis 0 for x or 1 for y, the sign
    away from the part's centre, the pad's outer edge on that axis, the pad's
    centre), or None (a small part, a wide pad, the part's centre pad)."""
    x0, y0, x1, y1 = _pad_rect(pad)
    if len(fp.Pads()) < 5 or min(x1 - x0, y1 - y0) >= FINE_PITCH_MM:
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    o = fp.GetPosition()
    dx, dy = cx - (pcbnew.ToMM(o.x) - ORIGIN[0]), cy - (pcbnew.ToMM(o.y) - ORIGIN[1])
    if x0 <= cx - dx <= x1 and y0 <= cy - dy <= y1:
        return None                 # the part's centre pad (an exposed pad)
    if abs(dx) > abs(dy):
        return 0, (1 if dx > 0 else -1), (x1 if dx > 0 else x0), (cx, cy)
    return 1, (1 if dy > 0 else -1), (y1 if dy > 0 else y0), (cx, cy)


def _reserve_escape(grid, fp, pad, layers, net, length):
    """Claim for the pad's net the cells along its way out of a fine-pitch
    part: length mm beyond the pad's outer end, as a track of that net would."""
    out = _way_out(fp, pad)
    if not length or len(layers) != 1 or out is None:
        return
    axis, sign, edge, centre = out
    end = list(centre)
    end[axis] = edge + sign * length
    grid.mark_segment(layers, centre, tuple(end), SIGNAL_MM / 2, net)


def net_class(name, nodes):
    return "power" if place.is_power(name, nodes) else "signal"


# This package's modules that read a finished board and never make one: a
# change to them leaves the boards as they are.
READERS = ("drc.py", "fab.py", "pictures.py")


def source_digest(netlist_path):
    """sha256 of what a board is made from: its netlist's connectivity and
    footprints (not the values: physics sets C1's values from the feeds
    measured on this board, so values on the board would make a loop), dims.py
    and this package's code but its READERS. Written in the board's title block, so a test
    tells a stale board in milliseconds (a full regeneration takes minutes)."""
    import hashlib
    import netlist as netlist_mod
    here = os.path.dirname(os.path.abspath(__file__))
    net = netlist_mod.read(netlist_path)
    h = hashlib.sha256()
    for ref in sorted(net.parts):
        h.update(("%s %s\n" % (ref, net.parts[ref].footprint)).encode())
    for name in sorted(net.nets):
        h.update(("%s %s\n" % (name, sorted(net.nets[name]))).encode())
    paths = [os.path.join(os.path.dirname(here), "dims.py")]
    paths += sorted(os.path.join(here, n) for n in os.listdir(here) if n.endswith(".py") and n not in READERS)
    for p in paths:
        with open(p, "rb") as f:
            h.update(os.path.basename(p).encode() + b"\0" + f.read())
    return h.hexdigest()


def build(netlist, kind, vortex_dir, log=None, digest=""):
    """The routed board (pcbnew.BOARD) and its routes, for kind 'rank' or
    'controller'."""
    # KiCad's first footprint load in a process draws a KIID of its own after
    # the seed: one load before seeding gives a board the same UUIDs whether
    # it is built alone (tools/pcb.py build --board) or after the other
    load_footprint("%s:%s" % MOUNTING_HOLE, vortex_dir)
    pcbnew.KIID.SeedGenerator(24)
    board = pcbnew.BOARD()
    _settings(board)
    tb = board.GetTitleBlock()
    tb.SetTitle("Vortex %s board" % kind)
    tb.SetComment(0, "generated by tools/pcb.py build from hardware/generated/%s.net" % kind)
    tb.SetComment(1, "source digest " + digest)
    fps = {}
    for ref in sorted(netlist.parts, key=place.natural):
        part = netlist.parts[ref]
        fp = load_footprint(part.footprint, vortex_dir)
        fp.SetReference(ref)     # the value stays the footprint's name: see source_digest
        fps[ref] = fp
    pin_nets = netlist.pin_nets()
    for (ref, pin) in pin_nets:
        if not any(p.GetNumber() == pin for p in fps[ref].Pads()):
            raise BoardError("%s pin %s is not a pad of %s" % (ref, pin, netlist.parts[ref].footprint))
    boxes = {ref: courtyard(fp) for ref, fp in fps.items()}
    if kind == "rank":
        layout = place.rank_layout(netlist, boxes)
    else:
        layout = controller_place.layout(netlist, boxes, {ref: pad_offsets(fp) for ref, fp in fps.items()},
                                         {ref: edge_line(fp) for ref, fp in fps.items()})
    nets = {}
    for name in netlist.nets:
        nets[name] = pcbnew.NETINFO_ITEM(board, name)
        board.Add(nets[name])
    for ref, fp in fps.items():
        pl = layout.places.get(ref)
        if pl is None:
            raise BoardError("%s has no place on the %s board" % (ref, kind))
        board.Add(fp)
        fp.SetPosition(_mm(pl.x, pl.y))
        fp.SetOrientationDegrees(pl.rot)
        if pl.side == "B":
            fp.Flip(fp.GetPosition(), True)
        for pad in fp.Pads():
            name = pin_nets.get((ref, pad.GetNumber()))
            if name is not None:
                pad.SetNet(nets[name])
    for k, (x, y) in enumerate(layout.holes):
        fp = load_footprint("%s:%s" % MOUNTING_HOLE, vortex_dir)
        fp.SetReference("H%d" % (k + 1))
        board.Add(fp)
        fp.SetPosition(_mm(x, y))
    _outline(board, layout.outline)
    # One origin for the Gerbers, the drill and the placement: the board's
    # bottom-left corner (KiCad's drill/place origin; KiKit's JLCPCB export
    # plots and places from it)
    board.GetDesignSettings().SetAuxOrigin(_mm(layout.outline[0], layout.outline[3]))
    edges = board.GetBoardEdgesBoundingBox()
    silk.place_texts(board, (edges.GetLeft(), edges.GetTop(), edges.GetRight(), edges.GetBottom()), log)
    # -- the router's grid ------------------------------------------------------
    x0, y0, x1, y1 = layout.outline
    grid = Grid(x0, y0, x1 - x0, y1 - y0, GRID_MM,
                {"signal": SIGNAL_MM / 2, "power": POWER_MM / 2},
                CLEARANCE_MM, VIA_MM / 2, MARGIN_MM)
    grid.block_outside(x0, y0, x1, y1, EDGE_CLEARANCE_MM)
    for rect in layout.keepouts:
        grid.mark_rect((0, 1), rect, BLOCKED)
    number = {name: i for i, name in enumerate(netlist.nets)}
    terminals, shapes = {}, {}
    for ref in sorted(fps, key=place.natural):
        fp = fps[ref]
        for pad in fp.Pads():
            layers = _pad_layers(pad)
            name = pin_nets.get((ref, pad.GetNumber()))
            net = number[name] if name is not None else BLOCKED
            if _is_custom(pad):
                p = pad.GetPosition()
                px, py = pcbnew.ToMM(p.x) - ORIGIN[0], pcbnew.ToMM(p.y) - ORIGIN[1]
                grid.mark_circle(layers, (px, py), pcbnew.ToMM(pad.GetSize().x) / 2, net)
            else:
                grid.mark_rect(layers, _pad_rect(pad), net)
                if name is not None and name != POUR:
                    _reserve_escape(grid, fp, pad, layers, net, ROUTING[kind]["escape_mm"])
            if pad.GetDrillSize().x > 0:
                r = _pad_rect(pad)
                c = ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)
                grid.block_vias((c[0], c[1], c[0], c[1]),
                                pcbnew.ToMM(pad.GetDrillSize().x) / 2 + VIA_DRILL_MM / 2 + HOLE_GAP_MM)
            elif layers and not (name == POUR and _area(_pad_rect(pad)) >= THERMAL_PAD_MM2):
                # no via in an SMD pad, but in a big one of the pour's net (an
                # exposed pad: its vias are its stitches to the pour)
                grid.block_vias(_pad_rect(pad), VIA_MM / 2 + CLEARANCE_MM)
            if name is not None and layers:
                shapes.setdefault(name, []).append((layers, _pad_rect(pad)))
                cells = _terminal_cells(grid, pad, layers)
                key = "%s.%s" % (ref, pad.GetNumber())
                p = pad.GetPosition()
                xy = (pcbnew.ToMM(p.x) - ORIGIN[0], pcbnew.ToMM(p.y) - ORIGIN[1])
                # pads with the same number are one terminal in a net tie (the
                # coil's pad 2: its own copper joins them); elsewhere (a push
                # button's two pads 1) KiCad asks for a track to each
                old = terminals.setdefault(name, {}).get(key)
                if old and _is_net_tie(fp):
                    old.cells += cells
                else:
                    if old:
                        key = "%s#%d" % (key, sum(1 for k in terminals[name] if k.split("#")[0] == key) + 1)
                    terminals[name][key] = route.Terminal(key, cells, xy)
    for hx, hy in layout.holes:
        grid.mark_circle((0, 1), (hx, hy), 1.35 + 0.2, BLOCKED)
        grid.block_vias((hx, hy, hx, hy), 1.35 + VIA_DRILL_MM / 2 + HOLE_GAP_MM)
    # -- routing: the nets with the smallest spread first (on the rank board
    # the power nets before them) -----------------------------------------------
    def spread(name):
        pts = [t.xy for t in terminals[name].values()]
        return (max(p[0] for p in pts) - min(p[0] for p in pts)
                + max(p[1] for p in pts) - min(p[1] for p in pts))
    routes = []
    if kind == "rank":
        # the strip below the coils, planned: its long nets laid first
        planner = strips.Planner(grid, number)
        for laid in _plan_strips(netlist, fps, layout, planner, log):
            key = "strip:" + laid.net
            for k in laid.pads:
                terminals[laid.net].pop(k, None)
            ends = [p for _l, a, b in laid.segments for p in (a, b)]
            terminals[laid.net][key] = route.Terminal(key, planner.terminal_cells(laid), max(ends))
            r = route.Route(laid.net, "signal")
            r.segments = [(layer, a, b, "signal") for layer, a, b in laid.segments]
            r.vias = list(laid.vias)
            routes.append(r)
        planner.close()
    if POUR in terminals:
        # the pour's net: every pad on one layer only gets a stub and a via,
        # the pours on both layers join them (a through-hole pad is on both)
        # (a fine-pitch pin's via goes out of its part's rows, as the other
        # pins' tracks do: between the rows the routing walls a via in on
        # both layers, U7's GND pin on 3 December)
        pads = {"%s.%s" % (ref, pad.GetNumber()): (fps[ref], pad) for ref in fps for pad in fps[ref].Pads()}
        for key in sorted(terminals[POUR], key=_natural_pad):
            t = terminals[POUR][key]
            if len({c[0] for c in t.cells}) == 1:
                way = _way_out(*pads[key.split("#")[0]])
                r = route.stitch(grid, number[POUR], "signal", t, VIA_DRILL_MM + HOLE_GAP_MM,
                                 beyond=way[:3] if way else None)
                r.net = POUR
                routes.append(r)
                terminals[POUR][key] = route.stitched(grid, t, r)
    order = [n for n in terminals if len(terminals[n]) > 1 and n != POUR]
    first = ROUTING[kind]["power_first"]
    order.sort(key=lambda n: (first and net_class(n, netlist.nets[n]) != "power", spread(n), n))
    jobs = []
    for name in order:
        terms = [terminals[name][k] for k in sorted(terminals[name], key=_natural_pad)]
        classes = ["power", "signal"] if net_class(name, netlist.nets[name]) == "power" else ["signal"]
        jobs.append((name, number[name], classes, terms))
    pour_job = None
    if POUR in terminals:
        # the pour's tree is routed last, on a grid of its own: no copper of
        # the pour's net across a cut (other nets' tracks cross them)
        pour_grid = grid.copy()
        for rect in layout.cuts:
            pour_grid.mark_rect((0, 1), rect, BLOCKED)
        pour_job = route.Pour(POUR, number[POUR],
                              [terminals[POUR][k] for k in sorted(terminals[POUR], key=_natural_pad)], pour_grid)
    how = ROUTING[kind]
    for r in route.route_all(grid, jobs, VIA_DRILL_MM + HOLE_GAP_MM, how["iterations"], log,
                             how["passes"], how["greed"], pour=pour_job):
        routes.append(r)
        if log and r.failed and r.net != POUR:
            log("unrouted: %s -> %s" % (r.net, ", ".join(r.failed)))
    cut_mm, cut_vias = stubs.trim(routes, shapes, grid.classes, VIA_MM / 2, skip=(POUR,))
    if log:
        log("loose ends cut back: %.1f mm of track, %d vias" % (cut_mm, cut_vias))
    # the grid as the pours' stitching (pour.py) finds it: every route's
    # copper written into its maps, and the cuts
    for r in routes:
        route.mark_copper(grid, number[r.net], r.segments, r.vias, VIA_DRILL_MM + HOLE_GAP_MM)
    for rect in layout.cuts:
        grid.mark_rect((0, 1), rect, BLOCKED)
    for r in routes:
        for layer, a, b, cls in r.segments:
            width = pcbnew.FromMM(2 * grid.classes[cls])
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(_mm(*a))
            t.SetEnd(_mm(*b))
            t.SetWidth(width)
            t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            t.SetNet(nets[r.net])
            board.Add(t)
        for v in r.vias:
            via = pcbnew.PCB_VIA(board)
            via.SetPosition(_mm(*v))
            via.SetViaType(pcbnew.VIATYPE_THROUGH)
            via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            via.SetWidth(pcbnew.FromMM(VIA_MM))
            via.SetDrill(pcbnew.FromMM(VIA_DRILL_MM))
            via.SetNet(nets[r.net])
            board.Add(via)
    # -- pours and keep-outs ----------------------------------------------------
    for rect in layout.keepouts:
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            _zone(board, rect, layer, keepout=True)
    for rect in layout.cuts + layout.pullbacks:
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            _zone(board, rect, layer, keepout=True, pour_only=True)
    if POUR in nets:
        for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
            _zone(board, layout.outline, layer, nets[POUR])
    layout.grid, layout.numbers = grid, number
    return board, routes, layout


def _plan_strips(netlist, fps, layout, planner, log):
    """What strips.py lays on the rank board: the reed row (the net that
    joins every reed's diode) and each coil's feed pair (the switch-side
    nets of its series capacitors), in the strip below the coils."""
    pin_nets = netlist.pin_nets()

    def pins(ref):
        return [p.GetNumber() for p in fps[ref].Pads() if (ref, p.GetNumber()) in pin_nets]

    def pads(ref, net):
        return [("%s.%s" % (ref, p.GetNumber()), _pad_rect(p)) for p in fps[ref].Pads()
                if pin_nets.get((ref, p.GetNumber())) == net]

    def across(ref, net):
        """{the other net of each two-pin part on ref's net: [those parts]}"""
        out = {}
        for r, _p in netlist.nets.get(net, ()):
            if r != ref and len(pins(r)) == 2:
                for other in {pin_nets[(r, q)] for q in pins(r)} - {net}:
                    out.setdefault(other, []).append(r)
        return out
    pairs = []
    for coil, _x, _y in layout.cells:
        pair = []
        for pin in ("1", "2"):
            sides = across(coil, pin_nets.get((coil, pin)))
            if len(sides) == 1:
                (net, refs), = sides.items()
                pair.append((net, [pd for r in refs for pd in pads(r, net)]))
        if len(pair) == 2:
            pairs.append(pair)
        elif log:
            log("%s: no feed pair through two-pin parts, left to the router" % coil)
    reeds = [ref for ref, part in netlist.parts.items() if part.footprint.startswith("vortex:Reed")]
    reach = SIGNAL_MM / 2 + CLEARANCE_MM + MARGIN_MM
    edge = EDGE_CLEARANCE_MM + SIGNAL_MM / 2 + MARGIN_MM
    below = strips.rows(max(k[3] for k in layout.keepouts) + reach, layout.outline[3] - edge, planner.grid.pitch)
    laid = []
    layer_rows = {0: below, 1: below}
    # the reed row: the net every reed reaches through a two-pin part (its diode)
    reached = [{net: refs for pin in pins(reed) for net, refs in across(reed, pin_nets[(reed, pin)]).items()}
               for reed in reeds]
    common = set.intersection(*[set(r) for r in reached]) if reached else set()
    if len(common) == 1:
        net = common.pop()
        diode_pads = sorted((pd for r in reached for ref in r[net] for pd in pads(ref, net)),
                            key=lambda kr: kr[1][0])
        edges = sorted(layout.keepouts)
        gap = min(b[0] - a[2] for a, b in zip(edges, edges[1:]))
        channels = []
        for _key, rect in diode_pads:
            x = (rect[0] + rect[2]) / 2
            left = max(k[2] for k in edges if k[2] <= x)
            channels.append((left, min([k[0] for k in edges if k[0] >= x] or [left + gap])))
        laid.append(strips.lay_chain(planner, net, diode_pads, channels, below[0], reach))
        layer_rows = {0: below, 1: below[1:]}
    east = strips.on_grid(max(r[2] for pair in pairs for _net, pds in pair for _k, r in pds) + 1.0,
                          planner.grid.pitch)
    feeds_laid, _left = strips.lay_pairs(planner, pairs, layer_rows, east, VIA_DRILL_MM + HOLE_GAP_MM, log)
    above = strips.rows(layout.outline[1] + edge, min(k[1] for k in layout.keepouts) - reach, planner.grid.pitch)
    columns = _columns(fps, reeds, pin_nets, netlist.nets, pins, pads)
    if not columns:
        return laid + feeds_laid
    # the bundle: lanes a track and its clearance apart, from the edge, which
    # must pass between the edge and the connector's pads
    lane = SIGNAL_MM + CLEARANCE_MM + BUNDLE_MARGIN_MM
    first = layout.outline[1] + EDGE_CLEARANCE_MM + SIGNAL_MM / 2 + BUNDLE_MARGIN_MM
    bundle = [round(first + k * lane, 6) for k in range(len(columns))]
    conn = _connector_pads(fps, columns[0].pin[0].split(".")[0])
    if bundle[-1] + SIGNAL_MM / 2 + CLEARANCE_MM > min(r[1] for _k, r in conn):
        raise strips.PlanError("the strips' plan: %d column lines do not fit between the edge and the "
                               "connector's pads" % len(columns))
    # the U-turn: down past the connector's east end, back west below it
    uturn = strips.on_grid(layout.outline[2] - edge, planner.grid.pitch, up=False)
    back = strips.rows(max(r[3] for _k, r in conn) + reach, layout.outline[3], planner.grid.pitch)
    return laid + feeds_laid + strips.lay_columns(planner, columns, above, east, bundle, uturn, back)


def _connector_pads(fps, ref):
    return [("%s.%s" % (ref, p.GetNumber()), _pad_rect(p)) for p in fps[ref].Pads()]


def _columns(fps, reeds, pin_nets, nets, pins, pads):
    """The reed column lines (strips.Column): each reed's net that a
    connector carries, with its pad on the connector nearest the board's
    top edge. The lines come up to it from below: a pad in the row nearer
    the edge is reached up the gap east of its neighbour in the other row,
    then across between the rows."""
    out = []
    for reed in reeds:
        for pin in pins(reed):
            net = pin_nets[(reed, pin)]
            conns = sorted({r for r, _p in nets[net] if r.startswith("J")})
            if not conns:
                continue
            ref = min(conns, key=lambda r: min(rect[1] for _k, rect in _connector_pads(fps, r)))
            found = pads(ref, net)
            if len(found) != 1:
                continue
            (key, rect), = found
            every = _connector_pads(fps, ref)
            cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
            near_y = max((r[1] + r[3]) / 2 for _k, r in every)      # the row the lines come to first
            gap = None
            if near_y - cy > 0.1:
                row = [r for _k, r in every if abs((r[1] + r[3]) / 2 - near_y) < 0.1]
                xs = sorted((r[0] + r[2]) / 2 for r in row)
                step = min(b - a for a, b in zip(xs, xs[1:]))
                near_top = min(r[1] for r in row)
                gap = (round(cx + step / 2, 6), round((rect[3] + near_top) / 2, 6))
            out.extend(strips.Column(net, rd, (key, rect), gap) for rd in pads(reed, net))
    return out


def save(board, path, layout=None, log=None):
    """Save, then fill the pours on the board read back (ZONE_FILLER crashes
    on a BOARD made in Python that was never loaded from a file: it has no
    project and no DRC engine), stitch them (pour.py: layout is build's,
    with the router's grid) and save that."""
    board.Save(path)
    loaded = pcbnew.LoadBoard(path)
    if any(not z.GetIsRuleArea() for z in loaded.Zones()):
        pcbnew.ZONE_FILLER(loaded).Fill(loaded.Zones())
        if layout is not None and POUR in layout.numbers:
            n = pour.stitch(loaded, layout.grid, POUR, layout.numbers[POUR], ORIGIN, VIA_MM, VIA_DRILL_MM,
                            VIA_DRILL_MM + HOLE_GAP_MM)
            if log:
                log("%s: %d stitching vias" % (POUR, n))
        loaded.Save(path)
    return loaded


def _natural_pad(key):
    ref, _, pin = key.partition(".")
    return (place.natural(ref), pin)
