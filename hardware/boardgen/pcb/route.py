"""A deterministic maze router on two layers (A* over the grid of grid.py).

Nets are routed one connection at a time, the shortest nets first: each
connection searches from all the copper its net already has to the nearest
pad it lacks (Prim's order), so a net grows as a tree. The top layer prefers
runs along x and the bottom along y, a turn and a via cost extra: the result
is few corners and a via where a route must cross another. Keep-outs (the
coils) and the pads of other nets are cells no search may enter, so every
route stays in the channels between the coils. Same input, same board.
"""
import heapq
from collections import deque

import numpy as np

from grid import BLOCKED, COARSE, FREE

STEP = 10          # cost of one cell along the layer's preferred direction
CROSS = 14         # one cell against it
TURN = 20
VIA = 120
PRES_FIRST = 0.5   # PathFinder's present-congestion factor, first iteration
PRES_GROWTH = 1.6  # its growth per iteration
PASSES = 4         # strict passes (rip-up and reroute by order)
NEGOTIATE = 0      # negotiation iterations after them: see hardware/layout.md, Routing
GREED = 1.5        # the negotiation's A* weight: far fewer states, paths within 1.5 x the cheapest
STITCH_AWAY = 3    # cells (0.75 mm) a pour via keeps from other nets' pads when it can
REPAIR_DEPTH = 2   # a net a repair leaves unrouted is repaired in the same move, this many levels
REPAIRS = 8        # rounds of rip-up and reroute aimed at the nets left unrouted: see _repair
HIST = 0.4         # history added per iteration to a cell that stayed shared, in steps
DEBUG = False
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # (dy, dx): +x, +y, -x, -y


class Terminal:
    """A pad to connect: its cells (layer, iy, ix) a route may end on."""
    __slots__ = ("name", "cells", "xy")

    def __init__(self, name, cells, xy):
        self.name, self.cells, self.xy = name, cells, xy


class Route:
    """What the router made for one net: segments (layer, (x, y), (x, y), class),
    vias [(x, y)] and the pads it could not reach."""
    __slots__ = ("net", "cls", "segments", "vias", "failed")

    def __init__(self, net, cls):
        self.net, self.cls = net, cls
        self.segments, self.vias, self.failed = [], [], []


MAX_EXPANSIONS = 200000  # per search in the strict passes: a column line runs 370 mm round the planned strip
MAX_NEGOTIATED = 250000  # in the negotiation: a 300 mm bus line around the parts needs ~10^5


class Congestion:
    """PathFinder's bookkeeping (McMurchie and Ebeling, 1995) over the grid:
    how many routed nets deny each cell (per width class, and for vias), the
    history cost of the cells that stayed shared, and the present factor.
    A search may cross another net's copper at a price (strict=False) or not
    at all (strict=True, the final legal pass)."""

    def __init__(self, grid, greed=1.0):
        shape = (2, grid.ny, grid.nx)
        self.greed = greed      # the strict passes' A* weight (the negotiation's is GREED)
        self.use = {c: np.zeros(shape, np.int16) for c in grid.classes}
        self.use[None] = np.zeros(shape, np.int16)      # vias
        self.hist = np.zeros(shape, np.float64)
        self.pres = PRES_FIRST
        self.strict = False

    def add(self, footprint, sign):
        for key, flat in footprint.items():
            self.use[key].reshape(-1)[flat] += sign


def _cost_window(grid, net, cls, window, cong, own):
    """Per layer, for the window: the multiplier of a step into each cell
    (-1: forbidden) and the history added, and the same for a via there."""
    y0, x0, y1, x1 = window
    rows, cols = slice(y0, y1 + 1), slice(x0, x1 + 1)
    base = grid.track[cls][:, rows, cols]
    ok = (base == FREE) | (base == net)
    vb = grid.via[:, rows, cols]
    vok = ((vb == FREE) | (vb == net)).all(axis=0)
    vok = np.stack([vok & ok[1], vok & ok[0]])          # a via from layer l lands on 1 - l
    if cong is None:
        mul = np.where(ok, 1.0, -1.0)
        vmul = np.where(vok, 1.0, -1.0)
        return mul, np.zeros(mul.shape), vmul
    use = cong.use[cls][:, rows, cols].astype(np.float64)
    vuse = cong.use[None][:, rows, cols].sum(axis=0)
    hist = cong.hist[:, rows, cols].copy()
    if len(own):                                        # a net's own pads cost it nothing extra
        o = own[(own[:, 1] >= y0) & (own[:, 1] <= y1) & (own[:, 2] >= x0) & (own[:, 2] <= x1)]
        use[o[:, 0], o[:, 1] - y0, o[:, 2] - x0] = 0.0
        hist[o[:, 0], o[:, 1] - y0, o[:, 2] - x0] = 0.0
    vuse = vuse + use[::-1]
    if cong.strict:
        ok &= use == 0
        vok &= vuse == 0
    mul = np.where(ok, 1.0 + cong.pres * use, -1.0)
    vmul = np.where(vok, 1.0 + cong.pres * vuse, -1.0)
    return mul, hist * np.maximum(mul, 0), vmul


