"""What the fab and the assembler receive (hardware/boardgen/pcb/fab.py,
KiKit 1.4) and the boards' pictures (pictures.py, PcbDraw 1.1).

KiKit and PcbDraw need KiCad's pcbnew, a module of Debian's python3 only:
they run in .venv-kicad (`make fab`, `make test` make it) as a subprocess
answering in JSON; without it these tests skip, saying why.
"""
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import zipfile

import pytest

from mpy import ROOT

KPY = os.path.join(ROOT, ".venv-kicad", "bin", "python")
GENERATED = os.path.join(ROOT, "hardware", "generated")
PCB_CODE = os.path.join(ROOT, "hardware", "boardgen", "pcb")
BOARDS = ("rank", "controller")


def _missing():
    if not os.path.exists(KPY):
        return "no .venv-kicad (KiKit, PcbDraw on Debian's python3 with KiCad): `make fab` makes it"
    r = subprocess.run([KPY, "-c", "import pcbnew, kikit, pcbdraw"], capture_output=True)
    return "KiKit or KiCad missing in .venv-kicad: `make fab`" if r.returncode else None


MISSING = _missing()
needs_kicad = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def _run(code, timeout=900):
    prelude = "import sys, json; sys.path[:0] = [%r, %r]\n" % (PCB_CODE, os.path.dirname(PCB_CODE))
    r = subprocess.run([KPY, "-c", prelude + code], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def fab(tmp_path_factory):
    if MISSING:
        pytest.skip(MISSING)
    out = tmp_path_factory.mktemp("fab")
    made = _run("import fab\nprint(json.dumps(fab.build_all(%r, %r)))" % (GENERATED, str(out)))
    return out, {os.path.basename(z): missing for z, missing in made}


def _csv(z, name):
    return list(csv.reader(io.StringIO(z.read(name).decode())))


def _fitted(board):
    """{ref: footprint} of the netlist's fitted parts (not DNP), and the
    coils' references."""
    with open(os.path.join(GENERATED, board + ".net")) as f:
        text = f.read().split("(nets", 1)[0]
    fitted, coils = {}, set()
    for block in re.split(r"\(comp\s", text)[1:]:
        ref = re.search(r'\(ref "([^"]+)"\)', block).group(1)
        value = re.search(r'\(value "([^"]*)"\)', block).group(1)
        fp = re.search(r'\(footprint "([^"]+)"\)', block).group(1)
        if "Coil" in fp:
            coils.add(ref)
        elif value != "DNP":
            fitted[ref] = fp
    return fitted, coils


def _board_size(board):
    sys_path = os.path.join(ROOT, "hardware")
    import sys
    sys.path.insert(0, sys_path)
    from boardgen.kicad_pcb import Board
    return Board.read(os.path.join(GENERATED, board + ".kicad_pcb"))


@needs_kicad
@pytest.mark.parametrize("board", BOARDS)
def test_the_zip_holds_kikits_gerbers_the_drill_the_bom_and_the_placement(fab, board):
    out, _missing = fab
    with zipfile.ZipFile(os.path.join(out, board + ".zip")) as z:
        names = z.namelist()
        for ext in (".gtl", ".gbl", ".gts", ".gbs", ".gto", ".gbo", ".gtp", ".gbp", ".gm1"):
            gbr = [n for n in names if n.endswith(ext)]
            assert gbr, (board, ext, names)
            assert z.read(gbr[0]).rstrip().endswith(b"M02*"), ext      # a whole Gerber file
        drills = [n for n in names if n.endswith(".drl")]
        assert any("NPTH" in n for n in drills) and any("NPTH" not in n for n in drills), drills
        assert any(n.endswith(".gbrjob") for n in names)
        bom = _csv(z, board + "-bom.csv")
        pos = _csv(z, board + "-pos.csv")
    assert bom[0] == ["Comment", "Designator", "Footprint", "LCSC"]
    assert pos[0] == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    fitted, coils = _fitted(board)
    placed = sorted(row[0] for row in pos[1:])
    listed = sorted(r for row in bom[1:] for r in row[1].split(","))
    assert placed == listed == sorted(fitted)       # DNP places, coils and holes in neither
    assert not coils & set(placed) and not any(r.startswith("H") and r[1:].isdigit() for r in placed)
    # one origin: the board's bottom-left corner, y up; every part on the board
    w, h = _board_size(board).size
    for ref, x, y, layer, rot in pos[1:]:
        assert -0.5 <= float(x) <= w + 0.5 and -0.5 <= float(y) <= h + 0.5, (ref, x, y)
        assert layer in ("T", "B") and 0 <= float(rot) < 360


@needs_kicad
@pytest.mark.parametrize("board", BOARDS)
def test_the_gerbers_and_the_drill_share_the_placements_origin(fab, board):
    """The outline's Gerber and the drill start at the board's bottom-left
    corner (KiCad's aux origin), as the placement does."""
    out, _missing = fab
    w, h = _board_size(board).size
    with zipfile.ZipFile(os.path.join(out, board + ".zip")) as z:
        edge = z.read(next(n for n in z.namelist() if n.endswith(".gm1"))).decode()
        drill = z.read(next(n for n in z.namelist() if n.endswith(".drl") and "NPTH" not in n)).decode()
    fmt = re.search(r"%FSLAX(\d)(\d)Y", edge)
    scale = 10 ** int(fmt.group(2))
    pts = [(int(x) / scale, int(y) / scale) for x, y in re.findall(r"X(-?\d+)Y(-?\d+)D0[12]", edge)]
    assert min(p[0] for p in pts) == pytest.approx(0, abs=0.06)
    assert min(p[1] for p in pts) == pytest.approx(0, abs=0.06)
    assert max(p[0] for p in pts) == pytest.approx(w, abs=0.06)
    assert max(p[1] for p in pts) == pytest.approx(h, abs=0.06)
    holes = [(float(x), float(y)) for x, y in re.findall(r"^X(-?[\d.]+)Y(-?[\d.]+)", drill, re.M)]
    assert holes and all(-0.1 <= x <= w + 0.1 and -0.1 <= y <= h + 0.1 for x, y in holes)


@needs_kicad
def test_rotations_and_body_centres_follow_the_assemblers_rules(fab):
    """A SOT-23 turns 180 degrees more than KiCad's angle (its reel),
    a bottom part 180 - KiCad's angle, a through-hole header is placed at
    its body's middle, not at pin 1."""
    out, _missing = fab
    ang = _run("""
import pcbnew
b = pcbnew.LoadBoard(%r)
aux = b.GetDesignSettings().GetAuxOrigin()
out = {}
for fp in b.GetFootprints():
    out[fp.GetReference()] = [fp.GetOrientationDegrees(), fp.IsFlipped(), str(fp.GetFPID().GetLibItemName())]
j = b.FindFootprintByReference("J1")
fab = [i.GetBoundingBox() for i in j.GraphicalItems() if i.GetLayer() == pcbnew.F_Fab]
cx = (min(x.GetLeft() for x in fab) + max(x.GetRight() for x in fab)) / 2 - aux.x
cy = (min(x.GetTop() for x in fab) + max(x.GetBottom() for x in fab)) / 2 - aux.y
print(json.dumps([out, [pcbnew.ToMM(cx), -pcbnew.ToMM(cy)]]))
""" % os.path.join(GENERATED, "rank.kicad_pcb"))
    ang, body = ang
    with zipfile.ZipFile(os.path.join(out, "rank.zip")) as z:
        pos = {row[0]: row for row in _csv(z, "rank-pos.csv")[1:]}
    sot = [r for r, (_a, _f, name) in ang.items() if name.startswith("SOT-23")]
    assert sot
    for ref in sot:
        assert float(pos[ref][4]) == pytest.approx((ang[ref][0] + 180) % 360, abs=0.01), ref
    bottom = [r for r, v in ang.items() if r in pos and v[1]]
    assert bottom
    for ref in bottom:
        rot = (180 - ang[ref][0]) % 360
        if ang[ref][2].startswith("SOT-23"):
            rot = (rot + 180) % 360
        assert float(pos[ref][4]) == pytest.approx(rot, abs=0.01), ref
    assert float(pos["J1"][1]) == pytest.approx(body[0], abs=0.01)
    assert float(pos["J1"][2]) == pytest.approx(body[1], abs=0.01)


@needs_kicad
def test_the_rank_panel_meets_the_assemblers_minimum_and_kicads_drc(fab):
    """Two rank boards, rails top and bottom with fiducials and three
    tooling holes, mouse bites (three fiducials a side: parts go on both):
    at least 70 x 70 mm (JLCPCB's standard
    assembly), at most its 400 x 500 mm; KiCad's DRC finds no error; each
    part placed once per board, named ref_1 and ref_2."""
    out, _missing = fab
    path = os.path.join(out, "rank-panel.kicad_pcb")
    res = _run("""
import pcbnew, drc
b = pcbnew.LoadBoard(%r)
bb = b.GetBoardEdgesBoundingBox()
fids = [f.IsFlipped() for f in b.GetFootprints() if "Fiducial" in str(f.GetFPID().GetLibItemName())]
npth = [pcbnew.ToMM(p.GetDrillSize().x) for f in b.GetFootprints() for p in f.Pads()
        if p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH]
e, u, text = drc.run(%r)
print(json.dumps([pcbnew.ToMM(bb.GetWidth()), pcbnew.ToMM(bb.GetHeight()), fids, npth, e, text[:3000]]))
""" % (path, path))
    w, h, fids, npth, errors, text = res
    assert 70 <= min(w, h) and w <= 500 and h <= 400, (w, h)
    assert sorted(fids) == [False] * 3 + [True] * 3, fids          # three a side: parts go on both
    assert sum(1 for d in npth if abs(d - 1.152) < 0.01) == 3, npth
    assert errors == 0, text
    fitted, _coils = _fitted("rank")
    with zipfile.ZipFile(os.path.join(out, "rank-panel.zip")) as z:
        pos = _csv(z, "rank-panel-pos.csv")
    assert sorted(r[0] for r in pos[1:]) == sorted("%s_%d" % (ref, n) for ref in fitted for n in (1, 2))


@needs_kicad
def test_parts_without_an_lcsc_number_are_named(fab):
    """The RF series' C0G parts and a few others have no LCSC number: make
    fab names them (the assembler searches them by part number, or they are
    consigned); every part with one is in the BOM's LCSC column."""
    _out, missing = fab
    with open(os.path.join(GENERATED, "rank.net")) as f:
        net = f.read()
    assert missing["rank.zip"]
    for ref in missing["rank.zip"]:
        block = net[net.index('(ref "%s")' % ref):][:1500]
        assert re.search(r'\(name "LCSC"\)\)', block), ref


@pytest.mark.parametrize("board", BOARDS)
def test_the_boards_pictures_are_drawn_from_the_committed_boards(board):
    """Each PcbDraw picture keeps the digest of the board file it was drawn
    from: a changed board without `make fab` is a stale picture."""
    from PIL import Image
    with open(os.path.join(GENERATED, board + ".kicad_pcb"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    for side in ("front", "back"):
        path = os.path.join(GENERATED, "%s-%s.png" % (board, side))
        with Image.open(path) as im:
            assert im.text.get("Source") == digest, "%s is stale: run `make fab`" % path
            assert im.size[0] > 500
