"""What a fab and an assembler take, made by KiKit (1.4: the last release
for KiCad 6, which Debian 12 ships), and the boards' pictures by PcbDraw.

Per board, build/fab/<board>.zip holds what `kikit fab jlcpcb --assembly`
writes: the Gerbers and the Excellon drill (KiKit's JLCPCB plot settings:
Protel extensions, a Gerber job file, both plotted from the board's aux
origin, its bottom-left corner), <board>-bom.csv (JLCPCB's columns Comment,
Designator, Footprint, LCSC) and <board>-pos.csv (Designator, Mid X, Mid Y,
Layer, Rotation) from the same origin. `kikit fab` reads a part's fields
from a KiCad schematic; the boards here come from SKiDL netlists, so the
same records (KiKit's Symbol) are made from the netlist and handed to
KiKit's own BOM and placement code. What differs from `kikit fab jlcpcb`
1.4, and why:

* PTH and NPTH drill in two files (JLCPCB's help article on Gerbers from
  KiCad, which KiKit itself follows from 1.7.0).
* A part on the bottom side turns the other way: JLCPCB reads its rotation
  as seen from the top, 180 - KiCad's angle (KiKit 1.7.0's fix for
  JLCPCB's bottom parts, commit 8c980f3), added here as each part's
  correction.
* A through-hole part is placed at the middle of its body (its F.Fab
  outline), not at its footprint's origin (pin 1 on KiCad's headers and
  buttons): also a correction, computed from the footprint.
* A value-DNP position (a trim capacitor's second place) is neither in the
  BOM nor in the placement; the coils and mounting holes are out of both by
  their footprints' attributes (KiKit honours them).

Rotations for the assembler's reels come from jlcpcb_rotations.csv, KiKit's
correction-pattern format (footprint regex, part regex, x, y, rotation).

The rank board (34.8 mm wide) is also panelised two to a panel with rails,
mouse bites, fiducials and tooling holes (rank-panel.json, KiKit's
panelize presets): JLCPCB's standard assembly, the one that places parts
on both sides, takes nothing under 70 x 70 mm without rails.
"""
import math
import os
import subprocess
import sys
import tempfile
import zipfile

import pcbnew
from kikit.eeschema_v6 import Symbol
from kikit.export import exportSettingsJlcpcb, gerberImpl
from kikit.fab import jlcpcb
from kikit.fab.common import applyCorrectionPattern, collectPosData, posDataToFile, readCorrectionPatterns

import netlist as netlist_mod

HERE = os.path.dirname(os.path.abspath(__file__))
ROTATIONS = os.path.join(HERE, "jlcpcb_rotations.csv")
PANEL_PRESET = os.path.join(HERE, "rank-panel.json")
CORRECTION = "JLCPCB_CORRECTION"
GERBER_SETTINGS = dict(exportSettingsJlcpcb, MergeNPTH=False)
BOM_HEADER = ["Comment", "Designator", "Footprint", "LCSC"]
POS_HEADER = ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]


def _fab_box(fp):
    """The middle of a footprint's body as its F.Fab (or B.Fab) drawing
    outlines it, nm; None without one."""
    layers = (pcbnew.F_Fab, pcbnew.B_Fab)
    # by class name: KiKit's pcbnewTransition, once imported, makes
    # isinstance(item, pcbnew.FP_SHAPE) false for the board's own items
    boxes = [i.GetBoundingBox() for i in fp.GraphicalItems()
             if i.GetClass() == "MGRAPHIC" and i.GetLayer() in layers]
    if not boxes:
        return None
    x0 = min(b.GetLeft() for b in boxes)
    x1 = max(b.GetRight() for b in boxes)
    y0 = min(b.GetTop() for b in boxes)
    y1 = max(b.GetBottom() for b in boxes)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _through_hole(fp):
    return bool(fp.GetAttributes() & pcbnew.FP_THROUGH_HOLE)


def correction(fp, patterns):
    """KiKit's 'x;y;rotation' correction for one footprint: the reel's
    rotation from the patterns, JLCPCB's bottom-side rotation, and for a
    through-hole part the offset from its origin to its body's middle, in
    the footprint's own axes as KiKit turns them (fab.common.footprintPosition)."""
    _x, _y, rot = applyCorrectionPattern(patterns, fp)
    angle = fp.GetOrientationDegrees()
    if fp.IsFlipped():
        rot += 180 - 2 * angle         # KiKit adds the correction to KiCad's angle
    dx = dy = 0.0
    middle = _fab_box(fp) if _through_hole(fp) else None
    if middle is not None:
        p = fp.GetPosition()
        wx, wy = pcbnew.ToMM(middle[0] - p.x), pcbnew.ToMM(middle[1] - p.y)
        a = -math.radians(angle)
        dx = wx * math.cos(a) + wy * math.sin(a)
        dy = -wx * math.sin(a) + wy * math.cos(a)
    return "%.4f;%.4f;%g" % (dx, dy, rot % 360)


def _comment(part):
    """The BOM's Comment: the value and the maker's number (JLCPCB matches
    the LCSC column; a person checks this one)."""
    mpn = part.fields.get("MPN", "")
    real_value = part.value != part.fields.get("Catalogue", "")
    return "%s %s" % (part.value, mpn) if real_value and mpn else (mpn or part.value)


