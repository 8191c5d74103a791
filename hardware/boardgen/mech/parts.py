"""The board's mechanical parts as build123d solids: each a function of
dims.py and of the boards as layout.Layout reads them.

Printed (STL, and STEP for editing): the tiles, the pieces, the walls, the
beam that carries the panel's east edge over the boards, the electronics
bay's lid in two halves, the button caps. Laser-cut (DXF, and STEP): the
top panel (opal acrylic) and the base plate. Each part lies in its own
frame as it is printed or cut (on z = 0); assembly.py places them.
"""
from build123d import Align, Box, Cone, Cylinder, Part, Pos, RegularPolygon, Rot, Sphere, extrude

from .. import dims as d
from . import layout as lay

TERRAINS = ("Water", "Fire", "Earth", "Air")   # vortex.engine.defs.TERRAIN_NAMES[1:]
MIN = (Align.CENTER, Align.CENTER, Align.MIN)
CORNER = (Align.MIN, Align.MIN, Align.MIN)

TAG_RECESS_DIA_MM = d.TAG_DIA_MM + 0.5     # the sticker with room round it
MARK_DEPTH_MM = 0.6                        # a terrain's mark, pressed into the tile's top
MAGNET_FIT_MM = 0.1                        # the pocket's play round the magnet
PIECE_MARK_MM = 0.6                        # a side's ring grooves, deep
CAP_DIA_MM = 6.0                           # a button cap's stem, through a 6.6 mm hole
CAP_HOLE_MM = 6.6
GRILLE_HOLE_MM = 1.6                       # the buzzer's sound holes
USB_C_OPENING = (13.0, 7.2)                # a USB-C plug's overmould passes (Type-C spec: 12.35 x 6.5 mm max)
MICRO_USB_OPENING = (11.5, 9.0)            # a micro-B plug's overmould passes (micro-USB spec: 10.6 x 8.5 max)
WALL_SCREW_MM = 3.2                        # M3 through the base plate into the walls
WALL_SCREW_PILOT_MM = 2.5                  # M3 thread-forming screw's pilot in the print


# -- tiles -----------------------------------------------------------------------

def tile_windows(led_offset):
    """The LED's window in each of a tile's four turns (a tile may be laid
    turned): a slot from the LED's place out through the tile's edge, as
    wide as dims.TILE_WINDOW_MM."""
    dx, dy = led_offset
    r = d.TILE_WINDOW_MM / 2
    half = d.TILE_SIDE_MM / 2
    cut = Pos(dx, dy, 0) * Cylinder(r, 10)
    cut += Pos((dx + half + 1) / 2, dy, 0) * Box(half + 1 - dx, 2 * r, 10)
    out = cut
    for k in (1, 2, 3):
        out += Rot(0, 0, 90 * k) * cut
    return out


def _mark(terrain):
    """A terrain's mark, a shape anyone tells by eye or touch: Water three
    waves, Fire a triangle, Earth a square, Air a ring."""
    t = d.TILE_MM
    if terrain == "Water":
        return sum((Pos(0, y, t) * Box(12, 1.2, 2 * MARK_DEPTH_MM) for y in (-3, 0, 3)), Part())
    if terrain == "Fire":
        return Pos(0, 0, t - MARK_DEPTH_MM) * extrude(RegularPolygon(6, 3), 2 * MARK_DEPTH_MM)
    if terrain == "Earth":
        return Pos(0, 0, t) * Box(9, 9, 2 * MARK_DEPTH_MM)
    return Pos(0, 0, t) * (Cylinder(5, 2 * MARK_DEPTH_MM) - Cylinder(3.5, 2 * MARK_DEPTH_MM))


def tile(terrain, led_offset):
    """A 33 x 33 x 3 mm tile: the tag's recess under it (centred: over the
    coil), the LED's window in its four turns, its terrain's mark on top."""
    body = Box(d.TILE_SIDE_MM, d.TILE_SIDE_MM, d.TILE_MM, align=MIN)
    body -= Cylinder(TAG_RECESS_DIA_MM / 2, 2 * d.TAG_RECESS_MM)       # half of it below z = 0
    body -= tile_windows(led_offset)
    body -= _mark(terrain)
    return body


# -- pieces ------------------------------------------------------------------------

