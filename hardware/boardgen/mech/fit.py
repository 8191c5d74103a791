"""The fit checks: the mechanical parts against the boards as laid out (the
generated .kicad_pcb files) and against the figures the physics uses.

Each check is a Check(name, value, limit, ok, note). The heights that
matter to the physics (the tag over each coil, the magnet over each
sensor) are measured on the solids parts.py makes, placed as assembly.py
places them, and compared with figures.py's stack-up: one set of
dimensions, two computations that must agree.
"""
import math
from collections import namedtuple

from .. import dims as d
from ..figures import reed_depth, sensor_depth
from . import layout as lay

Check = namedtuple("Check", "name value limit ok note")
TOL_MM = 0.01


def _eq(name, value, target, note, tol=TOL_MM):
    return Check(name, "%.2f mm" % value, "%.2f mm (+-%g)" % (target, tol), abs(value - target) <= tol, note)


def _le(name, value, limit, note):
    return Check(name, "%.2f mm" % value, "<= %.2f mm" % limit, value <= limit + 1e-9, note)


def tag_and_magnet(layout, measured):
    """The heights the physics assumes, against the solids: measured =
    {"recess": the tile's recess depth, "panel": the panel's thickness,
    "floor": the piece's floor under its magnet pocket}, from parts.py's
    solids (assembly.measure)."""
    z = layout.z
    checks = []
    tag = layout.panel_bottom + measured["panel"] + measured["recess"] - d.TAG_MM / 2
    coil_z = 0.0                        # the coil is the top copper (its footprint is on F.Cu)
    checks.append(_eq("tag over each coil", tag - coil_z, z["tag"] - z["coil"],
                      "the tile's recess and the panel as built, against figures.stack(): the field at the "
                      "tag is computed there"))
    magnet_bottom = layout.panel_bottom + measured["panel"] + d.TILE_MM + measured["floor"]
    for ref, fp, side, _x, _y, sensing in layout.sensors():
        got = magnet_bottom - layout.sensor_z(side, sensing)
        reed = "Reed" in fp                 # a board laid out before the Hall sensor replaced it
        want = (reed_depth() if reed else sensor_depth()) * 1000
        checks.append(_eq("magnet over sensor %s" % ref, got, want,
                          "%s on the %s side: the piece's pocket as built, against the distance the "
                          "physics computes the field at (figures.%s)" % (fp.split(":")[-1], "bottom" if side == "B"
                                                                           else "top", "reed_depth" if reed
                                                                           else "sensor_depth")))
    return checks


def heights(layout, measured):
    """Every part under the panel, the beam and the lid clears them (the
    beam's and the roof's undersides measured on their solids); every part
    and lead under the boards clears the base plate."""
    checks = []
    px0, _py0, px1, _py1 = layout.panel_box()
    under = [(h, ref) for ref, _fp, side, box, h, _b in layout.parts("rank")
             if side == "F" and box[0] < px1 and box[2] > px0]
    h, ref = max(under)
    checks.append(_le("tallest part under the panel (%s)" % ref, h + lay.PART_CLEARANCE_MM, layout.panel_bottom,
                      "its height from heights.py, %.1f mm clearance; the physics' stack-up assumes the LED "
                      "(dims.LED_HEIGHT_MM) is the tallest" % lay.PART_CLEARANCE_MM))
    checks.append(_le("no part taller than the LED under the panel", h, d.LED_HEIGHT_MM,
                      "figures.stack() puts the panel dims.GAP_MM over the LED"))
    bx0, _by0, bx1, _by1 = layout.beam_box()
    b_under = max([hh for _r, _f, side, box, hh, _b in layout.parts("rank") if side == "F"
                   and box[0] < bx1 and box[2] > bx0] + [0.0])
    checks.append(_le("tallest part under the beam, to the beam", b_under + lay.PART_CLEARANCE_MM,
                      measured["beam"], "the beam's underside over the boards, on its solid"))
    for board in ("rank", "controller"):
        parts = layout.parts(board)
        top = max(hh + (lay.RIBBON_SOCKET_MM if "IDC-Header" in fp else 0.0)
                  for _r, fp, side, _box, hh, _b in parts if side == "F")
        checks.append(_le("tallest part on the %s board (a box header with its ribbon's socket) to the "
                          "bay's roof" % board, top + lay.PART_CLEARANCE_MM, measured["roof"],
                          "the lid's roof underside, on its solid"))
        low = max(hh if side == "B" else below for _r, _f, side, _box, hh, below in parts)
        checks.append(_le("deepest part or lead under the %s board" % board, low + lay.PART_CLEARANCE_MM,
                          layout.standoff, "the standoffs (%g mm, the shortest sold that clears it)"
                          % layout.standoff))
    return checks


def holes(layout, plate_holes):
    """Every board's mounting hole has its standoff's hole in the base plate
    (plate_holes: [(x, y, diameter)] measured on the plate's solid), a
    standoff's M2.5 thread passes it, and a screw head or standoff near a
    coil is specified nylon."""
    checks = []
    for board, x, y, drill in layout.holes():
        near = min((math.hypot(x - px, y - py), pd) for px, py, pd in plate_holes)
        checks.append(Check("standoff under %s's hole at (%.1f, %.1f)" % (board, x, y), "%.3f mm" % near[0],
                            "<= %g mm" % TOL_MM, near[0] <= TOL_MM and drill >= 2.5,
                            "the base plate's hole %.1f mm, the board's %.1f mm (M2.5)" % (near[1], drill)))
    return checks


