"""Where everything sits in the case, read from the generated boards and
dims.py: the eight rank boards at the cell pitch, the controller beside
their electronics ends, their mounting holes, sensors, coils, LEDs,
buttons, buzzer and connectors, and the heights of the stack-up.

The case's frame: x along a rank board (file a to h, then its electronics
end), y across the ranks (rank 1 at the front, y = 0), z up from the rank
boards' top copper (figures.stack()'s z = 0). Millimetres.

No CAD here: the parts (parts.py) and the fit checks (fit.py) read this.
"""
import math
import os
from collections import namedtuple

from .. import dims as d
from ..figures import stack
from ..kicad_pcb import Board
from . import heights

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # hardware/
GENERATED = os.path.join(HERE, "generated")
RANKS = 8

# -- the case's own numbers (its construction, not the physics') -----------
BASE_MM = 3.0              # the laser-cut base plate (acrylic or plywood)
WALL_MM = 6.0              # the printed walls' thickness
LEDGE_MM = 6.0             # the top panel's edge resting on the walls' ledge
RIM_MM = 2.0               # the walls stand this far above the panel: the tiles stay on
CONTROLLER_GAP_MM = 4.0    # between the rank boards' ends and the controller
BEAM_MM = 12.0             # the beam carrying the panel's east edge over the boards, x width
BEAM_LEDGE_MM = LEDGE_MM   # of which under the panel
PART_CLEARANCE_MM = 0.3    # any part to what stands over it
STANDOFFS_MM = (5.0, 6.0, 8.0, 10.0, 12.0)   # M2.5 hex standoffs as sold (Wurth, Keystone: female-female)
SCREW_HEAD_DIA_MM = 5.0    # ISO 7045 M2.5 pan head: dk 5.0 mm, k 1.75 mm
SCREW_HEAD_MM = 1.75
METAL_KEEPAWAY_MM = 5.0    # a metal screw or standoff keeps this far from a coil's copper (else nylon):
                           # a conductor near the antenna detunes it (NXP AN11019, metal environment)
BAY_HEIGHT_MM = 24.0       # the electronics bay's lid over the boards' top: box headers 8.85 mm
                           # and the ribbons' IDC sockets on them, with room
RIBBON_SOCKET_MM = 9.0     # an IDC socket's height over its box header (3M 89140 drawing: 9.0 mm)
CELL_X0 = 0.0              # the cells' corner in the case


Place = namedtuple("Place", "x y")       # a point in the case's frame


