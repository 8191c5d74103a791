"""Where every part of the controller goes, placed by its connections.

* The Pico lies at the top edge, its micro-USB over the edge (flashing), pin 1
  top left; the ribbon header lies along the bottom edge under it, turned so
  the header pins wired to the Pico's pin-1 column come in the column's order
  (the column's upper pins reach the far end of the header's block: the
  traces run down under the Pico without crossing). Nothing is placed in the
  corridor between the two.
* The Pico's pull-downs, pull-ups and filter capacitors (two-pin parts from
  a Pico pin to power or GND) sit outside that pin's castellation.
* USB-C sits on the left edge, its mouth outwards, with a lane kept free of
  parts in front of its data pads (the D+/D- pairs cross there by vias).
* The board is 100 x 90 mm: inside the fabs' 100 x 100 mm offer
  (hardware/layout.md).
* Every other part, the one most connected to what is already placed first,
  goes where it adds the least wire: the growth of each net's bounding box
  plus the distance from each of its pins to the nearest placed pin of the
  same net, over every free position and the four rotations, keeping a
  routing margin around each part (more around a chip). A decoupling
  capacitor goes right after its chip, pulled to that chip's supply pin only.

Same netlist, same placement: the search is a fixed grid scan, ties go to the
first position scanned.
"""
import math

import numpy as np

from place import EDGE_MM, PLACE_GRID_MM, Layout, _centre_place, _rotated, _size, is_power, natural

STEP_MM = 0.5              # the scan's grid
CHIP_ROOM_MM = 1.6         # margin kept free around a chip (5 pins or more) for its escapes
PART_ROOM_MM = 0.6         # around any other part
PICO_SIDE_MM = 4.0         # beside the Pico's pads: its pull resistors and the escapes
HOLE_KEEP_MM = 3.4         # half side of the square a mounting hole keeps free
CORRIDOR_GROW_MM = 1.0     # the Pico-to-header corridor, wider than the pins it serves
SATELLITE_GAP_MM = 0.2     # the Pico's courtyard to a pull resistor's
USB_ROOM_MM = 2.5          # around the USB-C: its D+/D- pairs cross by vias at its pads
USB_LANE_MM = 10.0         # the lane in front of the USB-C's data pads: its length
USB_LANE_GROW_MM = 0.5     # and how far it reaches past the outer data pads
HEADER_ROOM_MM = 3.0       # around the ribbon header: lanes into its inner row
LEFT_STRIP_MM = 20.0       # left of the Pico: the USB-C and the power chain
NEAR_WEIGHT = 0.5          # pin-to-nearest-pin term against the bounding-box term
DECOUPLING_WEIGHT = 3.0    # a decoupling capacitor's pull to its part's supply pin


