"""One reader coil in its GND pour, solved by a field solver (openEMS, FDTD).

physics.py's inductance (Mohan's closed form) and resistance (skin depth)
hold for the coil alone in free space. On the rank board each coil sits in
the GND pour of both layers; at 13.56 MHz the 35 um copper is two skin
depths thick, so the pour shuts the coil's returning flux out of itself:
the slot below each coil stops a ring current round it, not the eddy
currents along the pour's edge, which lower L and add loss. This module
builds that board around one coil from the same code that lays it out
(footprints.coil_path, place.pour_free and pour_cut, dims) and solves it:

* the coil's copper and the pour: a layer of one mesh step (CU_LAYER_MM) on
  each face of 1.6 mm FR-4 whose conductivity gives the 35 um foil's sheet
  resistance (physics.trace_resistance_ac's thickness: the foil is about two
  skin depths); the inner end's crossover on the bottom layer, the two vias;
  a lumped port between the coil's two pads. (openEMS's conducting-sheet
  model was tried first: with vias it left a current circulating after the
  pulse, which spoils the port's impedance.)
* the pour as laid (every layer, the coil's keep-out, the slot below it, its
  neighbours' keep-outs and slots, the gap to the next rank's board) over a
  window of one cell pitch round the coil; or pulled back to a gap;
  or none (free space);
* a Gaussian pulse (about 0 to F_MAX, no DC) into the port through PORT_OHM;
  Z(13.56 MHz) = U/I by the DFT of the port's voltage and current, run
  until the energy has fallen by END_DB; L = Im Z / omega, R = Re Z.

Simplifications: the pour is solid (the tracks that cut it on the real
board are left out: the pour's effect comes out larger, not smaller); the
other coils' copper is left out (open loops at 13.56 MHz: their switch is
open); the boards' 0.2 mm gap is 0.4 mm wide (the mesh's finest step);
past FINE_MM from the centre the mesh grows coarse, so the pour's features
out there (the neighbours' slots) are blurred; the mesh puts one step
across each trace, so the solved L comes out about a tenth under Mohan's
(see figures.coil_lr for how the board's figure is taken from it).

cases() and every number the model uses, and this file's code (its prose
left out), are hashed into digest(): the cached results
(generated/coil_em.csv) carry it, so a changed input makes them stale.
Imports openEMS only to solve (Debian: apt-get install python3-openems).
"""
import ast
import csv
import hashlib
import io
import json
import math
import os
import tempfile

import dims
import place
from footprints import COIL_FEED_GAP_MM, COIL_VIA_PAD_MM, coil_feeds, coil_keepout, coil_path

F = 13.56e6               # the carrier, Hz
F_MAX = 150e6             # the pulse's band (about 0 to this, no DC): well below the coil's self-resonance
EPS_FR4 = 4.4             # FR-4 at 10 MHz-1 GHz (IPC-4101/21 class laminates: 4.2-4.7)
TAN_D_FR4 = 0.02
SIGMA_CU = 1 / 1.72e-8    # S/m, as physics.RHO_CU
PORT_OHM = 200.0          # the port's source resistance: L/R a few ns, so the pulse dies out quickly
WINDOW_MM = dims.CELL_PITCH_MM   # the pour modelled to this distance from the coil's centre
BOX_MM = 70.0             # PEC walls this far from the centre, in x and y (twice the window)
BOX_Z_MM = 45.0           # and above and below the board
MESH_MIN_MM = 0.4         # the finest step (the coil's spacing): the time step follows it
CU_LAYER_MM = MESH_MIN_MM # the copper's layer in the model (see solve)
MESH_MAX_MM = 1.0         # the finest region's largest step: the pour and the coil
FINE_MM = 18.0            # the fine mesh this far from the centre: the coil, the pour round it, the
                          # boards' edges; the rest of the window on a mesh growing to MESH_FAR_MM
