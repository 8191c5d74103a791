"""The parts put together: what is measured on the solids for the fit
checks, and the drawings (each part, and the whole exploded) for the
README, projected by build123d with hidden lines removed.
"""
import math

from build123d import Axis, Box, Compound, Cylinder, ExportSVG, LineType, Pos, Vector

from .. import dims as d
from . import fit
from . import layout as lay
from . import parts


def led_offset(layout):
    """Where the LED sits from its cell's centre (rank 1, file a): the
    tiles' window is cut there."""
    coil = layout.coils(0)[0]
    _ref, x, y = min(layout.leds(0), key=lambda led: abs(led[1] - coil[1]))
    c = layout.cell(0, 0)
    return round(x - c.x, 3), round(y - c.y, 3)


def measure(layout, tile, panel, piece, beam=None, lid=None):
    """The heights the fit checks need, read off the solids: the tile's
    recess, the panel's thickness, the piece's floor under its magnet; the
    beam's underside over the boards and the lid roof's underside, in the
    stack-up's z (the case's parts stand on the base plate: z = 0 there)."""
    side = d.TILE_SIDE_MM
    envelope = Box(side, side, d.TILE_MM, align=parts.MIN)
    ring = Cylinder(d.TAG_DIA_MM / 2 - 1.0, d.TILE_MM / 2, align=parts.MIN)
    recess = (envelope - tile) & ring
    pocket = Cylinder(d.MAGNET_DIA_MM / 2, d.PIECE_HEIGHT_MM / 2, align=parts.MIN) - piece
    out = {"recess": recess.bounding_box().max.Z, "panel": panel.bounding_box().size.Z,
           "floor": pocket.bounding_box().min.Z}
    x0, y0, x1, y1 = layout.play
    span = Pos((x0 + x1) / 2, (y0 + y1) / 2, 0) * Box(2 * (x1 - x0), y1 - y0, 200, align=parts.MIN)
    if beam is not None:
        out["beam"] = (beam & span).bounding_box().min.Z + layout.base_top
    if lid is not None:
        bx0, by0, bx1, by1 = layout.bay_box()
        inside = Pos((bx0 + bx1) / 2, (by0 + by1) / 2, 0) * Box(bx1 - bx0 - 2 * lay.WALL_MM,
                                                                  by1 - by0 - 2 * lay.WALL_MM, 200, align=parts.MIN)
        out["roof"] = (lid & inside).bounding_box().min.Z + layout.base_top
    return out


def window_test(tile):
    """led_windows(dx, dy): True when an LED body (5 x 5 mm) at (dx, dy)
    from the tile's centre lies in a window at each of the tile's four
    turns (no material over it)."""
    half = 2.4
    pts = [(0, 0), (-half, -half), (-half, half), (half, -half), (half, half)]
    z = d.TILE_MM / 2

    def covered(dx, dy):
        for k in range(4):
            a = math.radians(90 * k)
            for px, py in pts:
                x, y = dx + px, dy + py
                rx, ry = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
                if tile.is_inside(Vector(rx, ry, z)):
                    return False
        return True
    return covered


def plate_holes(plate, layout):
    """[(x, y, diameter)] of the base plate's round holes, in the case."""
    cx0, cy0 = layout.case_box()[:2]
    out = []
    for e in plate.edges().filter_by(Axis.Z, reverse=True):
        if e.geom_type.name == "CIRCLE" and abs(e.center().Z - plate.bounding_box().max.Z) < 1e-6:
            c = e.arc_center
            out.append((c.X + cx0, c.Y + cy0, 2 * e.radius))
    return out


def lid_openings(lid, layout):
    """The bay lid's openings as built: the front wall's USB-C opening (x
    range, z range), the button holes and the grille's holes (centres)."""
    usb = layout.usb_c()
    y_wall = layout.case_box()[1] + lay.WALL_MM / 2
    z_axis = -layout.base_top + usb[2] / 2
    xs = [usb[0] + s * t / 10 for t in range(0, 120) for s in (-1, 1)]
    open_x = [x for x in xs if not lid.is_inside(Vector(x, y_wall, z_axis))]
    roof_z = lay.BAY_HEIGHT_MM - layout.base_top - 1.0
    holes = [(x, y) for _r, x, y, _h in layout.buttons() if not lid.is_inside(Vector(x, y, roof_z))]
    grille = [(x, y) for x, y in layout.grille() if not lid.is_inside(Vector(x, y, roof_z))]
    return {"usb_c": (min(open_x), max(open_x), 0, 0) if open_x else (usb[0], usb[0], 0, 0),
            "buttons": holes or [(1e9, 1e9)], "grille": grille}


