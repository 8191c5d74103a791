"""The board's mechanical parts (hardware/boardgen/mech, build123d): each
exported part a closed solid of its size, the fit checks against the
generated boards and the physics hold, and hardware/generated/mech is
what `make mech` makes. Without build123d these tests skip, saying why."""
import os
import struct
import sys

import pytest

from mpy import ROOT

HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

from boardgen import dims as d  # noqa: E402
from boardgen.mech import fit, heights  # noqa: E402
from boardgen.mech import layout as lay  # noqa: E402


@pytest.fixture(scope="module")
def model():
    pytest.importorskip("build123d", reason="build123d is not installed: `make mech` sets up .venv")
    from boardgen.mech import build
    return build.Model()


@pytest.fixture(scope="module")
def layout():
    return lay.Layout()


def test_every_fit_check_holds(model):
    failed = [c for c in model.checks() if not c.ok]
    assert not failed, "\n".join("%s: %s (limit %s) %s" % c[:4] for c in failed)


def test_the_heights_the_physics_uses_are_the_solids(model):
    """The tag over the coil and the magnet over the reed, measured on the
    tile, panel and piece solids, are figures.py's, and a part made 0.5 mm
    off is caught."""
    from boardgen.mech import assembly
    from boardgen.figures import stack
    s = model.solids()
    m = assembly.measure(model.layout, s["tile"], s["panel"], s["piece"])
    assert m["recess"] == pytest.approx(d.TAG_RECESS_MM, abs=1e-3)
    assert m["panel"] == pytest.approx(d.TOP_PANEL_MM, abs=1e-3)
    assert m["floor"] == pytest.approx(d.PIECE_FLOOR_MM, abs=1e-3)
    checks = fit.tag_and_magnet(model.layout, m)
    assert checks and all(c.ok for c in checks)
    assert len(checks) == 1 + 8                       # the tag, and the sensor of each file
    off = fit.tag_and_magnet(model.layout, dict(m, floor=m["floor"] + 0.5, panel=m["panel"] + 0.5))
    assert not any(c.ok for c in off)
    assert stack()["tag"] - stack()["coil"] == pytest.approx(
        model.layout.panel_bottom + m["panel"] + m["recess"] - d.TAG_MM / 2)


def _stl_closed(path):
    """(closed, (dx, dy, dz)) of a binary STL: every edge shared by exactly
    two triangles (a degenerate one, two corners at one point as at a
    sphere's pole, closes nothing and opens nothing: skipped), and its box."""
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack_from("<I", data, 80)[0]
    edges, pts = {}, []
    for k in range(n):
        v = struct.unpack_from("<12f", data, 84 + 50 * k)[3:]
        tri = [tuple(round(c, 4) for c in v[i:i + 3]) for i in (0, 3, 6)]
        pts += tri
        if len(set(tri)) < 3:
            continue
        for a, b in ((0, 1), (1, 2), (2, 0)):
            e = tuple(sorted((tri[a], tri[b])))
            edges[e] = edges.get(e, 0) + 1
    size = tuple(max(p[i] for p in pts) - min(p[i] for p in pts) for i in range(3))
    return all(c == 2 for c in edges.values()), size


