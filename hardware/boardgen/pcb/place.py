"""Where every part of the rank board goes: its cells, channels and
electronics end (the controller's placement is controller_place.py).

Placement works on roles read from the netlist (footprints and nets), not on
reference numbers, so a regenerated schematic places the same way:

* a cell is a coil, the reed under it and an LED beside it, the n-th of each
  in reference order (cell c = rank * 8 + file, file = index on the board);
* a part whose signal net touches exactly one cell's parts belongs to that
  cell (the coil's series capacitors, in the channel right of the coil; the
  reed's diode); the decoupling
  capacitor of an LED is the n-th capacitor wired only to the LED's supply;
* every other part is packed into the free rectangles between the coils
  (the channels), the biggest first, each as near the board's middle as it
  fits, so the reader and its switches sit centred and no coil feed is longer
  than half the board.

A placement is {ref: Place}; positions in mm on the board, rotation in
degrees, side "F" or "B".
"""
import re

import numpy as np

import dims
from footprints import coil_keepout

POWER = re.compile(r"^(GND|AGND|PGND|[+-]\d+V\d*.*|VBUS.*|VSYS|VCC|VDD.*)$")
PART_GAP_MM = 0.8         # between courtyards of packed parts
ROUTE_ROOM_MM = 1.6       # and room around each for its pins' escapes
SIDE_COLUMN_MM = 48.0     # the rank board's electronics end, beside its connectors
RANK_ROUTE_ROOM_MM = 2.4  # room around each part there for its pins' escapes
EDGE_MM = 0.6             # courtyard to board edge
PLACE_GRID_MM = 0.25      # a footprint's origin: on the router's grid
CAP_ROOM_MM = 1.5         # a coil's capacitors to its keep-out: room for its pad's track
CAP_GAP_MM = 0.4          # between those capacitors' courtyards (they share their nets two by two)
COIL_ROT = 90             # the coil's pads (below it as drawn) in the channel on its right
LED_ROT = 90              # DIN and GND towards the strip above, VDD and DOUT below: see rank_layout
LED_SIZE_MM = 5.0         # the WS2812B's body
LED_DROP_MM = 4.6         # the LED's centre below the strip above the coils
SWITCH_STACK_MM = 9.0     # side A's switch this far above side B's point: see layout.md, The electronics end
POUR_CUT_MM = 0.5         # a slot in the pour across the strip below each coil: see rank_layout
RANK_GAP_MM = 0.2         # between rank boards side by side at the cell pitch
FANIN_TOP_MM = 22.0       # the feeds' way from the strip below up to the switches: no part
FANIN_EAST_MM = 304.0     # below this y, from the column's start to this x (layout.md, The electronics end)


class Place:
    __slots__ = ("x", "y", "rot", "side")

    def __init__(self, x, y, rot=0, side="F"):
        self.x, self.y, self.rot, self.side = x, y, rot, side


class Layout:
    """A board's outline (x0, y0, x1, y1), placements, keep-out squares
    [(x0, y0, x1, y1)] (both layers; only the coil's copper inside),
    mounting holes [(x, y)] and cuts [(x0, y0, x1, y1)]: rectangles where
    the pour's net may have no copper (both layers; other nets' tracks may
    cross), and pull-backs: where the pour may not go but any track may."""

    def __init__(self, outline, places, keepouts, holes, cells, cuts=(), pullbacks=()):
        self.outline, self.places, self.keepouts, self.holes = outline, places, keepouts, holes
        self.cells = cells     # [(coil ref, x, y)] in cell order
        self.cuts = list(cuts)
        self.pullbacks = list(pullbacks)   # squares round the coils with no pour (any track may cross)


def board_height():
    """The rank board's height (mm): the cell pitch less the gap between boards."""
    return dims.CELL_PITCH_MM - RANK_GAP_MM


