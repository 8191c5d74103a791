"""The router's world: two copper layers as grids of cells, each cell saying
which net (if any) may put a track centre, or a via centre, there.

A cell holds FREE, a net number (only that net may use it: it lies within
clearance of that net's copper and no other's), or BLOCKED (within clearance
of two nets' copper, of a hole, the board edge or a keep-out). Every object is
marked once per width class with the inflation that class needs, so a route
search is a lookup per cell, no geometry.
"""
import numpy as np

FREE = -1
BLOCKED = -2
COARSE = 4      # cells per side of a coarse cell: the A* estimate's map (1 mm at 0.25 mm)


class Grid:
    def __init__(self, x0, y0, width, height, pitch, classes, clearance, via_radius, margin):
        """classes: {name: track half width}; distances in mm; margin: the
        slack added to every inflation for the straight run between two cell
        centres (a corner can come closer mid-step than at either end)."""
        self.x0, self.y0, self.pitch = x0, y0, pitch
        self.nx = int(round(width / pitch)) + 1
        self.ny = int(round(height / pitch)) + 1
        self.classes = dict(classes)
        self.clearance, self.via_radius, self.margin = clearance, via_radius, margin
        shape = (2, self.ny, self.nx)
        # track[cls][layer, y, x], via[layer, y, x] (vias have one size)
        self.track = {c: np.full(shape, FREE, np.int32) for c in self.classes}
        self.via = np.full(shape, FREE, np.int32)
        self._coarse = None
        self.fields = {}        # route._distance_field's, per target's coarse cells
        self.planned = None     # cells laid by a plan before routing (strips.py): [layer, y, x] bool

    def coarse_open(self):
        """[[bool]] per coarse cell (COARSE x COARSE cells): whether some
        cell of it is not BLOCKED on some layer for the narrowest track, nor
        taken by the copper a plan laid (a strip full of planned rows is no
        way for other nets: an estimate through it sends their searches
        into it). Taken once, at the first call (before any route: the keep-
        outs, holes, edge and plan are what close a coarse cell; a route
        search's estimate of the way around them is measured on it)."""
        if self._coarse is None:
            t = min(self.classes, key=self.classes.get)
            usable = self.track[t] != BLOCKED
            if self.planned is not None:
                usable &= ~self.planned
            open_ = usable.any(axis=0)
            ny, nx = -(-self.ny // COARSE), -(-self.nx // COARSE)
            pad = np.zeros((ny * COARSE, nx * COARSE), bool)
            pad[:self.ny, :self.nx] = open_
            self._coarse = pad.reshape(ny, COARSE, nx, COARSE).any(axis=(1, 3)).tolist()
        return self._coarse

    def copy(self):
        """Another grid with copies of these maps, for a net under rules of
        its own (the pour's, with the cuts it may not cross): what is marked
        on one leaves the other as it is. Its coarse map is taken anew."""
        g = Grid.__new__(Grid)
        g.__dict__.update(self.__dict__)
        g.track, g.via = self.snapshot()
        g._coarse, g.fields = None, {}
        return g

    def snapshot(self):
        """A copy of every map, for restore() (a rip-up pass starts from it)."""
        return ({c: a.copy() for c, a in self.track.items()}, self.via.copy())

    def restore(self, snap):
        self.track = {c: a.copy() for c, a in snap[0].items()}
        self.via = snap[1].copy()

    # -- coordinates -------------------------------------------------------------
    def cell(self, x, y):
        return (int(round((y - self.y0) / self.pitch)), int(round((x - self.x0) / self.pitch)))

    def xy(self, iy, ix):
        return (self.x0 + ix * self.pitch, self.y0 + iy * self.pitch)

    # -- marking -----------------------------------------------------------------
    def _window(self, bbox, grow):
        x0, y0, x1, y1 = bbox
        p = self.pitch
        ix0 = max(0, int(np.floor((x0 - grow - self.x0) / p)))
        iy0 = max(0, int(np.floor((y0 - grow - self.y0) / p)))
        ix1 = min(self.nx - 1, int(np.ceil((x1 + grow - self.x0) / p)))
        iy1 = min(self.ny - 1, int(np.ceil((y1 + grow - self.y0) / p)))
        if ix1 < ix0 or iy1 < iy0:
            return None
        xs = self.x0 + p * np.arange(ix0, ix1 + 1)
        ys = self.y0 + p * np.arange(iy0, iy1 + 1)
        return (slice(iy0, iy1 + 1), slice(ix0, ix1 + 1)), xs[None, :], ys[:, None]

    @staticmethod
    def _claim(arr, mask, net):
        if net == BLOCKED:
            arr[mask] = BLOCKED
            return
        free = mask & (arr == FREE)
        other = mask & (arr != FREE) & (arr != net)
        arr[free] = net
        arr[other] = BLOCKED

    def _mark(self, layers, dist_fn, bbox, net, extra, via_too=True):
        """Claim every cell whose centre lies closer than the needed clearance
        to an object (dist_fn: distance from a cell centre to the object's
        copper)."""
        for key, layer, sl, mask in self._masks(layers, dist_fn, bbox, extra, via_too):
            arr = self.via if key is None else self.track[key]
            self._claim(arr[layer][sl], mask, net)

    def _masks(self, layers, dist_fn, bbox, extra=0.0, via_too=True):
        """(class or None for vias, layer, window, mask) of the cells whose
        centre lies closer than that map's clearance to an object."""
        grow_max = max(self.classes.values()) + self.clearance + self.margin + self.via_radius + extra
        win = self._window(bbox, grow_max)
        if win is None:
            return
        sl, xs, ys = win
        d = dist_fn(xs, ys)
        for layer in layers:
            for cls, hw in self.classes.items():
                yield cls, layer, sl, d < hw + self.clearance + self.margin + extra
            if via_too:
                yield None, layer, sl, d < self.via_radius + self.clearance + self.margin + extra

    def mark_rect(self, layers, rect, net, extra=0.0):
        x0, y0, x1, y1 = rect

        def dist(xs, ys):
            dx = np.maximum(np.maximum(x0 - xs, xs - x1), 0)
            dy = np.maximum(np.maximum(y0 - ys, ys - y1), 0)
            return np.hypot(dx, dy)
        self._mark(layers, dist, rect, net, extra)

    def mark_segment(self, layers, a, b, half_width, net, extra=0.0):
        self._mark(layers, *self._segment(a, b, half_width), net, extra)

    @staticmethod
    def _segment(a, b, half_width):
        """(distance function, bounding box) of a track's copper."""
        (ax, ay), (bx, by) = a, b
        vx, vy = bx - ax, by - ay
        ll = vx * vx + vy * vy

        def dist(xs, ys):
            if ll == 0:
                t = 0.0
            else:
                t = np.clip(((xs - ax) * vx + (ys - ay) * vy) / ll, 0, 1)
            return np.maximum(np.hypot(xs - (ax + t * vx), ys - (ay + t * vy)) - half_width, 0)
        bbox = (min(ax, bx) - half_width, min(ay, by) - half_width,
                max(ax, bx) + half_width, max(ay, by) + half_width)
        return dist, bbox

    def footprint(self, segments, vias):
        """The cells a net's copper (segments [(layer, a, b, class)], vias
        [(x, y)]) denies to other nets: {class or None (vias): flat indices
        into that map}, each cell once. The negotiated router counts these
        instead of claiming them."""
        parts = {}
        items = [((layer,), a, b, self.classes[cls]) for layer, a, b, cls in segments]
        items += [((0, 1), v, v, self.via_radius) for v in vias]
        for layers, a, b, hw in items:
            dist, bbox = self._segment(a, b, hw)
            for key, layer, sl, mask in self._masks(layers, dist, bbox):
                iy, ix = np.nonzero(mask)
                flat = (layer * self.ny + iy + sl[0].start) * self.nx + ix + sl[1].start
                parts.setdefault(key, []).append(flat)
        return {k: np.unique(np.concatenate(v)) for k, v in parts.items()}

    def mark_circle(self, layers, c, radius, net, extra=0.0):
        self.mark_segment(layers, c, c, radius, net, extra)

    def block_vias(self, rect, grow):
        """No via centre within grow of rect (vias in SMD pads, hole to hole)."""
        x0, y0, x1, y1 = rect
        win = self._window(rect, grow)
        if win is None:
            return
        sl, xs, ys = win
        dx = np.maximum(np.maximum(x0 - xs, xs - x1), 0)
        dy = np.maximum(np.maximum(y0 - ys, ys - y1), 0)
        mask = np.hypot(dx, dy) < grow
        for layer in (0, 1):
            self.via[layer][sl][mask] = BLOCKED

    def block_outside(self, x0, y0, x1, y1, edge_clearance):
        """Everything within edge_clearance of the outline, or outside it."""
        p = self.pitch
        xs = self.x0 + p * np.arange(self.nx)
        ys = self.y0 + p * np.arange(self.ny)
        for cls, hw in list(self.classes.items()) + [(None, self.via_radius)]:
            g = hw + edge_clearance + self.margin
            bad = ((xs[None, :] < x0 + g) | (xs[None, :] > x1 - g)
                   | (ys[:, None] < y0 + g) | (ys[:, None] > y1 - g))
            arrs = [self.via] if cls is None else [self.track[cls]]
            for arr in arrs:
                arr[0][bad] = BLOCKED
                arr[1][bad] = BLOCKED