MESH_FAR_MM = 6.0         # out to the walls
BOARD_GAP_MM = 0.4        # between neighbouring rank boards (0.2 mm on the real grid; see above)
END_DB = -50.0            # stop when the energy has fallen this far
MAX_STEPS = 400000
GAPS_MM = (2.0, 4.0)      # the pull-backs solved beside free space and the board as laid (at 5.5 mm
                          # no pour is left between the cells)
CSV_COLUMNS = ("case", "pour_gap_mm", "board", "L_nH", "R_mOhm", "Q", "steps", "cells")


def cases():
    """[(name, pour gap mm or None for free space)]: free space, the pour at
    the coil's keep-out (the board before issue 37), each pull-back of
    GAPS_MM and the board's own (place.pour_gap), in order."""
    gaps = sorted({round(coil_keepout() - dims.COIL_OUTER_MM / 2, 3), round(place.pour_gap(), 3)}
                  | set(GAPS_MM))
    return [("free space", None)] + [("pour %g mm" % g, g) for g in gaps]


# -- geometry (mm, the coil's centre at 0, y down as on the board) -----------------

def _rot(p):
    """The footprint's coordinates to the board's at place.COIL_ROT (KiCad:
    counter-clockwise on screen, y down)."""
    a = math.radians(place.COIL_ROT)
    x, y = p
    return (round(x * math.cos(a) + y * math.sin(a), 6), round(-x * math.sin(a) + y * math.cos(a), 6))


def _seg_box(a, b, w):
    (x0, y0), (x1, y1) = a, b
    h = w / 2
    return (min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h, max(y0, y1) + h)


def coil_geometry():
    """{'top': [rects], 'bottom': [rects], 'vias': [(x, y)], 'port': rect,
    'port_dir': axis}: the coil's copper as the footprint draws it, turned
    as placed, and the port between its pads (on top copper)."""
    w = dims.COIL_TRACE_MM
    pts = coil_path()
    (p1x, p1y), (p2x, p2y) = coil_feeds()
    top = [_seg_box(_rot(a), _rot(b), w) for a, b in zip([(p1x, p1y)] + pts, pts)]
    bottom = [_seg_box(_rot(pts[-1]), _rot((p2x, p2y)), w)]
    # pad 2's via back to the top, and a stub towards pad 1: the port spans
    # the gap left (along the footprint's x, the pads' row)
    gap = dims.COIL_SPACE_MM + dims.COIL_TRACE_MM   # its ends on the turns' mesh lines, a line between
    sgn = 1 if p2x > p1x else -1
    edge = p1x + sgn * (w / 2 + gap)             # the stub's end, the port's far side
    top.append(_seg_box(_rot((p2x, p2y)), _rot((edge + sgn * w / 2, p2y)), w))
    port = _seg_box(_rot((p1x + sgn * w / 2, p1y)), _rot((edge, p1y)), 0)
    pw = _rot((0, w / 2))
    port = (port[0] - abs(pw[0]), port[1] - abs(pw[1]), port[2] + abs(pw[0]), port[3] + abs(pw[1]))
    axis = 0 if abs(_rot((1, 0))[0]) > 0.5 else 1
    # the port's middle, on a turn's edge (a mesh line): where its current is measured
    mid = (port[axis] + port[axis + 2]) / 2
    edges = sorted({r[k] for r in top[:-1] for k in (axis, axis + 2)}, key=lambda v: abs(v - mid))
    feed_clear = _seg_box(_rot((p1x, p1y)), _rot((p2x, p2y)), COIL_VIA_PAD_MM + 2 * 0.3)
    return {"top": top, "bottom": bottom, "vias": [_rot(pts[-1]), _rot((p2x, p2y))],
            "port": port, "port_dir": axis, "feed_clear": feed_clear, "probe": edges[0]}