def test_each_part_is_a_closed_solid_of_its_size_in_step_stl_and_dxf(model, tmp_path):
    from build123d import import_step
    import ezdxf
    from boardgen.mech import build
    made = build.outputs(model, str(tmp_path))
    printed, cut = model.printed(), model.cut()
    assert len(made) == 2 * len(printed) + 2 * len(cut)
    expected = {"tile-water": (d.TILE_SIDE_MM, d.TILE_SIDE_MM, d.TILE_MM),
                "piece-light-heart": (d.PIECE_BASE_MM, d.PIECE_BASE_MM, d.PIECE_HEIGHT_MM),
                "piece-dark-traveller": (d.PIECE_BASE_MM, d.PIECE_BASE_MM, d.PIECE_HEIGHT_MM)}
    px0, py0, px1, py1 = model.layout.panel_box()
    expected["top-panel"] = (px1 - px0, py1 - py0, d.TOP_PANEL_MM)
    cx0, cy0, cx1, cy1 = model.layout.case_box()
    expected["base-plate"] = (cx1 - cx0, cy1 - cy0, lay.BASE_MM)
    for name, solid in list(printed.items()) + list(cut.items()):
        step = import_step(os.path.join(tmp_path, name + ".step"))
        assert step.is_valid and len(step.solids()) >= 1, name
        bb, sb = solid.bounding_box(), step.bounding_box()
        assert (bb.size - sb.size).length < 0.01, name
        if name in expected:
            assert tuple(round(v, 2) for v in (sb.size.X, sb.size.Y, sb.size.Z)) == \
                pytest.approx(expected[name], abs=0.01), name
        if name in printed:
            closed, size = _stl_closed(os.path.join(tmp_path, name + ".stl"))
            assert closed, name
            assert max(size[0], size[1]) <= 256, (name, size)       # on a 256 mm printer's bed
            assert size == pytest.approx((bb.size.X, bb.size.Y, bb.size.Z), abs=0.05), name
    doc = ezdxf.readfile(os.path.join(tmp_path, "base-plate.dxf"))
    circles = [e for e in doc.modelspace() if e.dxftype() == "CIRCLE" and e.dxf.layer == "CUT"]
    assert len(circles) == len(model.layout.holes()) + len(__import__(
        "boardgen.mech.parts", fromlist=["x"]).base_screws(model.layout))
    panel = ezdxf.readfile(os.path.join(tmp_path, "top-panel.dxf"))
    assert len([e for e in panel.modelspace() if e.dxf.layer == "ENGRAVE"]) == 18      # 9 lines each way


def test_hardware_generated_mech_is_what_make_mech_makes(model):
    from boardgen.mech import build
    with open(os.path.join(HW, "generated", build.REPORT)) as f:
        assert f.read() == model.report(), "hardware/generated/mech/fit.md is stale: run `make mech`"
    digest = build.source_digest()
    for rel in build.DRAWINGS:
        assert build.stored_digest(os.path.join(HW, "generated", rel)) == digest, \
            "hardware/generated/%s is stale: run `make mech`" % rel


def test_the_terrains_are_the_engines():
    pytest.importorskip("build123d", reason="build123d is not installed")
    from boardgen.mech import parts
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from vortex.engine import defs
    assert parts.TERRAINS == defs.TERRAIN_NAMES[1:]


def test_the_sensors_are_whatever_sits_on_the_column_lines(layout, monkeypatch):
    """Read from the netlist and the board, not assumed: eight of them, on
    the bottom under each cell; a sensor with no known sensing height (a
    Hall switch in a new footprint) stops the checks, naming it."""
    sensors = layout.sensors()
    assert len(sensors) == 8 and {s[2] for s in sensors} == {"B"}
    for (_ref, _fp, _side, x, _y, _h), (_c, cx, _cy, _hh) in zip(sensors, layout.coils(0)):
        assert abs(x - cx) < d.CELL_PITCH_MM / 2
    monkeypatch.setattr(heights, "SENSORS", {})
    with pytest.raises(heights.UnknownPart, match="no sensing height for .*Reed"):
        layout.sensors()


def test_a_footprint_without_a_height_is_named(layout, monkeypatch):
    body = dict(heights.BODY)
    body.pop("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")
    monkeypatch.setattr(heights, "BODY", body)
    with pytest.raises(heights.UnknownPart, match="WS2812B"):
        layout.parts("rank")


def test_the_cell_ends_screws_beside_coil_a_are_nylon(layout):
    """The rank board's holes at its cell end sit beside coil a: their
    screws and standoffs are nylon; the electronics end's may be metal."""
    table = fit.screws(layout)
    cell_end = [t for t in table if t[0].startswith("rank") and t[1] < 50]
    far = [t for t in table if t[0].startswith("rank") and t[1] > 300]
    assert cell_end and all(not metal for *_rest, metal in cell_end)
    assert far and all(metal for *_rest, metal in far)


def test_the_standoffs_are_the_shortest_that_clear_the_boards_undersides(layout):
    deepest = max(h if side == "B" else below for board in ("rank", "controller")
                  for _r, _f, side, _box, h, below in layout.parts(board))
    assert layout.standoff >= deepest + lay.PART_CLEARANCE_MM
    shorter = [s for s in lay.STANDOFFS_MM if s < layout.standoff]
    assert all(s < deepest + lay.PART_CLEARANCE_MM for s in shorter)
