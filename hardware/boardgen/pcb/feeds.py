"""Each coil's feed measured on the routed rank board: the copper of its two
nets from the switch's pin to the coil's pads, and the inductance that adds.

The feeds of side A and side B run side by side as a pair along the strip
below the coils and part where they fan in to the two switches. Their loop
inductance is taken along the pair as a two-wire line of flat strips,
L' = (mu0 / pi) * acosh(D / d_eq) per unit length, D the spacing there and
d_eq = w / 2 for a strip of width w (a thin strip behaves as a round wire
of diameter w/2: F. W. Grover, "Inductance Calculations", 1946, chapter 3,
the geometric mean distance of a thin rectangle, 0.2235 (w + t) ~ w / 4 as a
radius). D is measured on the board every STEP_MM along each net's tracks:
the distance to the other net's nearest track. The feed's inductance is
L' integrated along one net, the mean of both ways round.
"""
import math

import pcbnew

import geom

MU0 = 4e-7 * math.pi
HEADER = "board,coil,feed_length_mm,feed_inductance_nH"
STEP_MM = 1.0      # the spacing sampled this often along a track (the rows lie 0.5 mm apart)


def _tracks(board, name):
    net = board.FindNet(name)
    code = net.GetNetCode() if net else -1
    return [t for t in board.GetTracks()
            if t.GetNetCode() == code and t.GetClass() == "PCB_TRACK"]


def _length(tracks):
    return sum(pcbnew.ToMM(t.GetLength()) for t in tracks)


def _segments(tracks):
    """[((x0, y0), (x1, y1))] of tracks, mm."""
    mm = pcbnew.ToMM
    return [((mm(t.GetStart().x), mm(t.GetStart().y)), (mm(t.GetEnd().x), mm(t.GetEnd().y))) for t in tracks]


def _along(sa, sb, width_mm):
    """L' integrated along segments sa, D to the nearest of sb (nH)."""
    total = 0.0
    for (ax, ay), (bx, by) in sa:
        length = math.hypot(bx - ax, by - ay)
        n = max(1, int(math.ceil(length / STEP_MM)))
        for k in range(n):
            f = (k + 0.5) / n
            p = (ax + f * (bx - ax), ay + f * (by - ay))
            spacing = min(geom.nearest(p, *seg)[0] for seg in sb)
            total += pair_inductance_nh(length / n, spacing, width_mm)
    return total


def loop_inductance_nh(sa, sb, width_mm):
    """The pair's loop inductance (nH): segments [((x0, y0), (x1, y1))] mm
    of its two nets, strips width_mm wide."""
    if not sa or not sb:
        return 0.0
    return (_along(sa, sb, width_mm) + _along(sb, sa, width_mm)) / 2


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
        length = (_length(sides[0]) + _length(sides[1])) / 2
        widths = [pcbnew.ToMM(t.GetWidth()) for t in sides[0] + sides[1]] or [0.2]
        lh = loop_inductance_nh(_segments(sides[0]), _segments(sides[1]), sum(widths) / len(widths))
        rows.append(("rank", index, round(length, 1), round(lh, 1)))
    return rows


def csv_text(rows):
    return HEADER + "\n" + "".join("%s,%s,%.1f,%.1f\n" % r for r in rows)