def pour_holes(gap):
    """The rectangles the pour leaves free within the window round the coil
    at (0, 0), the same on both layers: each cell's pour-free square (the
    coil and `gap` round it), each cell's slot below it, the boards' gaps,
    and the coil's own pads' clearance."""
    pitch, height = dims.CELL_PITCH_MM, place.board_height()
    holes = []
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            cx, cy = i * pitch, j * pitch
            holes.append(place.pour_free(cx, cy, gap))
            holes.append(place.pour_cut(cx, cy, height))
    for j in (-1, 0):                       # the boards' gaps above and below this one
        y = (j + 0.5) * pitch
        holes.append((-WINDOW_MM, y - BOARD_GAP_MM / 2, WINDOW_MM, y + BOARD_GAP_MM / 2))
    holes.append(coil_geometry()["feed_clear"])
    return holes


def _clip(r, lim):
    return (max(r[0], -lim), max(r[1], -lim), min(r[2], lim), min(r[3], lim))


def pour_rects(gap):
    """The pour in the window as disjoint rectangles: the window minus the
    holes, cut on every hole's edges, cells merged along x."""
    holes = [h for h in (_clip(h, WINDOW_MM) for h in pour_holes(gap)) if h[0] < h[2] and h[1] < h[3]]
    xs = sorted({-WINDOW_MM, WINDOW_MM} | {v for h in holes for v in (h[0], h[2])})
    ys = sorted({-WINDOW_MM, WINDOW_MM} | {v for h in holes for v in (h[1], h[3])})
    out = []
    for y0, y1 in zip(ys, ys[1:]):
        run = None
        for x0, x1 in zip(xs, xs[1:]):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            free = any(h[0] < mx < h[2] and h[1] < my < h[3] for h in holes)
            if not free:
                run = (run[0], x1) if run else (x0, x1)
            elif run:
                out.append((run[0], y0, run[1], y1))
                run = None
        if run:
            out.append((run[0], y0, run[1], y1))
    return out


# -- what the results depend on ------------------------------------------------------

def inputs():
    """Every number the solved cases depend on (JSON-able)."""
    return {"cases": [[n, g] for n, g in cases()], "board": place.pour_gap(),
            "coil": coil_geometry(), "pour": {str(g): pour_rects(g) for _n, g in cases() if g is not None},
            "pcb_mm": dims.PCB_MM, "copper_um": dims.COPPER_UM, "f": F, "f_max": F_MAX,
            "eps": EPS_FR4, "tan_d": TAN_D_FR4, "sigma": SIGMA_CU, "port_ohm": PORT_OHM,
            "window": WINDOW_MM, "box": [BOX_MM, BOX_Z_MM], "mesh": [MESH_MIN_MM, MESH_MAX_MM, MESH_FAR_MM, CU_LAYER_MM, FINE_MM],
            "end_db": END_DB, "max_steps": MAX_STEPS}


def _code():
    """This file's code without its comments and docstrings (its syntax tree):
    what the results depend on, not how they are explained."""
    with open(os.path.abspath(__file__)) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def digest():
    """sha256 of inputs() and of this file's code."""
    h = hashlib.sha256(json.dumps(inputs(), sort_keys=True).encode())
    h.update(_code().encode())
    return h.hexdigest()


# -- the solve ----------------------------------------------------------------------

def _grow(a, b, step):
    """Lines from a towards b (exclusive of a), the step growing by 1.4 from
    `step` to MESH_FAR_MM, the last one landing on b."""
    out, x, sgn = [], a, 1 if b > a else -1
    while abs(b - x) > 1e-9:
        step = min(step * 1.4, MESH_FAR_MM)
        if abs(b - x) < 1.5 * step:
            out.append(b)
            break
        x += sgn * step
        out.append(x)
    return out