def _distance_field(grid, targets):
    """Per coarse cell, the fewest coarse steps to a target's coarse cell
    through open coarse cells (None: no way), as nested lists. A fine path
    crosses only open coarse cells, so this never overstates its length by
    more than one coarse cell: around the coils it is the estimate Manhattan
    is not (a route to a reed in the channel between two coils otherwise
    floods the whole end of the board before it finds the strip)."""
    key = tuple(sorted({(c[1] // COARSE, c[2] // COARSE) for c in targets}))
    cache = grid.fields
    if key in cache:
        return cache[key]
    open_ = grid.coarse_open()
    ny, nx = len(open_), len(open_[0])
    dist = [[None] * nx for _ in range(ny)]
    todo = deque()
    for cy, cx in key:
        dist[cy][cx] = 0
        todo.append((cy, cx))
    while todo:
        cy, cx = todo.popleft()
        d = dist[cy][cx] + 1
        for jy, jx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
            if 0 <= jy < ny and 0 <= jx < nx and dist[jy][jx] is None and open_[jy][jx]:
                dist[jy][jx] = d
                todo.append((jy, jx))
    if len(cache) > 4096:
        cache.clear()
    cache[key] = dist
    return dist


def _search(grid, net, cls, sources, targets, window, cong=None, own=(), novia=()):
    """Cheapest path of cells from any source to any target: (path, cost,
    shared) or None; shared says whether it crosses another net's copper.
    A state is a cell; the turn cost looks at the step into the cell (not
    exact A*, but an order of magnitude fewer states than cell x direction).
    Without cong a cell is usable or not (the grid's marks); with it a step
    costs (base + history) x (1 + present factor x nets already there)."""
    y0, x0, y1, x1 = window
    tgt = set(targets)
    ty0 = min(c[1] for c in targets)
    ty1 = max(c[1] for c in targets)
    tx0 = min(c[2] for c in targets)
    tx1 = max(c[2] for c in targets)

    field = _distance_field(grid, targets)
    far = COARSE * STEP

    def h(iy, ix):
        dy = ty0 - iy if iy < ty0 else (iy - ty1 if iy > ty1 else 0)
        dx = tx0 - ix if ix < tx0 else (ix - tx1 if ix > tx1 else 0)
        d = field[iy // COARSE][ix // COARSE]
        return max(STEP * (dx + dy), far * (d - 1)) if d else STEP * (dx + dy)

    # the window as nested lists, offset to (y0, x0): a list lookup is several
    # times faster than indexing a numpy array cell by cell
    mul, add, vmul = _cost_window(grid, net, cls, window, cong, own)
    mul_l, add_l, vmul_l = mul.tolist(), add.tolist(), vmul.tolist()
    # weighted A*: the negotiation's costs far exceed the estimate; in the
    # strict passes the weight is the board's (it helps one, not the other)
    hw = 1.0 if cong is None else (cong.greed if cong.strict else GREED)
    best = {}
    parent = {}
    heap = []
    for s in sorted(c for c in sources if y0 <= c[1] <= y1 and x0 <= c[2] <= x1):
        if mul_l[s[0]][s[1] - y0][s[2] - x0] < 0:
            continue
        best[s] = 0
        parent[s] = None
        heapq.heappush(heap, (hw * h(s[1], s[2]), 0, s, 4))
    expanded = 0
    limit = MAX_EXPANSIONS if cong is None or cong.strict else MAX_NEGOTIATED
    # equal estimates pop the deepest state first (-g): on a long straight run
    # every cell of the rectangle has the same f, and the shallowest-first
    # order would expand all of them
    while heap:
        f, g, key, d = heapq.heappop(heap)
        g = -g
        if best[key] < g:
            continue
        if key in tgt:
            path = []
            while key is not None:
                path.append(key)
                key = parent[key]
            path.reverse()
            shared = cong is not None and any(
                mul_l[c[0]][c[1] - y0][c[2] - x0] > 1.0
                or (c[0] != p[0] and vmul_l[p[0]][p[1] - y0][p[2] - x0] > 1.0)
                for p, c in zip(path, path[1:]))
            return path, g, shared
        expanded += 1
        if expanded > limit:
            return None
        l, iy, ix = key
        ml, al = mul_l[l], add_l[l]
        for nd, (dy, dx) in enumerate(DIRS):
            jy, jx = iy + dy, ix + dx
            if jy < y0 or jy > y1 or jx < x0 or jx > x1:
                continue
            m = ml[jy - y0][jx - x0]
            if m < 0:
                continue
            along = (dx != 0) == (l == 0)
            ng = g + ((STEP if along else CROSS) + (TURN if d != 4 and d != nd else 0)) * m \
                + al[jy - y0][jx - x0]
            nkey = (l, jy, jx)
            if ng < best.get(nkey, 1 << 60):
                best[nkey] = ng
                parent[nkey] = key
                heapq.heappush(heap, (ng + hw * h(jy, jx), -ng, nkey, nd))
        m = vmul_l[l][iy - y0][ix - x0]
        if m >= 0 and (iy, ix) not in novia:
            o = 1 - l
            ng = g + VIA * m + add_l[o][iy - y0][ix - x0]
            nkey = (o, iy, ix)
            if ng < best.get(nkey, 1 << 60):
                best[nkey] = ng
                parent[nkey] = key
                heapq.heappush(heap, (ng + hw * h(iy, ix), -ng, nkey, 4))
    return None


def _segments(grid, path):
    """Path cells -> ([(layer, a, b)], [via xy]) with collinear steps merged."""
    segs, vias = [], []
    start = path[0]
    prev = path[0]
    direction = None
    for cell in path[1:]:
        if cell[0] != prev[0]:                   # a via
            if prev != start:
                segs.append((start[0], grid.xy(*start[1:]), grid.xy(*prev[1:])))
            vias.append(grid.xy(*prev[1:]))
            start, direction = cell, None
        else:
            step = (cell[1] - prev[1], cell[2] - prev[2])
            if direction is not None and step != direction:
                segs.append((start[0], grid.xy(*start[1:]), grid.xy(*prev[1:])))
                start = prev
            direction = step
        prev = cell
    if prev != start:
        segs.append((start[0], grid.xy(*start[1:]), grid.xy(*prev[1:])))
    return segs, vias


def segment_cells(grid, layer, a, b):
    (iy0, ix0), (iy1, ix1) = grid.cell(*a), grid.cell(*b)
    n = max(abs(iy1 - iy0), abs(ix1 - ix0))
    sy = (iy1 > iy0) - (iy1 < iy0)
    sx = (ix1 > ix0) - (ix1 < ix0)
    return [(layer, iy0 + k * sy, ix0 + k * sx) for k in range(n + 1)]


def route_net(grid, net, classes, terminals, hole_gap, windows=(24, 100), cong=None, novia=None):
    """Connect the terminals of one net. classes: the width classes to try,
    widest first (a power net narrows to reach a fine-pitch pin). Without
    cong its copper is marked on the grid at once; with cong (the negotiated
    router) the grid is left alone and route_all counts the copper, and
    novia collects the cells this net's vias keep other vias of it from."""
    result = Route(net, classes[0])
    todo = list(terminals[1:])
    tree = set(terminals[0].cells)
    own = np.array(sorted({c for t in terminals for c in t.cells}), np.int64).reshape(-1, 3) \
        if cong is not None else ()
    novia = set() if novia is None else novia       # hole to hole: a net's own vias keep apart too
    done_xy = [terminals[0].xy]
    while todo:
        # Prim: the pad nearest to the copper placed so far
        todo.sort(key=lambda t: (min(abs(t.xy[0] - x) + abs(t.xy[1] - y) for x, y in done_xy), t.name))
        t = todo.pop(0)
        found = None
        for cls in classes:
            usable = [c for c in t.cells if grid.track[cls][c] in (FREE, net)]
            src = [c for c in tree if grid.track[cls][c] in (FREE, net)]
            if not (usable and src):
                continue
            for grow in windows:
                # the window spans the pad and the part of the tree nearest to it
                ty, tx = grid.cell(*t.xy)
                near = min(src, key=lambda c: (abs(c[1] - ty) + abs(c[2] - tx), c))
                ys = [near[1], ty]
                xs = [near[2], tx]
                win = (max(0, min(ys) - grow), max(0, min(xs) - grow),
                       min(grid.ny - 1, max(ys) + grow), min(grid.nx - 1, max(xs) + grow))
                r = _search(grid, net, cls, src, usable, win, cong, own, novia)
                # a wider window if cheaper; a narrower class only if it shares no cell
                if r and (found is None or (found[0] == cls and r[1] < found[1][1])
                          or (found[1][2] and not r[2])):
                    found = (cls, r)
                if found and not found[1][2]:
                    break          # a path that shares no cell: no wider window needed
            if found and not found[1][2]:
                break
        if not found:
            if DEBUG:
                print("fail", t.name, len(t.cells), net)
            result.failed.append(t.name)
            continue
        cls, (path, _cost, _shared) = found
        segs, vias = _segments(grid, path)
        if cong is None:
            mark_copper(grid, net, [(layer, a, b, cls) for layer, a, b in segs], vias, hole_gap)
        else:
            for v in vias:
                iy, ix = grid.cell(*v)
                r = int(hole_gap / grid.pitch)
                novia.update((y, x) for y in range(iy - r, iy + r + 1) for x in range(ix - r, ix + r + 1)
                             if (y - iy) ** 2 + (x - ix) ** 2 <= (hole_gap / grid.pitch) ** 2)
        tree |= copper_cells(grid, segs, vias)
        tree.update(t.cells)
        done_xy.append(t.xy)
        result.segments += [(layer, a, b, cls) for layer, a, b in segs]
        result.vias += vias
    return result


def copper_cells(grid, segments, vias):
    """The cells (layer, iy, ix) a net's copper runs through: its segments'
    [(layer, a, b, ...)] and its vias' on both layers; a search may start
    from any of them."""
    cells = set()
    for seg in segments:
        cells.update(segment_cells(grid, *seg[:3]))
    for v in vias:
        iy, ix = grid.cell(*v)
        cells.update({(0, iy, ix), (1, iy, ix)})
    return cells


def mark_copper(grid, net, segments, vias, hole_gap):
    """Write copper into the grid's maps: from then on it denies its cells to
    every other net (segments [(layer, a, b, class)], vias [(x, y)], kept
    hole_gap apart from any via that comes later)."""
    for layer, a, b, cls in segments:
        grid.mark_segment((layer,), a, b, grid.classes[cls], net)
    for v in vias:
        grid.mark_circle((0, 1), v, grid.via_radius, net)
        grid.block_vias((v[0], v[1], v[0], v[1]), hole_gap)


class Pour:
    """The pour's net as route_all's last job: its pads (each SMD pad with
    its stitch: route.stitched) joined by a forest of tracks in what the
    other nets leave, searched on a grid of its own (the board's, with the
    cuts no copper of the pour may cross)."""
    __slots__ = ("name", "number", "terminals", "grid")

    def __init__(self, name, number, terminals, grid):
        self.name, self.number, self.terminals, self.grid = name, number, terminals, grid


def route_forest(grid, net, classes, terminals, hole_gap, cong=None):
    """The pour's net as a forest: a pour cannot reach a pad that tracks wall
    in, nor join islands they cut apart, so its pads are joined by tracks
    too. The pads the first tree cannot reach grow a tree of their own (the
    pour may join it where it could not join them one by one); a pad left
    alone in the end is what the forest failed."""
    out = Route(net, classes[0])
    left, novia = list(terminals), set()
    while len(left) > 1:
        r = route_net(grid, net, classes, left, hole_gap, cong=cong, novia=novia)
        out.segments += r.segments
        out.vias += r.vias
        missed = [t for t in left if t.name in set(r.failed)]
        if len(missed) == len(left) - 1:
            out.failed.append(left[0].name)     # its root reached none
        left = missed
    out.failed += [t.name for t in left]
    return out


def _centres(grid, route, own):
    """{class or None: flat indices} of the cells a route's track centres and
    via centres occupy (its own pads left out): where it must be alone."""
    out = {}
    for layer, a, b, cls in route.segments:
        for c in segment_cells(grid, layer, a, b):
            if c not in own:
                out.setdefault(cls, set()).add((c[0] * grid.ny + c[1]) * grid.nx + c[2])
    for v in route.vias:
        iy, ix = grid.cell(*v)
        for l in (0, 1):
            if (l, iy, ix) not in own:
                out.setdefault(None, set()).add((l * grid.ny + iy) * grid.nx + ix)
    return {k: np.array(sorted(v), np.int64) for k, v in out.items()}


class _Board:
    """One routing of the jobs: the congestion counts and each net's route,
    copper footprint and centre cells."""

    def __init__(self, grid, jobs, hole_gap, greed, forests=None):
        self.grid, self.hole_gap = grid, hole_gap
        self.jobs = {j[0]: j for j in jobs}
        self.owns = {name: {c for t in terms for c in t.cells} for name, _n, _c, terms in jobs}
        self.forests = forests or {}    # {name: its own grid} of the jobs routed as forests (the pour)
        self.cong = Congestion(grid, greed)
        self.routes, self.feet, self.centres = {}, {}, {}

    def reroute(self, name):
        _name, number, classes, terms = self.jobs[name]
        if name in self.feet:
            self.cong.add(self.feet[name], -1)
        if name in self.forests:
            r = route_forest(self.forests[name], number, classes, terms, self.hole_gap, cong=self.cong)
        else:
            r = route_net(self.grid, number, classes, terms, self.hole_gap, cong=self.cong)
        r.net = name
        self.routes[name] = r
        self.feet[name] = self.grid.footprint(r.segments, r.vias)
        self.centres[name] = _centres(self.grid, r, self.owns[name])
        self.cong.add(self.feet[name], +1)

    def rip(self, name):
        self.cong.add(self.feet.pop(name), -1)

    def unrouted(self):
        return sum(len(r.failed) for r in self.routes.values())

    def state(self):
        return dict(self.routes), dict(self.feet), dict(self.centres)

    def load(self, state):
        """Back to a state(): the routes, and the counts rebuilt from them."""
        self.routes, self.feet, self.centres = (dict(x) for x in state)
        for use in self.cong.use.values():
            use[...] = 0
        for feet in self.feet.values():
            self.cong.add(feet, +1)

    def shared(self, order):
        """{net: [(map, flat indices of its centre cells another net's copper denies)]}"""
        out = {}
        for name in order:
            for key, flat in self.centres[name].items():
                hit = flat[self.cong.use[key].reshape(-1)[flat] > 1]
                if len(hit):
                    out.setdefault(name, []).append((key, hit))
        return out


def route_all(grid, jobs, hole_gap, iterations=NEGOTIATE, log=None, passes=PASSES, greed=1.0, repairs=REPAIRS,
              pour=None):
    """Route every job (name, net number, classes, terminals), and the pour
    (a Pour, or None) as the last job of every step; deterministic (no
    clock, no randomness, ties broken by the job order). Returns the jobs'
    routes in their order, the pour's last.

    1. Strict passes (rip-up and reroute by order): every net in order where
       no other net's copper is, then the pour's forest in what they left;
       while pads stay unrouted and passes are left, again from the bare
       grid with the nets that failed first (the last pass's failures, then
       earlier ones; the pour stays last). The best pass is kept. greed
       weights their A* (1: exact cheapest paths).
    2. Negotiated congestion (PathFinder) from there: the nets with unrouted
       pads (the pour among them: a GND pin walled in by other nets' tracks)
       are rerouted allowed to cross other nets' copper at a price; each
       iteration reroutes every net that shares a cell, with the present-
       congestion factor grown and a history cost added on the cells that
       stayed shared, until no cell is shared or the iterations run out.
       Then the nets still sharing are ripped up and rerouted strictly one by
       one (a pad that cannot be reached stays unrouted: never a short), and
       if that leaves more pads unrouted than step 1, step 1's routes stay.
    3. Repairs (`_repair`), while pads stay unrouted: rip-up and reroute
       aimed at each net still unrouted (the pour too), kept only where it
       gains."""
    names = [j[0] for j in jobs]
    last, forests = [], {}
    if pour is not None:
        jobs = list(jobs) + [(pour.name, pour.number, ["signal"], pour.terminals)]
        last, forests = [pour.name], {pour.name: pour.grid}
    best, promoted, order = None, [], list(names)
    for k in range(passes):
        b = _Board(grid, jobs, hole_gap, greed, forests)
        b.cong.strict = True
        for name in order + last:
            b.reroute(name)
        failed = [n for n in order if b.routes[n].failed]
        if log:
            log("routing pass %d: %d pads unrouted in %d nets%s" % (
                k + 1, b.unrouted(), len(failed), "".join(", " + _reached(b.routes[n], pour) for n in last)))
        if best is None or b.unrouted() < best.unrouted():
            best = b
        if not failed:
            break
        promoted = failed + [f for f in promoted if f not in failed]
        order = promoted + [n for n in names if n not in promoted]
    b = best
    names += last
    first = (b.unrouted(), b.state())
    todo = [n for n in names if b.routes[n].failed] if iterations else []
    b.cong.strict = False
    for k in range(iterations):
        if not todo:
            break
        for name in todo:
            b.reroute(name)
        bad = b.shared(names)
        if log:
            log("negotiation %d: %d nets rerouted, %d nets share cells, %d pads unreachable (%s)"
                % (k + 1, len(todo), len(bad), b.unrouted(),
                   " ".join(p for n in names for p in b.routes[n].failed)))
        if not bad:
            todo = []
            break
        for name, hits in bad.items():
            for key, flat in hits:
                b.cong.hist.reshape(-1)[flat] += HIST * STEP
        b.cong.pres *= PRES_GROWTH
        todo = [n for n in names if n in bad]
    b.cong.strict = True
    if todo:
        # the nets still sharing: ripped up together, then routed strictly one by one
        for name in todo:
            b.rip(name)
        for name in todo:
            b.reroute(name)
        if log:
            log("legalised: %d nets rerouted without sharing, %d pads unrouted" % (len(todo), b.unrouted()))
        if b.unrouted() > first[0]:       # the negotiation ran out worse off than it started
            b.load(first[1])
            if log:
                log("kept the strict passes' best: %d pads unrouted" % first[0])
    if repairs and b.unrouted():
        _repair(b, names, repairs, log)
    if log and pour is not None:
        log(_reached(b.routes[pour.name], pour))
    return [b.routes[n] for n in names]


def _reached(route, pour):
    n = len(pour.terminals)
    return "%s tree: %d of %d pads reached%s" % (pour.name, n - len(route.failed), n,
                                                 " (not %s)" % ", ".join(route.failed) if route.failed else "")


def _repair(b, names, rounds, log=None, depth=REPAIR_DEPTH):
    """Rip-up and reroute aimed at each net still unrouted: its cheapest
    route allowed to cross others (at the negotiation's last prices, so it
    crosses as few as it can) names the nets in its way; those are ripped
    up, the net is routed strictly first and they after it, each where it
    still fits; one of them left unrouted is repaired the same way in turn,
    down to depth levels. Kept if fewer pads stay unrouted; kept too if as
    many stay unrouted but a set of them not met before (the failure moves
    to another net, whose own repair may then succeed); else undone. Never
    more pads unrouted than before. Rounds until one changes nothing."""
    def take(name):
        return b.routes[name], b.feet[name], b.centres[name]

    def put(name, saved):
        b.routes[name], b.feet[name], b.centres[name] = saved
        b.cong.add(b.feet[name], +1)

    def failing():
        return frozenset(p for n in names for p in b.routes[n].failed)

    def fix(name, keep, level, saved):
        saved.setdefault(name, take(name))
        b.cong.strict = False
        b.reroute(name)
        victims = [n for n in b.shared(names) if n != name and n not in keep]
        for v in victims:
            saved.setdefault(v, take(v))
        b.cong.strict = True
        for n in [name] + victims:
            b.rip(n)
        for n in [name] + victims:
            b.reroute(n)
        for v in victims:
            if level > 1 and b.routes[v].failed:
                fix(v, keep | {name}, level - 1, saved)
    seen = {failing()}
    for k in range(rounds):
        gained, moved = 0, 0
        for name in [n for n in names if b.routes[n].failed]:
            if not b.routes[name].failed:
                continue
            before, saved = b.unrouted(), {}
            fix(name, frozenset(), depth, saved)
            now = failing()
            if b.unrouted() < before or (b.unrouted() == before and now not in seen):
                gained += before - b.unrouted()
                moved += 1
                seen.add(now)
                continue
            for n, old in saved.items():
                b.rip(n)
                put(n, old)
        if log:
            log("repair %d: %d pads unrouted (%d fewer, %d moved)" % (k + 1, b.unrouted(), gained, moved))
        if not moved or not b.unrouted():
            break


def stitched(grid, terminal, stitch_route):
    """A pad's terminal with its stitch (stub and via, from stitch): the
    pour's tree may join the pad at either, from the other layer too."""
    extra = copper_cells(grid, stitch_route.segments, stitch_route.vias)
    return Terminal(terminal.name, sorted(set(terminal.cells) | extra), terminal.xy)


def _near_other_pads(grid, net, cls, window, k):
    """[[bool]] over the window: within k cells of a cell only another net
    may use (next to its pads), on either layer."""
    y0, x0, y1, x1 = window
    t = grid.track[cls]
    ys, xs = slice(max(0, y0 - k), y1 + k + 1), slice(max(0, x0 - k), x1 + k + 1)
    other = ((t[0][ys, xs] >= 0) & (t[0][ys, xs] != net)) | ((t[1][ys, xs] >= 0) & (t[1][ys, xs] != net))
    grown = np.zeros_like(other)
    h, w = other.shape
    for dy in range(-k, k + 1):
        for dx in range(-k, k + 1):
            grown[max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)] |= \
                other[max(0, -dy):h + min(0, -dy), max(0, -dx):w + min(0, -dx)]
    oy, ox = y0 - ys.start, x0 - xs.start
    return grown[oy:oy + y1 - y0 + 1, ox:ox + x1 - x0 + 1].tolist()


def stitch(grid, net, cls, terminal, hole_gap, reach=12, beyond=None):
    """Join one SMD pad of the pour's net to the pour on the other layer: the
    shortest stub from the pad to a cell where a via fits, and the via.
    beyond (axis 0 for x or 1 for y, sign, edge): the via only where the
    cell's coordinate on that axis lies past the edge in that sign's way
    (out of a part's rows of pins), when some such cell has room. A stub
    may pass under a part on the other layer: each change of layer on the
    way has its via, and the stub ends at the last (the vias were dropped
    until 4 December: two of U3's GND stubs changed layer twice with none)."""
    result = Route(net, cls)
    iy, ix = terminal.cells[0][1:]
    layer = terminal.cells[0][0]
    y0, x0 = max(0, iy - reach), max(0, ix - reach)
    y1, x1 = min(grid.ny - 1, iy + reach), min(grid.nx - 1, ix + reach)
    ok = (FREE, net)
    targets = [(layer, y, x) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)
               if grid.via[0][y, x] in ok and grid.via[1][y, x] in ok
               and grid.track[cls][0][y, x] in ok and grid.track[cls][1][y, x] in ok]
    src = [c for c in terminal.cells if grid.track[cls][c] in ok]
    if beyond is not None:
        axis, sign, edge = beyond
        out = [c for c in targets if (grid.xy(c[1], c[2])[axis] - edge) * sign > 0]
        targets = out or targets
    found = None
    if targets and src:
        # first a via out of the way of other nets' pins (a stitch in front of
        # a fine-pitch pin would close its only escape), then anywhere
        zone = _near_other_pads(grid, net, cls, (y0, x0, y1, x1), STITCH_AWAY)
        away = [c for c in targets if not zone[c[1] - y0][c[2] - x0]]
        if away:
            found = _search(grid, net, cls, src, away, (y0, x0, y1, x1))
        if not found:
            found = _search(grid, net, cls, src, targets, (y0, x0, y1, x1))
    if not found:
        result.failed.append(terminal.name)
        return result
    path = found[0]
    changes = [k for k in range(1, len(path)) if path[k][0] != path[k - 1][0]]
    if changes:
        path = path[:changes[-1] + 1]      # back on the pad's layer at a via: the stub ends there
    segs, vias = _segments(grid, path)
    result.segments = [(lay, a, b, cls) for lay, a, b in segs]
    result.vias = vias if changes else [grid.xy(*path[-1][1:])]
    mark_copper(grid, net, result.segments, result.vias, hole_gap)
    return result
