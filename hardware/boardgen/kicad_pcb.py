"""A generated .kicad_pcb read without KiCad: what the parts list and the
mechanical parts need of a board (its outline, its mounting holes, where
each footprint sits, on which side, and its courtyard).

KiCad 6's file is one s-expression; only what is named here is read. The
boards are made by tools/pcb.py (hardware/boardgen/pcb), this reads what
it wrote, so the mechanics follow whatever parts and holes the board has.
Coordinates are KiCad's: millimetres, y downwards, from the page's origin;
`Board.local` gives them from the board's top-left corner.
"""
import math
import re
from collections import namedtuple

from .pcb.netlist import parse_sexpr

Pad = namedtuple("Pad", "number kind x y drill")
Footprint = namedtuple("Footprint", "ref name x y rot side attrs pads courtyard fab")


def _items(node, head):
    return [c for c in node if isinstance(c, list) and c and c[0] == head]


def _first(node, head):
    found = _items(node, head)
    return found[0] if found else None


def _xy(node):
    return float(node[1]), float(node[2])


def _turn(x, y, deg):
    """KiCad turns a footprint's points by -deg on the page (y down)."""
    a = math.radians(deg)
    return x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)


class Board:
    """One board file's outline, footprints and aux origin."""

    def __init__(self, text):
        tree = parse_sexpr(text)[0]
        self.edges = []
        for kind in ("gr_line", "gr_rect"):
            for g in _items(tree, kind):
                if _first(g, "layer")[1] == "Edge.Cuts":
                    self.edges += [_xy(_first(g, "start")), _xy(_first(g, "end"))]
        xs, ys = [p[0] for p in self.edges], [p[1] for p in self.edges]
        self.box = (min(xs), min(ys), max(xs), max(ys))
        setup = _first(tree, "setup")
        aux = _first(setup, "aux_axis_origin") if setup else None
        self.aux_origin = _xy(aux) if aux else (0.0, 0.0)
        self.footprints = [self._footprint(f) for f in _items(tree, "footprint")]

    @classmethod
    def read(cls, path):
        with open(path) as f:
            return cls(f.read())

    @property
    def size(self):
        """(width, height) of the outline's box, mm."""
        return self.box[2] - self.box[0], self.box[3] - self.box[1]

    def local(self, x, y):
        """A page point from the board's top-left corner, mm (y down)."""
        return x - self.box[0], y - self.box[1]

    def _footprint(self, f):
        at = _first(f, "at")
        x, y = float(at[1]), float(at[2])
        rot = float(at[3]) if len(at) > 3 else 0.0
        side = "B" if _first(f, "layer")[1].startswith("B.") else "F"
        attr = _first(f, "attr")
        ref = next((t[2] for t in _items(f, "fp_text") if t[1] == "reference"), "")
        pads = []
        for p in _items(f, "pad"):
            px, py = _xy(_first(p, "at"))
            dx, dy = _turn(px, py, rot)
            drill = _first(p, "drill")
            size = 0.0
            if drill:
                nums = [float(v) for v in drill[1:] if re.match(r"^[0-9.]+$", v)]
                size = min(nums) if nums else 0.0
            pads.append(Pad(p[1], p[2], x + dx, y + dy, size))
        return Footprint(ref, f[1], x, y, rot, side, tuple(attr[1:]) if attr else (), pads,
                         self._box(f, x, y, rot, "CrtYd"), self._box(f, x, y, rot, "Fab"))

    @staticmethod
    def _box(f, x, y, rot, layer):
        """The box of a footprint's lines and rectangles on its courtyard
        or fab layer, on the page; None without any."""
        pts = []
        for kind in ("fp_line", "fp_rect"):
            for g in _items(f, kind):
                if _first(g, "layer")[1].endswith(layer):
                    for end in ("start", "end"):
                        px, py = _xy(_first(g, end))
                        dx, dy = _turn(px, py, rot)
                        pts.append((x + dx, y + dy))
        if not pts:
            return None
        return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))

    def holes(self):
        """Every non-plated hole a screw may pass: (x, y, drill) of the
        footprints that are only a hole (a mounting hole)."""
        out = []
        for fp in self.footprints:
            if fp.pads and all(p.kind == "np_thru_hole" for p in fp.pads) and "MountingHole" in fp.name:
                out += [(p.x, p.y, p.drill) for p in fp.pads]
        return out
