"""Track ends that join nothing, cut back once the routing is done.

Why: a strip's row is laid from its capacitors to the strip's end before the
maze router runs (strips.py), and the router joins the switch's pin to the
row wherever it is cheapest, often before the end: the rest of the row is a
stub, copper on the feed that KiCad reports as a dangling track (and
feeds.py would count into the coil's loop). A via left with copper on one
layer is cut too, and what it held in turn.

A track end is held when it lies in a pad of its net on its layer, on a via
of its net, or on another track of its net on its layer: as KiCad's
connectivity joins items, where an end's copper (the track's half width
round it) meets another item's (the router ends on a grid cell and a laid
line may run off the grid, 0.12 mm from it: BUS_COL_b at J1). A
loose end is cut back to the nearest place along its track that something
holds (another track's end on it, a via on it, a pad it crosses: that pad's
centre, so the end lies well inside it); a track nothing holds goes. The
pour's net is left alone: the pour holds its ends, and it is filled later.
Segments are axis-aligned or not, it does not matter here.
"""
import math

from geom import nearest

EPS = 1e-4      # mm: the grid's coordinates are rounded to 1e-6


def _inside(p, rect, margin=0.0):
    m = margin + EPS
    return rect[0] - m <= p[0] <= rect[2] + m and rect[1] - m <= p[1] <= rect[3] + m


def _clip(a, b, rect):
    """The part of a-b inside rect as (from, to) mm along it from a, or None
    (Liang-Barsky)."""
    n = math.hypot(b[0] - a[0], b[1] - a[1])
    t0, t1 = 0.0, 1.0
    for p, q in ((a[0] - b[0], a[0] - rect[0]), (b[0] - a[0], rect[2] - a[0]),
                 (a[1] - b[1], a[1] - rect[1]), (b[1] - a[1], rect[3] - a[1])):
        if abs(p) < 1e-12:
            if q < -EPS:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    return (t0 * n, t1 * n) if t0 <= t1 + 1e-12 else None


class _Net:
    """One net's copper, cut in place: its tracks [route, index] (a track
    cut away reads None in its route until trim compacts the routes) and
    its vias [route, xy]."""

    def __init__(self, routes, pads, half, via_radius):
        self.pads, self.half, self.via_radius = pads, half, via_radius
        self.tracks = [(r, i) for r in routes for i in range(len(r.segments))]
        self.vias = [(r, v) for r in routes for v in r.vias]

    def segs(self):
        """(k, segment) of the tracks still there."""
        for k, (r, i) in enumerate(self.tracks):
            if r.segments[i] is not None:
                yield k, r.segments[i]

    def held(self, p, layer, k):
        """Does something other than track k hold its end p on layer?"""
        r, i = self.tracks[k]
        own = self.half[r.segments[i][3]]
        if any(math.hypot(p[0] - v[0], p[1] - v[1]) <= self.via_radius + own + EPS for _r, v in self.vias):
            return True
        if any(layer in layers and _inside(p, rect, own) for layers, rect in self.pads):
            return True
        return any(j != k and s[0] == layer and nearest(p, s[1], s[2])[0] <= own + self.half[s[3]] + EPS
                   for j, s in self.segs())

    def holds(self, k):
        """The places along track k (mm from its start) that something holds."""
        r, i = self.tracks[k]
        layer, a, b, cls = r.segments[i]
        at = []
        for j, s in self.segs():
            if j != k and s[0] == layer:
                for end in (s[1], s[2]):
                    d, t = nearest(end, a, b)
                    if d <= self.half[cls] + self.half[s[3]] + EPS:
                        at.append(t)
        for _r, v in self.vias:
            d, t = nearest(v, a, b)
            if d <= self.via_radius + self.half[cls] + EPS:
                at.append(t)
        for layers, rect in self.pads:
            if layer in layers:
                span = _clip(a, b, rect)
                if span is not None:
                    centre = ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
                    at.append(min(span[1], max(span[0], nearest(centre, a, b)[1])))
        return at

    def via_layers(self, v):
        """The layers on which v meets its net's copper."""
        on = {s[0] for _j, s in self.segs() if nearest(v, s[1], s[2])[0] <= self.via_radius + self.half[s[3]] + EPS}
        for layers, rect in self.pads:
            if _inside(v, rect):
                on.update(layers)
        return on

    def cut(self):
        """Cut the first loose end or lone via found; whether there was one."""
        for k, (layer, a, b, cls) in list(self.segs()):
            r, i = self.tracks[k]
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            for start in (True, False):
                end, other = (a, b) if start else (b, a)
                if self.held(end, layer, k):
                    continue
                at = [t if start else length - t for t in self.holds(k)]
                near = min((t for t in at if t > EPS), default=None)
                if near is None or near >= length - EPS:
                    r.segments[i] = None           # a stub from its far end, or held by nothing
                else:
                    f = near / length
                    p = (round(end[0] + (other[0] - end[0]) * f, 6), round(end[1] + (other[1] - end[1]) * f, 6))
                    r.segments[i] = (layer, p, b, cls) if start else (layer, a, p, cls)
                return True
        for via in self.vias:
            if len(self.via_layers(via[1])) < 2:
                self.vias.remove(via)
                via[0].vias.remove(via[1])
                return True
        return False


def trim(routes, pads, half, via_radius, skip=()):
    """Cut back the loose ends of the routes' copper, in place: pads {net:
    [(layers, rect)]} (layer 0 top, 1 bottom; rect x0, y0, x1, y1 mm), the
    tracks' half widths {class: mm}, the vias' copper radius; skip: nets
    left alone. Returns (mm of track cut, vias removed)."""
    before = _copper(routes)
    for name in sorted({r.net for r in routes} - set(skip)):
        mine = [r for r in routes if r.net == name]
        net = _Net(mine, pads.get(name, []), half, via_radius)
        while net.cut():
            pass
        for r in mine:
            r.segments = [s for s in r.segments if s is not None]
    after = _copper(routes)
    return round(before[0] - after[0], 3), before[1] - after[1]


def _copper(routes):
    return (sum(math.hypot(s[2][0] - s[1][0], s[2][1] - s[1][1]) for r in routes for s in r.segments),
            sum(len(r.vias) for r in routes))
