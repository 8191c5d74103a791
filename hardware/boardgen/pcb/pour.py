"""The pour's stitching: fill, check, stitch, fill again.

After routing, the tracks cut each layer's GND pour into islands. KiCad
joins an island to the rest of the net only through the net's own copper: a
pad, a track, a via. So after the first fill a via of the pour's net goes
wherever it joins the two layers' fills:

1. a lattice (every LATTICE_MM, on the router's grid) over the whole board,
   at each point where the router's grid allows a via of the net and both
   layers' fills cover the via's copper;
2. then, in every island of either layer that holds no via yet, the first
   such point inside it (scanned on the router's grid).

A via is placed only where both fills lie, and the pours are filled again.
That fill may still drop an island the via alone held (KiCad removes an
island it finds no pad in); a via KiCad then finds unconnected on either
layer, or its DRC finds dangling, is taken out and the pours filled once
more, so no via is left dangling.
Deterministic (a fixed scan order, no randomness).
"""
import pcbnew

from grid import FREE

LATTICE_MM = 5.0          # joins the wide pours; the island pass then takes the narrow ones a lattice misses


def _point(origin, x, y):
    return pcbnew.VECTOR2I(pcbnew.FromMM(origin[0] + x), pcbnew.FromMM(origin[1] + y))


def _fills(board, name):
    """{layer index (0 top, 1 bottom): the pour's filled SHAPE_POLY_SET}."""
    out = {}
    for z in board.Zones():
        if not z.GetIsRuleArea() and z.GetNetname() == name:
            for i, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)):
                if z.IsOnLayer(layer):
                    out[i] = z.GetFilledPolysList(layer)
    return out


class _Stitcher:
    def __init__(self, board, grid, name, number, origin, via_mm, drill_mm, hole_gap):
        self.board, self.grid, self.name, self.origin = board, grid, name, origin
        self.ok = (FREE, number)
        self.via_mm, self.drill_mm, self.hole_gap = via_mm, drill_mm, hole_gap
        self.fills = _fills(board, name)
        self.net = board.FindNet(name)
        self.placed = []       # [(x, y)]
        self.vias = []         # the PCB_VIAs, in the same order

    def fits(self, iy, ix):
        """A via of the net may stand at this grid point and both fills cover its copper."""
        g = self.grid
        if len(self.fills) < 2 or not all(g.via[l, iy, ix] in self.ok for l in (0, 1)):
            return False
        x, y = g.xy(iy, ix)
        r = self.via_mm / 2
        probes = [(x, y), (x + r, y), (x - r, y), (x, y + r), (x, y - r)]
        return all(f.Contains(_point(self.origin, px, py)) for f in self.fills.values() for px, py in probes)

    def place(self, iy, ix):
        x, y = self.grid.xy(iy, ix)
        via = pcbnew.PCB_VIA(self.board)
        via.SetPosition(pcbnew.wxPointMM(self.origin[0] + x, self.origin[1] + y))
        via.SetViaType(pcbnew.VIATYPE_THROUGH)
        via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        via.SetWidth(pcbnew.FromMM(self.via_mm))
        via.SetDrill(pcbnew.FromMM(self.drill_mm))
        via.SetNet(self.net)
        self.board.Add(via)
        self.vias.append(via)
        self.grid.block_vias((x, y, x, y), self.hole_gap)
        self.placed.append((x, y))

    def lattice(self):
        step = max(1, int(round(LATTICE_MM / self.grid.pitch)))
        for iy in range(step // 2, self.grid.ny, step):
            for ix in range(step // 2, self.grid.nx, step):
                if self.fits(iy, ix):
                    self.place(iy, ix)

    def islands(self):
        """One via in each island of either layer that has none yet."""
        g = self.grid
        for layer in sorted(self.fills):
            poly = self.fills[layer]
            for k in range(poly.OutlineCount()):
                outline = poly.Outline(k)
                if any(outline.PointInside(_point(self.origin, x, y)) for x, y in self.placed):
                    continue
                pts = [outline.CPoint(i) for i in range(outline.PointCount())]
                iy0, ix0 = g.cell(pcbnew.ToMM(min(p.x for p in pts)) - self.origin[0],
                                  pcbnew.ToMM(min(p.y for p in pts)) - self.origin[1])
                iy1, ix1 = g.cell(pcbnew.ToMM(max(p.x for p in pts)) - self.origin[0],
                                  pcbnew.ToMM(max(p.y for p in pts)) - self.origin[1])
                done = False
                for iy in range(max(0, iy0), min(g.ny, iy1 + 1)):
                    for ix in range(max(0, ix0), min(g.nx, ix1 + 1)):
                        x, y = g.xy(iy, ix)
                        if outline.PointInside(_point(self.origin, x, y)) and self.fits(iy, ix):
                            self.place(iy, ix)
                            done = True
                            break
                    if done:
                        break


def stitch(board, grid, name, number, origin, via_mm, drill_mm, hole_gap):
    """Stitch the filled pours of net name on a board loaded from its file
    (grid: the router's, every copper marked; hole_gap: via centre to via
    centre at least); refills. Returns the vias added."""
    s = _Stitcher(board, grid, name, number, origin, via_mm, drill_mm, hole_gap)
    s.lattice()
    s.islands()
    kept = list(s.vias)
    while kept:
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
        board.BuildConnectivity()
        conn = board.GetConnectivity()
        lost = [v for v in kept if not (conn.IsConnectedOnLayer(v, pcbnew.F_Cu)
                                        and conn.IsConnectedOnLayer(v, pcbnew.B_Cu))]
        if not lost:
            break
        for v in lost:
            board.Remove(v)
        kept = [v for v in kept if v not in lost]
    # KiCad's DRC judges a via by more than the connectivity asks above: a
    # via of the pour's net it finds dangling (joined on one layer at most,
    # so it joins nothing; the controller's GND tree left two by the USB-C's
    # shell once the pour had filled round them) is taken out, whoever laid it
    while True:
        dangling = _drc_dangling(board)
        lost = [t for t in board.GetTracks() if t.GetClass() == "PCB_VIA" and t.GetNetname() == name
                and (round(pcbnew.ToMM(t.GetPosition().x), 3), round(pcbnew.ToMM(t.GetPosition().y), 3))
                in dangling]
        if not lost:
            break
        for v in lost:
            board.Remove(v)
        kept = [v for v in kept if v not in lost]
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    return len(kept)


def _drc_dangling(board):
    """The positions (mm, to the micrometre) of the vias KiCad's DRC finds
    dangling."""
    import os
    import re
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        rpt = os.path.join(tmp, "drc.rpt")
        pcbnew.WriteDRCReport(board, rpt, pcbnew.EDA_UNITS_MILLIMETRES, True)
        with open(rpt) as f:
            text = f.read()
    out = set()
    for block in text.split("[via_dangling]")[1:]:
        m = re.search(r"@\(([-\d.]+) mm, ([-\d.]+) mm\): Via", block)
        if m:
            out.add((round(float(m.group(1)), 3), round(float(m.group(2)), 3)))
    return out