def piece(side, kind):
    """A piece standing on a tile: a 24 mm base, the magnet in a closed
    pocket PIECE_FLOOR_MM above its underside (the print pauses there and
    the magnet goes in, the same pole down on every piece), a Traveller's
    cone or a Heart's orb on top, and its side's ring grooves round the
    base (Light one, Dark two)."""
    r = d.PIECE_BASE_MM / 2
    base_h = d.PIECE_FLOOR_MM + d.MAGNET_THICK_MM + 2.0
    body = Cylinder(r, base_h, align=MIN)
    top = d.PIECE_HEIGHT_MM - base_h
    if kind == "Heart":
        body += Pos(0, 0, base_h) * Cylinder(r * 0.55, top - 7, align=MIN)
        body += Pos(0, 0, d.PIECE_HEIGHT_MM - 7) * Sphere(7)
    else:
        body += Pos(0, 0, base_h) * Cone(r * 0.7, r * 0.25, top, align=MIN)
    pocket = Cylinder(d.MAGNET_DIA_MM / 2 + MAGNET_FIT_MM, d.MAGNET_THICK_MM + MAGNET_FIT_MM, align=MIN)
    body -= Pos(0, 0, d.PIECE_FLOOR_MM) * pocket
    grooves = (base_h / 2,) if side == "Light" else (base_h / 2 - 1.2, base_h / 2 + 1.2)
    for z in grooves:
        body -= Pos(0, 0, z - 0.4) * (Cylinder(r + 1, 0.8, align=MIN) - Cylinder(r - PIECE_MARK_MM, 0.8, align=MIN))
    return body


# -- the top panel and the base plate ------------------------------------------------

def panel(layout):
    """The light-diffusing top panel (opal acrylic, laser-cut): the play
    area and a ledge all round."""
    x0, y0, x1, y1 = layout.panel_box()
    return Box(x1 - x0, y1 - y0, d.TOP_PANEL_MM, align=CORNER)