def _mesh(must, may, lo, hi, fine_lo, fine_hi):
    """Mesh lines through every edge of the coil's copper (must) and of the
    rest (may: dropped within MESH_MIN_MM of a line kept; the solver snaps
    it), at most MESH_MAX_MM apart between fine_lo and fine_hi, growing by
    1.4 a step to MESH_FAR_MM out to the walls lo and hi."""
    kept = []
    for v in sorted({round(e, 4) for e in must}):
        if not kept or v - kept[-1] >= MESH_MIN_MM - 1e-9:
            kept.append(v)
    for v in sorted({round(e, 4) for e in may} | {fine_lo, fine_hi}):
        if fine_lo <= v <= fine_hi and all(abs(v - k) >= MESH_MIN_MM - 1e-9 for k in kept):
            kept.append(v)
    kept = sorted(v for v in kept if fine_lo <= v <= fine_hi)
    fine = [kept[0]]
    for a, b in zip(kept, kept[1:]):
        n = math.ceil((b - a) / MESH_MAX_MM - 1e-9)
        fine += [a + (b - a) * k / n for k in range(1, n + 1)]
    step = min(MESH_MAX_MM, fine[1] - fine[0], fine[-1] - fine[-2])
    lines = _grow(fine[0], lo, step)[::-1] + fine + _grow(fine[-1], hi, step)
    return [round(v, 4) for v in lines]


def _cell(lines, v):
    """The index of the mesh cell [lines[i], lines[i + 1]] holding v."""
    return max(i for i in range(len(lines) - 1) if lines[i] <= v + 1e-9)


def solve(gap, workdir, threads=1, log=None):
    """Solve one case (gap None: free space). Returns {L, R, steps, cells}."""
    import numpy as np
    from CSXCAD import ContinuousStructure
    from openEMS import openEMS

    geo = coil_geometry()
    t = dims.PCB_MM
    fdtd = openEMS(NrTS=MAX_STEPS, EndCriteria=10 ** (END_DB / 10))
    fdtd.SetGaussExcite(F_MAX / 2, F_MAX / 2)     # no DC: a DC pulse leaves charge behind
    fdtd.SetBoundaryCond(["PEC"] * 6)
    csx = ContinuousStructure()
    fdtd.SetCSX(csx)
    grid = csx.GetGrid()
    grid.SetDeltaUnit(1e-3)
    # copper: a layer one mesh step thick on each face of the board whose
    # conductivity gives the foil's own sheet resistance (35 um is about two
    # skin depths: physics.trace_resistance_ac's thickness); vias the same
    cu = csx.AddMaterial("copper", kappa=SIGMA_CU * dims.COPPER_UM * 1e-3 / CU_LAYER_MM)
    fr4 = csx.AddMaterial("fr4", epsilon=EPS_FR4, kappa=2 * math.pi * F * 8.854e-12 * EPS_FR4 * TAN_D_FR4)
    fr4.AddBox([-BOX_MM, -BOX_MM, -t], [BOX_MM, BOX_MM, 0], priority=1)
    must, may = ([], []), ([], [])

    def sheet(r, z, edges):
        z1 = z + CU_LAYER_MM if z == 0 else z - CU_LAYER_MM     # outwards from the board
        cu.AddBox([r[0], r[1], z], [r[2], r[3], z1], priority=10)
        edges[0].extend((r[0], r[2]))
        edges[1].extend((r[1], r[3]))

    p = geo["port"]
    for r in geo["top"]:
        sheet(r, 0, must)
    must[0].extend((p[0], p[2]))
    must[1].extend((p[1], p[3]))
    for r in geo["bottom"]:
        sheet(r, -t, must)
    if gap is not None:
        for r in pour_rects(gap):
            sheet(r, 0, may)
            sheet(r, -t, may)
    lo, hi = [p[0], p[1], 0], [p[2], p[3], CU_LAYER_MM]
    ax = geo["port_dir"]
    res = csx.AddLumpedElement("port_R", ny=ax, caps=True, R=PORT_OHM)
    res.AddBox(lo, hi, priority=20)
    e = [0, 0, 0]
    e[ax] = -1.0
    exc = csx.AddExcitation("port_exc", exc_type=0, exc_val=e)
    exc.AddBox(lo, hi, priority=20)
    mid = [(lo[k] + hi[k]) / 2 for k in range(3)]
    u0, u1 = list(mid), list(mid)
    u0[ax], u1[ax] = lo[ax], hi[ax]
    csx.AddProbe("ut", p_type=0, weight=-1).AddBox(u0, u1)
    i0, i1 = list(lo), list(hi)
    i0[ax] = i1[ax] = geo["probe"]          # a mesh line inside the port
    csx.AddProbe("it", p_type=1, weight=1, norm_dir=ax).AddBox(i0, i1)
    fine = FINE_MM
    lines = [_mesh(must[k], may[k], -BOX_MM, BOX_MM, -fine, fine) for k in (0, 1)]
    grid.SetLines("x", lines[0])
    grid.SetLines("y", lines[1])
    for x, y in geo["vias"]:                # a via: a copper block a mesh cell wide, round its centre
        i, j = _cell(lines[0], x), _cell(lines[1], y)
        cu.AddBox([lines[0][i], lines[1][j], -t - CU_LAYER_MM], [lines[0][i + 1], lines[1][j + 1], CU_LAYER_MM],
                  priority=10)
    grid.SetLines("z", _mesh([-t - CU_LAYER_MM, -t, -t * 2 / 3, -t / 3, 0, CU_LAYER_MM], [],
                             -t - BOX_Z_MM, BOX_Z_MM, -t - CU_LAYER_MM, CU_LAYER_MM))
    cells = (len(grid.GetLines("x")) - 1) * (len(grid.GetLines("y")) - 1) * (len(grid.GetLines("z")) - 1)
    if log:
        log("  %d x %d x %d mesh lines, %d cells" % (len(grid.GetLines("x")), len(grid.GetLines("y")),
                                                   len(grid.GetLines("z")), cells))
    here = os.getcwd()
    try:
        fdtd.Run(workdir, cleanup=True, verbose=0, numThreads=threads)   # it changes into workdir
    finally:
        os.chdir(here)
    u = np.loadtxt(os.path.join(workdir, "ut"), comments="%")
    i = np.loadtxt(os.path.join(workdir, "it"), comments="%")
    uf = np.sum(u[:, 1] * np.exp(-2j * math.pi * F * u[:, 0]))
    i_f = np.sum(i[:, 1] * np.exp(-2j * math.pi * F * i[:, 0]))
    z = uf / i_f
    return {"L": z.imag / (2 * math.pi * F), "R": z.real, "steps": len(u), "cells": cells}


