"""The strip below the rank board's coils, planned: its long nets laid by
construction before the maze router runs.

Why: routed one net at a time, a coil's two feeds took whatever rows were
free, at times one in each strip, a loop around the coils between them (the
feed's inductance is the pair's loop: feeds.py); and the reed row, a chain
through every channel, took rows the feeds needed. Laid in order, the strip
holds the eight feed pairs and the reed row with one row to spare.

The strip's rows lie every two grid cells (a track and its clearance) from
the coils' keep-outs to the board's edge, on both layers. Every vertical
piece stays inside a channel (between two coils), so rows only meet drops
in the channel where their net starts:

* **The reed row** (the net joining the reeds' diodes) has the bottom
  layer's row nearest the coils. In each channel it rises at the channel's
  left, past the coil's pads, to its diode's pad, goes round the diode's
  other pad and comes down at the channel's right: it never passes under a
  channel's capacitors, where the feeds drop.
* **A feed pair** (a coil's two switch-side nets, from its series
  capacitors' pads) takes two neighbouring rows on one layer, the pairs
  taking the layers in turn. The pair that starts furthest right (nearest
  the electronics end) lies nearest the coils: a pair drops from its
  capacitors through the rows of the pairs that start to its right, which
  have not begun there. In a pair the side whose capacitors sit further
  right has the upper row, so the other side's drops pass where that row
  has not begun. On the bottom layer a drop starts at a via just below its
  capacitor's pad.

Each row runs from its capacitors to `east`, past the last coil's
capacitors; the maze router joins the rest (the switch's pin, the
connector's pin for the reed row) to the laid copper, which is one more
terminal of its net and never ripped up, and what lies past the place it
joins is cut once the routing is done (stubs.py). Every piece is checked against
the router's grid before it is laid: a plan that would touch another net's
copper raises PlanError, naming the piece.
"""
import math

from grid import FREE
from route import copper_cells, mark_copper, segment_cells

LANE_CELLS = 2          # rows two grid cells apart: a track and its clearance


class PlanError(ValueError):
    """A piece of the plan would cross copper it may not."""


class Laid:
    """One net's copper laid by the plan: segments [(layer, (x, y), (x, y))]
    (layer 0 top, 1 bottom) and vias [(x, y)], and the keys of the pads it
    joins (the router need not reach them again)."""
    __slots__ = ("net", "segments", "vias", "pads")

    def __init__(self, net):
        self.net, self.segments, self.vias, self.pads = net, [], [], []


def rows(first, last, pitch):
    """The rows' y from first to last (the bounds a track centre may take),
    on the grid, LANE_CELLS apart."""
    y = math.ceil(first / pitch - 1e-9) * pitch
    out = []
    while y <= last + 1e-9:
        out.append(round(y, 6))
        y += LANE_CELLS * pitch
    return out


class Planner:
    """Lays pieces on the grid, each checked first (only FREE cells or the
    net's own); number: {net name: the grid's net number}."""

    def __init__(self, grid, number, cls="signal"):
        self.grid, self.number, self.cls = grid, number, cls
        self._before = grid.track[cls].copy()

    def free(self, net, layer, a, b):
        ok = (FREE, self.number[net])
        t = self.grid.track[self.cls]
        return all(t[c] in ok for c in segment_cells(self.grid, layer, a, b))

    def via_free(self, net, xy):
        ok = (FREE, self.number[net])
        iy, ix = self.grid.cell(*xy)
        return all(self.grid.via[l, iy, ix] in ok and self.grid.track[self.cls][l, iy, ix] in ok
                   for l in (0, 1))

    def lay(self, laid, layer, a, b, what, check=True):
        """check=False: a piece finer than the grid (KiCad's DRC checks it)."""
        if check and not self.free(laid.net, layer, a, b):
            raise PlanError("the strips' plan: %s of %s (%s, %.2f,%.2f to %.2f,%.2f) crosses other copper"
                            % (what, laid.net, "top" if layer == 0 else "bottom", a[0], a[1], b[0], b[1]))
        mark_copper(self.grid, self.number[laid.net], [(layer, a, b, self.cls)], (), 0.0)
        laid.segments.append((layer, a, b))

    def via(self, laid, xy, hole_gap, what):
        if not self.via_free(laid.net, xy):
            raise PlanError("the strips' plan: %s of %s (via at %.2f,%.2f) crosses other copper"
                            % (what, laid.net, xy[0], xy[1]))
        mark_copper(self.grid, self.number[laid.net], (), [xy], hole_gap)
        laid.vias.append(xy)

    def close(self):
        """Tell the grid which cells the plan took (Grid.coarse_open closes
        them to the searches' estimate)."""
        self.grid.planned = (self._before == FREE) & (self.grid.track[self.cls] != FREE)

    def terminal_cells(self, laid):
        return sorted(copper_cells(self.grid, laid.segments, laid.vias))