def pour_gap():
    """The GND pour's gap to a coil's outer turn (mm): dims.COIL_POUR_GAP_MM,
    never less than the coil's keep-out leaves."""
    return max(dims.COIL_POUR_GAP_MM, coil_keepout() - dims.COIL_OUTER_MM / 2)


def pour_free(cx, cy, gap):
    """The square round the coil at (cx, cy) the pour leaves free at this gap."""
    half = dims.COIL_OUTER_MM / 2 + gap
    return (cx - half, cy - half, cx + half, cy + half)


def pour_cut(cx, cy, edge):
    """The slot across the strip below the coil at (cx, cy), from its keep-out
    to the board's edge at y = edge: the pour round a coil would be a shorted
    turn; the slot breaks every ring of it on either layer, and leaves the
    pour along the strip above whole."""
    half = coil_keepout()
    return (cx - half / 2 - POUR_CUT_MM / 2, cy + half, cx - half / 2 + POUR_CUT_MM / 2, edge)


def natural(ref):
    m = re.match(r"([A-Za-z_]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def is_power(net, nodes):
    return bool(POWER.match(net)) or len(nodes) > 12


def _role(part):
    fp = part.footprint
    if fp.startswith("vortex:Coil"):
        return "coil"
    if fp.startswith("vortex:Reed"):
        return "reed"
    if "WS2812" in fp:
        return "led"
    return "other"


def _rotated(size, rot):
    w, h = size
    return (h, w) if rot % 180 else (w, h)


class _Packer:
    """First fit of rectangles into free rectangles (slots), nearest the
    preferred point first; each slot keeps a row cursor (shelf packing)."""

    def __init__(self, slots, centre):
        self.slots = [list(s) + [s[0], s[1], 0.0] for s in slots]   # x0 y0 x1 y1 cx cy rowh
        self.centre = centre

    def put(self, w, h):
        order = sorted(range(len(self.slots)), key=lambda i: (
            abs((self.slots[i][0] + self.slots[i][2]) / 2 - self.centre[0])
            + abs((self.slots[i][1] + self.slots[i][3]) / 2 - self.centre[1]), i))
        for i in order:
            x0, y0, x1, y1, cx, cy, rowh = self.slots[i]
            for rot in (0, 90):
                ww, hh = (w, h) if rot == 0 else (h, w)
                px, py, ph = cx, cy, rowh
                if px + ww > x1 + 1e-9:            # next shelf
                    px, py, ph = x0, cy + rowh + PART_GAP_MM, 0.0
                if px + ww <= x1 + 1e-9 and py + hh <= y1 + 1e-9:
                    self.slots[i][4] = px + ww + PART_GAP_MM
                    self.slots[i][5] = py
                    self.slots[i][6] = max(ph, hh)
                    return px + ww / 2, py + hh / 2, rot
        return None


class _Spotter:
    """Each rectangle at the free spot (on the 0.25 mm grid, inside a slot,
    overlapping nothing placed before) nearest to its target point."""

    def __init__(self, slots):
        self.slots, self.placed = slots, []

    def put(self, w, h, target):
        best = None
        for rot in (0, 90):
            ww, hh = (w, h) if rot == 0 else (h, w)
            for x0, y0, x1, y1 in self.slots:
                xs = np.arange(np.ceil((x0 + ww / 2) * 4), np.floor((x1 - ww / 2) * 4) + 1) / 4
                ys = np.arange(np.ceil((y0 + hh / 2) * 4), np.floor((y1 - hh / 2) * 4) + 1) / 4
                if not len(xs) or not len(ys):
                    continue
                gx, gy = np.meshgrid(xs, ys)
                d = np.hypot(gx - target[0], gy - target[1]).ravel()
                order = np.lexsort((gx.ravel(), gy.ravel(), d))
                for i in order:
                    if best is not None and d[i] >= best[0]:
                        break
                    x, y = float(gx.ravel()[i]), float(gy.ravel()[i])
                    r = (x - ww / 2, y - hh / 2, x + ww / 2, y + hh / 2)
                    if all(r[2] <= q[0] or q[2] <= r[0] or r[3] <= q[1] or q[3] <= r[1] for q in self.placed):
                        best = (d[i], x, y, rot, r)
                        break
        if best is None:
            return None
        self.placed.append(best[4])
        return best[1], best[2], best[3]


def _centre_place(box, cx, cy, rot, side="F"):
    """The footprint origin that puts its courtyard's centre at (cx, cy).
    box: courtyard (x0, y0, x1, y1) relative to the origin at rotation 0."""
    x0, y0, x1, y1 = box
    ox, oy = (x0 + x1) / 2, (y0 + y1) / 2
    for _ in range(rot // 90 % 4):   # KiCad turns counter-clockwise, y down: (x, y) -> (y, -x)
        ox, oy = oy, -ox
    if side == "B":                  # flipped left to right after turning
        ox = -ox
    # on the router's grid: a QFN's 0.5 mm pads then sit on grid lines
    return Place(round((cx - ox) / PLACE_GRID_MM) * PLACE_GRID_MM,
                 round((cy - oy) / PLACE_GRID_MM) * PLACE_GRID_MM, rot, side)


def _satellites(netlist, owners):
    """{ref: owner ref} for two-net parts whose signal nets touch exactly one
    owner (a coil's series capacitors, the reed's diode)."""
    result = {}
    part_nets = {}
    for net, nodes in netlist.nets.items():
        if is_power(net, nodes):
            continue
        for ref, _pin in nodes:
            part_nets.setdefault(ref, set()).add(net)
    for ref in sorted(netlist.parts, key=natural):
        if ref in owners or len(part_nets.get(ref, ())) == 0:
            continue
        touched = set()
        for net in part_nets[ref]:
            touched |= {r for r, _p in netlist.nets[net] if r != ref}
        hits = touched & set(owners)
        if len(hits) == 1 and len(part_nets[ref]) <= 2:
            result[ref] = hits.pop()
    return result


def rank_layout(netlist, boxes):
    """The rank board: eight cells in a row, the rest in the channels."""
    parts = netlist.parts
    by_role = {}
    for ref in sorted(parts, key=natural):
        by_role.setdefault(_role(parts[ref]), []).append(ref)
    coils = by_role.get("coil", [])
    reeds = by_role.get("reed", [])
    leds = by_role.get("led", [])
    n = len(coils)
    if n == 0:
        raise ValueError("the rank board's netlist has no coil (vortex:Coil...)")
    pitch = dims.CELL_PITCH_MM
    height = board_height()
    connectors = [r for r in by_role.get("other", []) if r.startswith("J")]
    # the electronics end: the ribbon connectors along its top and bottom edges
    # (a 2 x 20 header is longer than the board is high), the reader between
    conn_len = max([0.0] + [max(_size(boxes[r])) for r in connectors])
    zone = conn_len + 2 * EDGE_MM + SIDE_COLUMN_MM
    cells_w = n * pitch
    width = cells_w + zone
    cy = height / 2
    half = coil_keepout()
    places, keepouts, cells, cuts, pullbacks = {}, [], [], [], []
    for i, ref in enumerate(coils):
        cx = pitch / 2 + i * pitch
        places[ref] = Place(cx, cy, COIL_ROT)
        keepouts.append((cx - half, cy - half, cx + half, cy + half))
        cells.append((ref, cx, cy))
        cuts.append(pour_cut(cx, cy, height))
        if pour_gap() > half - dims.COIL_OUTER_MM / 2:
            pullbacks.append(pour_free(cx, cy, pour_gap()))
    for i, ref in enumerate(reeds[:n]):
        places[ref] = Place(cells[i][1], cy, 0, "B")
    led_x = half + LED_SIZE_MM / 2            # the LED in the channel right of its coil, inside the cell
    led_y = cy - half + LED_DROP_MM
    for i, ref in enumerate(leds[:n]):
        places[ref] = _centre_place(boxes[ref], cells[i][1] + led_x, led_y, LED_ROT)
    # satellites: next to their owner
    owners = {r: i for i, r in enumerate(coils)}
    owners.update({r: i for i, r in enumerate(reeds[:n])})
    owners.update({r: i for i, r in enumerate(leds[:n])})
    sats = _satellites(netlist, owners)
    slots_used = {}
    caps_end = 0.0
    for ref, owner in sorted(sats.items(), key=lambda kv: natural(kv[0])):
        i = owners[owner]
        cx = cells[i][1]
        role = _role(parts[owner])
        k = slots_used.get((owner,), 0)
        slots_used[(owner,)] = k + 1
        w, h = _size(boxes[ref])
        if role == "coil":
            # in a row along the foot of the channel right of the coil, beside
            # its pads, upright: the coil's side on top, the switch's side at
            # the bottom, over the strip below that carries the feeds; side
            # A's pair (k 0, 1) nearest the coil's pad 1
            x = cx + half + CAP_ROOM_MM + h / 2 + k * (h + CAP_GAP_MM)
            places[ref] = _centre_place(boxes[ref], x, cy + half - EDGE_MM - w / 2, 90)
            caps_end = max(caps_end, x + h / 2)      # the last coil's: where the end's column starts
        elif role == "reed":     # bottom side, in the channel beside the reed's pad 2
            places[ref] = _centre_place(boxes[ref], cx + 17.5, cy + 5.0 + k * 2.5, 0, "B")
        else:                    # the LED's (the first one's input resistor): up left, in the strip
            places[ref] = _centre_place(boxes[ref], cx + led_x - 5.5 - k * 2.5, (cy - half) / 2, 0)
    # the LEDs' decoupling capacitors: the n-th capacitor wired only to power
    led_supply = {net for net, nodes in netlist.nets.items()
                  if is_power(net, nodes) and any(r in leds for r, _p in nodes)}
    power_caps = [r for r in by_role.get("other", []) if r.startswith("C") and r not in sats
                  and _area(boxes[r]) < 6.0
                  and {net for net, nodes in netlist.nets.items()
                       if any(x == r for x, _p in nodes)} <= led_supply]
    for i, ref in enumerate(power_caps[:len(leds)]):
        places[ref] = _centre_place(boxes[ref], cells[i][1] + led_x - 1.0, led_y + LED_SIZE_MM / 2 + 1.5, 0)
    band = [EDGE_MM, height - EDGE_MM]
    for k, ref in enumerate(connectors[:2]):
        w, h = _size(boxes[ref])
        rot = 90 if h > w else 0
        w, h = _rotated((w, h), rot)
        y = EDGE_MM + h / 2 if k == 0 else height - EDGE_MM - h / 2
        places[ref] = _centre_place(boxes[ref], width - EDGE_MM - conn_len / 2, y, rot)
        if k == 0:
            band[0] = EDGE_MM + h + PART_GAP_MM
        else:
            band[1] = height - EDGE_MM - h - PART_GAP_MM
    holes = [(3.0, 3.0), (3.0, height - 3.0), (width - 3.0, cy - 3.5), (width - 3.0, cy + 3.5)]
    column = (max(cells_w + 2.5, caps_end + PART_GAP_MM), EDGE_MM, width - conn_len - 2 * EDGE_MM, height - EDGE_MM)
    slots = [column, (column[2] + PART_GAP_MM, band[0], width - 6.5, band[1])]
    for i in range(n - 1):      # small parts may also go between the coils, below the reeds
        x0 = cells[i][1] + half + 0.6
        x1 = cells[i + 1][1] - half - 0.6
        slots.append((x0, cy + 1.8, x1, cy + half - 0.4))
    # the ICs in the electronics end, each at its point of the floor plan
    # (biggest first: the shift register by the connectors; the two switches
    # nearest the cells, side A's above side B's, which sits by the strip
    # below where the feeds arrive; the reader between; the small ones by
    # the connectors); each passive as near its IC as it fits, placed after
    # it; between the coils only what the end cannot hold
    cx0, cx1 = column[0], column[2]
    low = height - 8.0
    plan = [(cx1 - 6.0, 8.0), (dims.READER_X_MM, low - SWITCH_STACK_MM), (dims.READER_X_MM, low), ((cx0 + cx1) / 2, cy)]
    spotter = _Spotter(slots)
    if FANIN_EAST_MM > cx0:
        spotter.placed.append((cx0, FANIN_TOP_MM, FANIN_EAST_MM, height))
    at = {}
    rest = [r for r in by_role.get("other", []) if r not in places and r not in connectors]
    owner = _owners(netlist, rest, boxes)
    ics = [r for r in _clustered(netlist, rest, boxes) if owner[r] == r]
    for ref in _clustered(netlist, rest, boxes):
        w, h = _size(boxes[ref])
        if owner[ref] == ref:
            k = ics.index(ref)
            # a small IC (the crystal too) beside the placed IC it shares the most signals with
            near = max([(len(_signals(netlist, ref) & _signals(netlist, ic)), -j, ic)
                        for j, ic in enumerate(ics[:k])] or [(0, 0, None)])
            target = plan[k] if k < len(plan) else (at[near[2]] if near[0] else (cx1 - 4.0, cy))
        elif owner[ref] is not None:
            target = at[owner[ref]]
        else:
            target = ((cx0 + cx1) / 2, cy)
        spot = spotter.put(w + RANK_ROUTE_ROOM_MM, h + RANK_ROUTE_ROOM_MM, target)
        if spot is None:
            raise ValueError("no room on the rank board for %s (%.1f x %.1f mm)" % (ref, w, h))
        at[ref] = spot[:2]
        places[ref] = _centre_place(boxes[ref], spot[0], spot[1], spot[2])
    return Layout((0.0, 0.0, width, height), places, keepouts, holes, cells, cuts, pullbacks)


def _owners(netlist, refs, boxes):
    """{ref: its IC}: an IC (more than two pins) owns itself, a passive
    belongs to the IC it shares the most nets with (None: no IC)."""
    ics = sorted([r for r in refs if len(_pins(netlist, r)) > 2], key=lambda r: (-_area(boxes[r]), natural(r)))
    owner = {ic: ic for ic in ics}
    for ref in refs:
        if ref in ics:
            continue
        nets = _pins(netlist, ref)
        score = [(len(nets & _pins(netlist, ic)), -k) for k, ic in enumerate(ics)]
        best = max(score) if score else (0, 0)
        owner[ref] = ics[-best[1]] if best[0] > 0 else None
    return owner


def _clustered(netlist, refs, boxes):
    """The parts in packing order: each IC (biggest first) followed by the
    passives that share the most signal nets with it, so they land beside it."""
    owner = _owners(netlist, refs, boxes)
    ics = sorted([r for r, o in owner.items() if o == r], key=lambda r: (-_area(boxes[r]), natural(r)))
    order = []
    for ic in ics:
        order.append(ic)
        order += sorted([r for r, o in owner.items() if o == ic and r != ic],
                        key=lambda r: (-_area(boxes[r]), natural(r)))
    order += sorted([r for r, o in owner.items() if o is None], key=lambda r: (-_area(boxes[r]), natural(r)))
    return order


def _pins(netlist, ref):
    return {net for net, nodes in netlist.nets.items() if any(r == ref for r, _p in nodes)}


def _signals(netlist, ref):
    return {net for net in _pins(netlist, ref) if not is_power(net, netlist.nets[net])}


def _size(box):
    return (box[2] - box[0], box[3] - box[1])


def _area(box):
    w, h = _size(box)
    return w * h
