"""What a fab takes: per board a zip of Gerbers, the Excellon drill file, the
BOM and the placement (CPL) in JLCPCB's assembly columns, and a picture of
each side.

JLCPCB's columns (its "BOM and CPL" assembly guide): BOM = Comment,
Designator, Footprint, LCSC Part #; CPL = Designator, Mid X, Mid Y, Layer,
Rotation. A part whose value is DNP is on the board, not in the BOM or CPL.
"""
import csv
import io
import os
import re
import shutil
import tempfile
import zipfile

import pcbnew

import netlist as netlist_mod

# (layer, file suffix): the layers a 2-layer order needs
LAYERS = ((pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"), (pcbnew.F_Mask, "F_Mask"),
          (pcbnew.B_Mask, "B_Mask"), (pcbnew.F_SilkS, "F_Silkscreen"), (pcbnew.B_SilkS, "B_Silkscreen"),
          (pcbnew.F_Paste, "F_Paste"), (pcbnew.B_Paste, "B_Paste"), (pcbnew.Edge_Cuts, "Edge_Cuts"))
BOM_HEADER = ["Comment", "Designator", "Footprint", "LCSC Part #"]
CPL_HEADER = ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
# picture colours per side: (layer, colour)
PICTURE = {"top": ((pcbnew.F_Cu, "#c87533"), (pcbnew.F_SilkS, "#f0f0f0"), (pcbnew.Edge_Cuts, "#202020")),
           "bottom": ((pcbnew.B_Cu, "#3373c8"), (pcbnew.B_SilkS, "#f0f0f0"), (pcbnew.Edge_Cuts, "#202020"))}


def _plot(board, folder, layers, fmt, ext):
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(folder)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetUseAuxOrigin(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    po.SetMirror(False)
    made = []
    for layer, suffix in layers:
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, fmt, suffix)
        pc.PlotLayer()
        made.append(pc.GetPlotFileName())
    pc.ClosePlot()
    return made


def gerbers(board, folder):
    files = _plot(board, folder, LAYERS, pcbnew.PLOT_FORMAT_GERBER, "gbr")
    dw = pcbnew.EXCELLON_WRITER(board)
    dw.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)      # not mirrored, merged PTH/NPTH
    dw.SetFormat(True)                                            # metric
    dw.CreateDrillandMapFilesSet(folder, True, False)
    return files + sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".drl"))


def placed(board, net):
    """[(ref, footprint, x, y, layer, rotation, value, lcsc)] of the parts to
    fit, by reference; positions in mm from the board's top-left corner,
    y up (as JLCPCB reads them)."""
    bb = board.GetBoardEdgesBoundingBox()
    rows = []
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        part = net.parts.get(ref)
        if part is None or part.value.upper() == "DNP":
            continue
        c = fp.GetPosition()
        x = pcbnew.ToMM(c.x - bb.GetLeft())
        y = pcbnew.ToMM(bb.GetBottom() - c.y)
        layer = "Bottom" if fp.IsFlipped() else "Top"
        lcsc = part.fields.get("LCSC", "")
        rows.append((ref, part.footprint.split(":")[-1], x, y, layer, fp.GetOrientationDegrees() % 360,
                     part.value, lcsc))
    rows.sort(key=lambda r: _natural(r[0]))
    return rows


def _natural(ref):
    m = re.match(r"([A-Za-z_]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def bom_csv(rows):
    groups = {}
    for ref, fp, _x, _y, _l, _r, value, lcsc in rows:
        groups.setdefault((value, fp, lcsc), []).append(ref)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(BOM_HEADER)
    for (value, fp, lcsc), refs in sorted(groups.items(), key=lambda kv: _natural(kv[1][0])):
        w.writerow([value, ",".join(refs), fp, lcsc])
    return out.getvalue()


def cpl_csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CPL_HEADER)
    for ref, _fp, x, y, layer, rot, _v, _l in rows:
        w.writerow([ref, "%.3fmm" % x, "%.3fmm" % y, layer, "%g" % rot])
    return out.getvalue()


def picture(board, side, path):
    """One SVG of a side: each layer plotted by KiCad, recoloured and stacked."""
    with tempfile.TemporaryDirectory() as tmp:
        files = _plot(board, tmp, [(l, "pic%d" % k) for k, (l, _c) in enumerate(PICTURE[side])],
                      pcbnew.PLOT_FORMAT_SVG, "svg")
        head, body = None, []
        for f, (_layer, colour) in zip(files, PICTURE[side]):
            with open(f) as fh:
                text = fh.read()
            start = text.index("<svg")
            open_end = text.index(">", start) + 1
            if head is None:
                head = text[:open_end]
            inner = text[open_end:text.rindex("</svg>")]
            inner = re.sub(r"<title>.*?</title>|<desc>.*?</desc>", "", inner, flags=re.S)
            inner = re.sub(r"(fill|stroke):#[0-9A-Fa-f]{6}", r"\1:" + colour, inner)
            body.append('<g id="layer%d">%s</g>' % (len(body), inner))
    # KiCad's SVG is the whole page in nanometres: frame the board, 1 mm around
    bb = board.GetBoardEdgesBoundingBox()
    x, y = bb.GetLeft() - 1000000, bb.GetTop() - 1000000
    w, h = bb.GetWidth() + 2000000, bb.GetHeight() + 2000000
    head = re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                  'width="%.1fmm" height="%.1fmm" viewBox="%d %d %d %d"' % (w / 1e6, h / 1e6, x, y, w, h), head)
    with open(path, "w") as f:
        f.write(head + '\n<rect x="%d" y="%d" width="%d" height="%d" fill="#1b4d2e"/>\n' % (x, y, w, h)
                + "\n".join(body) + "\n</svg>\n")
    return path


def build_all(generated, out, pictures=None):
    """out/<board>.zip per board and the pictures (<board>-top.svg,
    <board>-bottom.svg) in pictures (default: generated)."""
    pictures = pictures or generated
    import generate
    os.makedirs(out, exist_ok=True)
    made = []
    for kind in generate.BOARDS:
        path = os.path.join(generated, kind + ".kicad_pcb")
        if not os.path.exists(path):
            raise OSError("no %s: run `make pcb` first" % path)
        board = pcbnew.LoadBoard(path)
        net = netlist_mod.read(os.path.join(generated, kind + ".net"))
        rows = placed(board, net)
        with tempfile.TemporaryDirectory() as tmp:
            files = gerbers(board, tmp)
            z = os.path.join(out, kind + ".zip")
            with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
                for f in files:
                    zf.write(f, os.path.basename(f))
                zf.writestr("%s-bom.csv" % kind, bom_csv(rows))
                zf.writestr("%s-cpl.csv" % kind, cpl_csv(rows))
            made.append(z)
        for side in ("top", "bottom"):
            made.append(picture(board, side, os.path.join(pictures, "%s-%s.svg" % (kind, side))))
    return made
