"""The boards as KiCad sees them (hardware/boardgen/pcb, tools/pcb.py).

KiCad 6's pcbnew is a module of Debian's python3 only, so every check runs
there as a subprocess and answers in JSON. Without KiCad (`make test` installs
it when root) these tests skip, saying why.
"""
import csv
import io
import json
import os
import subprocess
import zipfile

import pytest

from mpy import ROOT

SYSPY = "/usr/bin/python3"
GENERATED = os.path.join(ROOT, "hardware", "generated")
PCB_CODE = os.path.join(ROOT, "hardware", "boardgen", "pcb")
BOARDS = ("rank", "controller")


def _kicad_missing():
    if not os.path.exists(SYSPY):
        return "no %s" % SYSPY
    r = subprocess.run([SYSPY, "-c", "import pcbnew"], capture_output=True)
    if r.returncode:
        return "Debian's python3 cannot import pcbnew (apt-get install kicad kicad-footprints)"
    if not os.path.isdir("/usr/share/kicad/footprints"):
        return "KiCad's footprints are not installed (apt-get install kicad-footprints)"
    return None


MISSING = _kicad_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def _run(code, timeout=120):
    """Run code under pcbnew's python with the PCB modules importable; its
    last stdout line is JSON."""
    prelude = "import sys, json; sys.path[:0] = [%r, %r]\n" % (PCB_CODE, os.path.dirname(PCB_CODE))
    r = subprocess.run([SYSPY, "-c", prelude + code], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("board", BOARDS)
def test_kicad_drc_finds_no_error_and_no_unconnected_pad(board):
    out = _run("import drc\ne, u, text = drc.run(%r)\nprint(json.dumps([e, u, text]))"
               % os.path.join(GENERATED, board + ".kicad_pcb"))
    errors, unconnected, text = out
    assert unconnected == 0, "%d unconnected pads:\n%s" % (unconnected, text[:3000])
    assert errors == 0, text[:3000]


@pytest.mark.parametrize("board", BOARDS)
def test_every_netlist_pin_is_a_pad_with_the_same_net_and_no_pad_has_another(board):
    out = _run("""
import pcbnew, netlist
b = pcbnew.LoadBoard(%r)
pads = {}
for fp in b.GetFootprints():
    for p in fp.Pads():
        pads.setdefault((fp.GetReference(), p.GetNumber()), set()).add(p.GetNetname())
n = netlist.read(%r)
print(json.dumps({"pads": [[r, p, sorted(v)] for (r, p), v in pads.items()],
                  "pins": [[r, p, net] for (r, p), net in n.pin_nets().items()],
                  "parts": sorted(n.parts)}))
""" % (os.path.join(GENERATED, board + ".kicad_pcb"), os.path.join(GENERATED, board + ".net")))
    pads = {(r, p): set(v) for r, p, v in out["pads"]}
    pins = {(r, p): net for r, p, net in out["pins"]}
    for key, net in pins.items():
        assert key in pads, "%s pin %s is no pad on the board" % key
        assert pads[key] == {net}, (key, net, pads[key])
    for key, nets in pads.items():
        if key[0] in out["parts"] and key not in pins:
            assert nets <= {""}, "%s pad %s carries %s, the netlist leaves it open" % (key + (nets,))
    placed = {r for r, _p in pads if not r.startswith("H")}
    assert placed == set(out["parts"])


def test_the_vortex_footprints_are_the_ones_the_code_draws(tmp_path):
    """The library is generated: the committed one equals a fresh one."""
    out = _run("import footprints\nprint(json.dumps(footprints.library()))")
    lib = os.path.join(GENERATED, "vortex.pretty")
    assert sorted(os.listdir(lib)) == sorted(out)
    for name, text in out.items():
        with open(os.path.join(lib, name)) as f:
            assert f.read() == text, "hardware/generated/vortex.pretty/%s is stale: run `make pcb`" % name


def test_the_coil_footprint_is_the_coil_of_dims():
    """Turns, outer side and the trace of the printed coil as drawn: the
    spiral's length matches physics.square_spiral_length."""
    out = _run("""
import math, dims, physics, footprints
pts = footprints.coil_path()
length = sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:]))
xs = [p[0] for p in pts]
print(json.dumps([length, max(xs) - min(xs) + dims.COIL_TRACE_MM, dims.COIL_OUTER_MM,
                  physics.square_spiral_length(dims.COIL_TURNS, dims.COIL_OUTER_MM,
                                               dims.COIL_TRACE_MM, dims.COIL_SPACE_MM)]))
""")
    length, side, outer, expected = out
    assert abs(side - outer) < 1e-9
    # the drawn spiral steps in by one pitch per side, the formula per turn
    assert abs(length - expected) / expected < 0.05


def test_the_layout_files_are_fresh():
    """Regenerated into a temporary folder, every layout file equals the
    committed one (the generator is deterministic)."""
    r = subprocess.run([SYSPY, os.path.join(ROOT, "tools", "pcb.py"), "check"],
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def fab(tmp_path_factory):
    out = tmp_path_factory.mktemp("fab")
    _run("import fab\nprint(json.dumps(fab.build_all(%r, %r, %r)))" % (GENERATED, str(out), str(out)),
         timeout=600)
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_the_fab_zip_has_every_layer_the_drill_the_bom_and_the_placement(fab, board):
    with zipfile.ZipFile(os.path.join(fab, board + ".zip")) as z:
        names = z.namelist()
        for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "B_Silkscreen",
                      "F_Paste", "B_Paste", "Edge_Cuts"):
            gbr = [n for n in names if n.endswith("-%s.gbr" % layer)]
            assert gbr, layer
            assert z.read(gbr[0]).rstrip().endswith(b"M02*"), layer      # a whole Gerber file
        assert any(n.endswith(".drl") for n in names)
        bom = list(csv.reader(io.StringIO(z.read(board + "-bom.csv").decode())))
        cpl = list(csv.reader(io.StringIO(z.read(board + "-cpl.csv").decode())))
    assert bom[0] == ["Comment", "Designator", "Footprint", "LCSC Part #"]
    assert cpl[0] == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    fitted = _run("""
import netlist
n = netlist.read(%r)
print(json.dumps(sorted(r for r, p in n.parts.items() if p.value.upper() != "DNP")))
""" % os.path.join(GENERATED, board + ".net"))
    assert sorted(row[0] for row in cpl[1:]) == fitted
    in_bom = sorted(d for row in bom[1:] for d in row[1].split(","))
    assert in_bom == fitted
    for row in cpl[1:]:
        assert row[3] in ("Top", "Bottom") and row[1].endswith("mm") and row[2].endswith("mm")
    for side in ("top", "bottom"):
        with open(os.path.join(fab, "%s-%s.svg" % (board, side))) as f:
            assert "<svg" in f.read(2000)


def test_feeds_has_a_row_per_coil_measured_on_the_routed_board():
    with open(os.path.join(GENERATED, "feeds.csv")) as f:
        rows = list(csv.DictReader(f))
    assert rows and set(rows[0]) == {"board", "coil", "feed_length_mm", "feed_inductance_nH"}
    out = _run("""
import netlist
n = netlist.read(%r)
print(json.dumps(sorted(r for r, p in n.parts.items() if p.footprint.startswith("vortex:Coil"))))
""" % os.path.join(GENERATED, "rank.net"))
    assert sorted(r["coil"] for r in rows) == out
    for r in rows:
        assert float(r["feed_length_mm"]) > 0 and float(r["feed_inductance_nH"]) > 0


def test_the_pair_inductance_formula_on_a_known_case():
    """Two strips 0.2 mm wide, 1 mm apart, 100 mm long: mu0/pi acosh(10) 0.1 m
    = 119.7 nH (the two-wire line, d = w/2)."""
    out = _run("import feeds\nprint(json.dumps(feeds.pair_inductance_nh(100, 1.0, 0.2)))")
    assert abs(out - 119.7) < 0.5


def test_a_missing_board_file_is_one_line():
    r = subprocess.run([SYSPY, os.path.join(ROOT, "tools", "pcb.py"), "drc", "/nonexistent.kicad_pcb"],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.strip() == "pcb: no such board file: /nonexistent.kicad_pcb"
