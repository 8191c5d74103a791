"""Everything `make mech` makes.

build/mech/ (made, not committed, like build/fab): each printed part as
STEP (to edit) and STL (to slice), the top panel and the base plate as
STEP and DXF (to laser-cut; the panel's DXF has a CUT layer and an ENGRAVE
layer with the cells' lines).

hardware/generated/mech/ (committed): fit.md (every fit check), the parts'
and the exploded assembly's drawings (SVG). Each drawing carries the
digest of what it was drawn from (source_digest), so a test tells a stale
one without drawing again; fit.md is regenerated and compared.
"""
import hashlib
import os

from build123d import Axis, Edge, ExportDXF, Pos, export_step, export_stl

from .. import dims as d
from . import assembly, fit
from . import layout as lay
from . import parts

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATED = os.path.join(lay.HERE, "generated")
DRAWINGS = ("mech/parts.svg", "mech/assembly.svg")
REPORT = "mech/fit.md"


def source_digest(generated=GENERATED):
    """sha256 of what the mechanics are made from: this package, dims.py,
    figures.py and the boards."""
    h = hashlib.sha256()
    paths = sorted(os.path.join(HERE, n) for n in os.listdir(HERE) if n.endswith(".py"))
    base = os.path.dirname(HERE)
    paths += [os.path.join(base, n) for n in ("dims.py", "figures.py", "physics.py", "kicad_pcb.py")]
    paths += [os.path.join(generated, n) for n in ("rank.kicad_pcb", "controller.kicad_pcb", "rank.net",
                                                   "feeds.csv")]
    for p in paths:
        if os.path.exists(p):
            with open(p, "rb") as f:
                h.update(os.path.basename(p).encode() + b"\0" + f.read())
    return h.hexdigest()


class Model:
    """Every solid, made once."""

    def __init__(self, generated=GENERATED):
        self.layout = lay.Layout(generated)
        self.led = assembly.led_offset(self.layout)
        self.tiles = {t: parts.tile(t, self.led) for t in parts.TERRAINS}
        self.pieces = {"%s-%s" % (s.lower(), k.lower()): parts.piece(s, k)
                       for s in ("Light", "Dark") for k in ("Traveller", "Heart")}
        self.panel = parts.panel(self.layout)
        self.plate = parts.base_plate(self.layout)
        self.walls = parts.walls(self.layout)
        self.beam = parts.beam(self.layout)
        self.lid = parts.bay_lid(self.layout)
        self.cap = parts.button_cap(self.layout)

    def solids(self):
        return {"tile": self.tiles["Water"], "panel": self.panel, "piece": self.pieces["light-traveller"],
                "plate": self.plate, "lid": self.lid, "tiles": self.tiles, "pieces": self.pieces,
                "walls": list(self.walls.values()), "beam": self.beam, "cap": self.cap}

    def printed(self):
        """{file name: solid} of every printed part, as it lies to print."""
        out = {"tile-" + t.lower(): s for t, s in self.tiles.items()}
        out.update({"piece-" + k: s for k, s in self.pieces.items()})
        for name, w in self.walls.items():
            out.update(parts.split_long(name, w))
        out.update(parts.split_long("beam", self.beam))
        out.update(parts.split_long("bay-lid", self.lid))
        out["button-cap"] = self.cap
        return {k: _on_bed(v) for k, v in out.items()}

    def cut(self):
        """{file name: solid} of the laser-cut parts."""
        return {"top-panel": self.panel, "base-plate": self.plate}

    def checks(self):
        return assembly.checks(self.layout, self.solids())

    def report(self):
        return fit.report(self.checks(), fit.screws(self.layout), self.layout)


def _on_bed(solid):
    """The solid moved so that its box starts at the origin."""
    bb = solid.bounding_box()
    return Pos(-bb.min.X, -bb.min.Y, -bb.min.Z) * solid


def dxf(solid, path, engrave=()):
    """The outline and holes of a flat part's top face as DXF (mm): layer
    CUT, and ENGRAVE for the lines given [((x0, y0), (x1, y1))]."""
    top = solid.faces().sort_by(Axis.Z)[-1]
    flat = Pos(0, 0, -top.center().Z) * top
    exporter = ExportDXF()
    exporter.add_layer("CUT")
    exporter.add_shape(flat.edges(), layer="CUT")
    if engrave:
        exporter.add_layer("ENGRAVE")
        for a, b in engrave:
            exporter.add_shape(Edge.make_line(a, b), layer="ENGRAVE")
    exporter.write(path)
    return path


def cell_lines(layout):
    """The cells' lines on the panel, in its frame."""
    px0, py0 = layout.panel_box()[:2]
    x0, y0, x1, y1 = layout.play
    lines = []
    for k in range(9):
        x = x0 + k * d.CELL_PITCH_MM - px0
        y = y0 + k * d.CELL_PITCH_MM - py0
        lines += [((x, y0 - py0), (x, y1 - py0)), ((x0 - px0, y), (x1 - px0, y))]
    return lines


def outputs(model, out):
    """STEP and STL of the printed parts, STEP and DXF of the cut ones."""
    os.makedirs(out, exist_ok=True)
    made = []
    for name, solid in sorted(model.printed().items()):
        for ext, write in ((".step", export_step), (".stl", export_stl)):
            path = os.path.join(out, name + ext)
            write(solid, path)
            made.append(path)
    for name, solid in sorted(model.cut().items()):
        path = os.path.join(out, name + ".step")
        export_step(solid, path)
        made.append(path)
        made.append(dxf(solid, os.path.join(out, name + ".dxf"),
                        cell_lines(model.layout) if name == "top-panel" else ()))
    return made


def drawings(model, folder):
    """The parts' and the exploded assembly's drawings (SVG), tagged."""
    os.makedirs(os.path.join(folder, "mech"), exist_ok=True)
    digest = source_digest()
    made = []
    sheet = assembly.parts_sheet(model.solids())
    bb = sheet.bounding_box()
    targets = (
        (DRAWINGS[0], sheet, (bb.center().X - 150, bb.center().Y - 260, bb.center().Z + 160), 180.0),
        (DRAWINGS[1], assembly.exploded(model.layout, model.solids()), None, 180.0))
    for rel, shape, origin, width in targets:
        path = os.path.join(folder, rel)
        if origin is None:
            c = shape.bounding_box().center()
            origin = (c.X - 500, c.Y - 800, c.Z + 700)
        assembly.svg(shape, path, origin, width_mm=width)
        tag(path, digest)
        made.append(path)
    return made


def tag(path, digest):
    """Put the source digest in an SVG as a comment after its header."""
    with open(path) as f:
        text = f.read()
    start = text.index("<svg")
    text = text[:start] + "<!-- source digest %s (hardware/boardgen/mech; `make mech`) -->\n" % digest + text[start:]
    with open(path, "w") as f:
        f.write(text)


def stored_digest(path):
    with open(path) as f:
        head = f.read(4096)
    marker = "<!-- source digest "
    return head[head.index(marker) + len(marker):].split()[0] if marker in head else ""