def screws(layout):
    """[(board, x, y, distance from the head to the nearest coil, metal
    allowed)] of every mounting screw: a head within METAL_KEEPAWAY_MM of a
    coil's copper is nylon (the review's m13: the cell end's screws beside
    coil a)."""
    out = []
    coils = []
    for r in range(lay.RANKS):
        coils += [(x - h, y - h, x + h, y + h) for _ref, x, y, h in layout.coils(r)]
    for board, x, y, _drill in layout.holes():
        gap = min(lay.distance_to_box(x, y, c) for c in coils) - lay.SCREW_HEAD_DIA_MM / 2
        out.append((board, x, y, gap, gap >= lay.METAL_KEEPAWAY_MM))
    return out


def grid(layout, led_windows):
    """The boards' cells lie on the tiles' grid, and every LED lies in its
    tile's window whichever way the tile is turned (led_windows(dx, dy):
    whether the tile's window covers an LED at (dx, dy) from its centre, in
    all four turns)."""
    checks = []
    worst = 0.0
    for r in range(lay.RANKS):
        for f, (_ref, x, y, _h) in enumerate(layout.coils(r)):
            c = layout.cell(r, f)
            worst = max(worst, math.hypot(x - c.x, y - c.y))
    checks.append(_le("coil centre to its tile's centre, worst of 64", worst, 0.05,
                      "the rank boards at dims.CELL_PITCH_MM, the coils where the board puts them"))
    coils = layout.coils(0)
    bad = []
    for ref, x, y in layout.leds(0):
        f = min(range(len(coils)), key=lambda i: abs(coils[i][1] - x))
        c = layout.cell(0, f)
        if not led_windows(x - c.x, y - c.y):
            bad.append(ref)
    checks.append(Check("LEDs in their tile's window, all four turns", "%d of %d" % (
        len(layout.leds(0)) - len(bad), len(layout.leds(0))), "all", not bad, " ".join(bad) or
        "the window is a slot through the tile's edge over the LED, repeated at each quarter turn"))
    return checks


def reach(layout, lid_openings):
    """The USB-C, the Pico's micro-USB, the buttons and the buzzer reach the
    outside: lid_openings = {"usb_c": (x0, x1, z0, z1) of the front wall's
    opening, "buttons": [(x, y)] of the lid's holes, "grille": [(x, y)]}."""
    checks = []
    usb = layout.usb_c()
    front_inner = layout.case_box()[1] + lay.WALL_MM
    checks.append(_le("USB-C receptacle's front to the wall's inside", abs(usb[1] - front_inner), 1.0,
                      "the plug's overmould meets the wall's opening, not the board"))
    x0, x1, _z0, _z1 = lid_openings["usb_c"]
    checks.append(Check("USB-C opening over the receptacle", "%.1f mm each side" % min(usb[0] - x0, x1 - usb[0]),
                        ">= 4.5 mm", min(usb[0] - x0, x1 - usb[0]) >= 4.5, "the receptacle is 8.94 mm wide"))
    for ref, x, y, _h in layout.buttons():
        gap = min(math.hypot(x - bx, y - by) for bx, by in lid_openings["buttons"])
        checks.append(_le("cap hole over button %s" % ref, gap, 0.1, "the cap presses the plunger's middle"))
    bz = layout.buzzer()
    n = sum(1 for gx, gy in lid_openings["grille"] if math.hypot(gx - bz[0], gy - bz[1]) <= 4.0)
    checks.append(Check("sound holes over the buzzer", "%d" % n, ">= 5", n >= 5, "its port is heard"))
    return checks


def report(checks, screws_table, layout):
    """Markdown: every check, then the screws."""
    lines = ["# Fit checks (generated by `make mech`; do not edit)", "",
             "The mechanical parts (hardware/boardgen/mech) against the generated boards and the physics' "
             "stack-up; tests/test_mech.py holds every line.", "",
             "| check | value | limit | ok | how |", "|---|---:|---:|---|---|"]
    for c in checks:
        lines.append("| %s | %s | %s | %s | %s |" % (c.name, c.value, c.limit, "yes" if c.ok else "**NO**", c.note))
    lines += ["", "## Screws and standoffs (M2.5; a head's gap to the nearest coil's copper)", "",
              "| board | hole (x, y) | gap to a coil | material |", "|---|---|---:|---|"]
    for board, x, y, gap, metal in screws_table:
        lines.append("| %s | %.1f, %.1f | %.1f mm | %s |" % (board, x, y, gap,
                                                         "steel or brass" if metal else "**nylon**"))
    lines += ["", "Standoffs: %g mm (the shortest sold that clears every part and lead under the boards), "
              "base plate %g mm, the boards' top %.1f mm over the plate."
              % (layout.standoff, lay.BASE_MM, -layout.base_top), ""]
    return "\n".join(lines)