class Layout:
    """The boards as placed in the case."""

    def __init__(self, generated=GENERATED):
        self.rank = Board.read(os.path.join(generated, "rank.kicad_pcb"))
        self.controller = Board.read(os.path.join(generated, "controller.kicad_pcb"))
        self.z = stack()
        w, h = self.rank.size
        self.rank_w, self.rank_h = w, h
        self.rank_margin = (d.CELL_PITCH_MM - h) / 2        # each board centred in its rank's row
        cw, ch = self.controller.size
        self.ctrl_w, self.ctrl_h = cw, ch
        # the controller beside the rank boards' ends, turned so its USB-C
        # edge (its left) faces the front and its ribbon header the ranks:
        # its x runs along the case's y, its y against the case's x
        self.ctrl_x0 = w + CONTROLLER_GAP_MM
        self.ctrl_y0 = -LEDGE_MM     # its USB-C edge at the front wall's inner face
        self.play = (CELL_X0, 0.0, CELL_X0 + 8 * d.CELL_PITCH_MM, RANKS * d.CELL_PITCH_MM)
        self.standoff = self._standoff()

    # -- from a board's page coordinates to the case -------------------------
    def on_rank(self, r, x, y):
        lx, ly = self.rank.local(x, y)
        return Place(CELL_X0 + lx, r * d.CELL_PITCH_MM + self.rank_margin + (self.rank_h - ly))

    def on_controller(self, x, y):
        lx, ly = self.controller.local(x, y)
        return Place(self.ctrl_x0 + (self.ctrl_h - ly), self.ctrl_y0 + lx)

    def controller_box(self):
        return (self.ctrl_x0, self.ctrl_y0, self.ctrl_x0 + self.ctrl_h, self.ctrl_y0 + self.ctrl_w)

    def rank_box(self, r):
        y0 = r * d.CELL_PITCH_MM + self.rank_margin
        return (CELL_X0, y0, CELL_X0 + self.rank_w, y0 + self.rank_h)

    # -- what the boards hold ---------------------------------------------------
    def holes(self):
        """[(board, x, y, drill)] of every mounting hole, in the case."""
        out = []
        for r in range(RANKS):
            out += [("rank %d" % (r + 1),) + self.on_rank(r, x, y) + (dia,) for x, y, dia in self.rank.holes()]
        out += [("controller",) + self.on_controller(x, y) + (dia,) for x, y, dia in self.controller.holes()]
        return out

    def coils(self, r=0):
        """[(ref, x, y, half side)] of rank r's coils (their footprint's copper square)."""
        out = []
        for fp in self.rank.footprints:
            if fp.name.endswith(":Coil_Square_24mm_5T") or fp.name == "Coil_Square_24mm_5T":
                p = self.on_rank(r, fp.x, fp.y)
                out.append((fp.ref, p.x, p.y, d.COIL_OUTER_MM / 2))
        return sorted(out, key=lambda c: c[1])

    def parts(self, board="rank"):
        """[(ref, footprint, side, (x0, y0, x1, y1) courtyard in the case,
        height, leads below)] of rank 1's (or the controller's) parts."""
        b = self.rank if board == "rank" else self.controller
        out = []
        for fp in b.footprints:
            if fp.courtyard is None:
                continue
            x0, y0, x1, y1 = fp.courtyard
            if board == "rank":
                a, c = self.on_rank(0, x0, y0), self.on_rank(0, x1, y1)
            else:
                a, c = self.on_controller(x0, y0), self.on_controller(x1, y1)
            box = (min(a.x, c.x), min(a.y, c.y), max(a.x, c.x), max(a.y, c.y))
            h, below, _src = heights.body(fp.name)
            out.append((fp.ref, fp.name, fp.side, box, h, below))
        return out

    def footprint(self, board, ref):
        b = self.rank if board == "rank" else self.controller
        return next(fp for fp in b.footprints if fp.ref == ref)

    def sensors(self, net_path=None):
        """[(ref, footprint, side, x, y, sensing height)] of rank 1's
        piece sensors: the part on each column line (BUS_COL_*) that is no
        connector, whatever kind it is."""
        from ..pcb import netlist
        net = netlist.read(net_path or os.path.join(GENERATED, "rank.net"))
        refs = sorted({ref for name, nodes in net.nets.items() if name.startswith("BUS_COL_")
                       for ref, _pin in nodes if not ref.startswith("J")})
        out = []
        for ref in refs:
            fp = self.footprint("rank", ref)
            if fp.name not in heights.SENSORS:
                raise heights.UnknownPart("no sensing height for %s (%s, on a column line): add it to "
                                          "hardware/boardgen/mech/heights.py SENSORS" % (fp.name, ref))
            p = self.on_rank(0, fp.x, fp.y)
            out.append((ref, fp.name, fp.side, p.x, p.y, heights.SENSORS[fp.name][0]))
        return out

    def sensor_z(self, side, sensing):
        """The sensing point's height in the stack-up: a part on the bottom
        hangs under the board."""
        return -d.PCB_MM - sensing if side == "B" else sensing

    def leds(self, r=0):
        return [(fp.ref,) + self.on_rank(r, fp.x, fp.y) for fp in self.rank.footprints
                if "WS2812B" in fp.name]

    # -- heights ------------------------------------------------------------------
    def _standoff(self):
        """The shortest standoff as sold that clears every part and lead
        under both boards."""
        need = 0.0
        for board in ("rank", "controller"):
            for _ref, _fp, side, _box, h, below in self.parts(board):
                need = max(need, h if side == "B" else below)
        need += PART_CLEARANCE_MM
        for length in STANDOFFS_MM:
            if length >= need:
                return length
        raise ValueError("no standoff as sold is %.1f mm long" % need)

    @property
    def base_top(self):
        return -d.PCB_MM - self.standoff

    @property
    def panel_bottom(self):
        return self.z["panel_bottom"]

    @property
    def panel_top(self):
        return self.z["panel_top"]

    def panel_box(self):
        x0, y0, x1, y1 = self.play
        return (x0 - LEDGE_MM, y0 - LEDGE_MM, x1 + LEDGE_MM, y1 + LEDGE_MM)

    def case_box(self):
        """The case's outline: the walls around the panel and the bay."""
        px0, py0, _px1, py1 = self.panel_box()
        cx1 = self.controller_box()[2]
        return (px0 - WALL_MM, py0 - WALL_MM, cx1 + WALL_MM, py1 + WALL_MM)

    def beam_box(self):
        _x0, _y0, x1, _y1 = self.panel_box()
        cx0, cy0, _cx1, cy1 = self.case_box()
        return (x1 - BEAM_LEDGE_MM, cy0 + WALL_MM, x1 - BEAM_LEDGE_MM + BEAM_MM, cy1 - WALL_MM)

    def bay_box(self):
        """The electronics bay's lid, over the rank ends and the controller."""
        _bx0, _by0, bx1, _by1 = self.beam_box()
        _cx0, cy0, cx1, cy1 = self.case_box()
        return (bx1, cy0, cx1, cy1)

    @property
    def beam_underside(self):
        """The beam's underside: clear of every part under it."""
        x0, _y0, x1, _y1 = self.beam_box()
        tallest = max([h for _r, _f, side, box, h, _b in self.parts("rank")
                       if side == "F" and box[0] < x1 and box[2] > x0] + [0.0])
        return tallest + PART_CLEARANCE_MM

    def _controller_parts(self, test):
        out = []
        for fp in self.controller.footprints:
            if test(fp.name) and fp.courtyard:
                x0, y0, x1, y1 = fp.courtyard
                a, c = self.on_controller(x0, y0), self.on_controller(x1, y1)
                out.append((fp, (min(a.x, c.x), min(a.y, c.y), max(a.x, c.x), max(a.y, c.y))))
        return out

    def usb_c(self):
        """(x, front y, body height) of the controller's USB-C receptacle:
        its body's front as its F.Fab drawing has it."""
        for fp, box in self._controller_parts(lambda n: "USB_C_Receptacle" in n):
            fx0, fy0, fx1, fy1 = fp.fab
            pts = [self.on_controller(x, y) for x, y in ((fx0, fy0), (fx1, fy1))]
            return (box[0] + box[2]) / 2, min(p.y for p in pts), heights.body(fp.name)[0]
        return None

    def pico_usb(self):
        """(east x, y, height of the plug's axis) of the Pico's micro-USB,
        over the controller's edge: the Pico (1 mm) lies flat, its
        receptacle's axis 1.3 mm over it (Raspberry Pi Pico data sheet)."""
        for fp, box in self._controller_parts(lambda n: "RaspberryPi_Pico" in n):
            return box[2], (box[1] + box[3]) / 2, 1.0 + 1.3
        return None

    def buttons(self):
        """[(ref, x, y, top height)] of the controller's push buttons."""
        return [(fp.ref, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, heights.body(fp.name)[0])
                for fp, b in self._controller_parts(lambda n: "SW_PUSH" in n)]

    def buzzer(self):
        for fp, box in self._controller_parts(lambda n: "Buzzer" in n):
            return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return None

    def grille(self, radius=3.0, pitch=2.5):
        """The buzzer's sound holes: a grid over its port."""
        bz = self.buzzer()
        if bz is None:
            return []
        n = int(radius // pitch)
        return [(bz[0] + i * pitch, bz[1] + j * pitch) for i in range(-n, n + 1) for j in range(-n, n + 1)
                if math.hypot(i * pitch, j * pitch) <= radius + 1e-9]

    def cell(self, rank, file):
        """A cell's centre in the case."""
        return Place(CELL_X0 + (file + 0.5) * d.CELL_PITCH_MM, (rank + 0.5) * d.CELL_PITCH_MM)


def distance_to_box(x, y, box):
    """From a point to a rectangle (0 inside), mm."""
    x0, y0, x1, y1 = box
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return math.hypot(dx, dy)


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