def on_grid(v, pitch, up=True):
    """v on the grid of this pitch: the next line up (or down)."""
    f = math.ceil if up else math.floor
    return round(f(v / pitch - 1e-9 if up else v / pitch + 1e-9) * pitch, 6)


def _centre(rect):
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def lay_chain(planner, net, pads, channels, row, reach):
    """The reed row: pads [(key, (x0, y0, x1, y1))] of its diodes on the
    bottom layer, one per channel [(x0, x1)] (the free x between two coils'
    keep-outs), in x order; row: its y in the strip. Returns the Laid."""
    g = planner.grid
    p = g.pitch
    laid = Laid(net)
    last_x = None
    for k, ((key, rect), (c0, c1)) in enumerate(zip(pads, channels)):
        dx, dy = _centre(rect)
        laid.pads.append(key)
        if k > 0:
            # from the left: the first x past the coil's pads where it can rise to the pad's height
            x = on_grid(c0 + reach, p)
            while x < dx and not (planner.free(net, 1, (x, row), (x, dy))
                                  and planner.free(net, 1, (x, dy), (dx, dy))):
                x += p
            if x >= dx:
                raise PlanError("the strips' plan: %s finds no way up the left of the channel at x %.1f"
                                % (net, c0))
            planner.lay(laid, 1, (last_x, row), (x, row), "the row")
            planner.lay(laid, 1, (x, row), (x, dy), "the rise")
            planner.lay(laid, 1, (x, dy), (dx, dy), "the way to the diode")
        if k < len(pads) - 1:
            # to the right: below the diode's pads, down the channel's right side
            found = None
            y = on_grid(rect[3] + reach, p)
            while found is None and y < row:
                x = on_grid(c1 - reach, p, up=False)
                while x > dx and found is None:
                    if (planner.free(net, 1, (dx, dy), (dx, y)) and planner.free(net, 1, (dx, y), (x, y))
                            and planner.free(net, 1, (x, y), (x, row))):
                        found = (x, y)
                    x -= p
                y += p
            if found is None:
                raise PlanError("the strips' plan: %s finds no way down the right of the channel at x %.1f"
                                % (net, c1))
            x, y = found
            planner.lay(laid, 1, (dx, dy), (dx, y), "the way past the diode")
            planner.lay(laid, 1, (dx, y), (x, y), "the way past the diode")
            planner.lay(laid, 1, (x, y), (x, row), "the descent")
            last_x = x
    return laid


def lay_pairs(planner, pairs, layer_rows, east, hole_gap, log=None):
    """The feed pairs: pairs [[(net, [(key, rect)]), (net, [(key, rect)])]]
    (a coil's two switch-side nets and their capacitors' pads, top layer);
    layer_rows: {layer: [row y from the coils outwards]} still free. Each
    pair on the next two free rows of the layers in turn, the pair starting
    furthest right first. Returns (laid, pairs left to the router)."""
    g = planner.grid
    laid_all, left = [], []
    used = {layer: 0 for layer in layer_rows}
    layers = sorted(layer_rows)
    turn = 0

    def start(side):
        return min(r[0] for _k, r in side[1])
    for pair in sorted(pairs, key=lambda pr: (-max(start(s) for s in pr), pr[0][0])):
        choice = [layers[(turn + j) % len(layers)] for j in range(len(layers))]
        choice = [l for l in choice if used[l] + 2 <= len(layer_rows[l])]
        if not choice or max(start(s) for s in pair) >= east:
            left.append(pair)
            continue
        layer = choice[0]
        turn += 1
        # the side whose capacitors start further right takes the upper row
        for side in sorted(pair, key=lambda s: (-start(s), s[0])):
            net, pads = side
            row = layer_rows[layer][used[layer]]
            used[layer] += 1
            laid = Laid(net)
            for key, rect in sorted(pads, key=lambda kr: (kr[1], kr[0])):
                x, y = _centre(rect)
                x = round(x, 6)
                laid.pads.append(key)
                if layer == 0:
                    planner.lay(laid, 0, (x, y), (x, row), "a drop")
                else:
                    vy = on_grid(rect[3] + g.clearance + g.via_radius, g.pitch)
                    planner.lay(laid, 0, (x, y), (x, vy), "a drop")
                    planner.via(laid, (x, vy), hole_gap, "a drop")
                    planner.lay(laid, 1, (x, vy), (x, row), "a drop")
            x0 = min(_centre(r)[0] for _k, r in pads)
            planner.lay(laid, layer, (round(x0, 6), row), (east, row), "the row")
            laid_all.append(laid)
    if log and left:
        log("feed pairs left to the router: %s" % ", ".join("/".join(s[0] for s in pr) for pr in left))
    return laid_all, left


