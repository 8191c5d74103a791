"""The board's computed figures, from dims.py through physics.py.

figures() returns one dict; the drawings, the schematic's part values, the
parts list, hardware/power.py and generated/figures.md all read it, so a
changed dimension changes them all together.
"""
import csv
import math
import os

from . import dims as d
from . import orderable
from . import physics as ph

MM = 1e-3


def stack():
    """Heights (mm) above the PCB's top copper of every layer's faces."""
    z = {"pcb_bottom": -d.PCB_MM, "coil": 0.0, "led_top": d.LED_HEIGHT_MM}
    z["panel_bottom"] = z["led_top"] + d.GAP_MM
    z["panel_top"] = z["panel_bottom"] + d.TOP_PANEL_MM
    z["tile_bottom"] = z["panel_top"]
    z["tag"] = z["tile_bottom"] + d.TAG_RECESS_MM - d.TAG_MM / 2   # stuck to its recess's ceiling
    z["tile_top"] = z["tile_bottom"] + d.TILE_MM
    z["magnet_bottom"] = z["tile_top"] + d.PIECE_FLOOR_MM
    z["magnet_top"] = z["magnet_bottom"] + d.MAGNET_THICK_MM
    z["piece_top"] = z["tile_top"] + d.PIECE_HEIGHT_MM
    z["reed"] = -d.PCB_MM - d.REED_GLASS_DIA_MM / 2
    return z


def closed_form():
    """The coil alone in free space by the closed forms: (L, R, trace length,
    inner side, equivalent loop radius), metres, henries, ohms."""
    n, out, w, s = d.COIL_TURNS, d.COIL_OUTER_MM * MM, d.COIL_TRACE_MM * MM, d.COIL_SPACE_MM * MM
    l = ph.mohan_square(n, out, w, s)
    length = ph.square_spiral_length(n, out, w, s)
    r = ph.trace_resistance_ac(length, w, d.COPPER_UM * 1e-6)
    d_in = out - 2 * (n * w + (n - 1) * s)
    return l, r, length, d_in, ph.square_loop_radius((out + d_in) / 2)


COIL_EM_CSV = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "generated", "coil_em.csv")
COIL_EM_COLUMNS = ("case", "pour_gap_mm", "board", "L_nH", "R_mOhm", "Q", "steps", "cells")


def read_coil_em(path=None):
    """The field solver's cases for one coil (generated/coil_em.csv, written
    by `make em`, pcb/coil_em.py): [{case, gap (mm; None: free space),
    board (the pour as the board has it), L (H), R (Ohm)}], or None when
    there is no file. A malformed file raises ValueError with a one-line reason."""
    path = path or COIL_EM_CSV
    if not os.path.exists(path):
        return None
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    if not rows or tuple(rows[0].keys()) != COIL_EM_COLUMNS:
        raise ValueError("%s: expected the columns %s" % (path, ", ".join(COIL_EM_COLUMNS)))
    out = []
    for n, row in enumerate(rows, 2):
        try:
            gap = float(row["pour_gap_mm"]) if row["pour_gap_mm"] else None
            l, r = float(row["L_nH"]) * 1e-9, float(row["R_mOhm"]) * 1e-3
        except (TypeError, ValueError):
            raise ValueError("%s data line %d: the gap, L and R must be numbers" % (path, n))
        if not (0 < l < math.inf and 0 < r < math.inf) or row["board"] not in ("yes", "no"):
            raise ValueError("%s data line %d: L and R positive and finite, board yes or no" % (path, n))
        out.append({"case": row["case"], "gap": gap, "board": row["board"] == "yes", "L": l, "R": r})
    if [r["board"] for r in out].count(True) > 1:
        raise ValueError("%s: more than one row is the board's" % path)
    return out


