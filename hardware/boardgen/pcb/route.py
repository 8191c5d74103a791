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

from grid import BLOCKED, FREE

STEP = 10          # cost of one cell along the layer's preferred direction
CROSS = 14         # one cell against it
TURN = 20
VIA = 120
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


MAX_EXPANSIONS = 60000


def _search(grid, net, cls, sources, targets, window):
    """Cheapest path of cells from any source to any target, or None. A
    state is a cell; the turn cost looks at the step into the cell (not
    exact A*, but an order of magnitude fewer states than cell x direction)."""
    track, via = grid.track[cls], grid.via
    y0, x0, y1, x1 = window
    tgt = set(targets)
    ty0 = min(c[1] for c in targets)
    ty1 = max(c[1] for c in targets)
    tx0 = min(c[2] for c in targets)
    tx1 = max(c[2] for c in targets)

    def h(iy, ix):
        dy = ty0 - iy if iy < ty0 else (iy - ty1 if iy > ty1 else 0)
        dx = tx0 - ix if ix < tx0 else (ix - tx1 if ix > tx1 else 0)
        return STEP * (dx + dy)

    best = {}
    parent = {}
    heap = []
    for s in sorted(c for c in sources if y0 <= c[1] <= y1 and x0 <= c[2] <= x1):
        best[s] = 0
        parent[s] = None
        heapq.heappush(heap, (h(s[1], s[2]), 0, s, 4))
    # the window as nested lists, offset to (y0, x0): a list lookup is several
    # times faster than indexing a numpy array cell by cell
    rows, cols = slice(y0, y1 + 1), slice(x0, x1 + 1)
    track_l = (track[0][rows, cols].tolist(), track[1][rows, cols].tolist())
    via0, via1 = via[0][rows, cols].tolist(), via[1][rows, cols].tolist()
    expanded = 0
    while heap:
        f, g, key, d = heapq.heappop(heap)
        if best[key] < g:
            continue
        if key in tgt:
            path = []
            while key is not None:
                path.append(key)
                key = parent[key]
            return path[::-1]
        expanded += 1
        if expanded > MAX_EXPANSIONS:
            return None
        l, iy, ix = key
        tl = track_l[l]
        for nd, (dy, dx) in enumerate(DIRS):
            jy, jx = iy + dy, ix + dx
            if jy < y0 or jy > y1 or jx < x0 or jx > x1:
                continue
            v = tl[jy - y0][jx - x0]
            if v != FREE and v != net:
                continue
            along = (dx != 0) == (l == 0)
            ng = g + (STEP if along else CROSS) + (TURN if d != 4 and d != nd else 0)
            nkey = (l, jy, jx)
            if ng < best.get(nkey, 1 << 60):
                best[nkey] = ng
                parent[nkey] = key
                heapq.heappush(heap, (ng + h(jy, jx), ng, nkey, nd))
        o = 1 - l
        wy, wx = iy - y0, ix - x0
        v0, v1, vt = via0[wy][wx], via1[wy][wx], track_l[o][wy][wx]
        if (v0 == FREE or v0 == net) and (v1 == FREE or v1 == net) and (vt == FREE or vt == net):
            ng = g + VIA
            nkey = (o, iy, ix)
            if ng < best.get(nkey, 1 << 60):
                best[nkey] = ng
                parent[nkey] = key
                heapq.heappush(heap, (ng + h(iy, ix), ng, nkey, 4))
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


def _cells_of_segment(grid, layer, a, b):
    (iy0, ix0), (iy1, ix1) = grid.cell(*a), grid.cell(*b)
    n = max(abs(iy1 - iy0), abs(ix1 - ix0))
    sy = (iy1 > iy0) - (iy1 < iy0)
    sx = (ix1 > ix0) - (ix1 < ix0)
    return [(layer, iy0 + k * sy, ix0 + k * sx) for k in range(n + 1)]