def _turn(v, rot):
    x, y = v
    for _ in range(rot // 90 % 4):     # KiCad: counter-clockwise on screen, y down
        x, y = y, -x
    return x, y


class _Board:
    """The placement so far: rectangles taken and the pins placed, per net."""

    def __init__(self, netlist, boxes, pads, outline):
        self.netlist, self.boxes, self.pads, self.outline = netlist, boxes, pads, outline
        self.places = {}
        self.taken = []                 # (x0, y0, x1, y1), margins included
        self.net_pins = {}              # net -> [(x, y)]
        self.pin_net = netlist.pin_nets()
        self.part_nets = {}
        for (ref, pin), net in self.pin_net.items():
            self.part_nets.setdefault(ref, set()).add(net)

    def pin_offsets(self, ref, rot):
        """{pin: [(dx, dy)]} from the courtyard's centre, turned by rot."""
        x0, y0, x1, y1 = self.boxes[ref]
        c = ((x0 + x1) / 2, (y0 + y1) / 2)
        return {pin: [_turn((x - c[0], y - c[1]), rot) for x, y in pts]
                for pin, pts in self.pads[ref].items()}

    def pin_xy(self, ref, pin):
        """Where a placed part's pin is (its first pad of that number)."""
        p = self.places[ref]
        x, y = self.pads[ref][pin][0]
        dx, dy = _turn((x, y), p.rot)
        if p.side == "B":
            dx = -dx
        return p.x + dx, p.y + dy

    def put(self, ref, cx, cy, rot, room):
        w, h = _rotated(_size(self.boxes[ref]), rot)
        self.places[ref] = _centre_place(self.boxes[ref], cx, cy, rot)
        self.taken.append((cx - w / 2 - room, cy - h / 2 - room, cx + w / 2 + room, cy + h / 2 + room))
        for pin in self.pads[ref]:
            net = self.pin_net.get((ref, pin))
            if net is not None:
                self.net_pins.setdefault(net, []).append(self.pin_xy(ref, pin))


def _room(pads, ref):
    return CHIP_ROOM_MM if len(pads[ref]) >= 5 else PART_ROOM_MM


def _decoupling(netlist, pads, chips):
    """{capacitor: (part, supply pin)}: each two-pin C between a supply and
    GND goes to a part of five pins or more on that supply (a chip, or a
    connector bringing the supply), the capacitors in reference order to the
    parts in reference order, one each round: so the schematic's numbering
    decides (C4, 220 uF, goes to the header's +5 V; C7, 10 uF, to the
    regulator U3; C10, 100 nF, to U5)."""
    pin_net = netlist.pin_nets()
    caps = {}
    for ref in sorted(netlist.parts, key=natural):
        nets = {pin_net.get((ref, p)) for p in pads[ref]}
        if ref.startswith("C") and len(pads[ref]) == 2 and "GND" in nets:
            supply = (nets - {"GND"}).pop() if len(nets) == 2 else None
            if supply and is_power(supply, netlist.nets[supply]):
                caps.setdefault(supply, []).append(ref)
    result = {}
    for supply, refs in caps.items():
        users = sorted({(r, p) for r, p in netlist.nets[supply] if r in chips},
                       key=lambda rp: (natural(rp[0]), rp[1]))
        by_chip = []
        for r, p in users:
            if r not in [c for c, _ in by_chip]:
                by_chip.append((r, p))
        for k, cap in enumerate(refs):
            if by_chip:
                result[cap] = by_chip[k % len(by_chip)]
    return result


def _best_spot(board, ref, room, nets_pins):
    """The cheapest free centre and rotation for ref, or None. nets_pins:
    {net: (weight, [(x, y)] placed pins it pulls to)}."""
    x0, y0, x1, y1 = board.outline
    best = None
    for rot in (0, 90, 180, 270):
        w, h = _rotated(_size(board.boxes[ref]), rot)
        lo_x, hi_x = x0 + EDGE_MM + w / 2, x1 - EDGE_MM - w / 2
        lo_y, hi_y = y0 + EDGE_MM + h / 2, y1 - EDGE_MM - h / 2
        if lo_x > hi_x or lo_y > hi_y:
            continue
        xs = np.arange(np.ceil(lo_x / STEP_MM) * STEP_MM, hi_x + 1e-9, STEP_MM)
        ys = np.arange(np.ceil(lo_y / STEP_MM) * STEP_MM, hi_y + 1e-9, STEP_MM)
        cx, cy = np.meshgrid(xs, ys)
        free = np.ones(cx.shape, bool)
        for tx0, ty0, tx1, ty1 in board.taken:
            free &= ~((cx + w / 2 + room > tx0) & (cx - w / 2 - room < tx1)
                      & (cy + h / 2 + room > ty0) & (cy - h / 2 - room < ty1))
        if not free.any():
            continue
        offs = board.pin_offsets(ref, rot)
        cost = np.zeros(cx.shape)
        for net, (weight, placed) in nets_pins.items():
            mine = [o for pin, pts in offs.items() if board.pin_net.get((ref, pin)) == net for o in pts[:1]]
            if not mine or not placed:
                continue
            px = np.array([p[0] for p in placed])
            py = np.array([p[1] for p in placed])
            ox = np.array([o[0] for o in mine])
            oy = np.array([o[1] for o in mine])
            old = px.max() - px.min() + py.max() - py.min()
            new = (np.maximum(px.max(), cx + ox.max()) - np.minimum(px.min(), cx + ox.min())
                   + np.maximum(py.max(), cy + oy.max()) - np.minimum(py.min(), cy + oy.min()))
            near = np.zeros(cx.shape)
            for dx, dy in zip(ox, oy):
                d = np.abs(cx[..., None] + dx - px) + np.abs(cy[..., None] + dy - py)
                near += d.min(axis=-1)
            cost += weight * (new - old + NEAR_WEIGHT * near)
        cost[~free] = np.inf
        k = int(np.argmin(cost))
        if np.isfinite(cost.flat[k]) and (best is None or cost.flat[k] < best[0] - 1e-9):
            best = (float(cost.flat[k]), float(cx.flat[k]), float(cy.flat[k]), rot)
    return best


def _header_turn(board, ribbon, pico):
    """The header's rotation (90: pin 1 at the left, 270: at the right) and
    the x of its origin that centres the header pins wired to the Pico under
    the Pico: the rotation whose order crosses fewer of those traces."""
    best = None
    shared = [(pin, p2) for (r, pin), net in sorted(board.pin_net.items()) if r == ribbon
              and not is_power(net, board.netlist.nets[net])
              for (r2, p2) in board.netlist.nets[net] if r2 == pico]
    if not shared:
        return 90, 0.0
    px = board.places[pico]
    for rot in (90, 270):
        xs = [_turn(board.pads[ribbon][pin][0], rot)[0] for pin, _ in shared]
        shift = px.x - sum(xs) / len(xs)
        # a Pico column's traces run down inside the Pico: the higher a pin,
        # the farther from its column its header pin must be
        cross = 0
        for i, (pin_a, pa) in enumerate(shared):
            for pin_b, pb in shared[i + 1:]:
                ax, ay = board.pin_xy(pico, pa)
                bx, by = board.pin_xy(pico, pb)
                if (ax < px.x) != (bx < px.x) or ay == by:
                    continue
                da = abs(_turn(board.pads[ribbon][pin_a][0], rot)[0] + shift - ax)
                db = abs(_turn(board.pads[ribbon][pin_b][0], rot)[0] + shift - bx)
                cross += (ay < by) != (da > db)
        if best is None or cross < best[0]:
            best = (cross, rot, shift)
    return best[1], best[2]


def layout(netlist, boxes, pads, edges=None, width=100.0, height=90.0):
    """The controller's Layout. boxes: {ref: courtyard (x0, y0, x1, y1)},
    pads: {ref: {pin: [(x, y)]}}, both relative to the footprint's origin,
    unturned; edges: {ref: y of the footprint's "PCB Edge" line or None}."""
    parts = netlist.parts
    refs = sorted(parts, key=natural)
    board = _Board(netlist, boxes, pads, (0.0, 0.0, width, height))
    holes = [(3.0, 3.0), (width - 3.0, 3.0), (3.0, height - 3.0), (width - 3.0, height - 3.0)]
    for hx, hy in holes:
        board.taken.append((hx - HOLE_KEEP_MM, hy - HOLE_KEEP_MM, hx + HOLE_KEEP_MM, hy + HOLE_KEEP_MM))
    usb = [r for r in refs if "USB" in parts[r].footprint][:1]
    picos = [r for r in refs if "Pico" in parts[r].footprint][:1]
    ribbon = [r for r in refs if r.startswith("J") and r not in usb][:1]
    if not (usb and picos and ribbon):
        raise ValueError("the controller's netlist lacks its USB-C, Pico or ribbon header")
    usb, pico, ribbon = usb[0], picos[0], ribbon[0]
    # the Pico: top edge, USB end out; the header's block of pins wired to
    # it centred under it; the strip left of the Pico for the USB-C and power
    pw, ph = _size(boxes[pico])
    board.places[pico] = _centre_place(boxes[pico], 0.0, 0.0, 0)   # a trial, to measure
    rot, shift = _header_turn(board, ribbon, pico)        # header origin x - Pico x
    board.places.clear()
    rw, rh = _rotated(_size(boxes[ribbon]), rot)
    corners = [_turn((bx, by), rot)[0] for bx in (boxes[ribbon][0], boxes[ribbon][2])
               for by in (boxes[ribbon][1], boxes[ribbon][3])]
    left, right = min(corners), max(corners)               # header courtyard, from its origin
    pico_x = LEFT_STRIP_MM + PICO_SIDE_MM + pw / 2
    pico_x = min(max(pico_x, EDGE_MM - left - shift), width - EDGE_MM - right - shift)
    board.put(pico, pico_x, EDGE_MM + ph / 2, 0, 0.0)
    x = board.places[pico].x
    board.taken[-1] = (x - pw / 2 - PICO_SIDE_MM, 0.0, x + pw / 2 + PICO_SIDE_MM, EDGE_MM + ph + 1.0)
    board.put(ribbon, x + shift + (left + right) / 2, height - EDGE_MM - rh / 2, rot, HEADER_ROOM_MM)
    # the corridor between them: the header pins wired to the Pico
    wired = [board.pin_xy(ribbon, pin) for (r, pin), net in board.pin_net.items() if r == ribbon
             and not is_power(net, netlist.nets[net]) and any(r2 == pico for r2, _p in netlist.nets[net])]
    board.taken.append((min(p[0] for p in wired) - CORRIDOR_GROW_MM, EDGE_MM + ph,
                        max(p[0] for p in wired) + CORRIDOR_GROW_MM, height - EDGE_MM - rh))
    # USB-C on the left edge, its mouth (the footprint's +y) outwards, level
    # with the Pico's USB test pads, its front where its drawing puts the
    # board's edge (GCT's USB4105 drawing: the shell's front face; the
    # courtyard reaches past it), else its courtyard inside the edge. Turned
    # 270 degrees the footprint's y runs to -x: the origin lies `edge` mm in
    # from the board's edge, rounded down to the placement grid so that the
    # front stands at most a grid step proud of the edge, never behind it.
    uw, uh = _rotated(_size(boxes[usb]), 270)
    tp = [board.pin_xy(pico, p) for p in pads[pico] if p.startswith("TP")]
    uy = max(tp[0][1], EDGE_MM + HOLE_KEEP_MM * 2 + uh / 2) if tp else height / 2
    edge = (edges or {}).get(usb)
    if edge is None:
        ux = EDGE_MM + uw / 2
    else:
        ux = math.floor(edge / PLACE_GRID_MM) * PLACE_GRID_MM - (boxes[usb][1] + boxes[usb][3]) / 2
    board.put(usb, ux, uy, 270, USB_ROOM_MM)
    # a lane in front of its data pads, kept free of parts: the D+/D- pairs
    # cross there by vias, the CC resistors go above and below it
    data = [board.pin_xy(usb, pin) for (r, pin), net in board.pin_net.items() if r == usb
            and any(r2 == pico for r2, _p in netlist.nets[net])]
    if data:
        front = ux + uw / 2
        board.taken.append((front, min(p[1] for p in data) - USB_LANE_GROW_MM,
                            front + USB_LANE_MM, max(p[1] for p in data) + USB_LANE_GROW_MM))
    # the Pico's pull resistors and filter capacitors, outside their pin
    _pico_satellites(board, pico)
    # the rest, by connection
    chips = {r for r in refs if len(pads[r]) >= 5}
    decoupling = _decoupling(netlist, pads, chips)
    todo = [r for r in refs if r not in board.places]
    while todo:
        ref = _next(board, todo, decoupling)
        todo.remove(ref)
        if ref in decoupling:
            chip, pin = decoupling[ref]
            net = board.pin_net[(chip, pin)]
            pull = {net: (DECOUPLING_WEIGHT, [board.pin_xy(chip, p) for p in pads[chip]
                                              if board.pin_net.get((chip, p)) == net])}
        else:
            pull = {}
            for net in board.part_nets.get(ref, ()):
                if net == "GND":
                    continue
                pull[net] = (_weight(netlist, net), board.net_pins.get(net, []))
        room = _room(pads, ref)
        spot = _best_spot(board, ref, room, pull)
        if spot is None:
            spot = _best_spot(board, ref, PART_ROOM_MM / 2, pull)
        if spot is None:
            raise ValueError("no room on the controller board for %s" % ref)
        board.put(ref, spot[1], spot[2], spot[3], room)
    return Layout(board.outline, board.places, [], holes, [])


def _weight(netlist, net):
    """A net of n pins pulls each with 1 / (n - 1): a point-to-point signal
    fully, a supply with many pins little (the clique model's weight)."""
    return 1.0 / max(1, len(netlist.nets[net]) - 1)


def _next(board, todo, decoupling):
    """The unplaced part most connected to the placed ones: a decoupling
    capacitor whose chip is placed, else the largest sum of the weights of
    the nets it shares with placed parts, then the most pins; the first by
    reference of equals."""
    def key(ref):
        if ref in decoupling and decoupling[ref][0] in board.places:
            return (-1, 0, 0, natural(ref))
        nets = [n for n in board.part_nets.get(ref, ()) if n != "GND" and board.net_pins.get(n)]
        return (0, -sum(_weight(board.netlist, n) for n in nets), -len(board.pads[ref]), natural(ref))
    return min(todo, key=key)


def _pico_satellites(board, pico):
    """Each two-pin part from a Pico pin's signal net to a supply or GND (a
    pull resistor, a filter capacitor): level with that pin, just outside the
    Pico's courtyard, its pads in line with the castellation."""
    netlist = board.netlist
    px = board.places[pico].x
    pw = _size(board.boxes[pico])[0]
    edge = {-1: px - pw / 2, 1: px + pw / 2}       # the Pico's courtyard sides (it lies unturned)
    for (ref, pin), net in sorted(board.pin_net.items(), key=lambda kv: (natural(kv[0][0]), kv[0][1])):
        if ref != pico or is_power(net, netlist.nets[net]):
            continue
        for other, opin in sorted(netlist.nets[net], key=lambda rp: natural(rp[0])):
            if other == pico or other in board.places or len(board.pads[other]) != 2:
                continue
            rest = [board.pin_net.get((other, p)) for p in board.pads[other] if p != opin]
            if not rest or rest[0] is None or not is_power(rest[0], netlist.nets[rest[0]]):
                continue
            x, y = board.pin_xy(pico, pin)
            out = -1 if x < px else 1
            # the turn that puts the pad wired to the Pico level with it, towards it
            turns = [rot for rot in (0, 180, 90, 270)
                     if abs(board.pin_offsets(other, rot)[opin][0][1]) < 1e-6
                     and board.pin_offsets(other, rot)[opin][0][0] * out < 0]
            if not turns:
                continue
            chosen = turns[0]
            w, _h = _rotated(_size(board.boxes[other]), chosen)
            cx = edge[out] + out * (SATELLITE_GAP_MM + w / 2)
            board.put(other, cx, y, chosen, 0.0)