class Column:
    """A reed column line's ends: its reed's pad and the connector's pad it
    reaches, (key, rect) each; gap: for a pad in the connector's row away
    from the approach, (x, y) of the way in past the near row: up the gap
    beside its neighbour to y, then across to the pad."""
    __slots__ = ("net", "reed", "pin", "gap")

    def __init__(self, net, reed, pin, gap=None):
        self.net, self.reed, self.pin, self.gap = net, reed, pin, gap


def lay_columns(planner, columns, layer_rows, turn, bundle, east, back):
    """The reed column lines on the bottom layer, from each reed along the
    strip above the coils to a connector at the board's east end (a Column
    each), in four pieces:

    * along the strip, a row each (layer_rows: its rows from the board's
      edge inwards), the line whose reed is furthest left nearest the edge:
      its drop to the reed's pad crosses only rows that begin further right.
      A drop that would meet other copper (the mounting hole by the first
      reed) moves to the nearest free x and reaches the pad along its height;
    * from x turn on, a bundle along the edge (bundle: one y per line, a
      track and its clearance apart, finer than the rule grid: the lanes
      that pass between the edge and the connector's pads), each line
      turning into it half a millimetre right of the one above;
    * past the connector's end, down (x east for the outermost line, each
      next one half a millimetre further in) and back west below the
      connector (back: one y per line, the innermost line's first): the
      U-turn reverses the order, so the line of the leftmost reed comes
      back furthest from the connector;
    * up to its pin: the line nearest the connector rises furthest east,
      each next one west of it, so no rise crosses a line still running.

    The bundle and the U-turn are checked by KiCad's DRC, not the grid.
    Returns the Laid."""
    g = planner.grid
    step = LANE_CELLS * g.pitch
    ordered = sorted(columns, key=lambda c: (_centre(c.reed[1])[0], c.net))
    n = len(ordered)
    if n > min(len(layer_rows), len(bundle), len(back)):
        raise PlanError("the strips' plan: %d column lines, room for %d"
                        % (n, min(len(layer_rows), len(bundle), len(back))))
    rises = [c.gap[0] if c.gap else _centre(c.pin[1])[0] for c in ordered]
    if any(b <= a for a, b in zip(rises, rises[1:])):
        raise PlanError("the strips' plan: the column lines reach the connector in the order %s, west to east; "
                        "the line of the leftmost reed must reach it furthest west"
                        % ", ".join(c.net for _x, c in sorted(zip(rises, ordered), key=lambda xc: xc[0])))
    out = []
    for k, (c, row, y, rise) in enumerate(zip(ordered, layer_rows, bundle, rises)):
        px, py = (round(v, 6) for v in _centre(c.reed[1]))
        laid = Laid(c.net)
        laid.pads += [c.reed[0], c.pin[0]]
        near = [px] + sorted((on_grid(px, g.pitch) + j * g.pitch for j in range(-12, 13)),
                             key=lambda v: (abs(v - px), v))
        x = next((v for v in near if planner.free(c.net, 1, (v, row), (v, py))
                  and planner.free(c.net, 1, (v, py), (px, py))), px)
        planner.lay(laid, 1, (x, row), (x, py), "a column's drop to its reed")
        if x != px:
            planner.lay(laid, 1, (x, py), (px, py), "a column's drop to its reed")
        xt = round(turn + k * step, 6)
        xu = round(east - k * step, 6)
        yb = back[n - 1 - k]
        planner.lay(laid, 1, (x, row), (xt, row), "a column's row")
        for a, b in (((xt, row), (xt, y)), ((xt, y), (xu, y)), ((xu, y), (xu, yb)), ((xu, yb), (rise, yb))):
            planner.lay(laid, 1, a, b, "a column's bundle", check=False)
        cx, cy = (round(v, 6) for v in _centre(c.pin[1]))
        way = [(rise, yb)] + ([c.gap, (cx, c.gap[1])] if c.gap else []) + [(cx, cy)]
        for a, b in zip(way, way[1:]):
            planner.lay(laid, 1, a, b, "a column's rise to the connector", check=False)
        out.append(laid)
    return out
