"""Each coil's feed measured on the routed rank board: the copper of its two
nets from the switch's pin to the coil's pads, and the inductance that adds.

The feed of side A and side B run side by side as a pair; their loop
inductance is estimated per unit length as a two-wire line of flat strips,
L' = (mu0 / pi) * acosh(D / d_eq) with D the pair's centre spacing and
d_eq = w / 2 for a strip of width w (a thin strip behaves as a round wire
of diameter w/2: F. W. Grover, "Inductance Calculations", 1946, chapter 3,
the geometric mean distance of a thin rectangle, 0.2235 (w + t) ~ w / 4 as a
radius). D is measured on the board: the mean distance between the two
nets' tracks. The total is L' times the mean of the two nets' lengths.
"""
import math

import pcbnew

MU0 = 4e-7 * math.pi
HEADER = "board,coil,feed_length_mm,feed_inductance_nH"


def _tracks(board, name):
    net = board.FindNet(name)
    code = net.GetNetCode() if net else -1
    return [t for t in board.GetTracks()
            if t.GetNetCode() == code and t.GetClass() == "PCB_TRACK"]


def _length(tracks):
    return sum(pcbnew.ToMM(t.GetLength()) for t in tracks)


def _spacing(ta, tb):
    """Mean over A's track midpoints of the distance to B's nearest track (mm)."""
    if not ta or not tb:
        return None
    dists = []
    for t in ta:
        m = t.GetCenter()
        best = min(math.hypot(pcbnew.ToMM(m.x - u.GetCenter().x), pcbnew.ToMM(m.y - u.GetCenter().y))
                   for u in tb)
        dists.append((best, pcbnew.ToMM(t.GetLength())))
    total = sum(l for _d, l in dists)
    return sum(d * l for d, l in dists) / total if total else None


def pair_inductance_nh(length_mm, spacing_mm, width_mm):
    """Loop inductance of a pair of strips (nH): L' = mu0/pi acosh(D/d)."""
    d_eq = width_mm / 2
    ratio = max(spacing_mm / d_eq, 1.0001)
    return MU0 / math.pi * math.acosh(ratio) * length_mm * 1e-3 * 1e9


def coils(net):
    """The coil references of a netlist in cell order (natural order)."""
    import place
    return sorted((r for r, p in net.parts.items() if p.footprint.startswith("vortex:Coil")),
                  key=place.natural)


def measure(board, net):
    """[(board, coil, feed length mm, feed inductance nH)] per coil, coil =
    its file on the rank board (0-7, cell order), as physics reads it. A coil's feed nets are the nets of its pads 1 and 2, followed
    through series parts (two-pin parts) to the switch."""
    pin_nets = net.pin_nets()
    by_net = {}
    for (ref, pin), name in pin_nets.items():
        by_net.setdefault(name, []).append((ref, pin))
    rows = []
    for index, coil in enumerate(coils(net)):
        sides = []
        for pad in ("1", "2"):
            seen, names, frontier = {coil}, [], [pin_nets.get((coil, pad))]
            while frontier:
                name = frontier.pop()
                if name is None or name in names:
                    continue
                names.append(name)
                for ref, _pin in by_net[name]:
                    part = net.parts[ref]
                    pins = [p for (r, p) in pin_nets if r == ref]
                    if ref not in seen and len(pins) == 2 and part.footprint.startswith(
                            ("Capacitor", "Resistor", "Inductor")):
                        seen.add(ref)
                        frontier += [pin_nets[(ref, p)] for p in pins]
            sides.append([t for name in names for t in _tracks(board, name)])
        la, lb = _length(sides[0]), _length(sides[1])
        length = (la + lb) / 2
        spacing = _spacing(sides[0], sides[1]) or 1.0
        widths = [pcbnew.ToMM(t.GetWidth()) for t in sides[0] + sides[1]] or [0.2]
        lh = pair_inductance_nh(length, spacing, sum(widths) / len(widths))
        rows.append(("rank", index, round(length, 1), round(lh, 1)))
    return rows


def csv_text(rows):
    return HEADER + "\n" + "".join("%s,%s,%.1f,%.1f\n" % r for r in rows)