def coil_lr(path=None):
    """The one place the coil's L and R come from. With the field solver's
    cases (generated/coil_em.csv): L is Mohan's closed form times the solver's
    ratio of the coil with the pour as the board has it to the coil in free
    space (the solver's coarse mesh misses the free coil's L by what
    COIL_EM_AGREE bounds; in the ratio that error cancels), R the solver's
    own for the board (it has the turns' proximity loss, which the closed form
    leaves out, and the pour's). Without them, the closed forms (free space).
    (L, R, where from)."""
    rows = read_coil_em(path) or []
    board = [r for r in rows if r["board"]]
    free = [r for r in rows if r["gap"] is None]
    l, r = closed_form()[:2]
    if board and free:
        return (l * board[0]["L"] / free[0]["L"], board[0]["R"],
                "openEMS, pour %g mm away: L closed form x %.3f, R solved" % (board[0]["gap"],
                                                                            board[0]["L"] / free[0]["L"]))
    return l, r, "closed forms, free space"


def _coil_geometry():
    """closed_form() with the coil's L and R as coil_lr() has them."""
    l, r, _src = coil_lr()
    return (l, r) + closed_form()[2:]


def _field(l, r, a, r_on, c_n, c1):
    v = 4 / math.pi * d.TVDD_V
    drv = ph.drive_series(l, r, r_on, d.EMC_L0_H, c_n, c1, v)
    z_tag = (stack()["tag"] - stack()["coil"]) * MM
    return drv, ph.loop_field_axis(d.COIL_TURNS, drv["i_ant"] / math.sqrt(2), a, z_tag)


def _network(l, r, r_on, x):
    c_n, c1, z = ph.match_series(l, r_on + r / 2, x, d.EMC_L0_H)
    return c_n, c1, z


def _x_for_field(l, r, a, r_on, h):
    """The branch reactance fraction whose match gives the field nearest h at
    the tag (a scan of the fractions for which a match exists), and that field."""
    best = None
    for i in range(200, 995):
        x = i / 1000
        try:
            c_n, c1, _z = _network(l, r, r_on, x)
        except ValueError:
            continue
        got = _field(l, r, a, r_on, c_n, c1)[1]
        if best is None or abs(got - h) < abs(best[1] - h):
            best = (x, got)
    if best is None:
        raise ValueError("no match for Ron %g Ohm" % r_on)
    return best[0]


# What C1 and C_N are fitted from: the RF series' values (orderable.py), so
# no value the series lacks can be chosen.
_E24_CAPS = list(orderable.C0G_VALUES)


def e24_nearest(c):
    return min(_E24_CAPS, key=lambda v: abs(v - c))


def e24_pair(c):
    """Two of the RF series' capacitors in parallel closest to c (the second
    may be 0): C0G parts come in E24 steps, the network wants the computed
    value; past the series' top, its two largest."""
    best = (abs(c), 0.0, 0.0)
    for a in _E24_CAPS:
        if a > c * 1.001:
            break
        rest = c - a
        b = min(_E24_CAPS + [0.0], key=lambda v: abs(v - rest))
        best = min(best, (abs(a + b - c), a, b))
    return best[1], best[2]


def c1_parts(c):
    """How a coil's C1 is fitted: the series' nearest value when it is within
    C1_TOLERANCE of the computed one, else the closest pair."""
    one = e24_nearest(c)
    if abs(one - c) <= d.C1_TOLERANCE * c:
        return (one,)
    a, b = e24_pair(c)
    return (a, b) if b else (a,)


FEEDS_CSV = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "generated", "feeds.csv")
FEED_COLUMNS = ("board", "coil", "feed_length_mm", "feed_inductance_nH")


def feed_estimate(f):
    """Coil f's feed before the layout exists: the pair runs along the rank
    board from the reader's switches (at READER_X_MM) to the coil's centre
    line, plus FEED_EXTRA_MM into the coil. (length mm, inductance H) of the
    pair as a coplanar strip line (physics.coplanar_strips_inductance)."""
    x = (f + 0.5) * d.CELL_PITCH_MM
    length = abs(x - d.READER_X_MM) + d.FEED_EXTRA_MM
    per_m = ph.coplanar_strips_inductance(d.FEED_TRACE_MM * MM, d.FEED_GAP_MM * MM)
    return length, per_m * length * MM