def base_screws(layout):
    """[(x, y)] of the M3 screws that hold the walls, the beam and the lid
    to the base plate, in the case's frame."""
    cx0, cy0, cx1, cy1 = layout.case_box()
    h = lay.WALL_MM / 2
    pts = []
    n = max(2, int((cx1 - cx0) // 100) + 1)
    for k in range(n):
        x = cx0 + 15 + k * (cx1 - cx0 - 30) / (n - 1)
        pts += [(x, cy0 + h), (x, cy1 - h)]
    m = max(2, int((cy1 - cy0) // 100) + 1)
    for k in range(1, m - 1):
        y = cy0 + k * (cy1 - cy0) / (m - 1)
        pts += [(cx0 + h, y), (cx1 - h, y)]
    return pts


def base_plate(layout):
    """The base plate (laser-cut): a standoff's screw hole under every
    board mounting hole, the walls' screws round the edge."""
    cx0, cy0, cx1, cy1 = layout.case_box()
    plate = Box(cx1 - cx0, cy1 - cy0, lay.BASE_MM, align=CORNER)
    for _board, x, y, drill in layout.holes():
        plate -= Pos(x - cx0, y - cy0, 0) * Cylinder(drill / 2, 10)
    for x, y in base_screws(layout):
        plate -= Pos(x - cx0, y - cy0, 0) * Cylinder(WALL_SCREW_MM / 2, 10)
    return plate


# -- the case's printed parts (in the case's frame, z = 0 on the base plate) ----------

def _screw_pilots(part, layout, z0):
    """Pilot holes for the base plate's screws where the part stands on it."""
    for x, y in base_screws(layout):
        part -= Pos(x, y, z0) * Cylinder(WALL_SCREW_PILOT_MM / 2, 16, align=MIN)
    return part


def walls(layout):
    """The front, back and west walls round the panel: from the base plate
    to RIM_MM over the panel, with a ledge under the panel's edge."""
    cx0, cy0, _cx1, cy1 = layout.case_box()
    px0, py0, px1, py1 = layout.panel_box()
    bx1 = layout.beam_box()[2]
    zb = 0.0
    z_panel = layout.panel_bottom - layout.base_top
    z_top = layout.panel_top + lay.RIM_MM - layout.base_top
    x0, x1 = layout.play[0], layout.play[2]
    ledge_in = 0.5          # the ledge stops short of the boards' edges (their outline: +-0.2 mm)
    out = {}
    # front and back: the corner to the bay
    for name, (ya, yb), (la, lb) in (
            ("wall-front", (cy0, py0), (py0, layout.play[1] - ledge_in)),
            ("wall-back", (py1, cy1), (layout.play[3] + ledge_in, py1))):
        w = Pos(cx0, ya, zb) * Box(bx1 - cx0, yb - ya, z_top, align=CORNER)
        w += Pos(cx0, la, zb) * Box(bx1 - cx0, lb - la, z_panel, align=CORNER)
        out[name] = w
    # west: between them
    w = Pos(cx0, py0, zb) * Box(px0 - cx0, py1 - py0, z_top, align=CORNER)
    w += Pos(px0, py0, zb) * Box(x0 - ledge_in - px0, py1 - py0, z_panel, align=CORNER)
    out["wall-west"] = w
    return {k: _screw_pilots(v, layout, zb) for k, v in out.items()}


def beam(layout):
    """The beam along the play area's east side: the panel's edge on its
    ledge, over the boards (its underside clear of their parts: fit.py), on
    a leg at each end down to the base plate, its web up to the bay's lid."""
    bx0, by0, bx1, by1 = layout.beam_box()
    under = layout.beam_underside - layout.base_top
    z_panel = layout.panel_bottom - layout.base_top
    z_lid = lay.BAY_HEIGHT_MM - layout.base_top
    web_x = layout.panel_box()[2]
    b = Pos(bx0, by0, under) * Box(bx1 - bx0, by1 - by0, z_panel - under, align=CORNER)
    b += Pos(web_x, by0, under) * Box(bx1 - web_x, by1 - by0, z_lid - under, align=CORNER)
    py0, py1 = layout.play[1], layout.play[3]
    for ya, yb in ((by0, py0 - 0.5), (py1 + 0.5, by1)):
        b += Pos(bx0, ya, 0) * Box(bx1 - bx0, yb - ya, z_lid, align=CORNER)
    return _screw_pilots(b, layout, 0.0)


def bay_lid(layout):
    """The electronics bay's lid: walls to the base plate on the front,
    back and east, its west edge on the beam; the USB-C opening in the front
    wall at the receptacle, the Pico's micro-USB opening in the east wall,
    holes for the button caps, the buzzer's grille."""
    x0, y0, x1, y1 = layout.bay_box()
    top = lay.BAY_HEIGHT_MM - layout.base_top
    roof = 2.5
    lid = Pos(x0, y0, 0) * Box(x1 - x0, y1 - y0, top, align=CORNER)
    lid -= Pos(x0, y0 + lay.WALL_MM, 0) * Box(x1 - x0 - lay.WALL_MM, y1 - y0 - 2 * lay.WALL_MM, top - roof,
                                              align=CORNER)
    board_top = -layout.base_top           # the boards' top in the lid's frame
    usb = layout.usb_c()
    if usb:
        x, _y, h = usb
        w, hh = USB_C_OPENING
        lid -= Pos(x, y0 + lay.WALL_MM / 2, board_top + h / 2) * Box(w, lay.WALL_MM * 2, hh)
    pico = layout.pico_usb()
    if pico:
        _x, y, h = pico
        w, hh = MICRO_USB_OPENING
        lid -= Pos(x1 - lay.WALL_MM / 2, y, board_top + h) * Box(lay.WALL_MM * 2, w, hh)
    for _ref, x, y, _h in layout.buttons():
        lid -= Pos(x, y, top - roof - 1) * Cylinder(CAP_HOLE_MM / 2, roof + 2, align=MIN)
    for x, y in layout.grille():
        lid -= Pos(x, y, top - roof - 1) * Cylinder(GRILLE_HOLE_MM / 2, roof + 2, align=MIN)
    return _screw_pilots(lid, layout, 0.0)


def button_cap(layout):
    """A cap from a button's plunger up through the lid: a stem, a collar
    under the roof so it cannot fall out."""
    gap = 0.3
    button_top = max(h for _r, _x, _y, h in layout.buttons())
    length = lay.BAY_HEIGHT_MM - button_top + 1.5 - gap
    cap = Cylinder(CAP_DIA_MM / 2, length, align=MIN)
    cap += Cylinder(CAP_HOLE_MM / 2 + 1.2, 1.2, align=MIN)
    return cap


PRINT_BED_MM = 250.0       # the common 250-256 mm printer bed


def split_long(name, part):
    """{name: part}, or its two halves when it is longer than a printer's
    bed: cut across its longer side in the middle (each half keeps its own
    screws into the base plate)."""
    bb = part.bounding_box()
    along_x = bb.size.X >= bb.size.Y
    if max(bb.size.X, bb.size.Y) <= PRINT_BED_MM:
        return {name: part}
    big = 2 * max(bb.size.X, bb.size.Y, bb.size.Z) + 10
    c = bb.center()
    shift = (big / 2, 0) if along_x else (0, big / 2)
    first = part & Pos(c.X - shift[0], c.Y - shift[1], c.Z) * Box(big, big, big)
    second = part & Pos(c.X + shift[0], c.Y + shift[1], c.Z) * Box(big, big, big)
    names = ("-west", "-east") if along_x else ("-south", "-north")
    return {name + names[0]: first, name + names[1]: second}