def _solve_case(case):
    name, gap, threads = case
    with tempfile.TemporaryDirectory() as tmp:
        r = solve(gap, tmp, threads)
    print("%s: L = %.1f nH, R = %.0f mOhm (%d samples, %d cells)" % (name, r["L"] * 1e9, r["R"] * 1e3,
                                                                  r["steps"], r["cells"]), flush=True)
    return r


def run(threads=1, jobs=1):
    """Solve every case (jobs at a time, each in a process of its own with
    `threads` threads); the CSV text, stamped with digest()."""
    from concurrent.futures import ProcessPoolExecutor
    todo = [(name, gap, threads) for name, gap in cases()]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_solve_case, todo))
    rows = []
    for (name, gap, _t), r in zip(todo, results):
        q = 2 * math.pi * F * r["L"] / r["R"]
        board = "yes" if gap is not None and abs(gap - place.pour_gap()) < 1e-9 else "no"
        rows.append((name, "" if gap is None else "%g" % gap, board, "%.1f" % (r["L"] * 1e9),
                     "%.0f" % (r["R"] * 1e3), "%.1f" % q, str(r["steps"]), str(r["cells"])))
    out = io.StringIO()
    out.write("# openEMS FDTD of one reader coil (hardware/boardgen/pcb/coil_em.py); `make em` writes it\n")
    out.write("# source digest %s\n" % digest())
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerows(rows)
    return out.getvalue()