def symbols(board, net):
    """KiKit's records of the board's parts, from the netlist: what its fab
    would read from a schematic, with each part's correction."""
    patterns = readCorrectionPatterns(ROTATIONS)
    out = []
    for fp in board.GetFootprints():
        part = net.parts.get(fp.GetReference())
        if part is None:
            continue
        s = Symbol(unit=1, dnp=part.value.upper() == "DNP",
                   in_bom=not fp.GetAttributes() & pcbnew.FP_EXCLUDE_FROM_BOM)
        s.properties = {"Reference": part.ref, "Value": _comment(part),
                        "Footprint": part.footprint.split(":")[-1], "LCSC": part.fields.get("LCSC", ""),
                        CORRECTION: correction(fp, patterns)}
        out.append(s)
    return out


def assembly(board, net, out, name):
    """<name>-bom.csv and <name>-pos.csv in out, by KiKit's code; returns
    the references placed without an LCSC number."""
    components = [s for s in symbols(board, net) if not s.dnp and s.in_bom]
    refs = {s.properties["Reference"] for s in components}
    pos = collectPosData(board, [CORRECTION], bom=components,
                         posFilter=lambda fp: fp.GetReference() in refs)
    placed = {p[0] for p in pos}
    bom = jlcpcb.collectBom(components, ["LCSC"], [])
    bom = {k: [r for r in v if r in placed] for k, v in bom.items()}
    bom = {k: v for k, v in bom.items() if v}
    posDataToFile(pos, os.path.join(out, name + "-pos.csv"))
    jlcpcb.bomToCsv(bom, os.path.join(out, name + "-bom.csv"))
    return sorted((r for (_v, _f, lcsc), rs in bom.items() if not lcsc for r in rs), key=_natural)


def _natural(ref):
    stem = ref.rstrip("0123456789")
    return stem, int(ref[len(stem):] or 0)


def gerbers(path, folder):
    """The Gerbers and drill of a board file, KiKit's JLCPCB plot."""
    gerberImpl(path, folder, settings=GERBER_SETTINGS)
    return sorted(os.path.join(folder, n) for n in os.listdir(folder))


def package(path, net, out, name, placed_board=None):
    """out/<name>.zip: the Gerbers and drill of board file `path`, the BOM
    and placement of its parts (of placed_board when given: the same board
    under other references); (zip path, parts without an LCSC number)."""
    board = placed_board or pcbnew.LoadBoard(path)
    with tempfile.TemporaryDirectory() as tmp:
        plots = os.path.join(tmp, "gerber")
        files = gerbers(path, plots)
        missing = assembly(board, net, tmp, name)
        z = os.path.join(out, name + ".zip")
        with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
            for f in files:
                zf.write(f, os.path.basename(f))
            for kind in ("bom", "pos"):
                zf.write(os.path.join(tmp, "%s-%s.csv" % (name, kind)), "%s-%s.csv" % (name, kind))
    return z, missing


def panelise(path, out_path):
    """The rank board two to a panel, by KiKit's panelize and the preset."""
    cmd = [sys.executable, "-m", "kikit.ui", "panelize", "--preset", PANEL_PRESET, path, out_path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("kikit panelize failed: " + (r.stderr or r.stdout)[-1500:])
    return out_path


def panel_netlist(panel, net):
    """The netlist's parts under the panel's references, the panel renamed
    to them: KiKit keeps each copy's references, so every part is there
    once per board; each copy is ref_n (n from the panel's top) in the BOM
    and placement, whose designators must be unique. The Gerbers come from
    the panel as KiKit made it: the silkscreen keeps ref."""
    parts, seen = {}, {}
    for fp in sorted(panel.GetFootprints(), key=lambda f: (f.GetPosition().y, f.GetPosition().x)):
        part = net.parts.get(fp.GetReference())
        if part is None:
            continue
        seen[part.ref] = seen.get(part.ref, 0) + 1
        name = "%s_%d" % (part.ref, seen[part.ref])
        fp.SetReference(name)
        parts[name] = netlist_mod.Part(name, part.value, part.footprint, part.fields, part.description)
    return netlist_mod.Netlist(parts, {})


def package_panel(path, net, out, name):
    """out/<name>.zip and out/<name>.kicad_pcb: the panel made from board
    file path, its Gerbers, BOM and placement."""
    panel_path = panelise(path, os.path.join(out, name + ".kicad_pcb"))
    board = pcbnew.LoadBoard(panel_path)
    return package(panel_path, panel_netlist(board, net), out, name, placed_board=board)


def build_all(generated, out):
    """build/fab/<board>.zip per board and rank-panel.zip; returns
    [(zip, parts without an LCSC number)]."""
    import generate
    os.makedirs(out, exist_ok=True)
    made = []
    for kind in generate.BOARDS:
        path = os.path.join(generated, kind + ".kicad_pcb")
        if not os.path.exists(path):
            raise OSError("no %s: run `make pcb` first" % path)
        net = netlist_mod.read(os.path.join(generated, kind + ".net"))
        made.append(package(path, net, out, kind))
        if kind == "rank":
            made.append(package_panel(path, net, out, "rank-panel"))
    return made