def read_feeds(path):
    """The feeds measured on the routed rank board (written by the layout
    code): {coil: (length mm, inductance H)}, or None when there is no file.
    A malformed file raises ValueError with a one-line reason."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows or tuple(rows[0].keys())[:4] != FEED_COLUMNS:
        raise ValueError("%s: expected the columns %s" % (path, ", ".join(FEED_COLUMNS)))
    out = {}
    for n, row in enumerate(rows, 2):
        try:
            board, coil_f = row["board"], int(row["coil"])
            length, nh = float(row["feed_length_mm"]), float(row["feed_inductance_nH"])
        except (TypeError, ValueError):
            raise ValueError("%s line %d: coil must be an integer, the feed numbers numbers" % (path, n))
        if board != "rank":
            continue
        # (NaN compares false with everything, inf passes a bound: both refused by name)
        if not (0 <= coil_f < 8 and 0 < length < math.inf and 0 <= nh < math.inf):
            raise ValueError("%s line %d: coil 0-7, a positive length, an inductance >= 0 (both finite)"
                             % (path, n))
        if coil_f in out:
            raise ValueError("%s line %d: coil %d again" % (path, n, coil_f))
        out[coil_f] = (length, nh * 1e-9)
    if sorted(out) != list(range(8)):
        raise ValueError("%s: the rank board needs one row per coil 0-7" % path)
    return out


def feeds(path=None):
    """Each coil's feed (length mm, inductance H, where from): measured when
    generated/feeds.csv (or path) exists, else estimated from the placement."""
    measured = read_feeds(path or FEEDS_CSV)
    if measured is not None:
        return [measured[f] + ("layout",) for f in range(8)]
    return [feed_estimate(f) + ("estimate",) for f in range(8)]


def _loop(l, r, feed):
    """The coil and its feed pair as one loop: inductance, resistance."""
    length, l_feed, _src = feed
    r_feed = 2 * ph.trace_resistance_ac(length * MM, d.FEED_TRACE_MM * MM, d.COPPER_UM * 1e-6)
    return l + l_feed, r + r_feed


def coil(path=None):
    """The reader coil and its network: the node capacitor C_N (per side, per
    rank: C0 of the EMC filter plus the matching's share, the switch's own
    capacitance subtracted), and per coil its own C1 (per side): each coil's
    feed adds its inductance to the loop, and C1 takes it back so every coil
    shows the branch the network was solved for. The network is solved on
    the coil with the shortest feed (its C1 the largest: a DC block when the
    match wants the whole coil's reactance)."""
    l, r, length, d_in, a = _coil_geometry()
    l_cf, r_cf = closed_form()[:2]
    fd = feeds(path)
    loops = [_loop(l, r, f) for f in fd]
    l_ref, r_ref = min(loops)
    x = _x_for_field(l_ref, r_ref, a, d.SWITCH_RON_OHM, d.H_TARGET_A_PER_M)
    c_n, _c1, z = _network(l_ref, r_ref, d.SWITCH_RON_OHM, x)
    w = ph.omega()
    x_branch = x * w * l_ref / 2
    per_coil = []
    for f, ((l_f, r_f), feed) in enumerate(zip(loops, fd)):
        c1 = 1 / (w * (w * l_f / 2 - x_branch))
        fitted = c1_parts(c1)
        drv, h = _field(l_f, r_f, a, d.SWITCH_RON_OHM, c_n, sum(fitted))
        drv_max, h_max = _field(l_f, r_f, a, d.SWITCH_RON_MAX_OHM, c_n, sum(fitted))
        per_coil.append({"file": f, "feed_mm": feed[0], "feed_nH": feed[1] * 1e9, "feed_source": feed[2],
                         "L": l_f, "R": r_f, "C1": c1, "C1_parts": fitted, "drive": drv, "H": h,
                         "H_ron_max": h_max, "Z_port": drv["z_port"],
                         "supply_mA": 2 / math.pi * drv["i_port"] * 1000,
                         "supply_max_mA": 2 / math.pi * drv_max["i_port"] * 1000})
    ref = min(per_coil, key=lambda pc: pc["L"])
    drv, h = ref["drive"], ref["H"]
    drv_max, h_max_ron = _field(ref["L"], ref["R"], a, d.SWITCH_RON_MAX_OHM, c_n, sum(ref["C1_parts"]))
    return {"L": l, "R": r, "L_source": coil_lr()[2], "L_closed": l_cf, "R_closed": r_cf, "em": read_coil_em(),
            "length": length, "d_in": d_in, "a": a, "x": x,
            "C_N": c_n, "C_node": c_n - d.SWITCH_C_ON_F, "C1": ref["C1"], "Z_port": z,
            "C0_emc": ph.emc_c0(d.EMC_L0_H, d.EMC_F_CUT_HZ),
            "f_node": ph.tank_frequency(d.EMC_L0_H, c_n),
            "drive": drv, "H": h, "H_ron_max": h_max_ron, "drive_ron_max": drv_max,
            "Q_loaded": ph.omega() * l / (r + 2 * d.SWITCH_RON_OHM),
            "supply_mA": max(pc["supply_mA"] for pc in per_coil),
            "coils": per_coil, "feeds_from": fd[0][2]}


def today(c):
    """Today's design: a CD74HC4067 in series with the coil. Whatever the
    matching, the coil needs the same current for the same field at the tag;
    that current flows through the mux's on-resistance."""
    z_tag = (stack()["tag"] - stack()["coil"]) * MM
    a, n = c["a"], d.COIL_TURNS
    i_rms = 2 * d.H_TARGET_A_PER_M * (a * a + z_tag * z_tag) ** 1.5 / (n * a * a)
    i_pk = i_rms * math.sqrt(2)
    return {"i_needed_pk": i_pk, "v_mux_pk": i_pk * d.CD4067_RON_OHM,
            "p_mux": i_rms ** 2 * d.CD4067_RON_OHM,
            "q": ph.omega() * c["L"] / (c["R"] + d.CD4067_RON_OHM),
            "i_adg_pk": c["drive"]["i_ant"]}


def unselected(c):
    """An unselected coil: its switch is open, so the loop through its two C1s
    closes only through the off channels' capacitance to ground. Where it
    resonates, and the current a selected neighbour induces in it."""
    c_series = 1 / (2 / c["C1"] + 2 / d.SWITCH_C_OFF_F)
    f_self = ph.tank_frequency(c["L"], c_series)
    k = ph.coplanar_k(d.COIL_TURNS, c["a"], c["L"], d.CELL_PITCH_MM * MM)
    q = ph.omega(f_self) * c["L"] / c["R"]
    ratio = ph.coupled_current_ratio(k, q, f_self, l1=c["L"], l2=c["L"])
    # The same neighbour if it stayed tuned to 13.56 MHz (a shunt capacitor at
    # the coil, or the loop closed through the matching): the ADG904 failure.
    ratio_tuned = ph.coupled_current_ratio(k, c["Q_loaded"], ph.F_CARRIER, l1=c["L"], l2=c["L"])
    return {"f_self": f_self, "k": k, "ratio": ratio, "ratio_if_tuned": ratio_tuned}


def magnet_and_reed():
    z = stack()
    dist = (z["magnet_bottom"] - z["reed"]) * MM
    br, rad, th = d.MAGNET_BR_T, d.MAGNET_DIA_MM / 2 * MM, d.MAGNET_THICK_MM * MM
    b_at_reed = ph.disc_magnet_axial(br, rad, th, dist)
    b_need = ph.reed_closing_field(d.REED_AT_MAX, d.REED_TEST_COIL_MM * MM, d.REED_ONE_POLE)
    closing = ph.closing_distance(br, rad, th, b_need)
    closing_margin = ph.closing_distance(br, rad, th, b_need * d.REED_MARGIN)
    # The neighbour's reed: one pitch to the side, at the same depth.
    r = math.hypot(d.CELL_PITCH_MM * MM, dist)
    b_neigh = ph.dipole_field(br, rad, th, r, math.atan2(d.CELL_PITCH_MM * MM, dist))
    # A piece stood off the cell's centre: the field at the reed's end under
    # the centre, for each offset (the piece's base may sit up to the tile's
    # play plus the player's aim away).
    off = {}
    for mm in d.PIECE_OFFSETS_MM:
        b_rho, b_z = ph.disc_magnet_field(br, rad, th, mm * MM, dist)
        off[mm] = math.hypot(b_rho, b_z)
    return {"distance": dist, "B_reed": b_at_reed, "B_need": b_need,
            "closing": closing, "closing_margin": closing_margin, "B_neighbour": b_neigh,
            "B_offset": off}


def magnet_read_cost(c):
    """What the piece's magnet above the tag costs: the flux it takes back and
    its detuning of the tag, as the fraction of the tag's voltage kept, and
    the read range (where the field falls to Hmin) with and without it."""
    z = stack()
    a_tag = d.TAG_ANT_MEAN_DIA_MM / 2 * MM
    a_mag = d.MAGNET_DIA_MM / 2 * MM
    d_ct = (z["tag"] - z["coil"]) * MM
    wires = (d.TAG_TRACE_MM * MM / 2, d.MAGNET_THICK_MM * MM / 2)

    def keep(d_tm):
        flux, k2 = ph.shorted_turn_effect(a_tag, a_mag, d_tm, c["a"], d_ct, *wires)
        return flux * ph.detuned_response(d.TAG_F_MHZ * 1e6, d.TAG_Q, k2), flux, k2

    d_tm = (z["magnet_bottom"] - z["tag"]) * MM + d.MAGNET_THICK_MM * MM / 2
    kept, flux, k2 = keep(d_tm)
    kept_far = keep(d_tm + 3 * MM)[0]
    i_rms = c["drive"]["i_ant"] / math.sqrt(2)
    n = d.COIL_TURNS

    def reach(factor):
        return ph.distance_for_field(n, i_rms, c["a"], d.H_MIN_A_PER_M / factor)
    return {"d_coil_tag": d_ct, "d_tag_magnet": d_tm, "flux": flux, "k2": k2,
            "keep": kept, "H_tag": c["H"], "H_tag_magnet": c["H"] * kept,
            "range_free": reach(1.0), "range_magnet": reach(kept),
            "keep_far": kept_far, "range_far": reach(kept_far)}


def soft_start():
    """The 5 V soft start: the P-MOSFET's gate sits at its plateau while the
    drain rises, so the Miller capacitor's current is what the gate's
    Thevenin source gives at the plateau: dV/dt = I / C_GD, and the inrush
    into all nine boards' bulk capacitance is C dV/dt. At the plug's step the
    gate follows the source through C_GS: |Vgs| = 5 V C_GD / (C_GS + C_GD)."""
    v = 5.0
    r_th = d.SOFTSTART_R_TOP_OHM * d.SOFTSTART_R_BOT_OHM / (d.SOFTSTART_R_TOP_OHM + d.SOFTSTART_R_BOT_OHM)
    v_th = v * d.SOFTSTART_R_BOT_OHM / (d.SOFTSTART_R_TOP_OHM + d.SOFTSTART_R_BOT_OHM)
    i_gate = (v - d.SOFTSTART_VPLATEAU_V - v_th) / r_th
    slew = i_gate / d.SOFTSTART_CGD_F
    c_bulk = (d.CONTROLLER_BULK_UF + 8 * d.RANK_BULK_UF) * 1e-6
    vgs_on = v * d.SOFTSTART_R_TOP_OHM / (d.SOFTSTART_R_TOP_OHM + d.SOFTSTART_R_BOT_OHM)
    return {"slew_v_per_s": slew, "inrush_a": c_bulk * slew, "rise_ms": v / slew * 1000,
            "bulk_uf": c_bulk * 1e6,
            "vgs_step": v * d.SOFTSTART_CGD_F / (d.SOFTSTART_CGS_F + d.SOFTSTART_CGD_F),
            "vgs_on": vgs_on, "attach_uf": 4.7 + 1e6 / (1 / d.SOFTSTART_CGS_F + 1 / d.SOFTSTART_CGD_F),
            "p_fet_w": d.SOFTSTART_RDS_OHM * (d.POLYFUSE_HOLD_A * d.POLYFUSE_DERATE) ** 2}


def node_sensitivity(c, dc=10e-12):
    """The farthest coil's port impedance and field with the node capacitance
    dc off (the switch's capacitance is not known to better: the prototype
    measures the node and trims C_N)."""
    pc = max(c["coils"], key=lambda p: p["feed_mm"])
    out = []
    for delta in (-dc, dc):
        drv, h = _field(pc["L"], pc["R"], c["a"], d.SWITCH_RON_OHM, c["C_N"] + delta,
                        sum(pc["C1_parts"]))
        out.append((delta, drv["z_port"], h))
    return out


def cc_thresholds():
    """USB Type-C sink detection thresholds (Type-C spec, table 4-36: vRd-Connect
    0.2 V, USB/1.5 A boundary 0.66 V, 1.5 A/3.0 A boundary 1.23 V) as seen at
    CC_SENSE through the summing divider, in volts and in read_u16 counts of
    the RP2040 ADC (0-3.3 V -> 0-65535)."""
    out = {}
    for name, v in (("CONNECT", 0.2), ("1A5", 0.66), ("3A0", 1.23)):
        vs = ph.summed_cc(v, d.CC_SUM_OHM, d.CC_RD_OHM)
        out[name] = (v, vs, round(vs / 3.3 * 65535))
    out["rd_seen"] = ph.rd_seen(d.CC_RD_OHM, d.CC_SUM_OHM)
    return out


# Source current each advertisement allows (USB 2.0: 500 mA after enumeration,
# USB 3.x: 900 mA; Type-C Current @ 1.5 A / 3.0 A).
SOURCES = (("USB default (USB 2.0)", 500), ("USB default (USB 3.x)", 900),
           ("Type-C 1.5 A", 1500), ("Type-C 3.0 A", 3000))


def led_budgets(readers_on, tx_ma):
    """LED current (mA above the LEDs' own idle draw) each source leaves, with
    `readers_on` fields on at tx_ma each: 90 % of the source's rating (margin
    for the cable), and never more than the polyfuse holds in a warm room
    (its hold current derated, dims.POLYFUSE_DERATE)."""
    rows = []
    fixed = (d.PICO_MA + d.LOGIC_MA + 64 * d.LED_MA_IDLE + 8 * d.READER_IDLE_MA
             + readers_on * tx_ma)
    for name, ma in SOURCES:
        ceiling = min(0.9 * ma, d.POLYFUSE_HOLD_A * d.POLYFUSE_DERATE * 1000)
        rows.append((name, ma, max(0, int(ceiling - fixed))))
    return rows, fixed


def figures():
    c = coil()
    return {"stack": stack(), "coil": c, "today": today(c), "unselected": unselected(c),
            "soft_start": soft_start(), "node_sensitivity": node_sensitivity(c),
            "reed": magnet_and_reed(), "magnet": magnet_read_cost(c), "cc": cc_thresholds(),
            # the design's computed reader current, and the data sheet's typical
            "budget": led_budgets(8, c["supply_mA"]),
            "budget_datasheet": led_budgets(8, d.MFRC522_TX_TYP_A * 1000),
            "budget_64": led_budgets(64, d.MFRC522_TX_TYP_A * 1000)}