def route_net(grid, net, classes, terminals, hole_gap, windows=(24, 100)):
    """Connect the terminals of one net; marks its copper on the grid.
    classes: the width classes to try, widest first (a power net narrows to
    reach a fine-pitch pin)."""
    result = Route(net, classes[0])
    todo = list(terminals[1:])
    tree = set(terminals[0].cells)
    done_xy = [terminals[0].xy]
    while todo:
        # Prim: the pad nearest to the copper placed so far
        todo.sort(key=lambda t: (min(abs(t.xy[0] - x) + abs(t.xy[1] - y) for x, y in done_xy), t.name))
        t = todo.pop(0)
        path = None
        for cls in classes:
            usable = [c for c in t.cells if grid.track[cls][c] in (FREE, net)]
            src = [c for c in tree if grid.track[cls][c] in (FREE, net)]
            if not (usable and src):
                continue
            for grow in windows:
                cells = src + usable
                if grow is None:
                    win = (0, 0, grid.ny - 1, grid.nx - 1)
                else:
                    # the window spans the pad and the part of the tree nearest to it
                    ty, tx = grid.cell(*t.xy)
                    near = min(src, key=lambda c: abs(c[1] - ty) + abs(c[2] - tx))
                    ys = [near[1], ty]
                    xs = [near[2], tx]
                    win = (max(0, min(ys) - grow), max(0, min(xs) - grow),
                           min(grid.ny - 1, max(ys) + grow), min(grid.nx - 1, max(xs) + grow))
                path = _search(grid, net, cls, src, usable, win)
                if path:
                    break
            if path:
                break
        if not path:
            if DEBUG:
                print("fail", t.name, len(t.cells), net)
            result.failed.append(t.name)
            continue
        hw = grid.classes[cls]
        segs, vias = _segments(grid, path)
        for layer, a, b in segs:
            grid.mark_segment((layer,), a, b, hw, net)
            tree.update(_cells_of_segment(grid, layer, a, b))
        for v in vias:
            grid.mark_circle((0, 1), v, grid.via_radius, net)
            grid.block_vias((v[0], v[1], v[0], v[1]), hole_gap)
            iy, ix = grid.cell(*v)
            tree.update({(0, iy, ix), (1, iy, ix)})
        tree.update(t.cells)
        done_xy.append(t.xy)
        result.segments += [(layer, a, b, cls) for layer, a, b in segs]
        result.vias += vias
    return result


def route_all(grid, jobs, hole_gap, passes=3, log=None):
    """Route every job (name, net number, classes, terminals), in the given
    order, then rip up and reroute: while pads stay unrouted and passes are
    left, start again from the grid as it was with the nets that failed moved
    to the front (those failed last pass first, then the earlier ones: a net
    that needs a lane gets it before the nets that took it). A bounded
    negotiation by order; the pass that leaves the fewest pads unrouted wins
    (the first of equals), so the result is the same on every run."""
    snap = grid.snapshot()
    order = list(jobs)
    best = None
    promoted = []
    for k in range(passes):
        if k:
            grid.restore(snap)
        routes = []
        for name, number, classes, terms in order:
            r = route_net(grid, number, classes, terms, hole_gap)
            r.net = name
            routes.append(r)
        failed = [r.net for r in routes if r.failed]
        n = sum(len(r.failed) for r in routes)
        if log:
            log("routing pass %d: %d pads unrouted in %d nets" % (k + 1, n, len(failed)))
        if best is None or n < best[0]:
            best = (n, routes, grid.snapshot())
        if not n:
            break
        promoted = failed + [f for f in promoted if f not in failed]
        rank = {f: i for i, f in enumerate(promoted)}
        order = sorted((j for j in jobs if j[0] in rank), key=lambda j: rank[j[0]])
        order += [j for j in jobs if j[0] not in rank]
    grid.restore(best[2])
    return best[1]


def stitch(grid, net, cls, terminal, hole_gap, reach=12):
    """Join one SMD pad of the pour's net to the pour on the other layer: the
    shortest stub from the pad to a cell where a via fits, and the via."""
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
    path = _search(grid, net, cls, src, targets, (y0, x0, y1, x1)) if targets and src else None
    if not path:
        result.failed.append(terminal.name)
        return result
    segs, _ = _segments(grid, path)
    hw = grid.classes[cls]
    for lay, a, b in segs:
        grid.mark_segment((lay,), a, b, hw, net)
    v = grid.xy(*path[-1][1:])
    grid.mark_circle((0, 1), v, grid.via_radius, net)
    grid.block_vias((v[0], v[1], v[0], v[1]), hole_gap)
    result.segments = [(lay, a, b, cls) for lay, a, b in segs]
    result.vias = [v]
    return result