def checks(layout, solids):
    """Every fit check, from the layout and the solids ({name: solid} of
    tile, panel, piece, plate, lid)."""
    m = measure(layout, solids["tile"], solids["panel"], solids["piece"], solids["beam"], solids["lid"])
    out = fit.tag_and_magnet(layout, m)
    out += fit.heights(layout, m)
    out += fit.holes(layout, plate_holes(solids["plate"], layout))
    out += fit.grid(layout, window_test(solids["tile"]))
    out += fit.reach(layout, lid_openings(solids["lid"], layout))
    return out


# -- drawings ------------------------------------------------------------------------

def _board_slab(layout, board, origin, turn=0):
    """A board as a slab with its tall parts as blocks: enough to see where
    things go in a drawing."""
    w, h = (layout.rank_w, layout.rank_h) if board == "rank" else (layout.ctrl_h, layout.ctrl_w)
    slab = Pos(origin[0], origin[1], -d.PCB_MM) * Box(w, h, d.PCB_MM, align=parts.CORNER)
    for _ref, _fp, side, box, height, _below in layout.parts(board):
        if side == "F" and height >= 1.5:
            x0, y0, x1, y1 = box
            if board == "rank":
                y0, y1 = y0 - layout.rank_box(0)[1] + origin[1], y1 - layout.rank_box(0)[1] + origin[1]
            slab += Pos(x0, y0, 0) * Box(max(x1 - x0, 0.5), max(y1 - y0, 0.5), height, align=parts.CORNER)
    return slab


def exploded(layout, solids):
    """The case, the boards, the panel, a few tiles and pieces, lifted apart."""
    base_z = layout.base_top
    cx0, cy0 = layout.case_box()[:2]
    shapes = [Pos(cx0, cy0, base_z - lay.BASE_MM - 60) * solids["plate"]]
    for r in range(lay.RANKS):
        shapes.append(Pos(0, 0, -30) * _board_slab(layout, "rank", (0, layout.rank_box(r)[1])))
    shapes.append(Pos(0, 0, -30) * _board_slab(layout, "controller", layout.controller_box()[:2]))
    for w in solids["walls"]:
        shapes.append(Pos(0, 0, base_z) * w)
    shapes.append(Pos(0, 0, base_z + 40) * solids["beam"])
    shapes.append(Pos(0, 0, base_z + 100) * solids["lid"])
    px0, py0 = layout.panel_box()[:2]
    shapes.append(Pos(px0, py0, layout.panel_bottom + 45) * solids["panel"])
    for k, name in enumerate(parts.TERRAINS):
        c = layout.cell(3 + k % 2, 2 + k)
        shapes.append(Pos(c.x, c.y, layout.panel_top + 85) * solids["tiles"][name])
    for k, key in enumerate(sorted(solids["pieces"])):
        c = layout.cell(2 + k % 2, 2 + k)
        shapes.append(Pos(c.x, c.y, layout.panel_top + 130) * solids["pieces"][key])
    return Compound(children=shapes)


def svg(shape, path, origin, up=(0, 0, 1), scale=None, width_mm=180.0):
    """A hidden-line-removed projection of shape, from origin towards its
    middle, written as SVG at about width_mm."""
    bb = shape.bounding_box()
    look = bb.center()
    visible, _hidden = shape.project_to_viewport(origin, viewport_up=up, look_at=look)
    size = max(Compound(children=visible).bounding_box().size.X, 1.0)
    exporter = ExportSVG(scale=scale or width_mm / size, line_weight=0.12)
    exporter.add_layer("visible", line_type=LineType.CONTINUOUS)
    exporter.add_shape(visible, layer="visible")
    exporter.write(path)
    return path


def parts_sheet(solids):
    """The printed and cut parts side by side, for one drawing."""
    row = [solids["tiles"][t] for t in parts.TERRAINS]
    row += [solids["pieces"][k] for k in sorted(solids["pieces"])]
    row += [solids["cap"]]
    shapes, x = [], 0.0
    for s in row:
        bb = s.bounding_box()
        shapes.append(Pos(x - bb.min.X, -bb.center().Y, -bb.min.Z) * s)
        x += bb.size.X + 8
    return Compound(children=shapes)

