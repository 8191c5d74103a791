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

import pins  # hardware/pins.py: DEBOUNCE_MS (tools/hardware.py and the tests put hardware/ on the path)

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
    z["reed"] = -d.PCB_MM - d.REED_GLASS_DIA_MM / 2   # the reed this sensor replaced (reed_dead_zone)
    z["hall"] = d.SENSE_HALL_Z_MM                    # the Hall element in its SOT-23 on the top copper
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
    """The closed form's drive of one coil: the fundamental of TX1-TX2's
    square wave (4/pi TVDD) through the drivers' output resistance and the
    TX series resistors; and the field at the tag from the coil's current."""
    v = 4 / math.pi * d.TVDD_V
    drv = ph.drive_series(l, r, r_on, d.EMC_L0_H, c_n, c1, v, d.TX_SERIES_OHM, d.MFRC522_TX_ROUT_OHM)
    z_tag = (stack()["tag"] - stack()["coil"]) * MM
    return drv, ph.loop_field_axis(d.COIL_TURNS, drv["i_ant"] / math.sqrt(2), a, z_tag)


def _supply_ma(drv):
    """TVDD's current for a drive: each driver gives its current while high,
    2/pi of the port current's peak times the power factor (the port may be
    reactive away from the match)."""
    z = drv["z_port"]
    return 2 / math.pi * drv["i_port"] * 1000 * (z.real / abs(z))


def _network(l, r, r_on, x):
    c_n, c1, z = ph.match_series(l, r_on + r / 2, x, d.EMC_L0_H)
    return c_n, c1, z


def _x_for_field(l, r, a, r_on, h, x_max=0.995):
    """The branch reactance fraction whose match gives the field nearest h at
    the tag (a scan of the fractions up to x_max for which a match exists;
    the scan's steps stop at or below x_max, never rounded past it)."""
    best = None
    for i in range(200, int(math.floor(x_max * 1000)) + 1):
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


def x_max(l_coil, l_feed, l_loop):
    """The largest branch reactance (as a fraction of the loop's omega L/2) a
    coil may be matched to and keep its margin (M8): with its coil's
    inductance L_MARGIN low, one catalogue C0G part (C1_RETUNE_MAX_F) still
    takes the branch back to it."""
    w = ph.omega()
    x = w * ((1 - d.L_MARGIN) * l_coil + l_feed) / 2 - 1 / (w * d.C1_RETUNE_MAX_F)
    return x / (w * l_loop / 2)


def c1_for(l_loop, x_branch):
    """The series C1 (per side) that leaves a loop of inductance l_loop the
    branch reactance x_branch (Ohm); None when no capacitor can (the loop's
    own reactance is below it)."""
    w = ph.omega()
    rest = w * l_loop / 2 - x_branch
    return 1 / (w * rest) if rest > 0 else None


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
    l_cf, r_cf, length, d_in, a = closed_form()
    l, r, l_source = coil_lr()
    fd = feeds(path)
    loops = [_loop(l, r, f) for f in fd]
    l_ref, r_ref = min(loops)
    feed_ref = min(f[1] for f in fd)
    x = _x_for_field(l_ref, r_ref, a, d.SWITCH_RON_OHM, d.H_TARGET_A_PER_M, x_max(l, feed_ref, l_ref))
    c_n, _c1, z = _network(l_ref, r_ref, d.SWITCH_RON_OHM, x)
    w = ph.omega()
    x_branch = x * w * l_ref / 2
    per_coil = []
    for f, ((l_f, r_f), feed) in enumerate(zip(loops, fd)):
        c1 = 1 / (w * (w * l_f / 2 - x_branch))
        fitted = c1_parts(c1)
        drv, h = _field(l_f, r_f, a, d.SWITCH_RON_OHM, c_n, sum(fitted))
        drv_max, h_max = _field(l_f, r_f, a, d.SWITCH_RON_MAX_OHM, c_n, sum(fitted))
        margin = {}
        for k in (1 - d.L_MARGIN, 1 + d.L_MARGIN):
            l_k = l_f + (k - 1) * l        # the coil's own inductance off, its feed as laid
            retune = c1_for(l_k, x_branch)
            drv_k, h_k = _field(l_k, r_f, a, d.SWITCH_RON_OHM, c_n, sum(fitted))
            drv_km, h_km = _field(l_k, r_f, a, d.SWITCH_RON_MAX_OHM, c_n, sum(fitted))
            margin[k] = {"L": l_k, "C1_retune": retune, "H": h_k, "H_ron_max": h_km, "Z_port": drv_k["z_port"],
                         "supply_mA": _supply_ma(drv_k), "supply_max_mA": max(_supply_ma(drv_k), _supply_ma(drv_km))}
        per_coil.append({"file": f, "feed_mm": feed[0], "feed_nH": feed[1] * 1e9, "feed_source": feed[2],
                         "L": l_f, "R": r_f, "C1": c1, "C1_parts": fitted, "drive": drv, "H": h,
                         "margin": margin,
                         "H_ron_max": h_max, "Z_port": drv["z_port"],
                         "supply_mA": 2 / math.pi * drv["i_port"] * 1000,
                         "supply_max_mA": 2 / math.pi * drv_max["i_port"] * 1000})
    ref = min(per_coil, key=lambda pc: pc["L"])
    drv, h = ref["drive"], ref["H"]
    drv_max, h_max_ron = _field(ref["L"], ref["R"], a, d.SWITCH_RON_MAX_OHM, c_n, sum(ref["C1_parts"]))
    return {"L": l, "R": r, "L_source": l_source, "L_closed": l_cf, "R_closed": r_cf, "em": read_coil_em(),
            "length": length, "d_in": d_in, "a": a, "x": x,
            "C_N": c_n, "C_node": c_n - d.SWITCH_C_ON_F, "C1": ref["C1"],
            "Z_port": z + 2 * d.TX_SERIES_OHM, "x_max": x_max(l, min(f[1] for f in fd), l_ref),
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


# -- the piece sensor ---------------------------------------------------------

# The other cells of the board, in cells (file, rank) from a sensor at d4 (a
# central cell: the most cells near it), nearest first; the first eight are
# its neighbours.
OTHER_CELLS = tuple(sorted(((i, j) for j in range(-3, 5) for i in range(-3, 5) if (i, j) != (0, 0)),
                           key=lambda c: (math.hypot(*c), c)))
# The eight directions a piece may stand off its cell's centre (E, NE, N, ... SE).
DIRECTIONS = tuple((round(math.cos(k * math.pi / 4), 12), round(math.sin(k * math.pi / 4), 12))
                   for k in range(8))
DIRECTION_NAMES = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


def _br(br20, t_c):
    """The magnet's remanence at t_c (graded at 20 C)."""
    return br20 * (1 + d.MAGNET_BR_TC_PER_K * (t_c - 20.0))


def magnet_bz(br, dx, dy, depth):
    """B_z (T) a piece's magnet puts at a point dx, dy (m) off its axis and
    depth (m) below its underside; positive along the magnetisation of a
    piece standing on that point's cell (physics.cylinder_field: the point is
    on the side the magnetisation points to, so B_z keeps its sign)."""
    return ph.cylinder_field(br, d.MAGNET_DIA_MM / 2 * MM, d.MAGNET_THICK_MM * MM,
                             math.hypot(dx, dy), depth)[1]


def reed_depth():
    """The magnet's underside over the reed's axis (m): the reed this sensor
    replaced, flat on the bottom side (reed_dead_zone; mech/fit.py while a
    board still carries reeds)."""
    return (stack()["magnet_bottom"] - stack()["reed"]) * MM


def sensor_depth():
    """The magnet's underside over the Hall element (m): the element sits
    SENSE_HALL_Z_MM over the top copper the SOT-23 is soldered to."""
    return (stack()["magnet_bottom"] - stack()["hall"]) * MM


def neighbour_fields(br, depth, toward_mm, pieces):
    """B_z at a cell's sensor from the other pieces, normally assembled, on
    the cells nearest it (pieces - 1 of them: the game has no more), each
    stood toward_mm off its own centre toward the sensor; the first eight
    are the neighbours' (their return field: negative)."""
    out = []
    for i, j in OTHER_CELLS[:pieces - 1]:
        dist = math.hypot(i, j) * d.CELL_PITCH_MM - toward_mm
        out.append(magnet_bz(br, dist * MM, 0.0, depth))
    return out


def _extremes(bs, carried=None):
    """(min, max) of the B_z the neighbours (each empty, a normal piece or a
    flipped one, at most one flipped piece on the board) and, if given, a
    piece carried over the cell (normal or flipped, counting as the flipped
    one) put at the sensor."""
    lo = hi = 0.0
    extra = [0.0] if carried is None else [0.0, carried, -carried]
    for k, c in enumerate(extra):
        flip_left = k != 2                    # the carried piece may be the flipped one
        normal = sum(min(b, 0.0) for b in bs), sum(max(b, 0.0) for b in bs)
        lo = min(lo, c + normal[0])
        hi = max(hi, c + normal[1])
        if flip_left:                         # one neighbour flipped: -b instead of b or 0
            for n, b in enumerate(bs):
                rest = bs[:n] + bs[n + 1:]
                lo = min(lo, c - max(b, 0.0) + sum(min(x, 0.0) for x in rest))
                hi = max(hi, c - min(b, 0.0) + sum(max(x, 0.0) for x in rest))
    return lo, hi


def counts_per_volt():
    return (1 << d.ADC_BITS) / d.ADC_VREF_V


def sensor():
    """The Hall sensor's view of the pieces, and the thresholds the firmware
    applies to |reading - the cell's zero| (ADC counts): the field map over
    the cell, the worst cases both ways over every tolerance, and the margins."""
    depth = sensor_depth()
    cpv = counts_per_volt()
    br_typ = d.MAGNET_BR_T
    br_weak = _br(d.MAGNET_BR_MIN_T, d.BOARD_T_MAX_C)
    br_strong = _br(d.MAGNET_BR_MAX_T, d.BOARD_T_MIN_C)
    far, near = depth + d.SENSE_Z_TOL_MM * MM, depth - d.SENSE_Z_TOL_MM * MM
    xy_tol = d.SENSE_HALL_XY_TOL_MM + d.SENSE_PLACE_TOL_MM
    # The map: the piece centred, then 2 and 4 mm off in each direction, the
    # sensor SENSE_HALL_XY_TOL + SENSE_PLACE_TOL off east (its worst placement
    # for a piece stood west; for the others it is nearer or as near).
    grid = {}
    for mm in d.PIECE_OFFSETS_MM:
        for name, (ux, uy) in zip(DIRECTION_NAMES, DIRECTIONS):
            dx, dy = mm * ux - xy_tol, mm * uy
            grid[(mm, name)] = magnet_bz(br_typ, dx * MM, dy * MM, depth)
    # Occupied, at its weakest: the weakest magnet, warm, highest, furthest
    # off; eight same-pole neighbours (their return field subtracts) 4 mm
    # toward it at their strongest.
    worst_off = max(d.PIECE_OFFSETS_MM) + xy_tol
    own = min(magnet_bz(br_weak, worst_off * MM, 0.0, far), magnet_bz(br_weak, worst_off * MM, 0.0, depth))
    from .bom import game_counts                                # (bom reads the engine)
    pieces = game_counts()["pieces"]
    toward = max(d.PIECE_OFFSETS_MM)

    def others(br):                                             # the strongest of the two heights
        return [min(a, b) for a, b in zip(neighbour_fields(br, near, toward, pieces),
                                          neighbour_fields(br, far, toward, pieces))]
    neigh_warm = others(_br(d.MAGNET_BR_MAX_T, d.BOARD_T_MAX_C))  # the same board, the same warmth
    b_occ = own + sum(min(b, 0.0) for b in neigh_warm)
    neigh = others(br_strong)
    # Empty, at its strongest: (A) the other pieces (the 8 neighbours full,
    # the rest on the next nearest cells) in every pole mix against a
    # zero taken with them away; (B) the zero taken with them present, then
    # any change, at most one flipped piece on the board; (C) a piece carried
    # PIECE_CARRY_MM over the board's surface (a cell without a tile: the
    # panel), over the sensor, the neighbours as at the zero; (D) B and C at once.
    b_abs = sum(abs(b) for b in neigh)
    lo, hi = _extremes(neigh)
    b_zero = hi - lo
    carry_depth = (d.PIECE_CARRY_MM + d.PIECE_FLOOR_MM + stack()["panel_top"] - stack()["hall"]
                   - d.SENSE_Z_TOL_MM) * MM
    b_carry = magnet_bz(br_strong, 0.0, 0.0, carry_depth)
    lo_c, hi_c = _extremes(neigh, b_carry)
    b_both = max(hi_c - lo, hi - lo_c)
    empties = {"A": b_abs, "B": b_zero, "C": b_carry, "D": b_both}
    design = max(empties["A"], empties["B"], empties["C"])
    swing = min(d.SENSE_VQ_MIN_V - d.SENSE_VOUT_MIN_V, d.SENSE_VOUT_MAX_V - d.SENSE_VQ_MAX_V)

    # ADC counts from the zero, for a part of sensitivity s (V/T). What the
    # per-cell zero leaves counts against the margin: VQ's drift, the ADC's
    # error and the noise (one sigma: the debounce wants agreeing reads a
    # scan apart, far longer than the sensor's 20 kHz correlation time).
    def err(s):
        return (d.SENSE_VQ_DRIFT_V + d.SENSE_NOISE_MTPP / d.NOISE_SIGMAS_PP * 1e-3 * s) * cpv + d.ADC_ERROR_COUNTS

    def occupied(s, b=b_occ):        # the output saturates: no more than the swing
        return min(b * s, swing) * cpv - err(s)

    def empty(b, s):
        return b * s * cpv + err(s)
    # Thresholds for the batch's spread (dims.SENSE_S_BATCH_SPREAD): the
    # least sensitive part must see the weakest piece, the most sensitive
    # must not see the strongest stray field; ON = HYSTERESIS x OFF, the two
    # margins equal.
    typ = d.SENSE_S_TYP_V_PER_T
    s_lo, s_hi = typ * (1 - d.SENSE_S_BATCH_SPREAD), typ * (1 + d.SENSE_S_BATCH_SPREAD)
    off = round(math.sqrt(occupied(s_lo) * empty(design, s_hi) / d.SENSE_HYSTERESIS))
    on = round(off * d.SENSE_HYSTERESIS)

    def margins(lo_s, hi_s):
        return occupied(lo_s) / on, off / empty(design, hi_s)
    tolerated = _bisect(lambda x: min(margins(typ * (1 - x), typ * (1 + x))) >= 1.0, 0.0, 0.99)
    # The zero's window: an empty cell at boot reads VQ (any part, any
    # temperature) moved by every neighbour mix, the noise and the ADC's error.
    spread = (b_abs * s_hi + d.SENSE_NOISE_MTPP / 2 * 1e-3 * s_hi) * cpv + d.ADC_ERROR_COUNTS
    win = (math.floor(d.SENSE_VQ_MIN_V * cpv - spread), math.ceil(d.SENSE_VQ_MAX_V * cpv + spread))

    def b_occ_at(off_mm):
        return magnet_bz(br_weak, (off_mm + xy_tol) * MM, 0.0, far) + sum(min(x, 0.0) for x in neigh_warm)
    # Where it stops: the largest offset the weakest case still clears ON at;
    # the largest an occupied cell at boot still reads outside the window at.
    reach = _bisect(lambda mm: occupied(s_lo, b_occ_at(mm)) >= on, 0.0, d.CELL_PITCH_MM / 2)

    def boot_outside(off_mm):
        v = min(b_occ_at(off_mm) * s_lo, swing) * cpv - d.ADC_ERROR_COUNTS
        return d.SENSE_VQ_MAX_V * cpv - v < win[0] and d.SENSE_VQ_MIN_V * cpv + v > win[1]
    window_reach = _bisect(boot_outside, 0.0, d.CELL_PITCH_MM / 2)
    # The lift at which a typical part under a typical piece reads empty.
    lift = _bisect(lambda mm: magnet_bz(br_typ, 0.0, 0.0, depth + mm * MM) * typ * cpv > off, 0.0, 100.0)
    # A field inside the sensor's linear range for the bench test's gain
    # measurement: a typical piece raised this far gives SENSE_CAL_MT.
    cal_lift = _bisect(lambda mm: magnet_bz(br_typ, 0.0, 0.0, depth + mm * MM) > d.SENSE_CAL_MT * 1e-3, 0.0, 100.0)
    m_design, m_sheet, m_typ = margins(s_lo, s_hi), margins(d.SENSE_S_MIN_V_PER_T, d.SENSE_S_MAX_V_PER_T), \
        margins(typ, typ)
    return {"depth": depth, "grid": grid, "xy_tol": xy_tol, "br_weak": br_weak, "br_strong": br_strong,
            "own_min": own, "neighbours": neigh[:8], "others": neigh, "pieces": pieces,
            "B_occ": b_occ, "empties": empties,
            "B_empty_design": design, "swing": swing, "cpv": cpv, "s_lo": s_lo, "s_hi": s_hi,
            "occ_counts": occupied(s_lo), "emp_counts": {k: empty(v, s_hi) for k, v in empties.items()},
            "emp_design": empty(design, s_hi), "err_lo": err(s_lo), "err_hi": err(s_hi),
            "ON": on, "OFF": off, "margin_on": m_design[0], "margin_off": m_design[1],
            "margin_on_sheet": m_sheet[0], "margin_off_sheet": m_sheet[1],
            "margin_on_typ": m_typ[0], "margin_off_typ": m_typ[1], "tolerated_spread": tolerated,
            "margin_extreme": off / empty(empties["D"], s_hi),
            "noise_pp": d.SENSE_NOISE_MTPP * 1e-3 * s_hi * cpv,
            "window": win, "zero_default": round(d.SENSE_VQ_TYP_V * cpv),
            # a reading outside these is no sensor's output (a broken sensor, mux or line)
            "fault_min": math.floor(d.SENSE_VOUT_FLOOR_V * cpv - d.ADC_ERROR_COUNTS),
            "fault_max": math.ceil(d.SENSE_VOUT_TOP_V * cpv + d.ADC_ERROR_COUNTS),
            "reach_mm": reach, "lift_mm": lift, "cal_lift_mm": cal_lift, "carry_depth": carry_depth, "window_reach_mm": window_reach}


def _bisect(ok, lo, hi):
    """The largest x in [lo, hi] with ok(x), ok true at lo and monotonic."""
    if not ok(lo):
        return lo
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def scan():
    """The scan's timing and current: one rank powered (its 8 sensors and its
    mux), each cell read through the mux onto the one ADC line."""
    slew_us = (d.SENSE_VOUT_MAX_V - d.SENSE_VOUT_MIN_V) * d.SENSE_LINE_C_F / (d.SENSE_SOURCE_UA * 1e-6) * 1e6
    tau_us = d.SENSE_MUX_RON_OHM * d.SENSE_LINE_C_F * 1e6
    lsb = d.ADC_VREF_V / (1 << d.ADC_BITS)
    settle_us = slew_us + tau_us * math.log((d.SENSE_VOUT_MAX_V - d.SENSE_VOUT_MIN_V) / (lsb / 2))
    settle_set = math.ceil(2 * settle_us)                      # a factor 2 on the estimate
    power_us = d.SENSE_SWITCH_RISE_US + d.SENSE_TON_US
    power_set = math.ceil(power_us / 10) * 10
    read_us = d.SENSE_SAMPLES * d.ADC_SAMPLE_US
    rank_us = power_set + 8 * read_us + 7 * settle_set
    scan_us = 8 * rank_us
    per_cell_budget_us = (1e6 / d.SCAN_TARGET_HZ - scan_us) / 64
    t_scan_ms = max(scan_us / 1000, 1000 / d.SCAN_TARGET_HZ)
    latency = {"sensor": d.SENSE_TD_US / 1000, "until read": t_scan_ms, "debounce": float(pins.DEBOUNCE_MS),
               "debounce's last scan": t_scan_ms, "LED frame": d.LED_FRAME_US / 1000}
    return {"slew_us": slew_us, "tau_us": tau_us, "settle_us": settle_us, "SETTLE_US": settle_set,
            "power_us": power_us, "POWER_US": power_set, "read_us": read_us, "rank_us": rank_us,
            "scan_us": scan_us, "scans_per_s": 1e6 / scan_us, "cell_budget_us": per_cell_budget_us,
            "latency": latency, "latency_ms": sum(latency.values()),
            "rank_ma": 8 * d.SENSE_ICC_MA, "line_c_ok": d.SENSE_LINE_C_F < d.SENSE_C_LOAD_MAX_F}


def reed_dead_zone():
    """Why a reed under the cell's centre fails: it answers the field along
    its axis, which drives flux through one blade, the gap and the other in
    series. Under an axially magnetised piece that component is odd about
    the reed's middle, so the two blades see equal and opposite fields and
    the magnetic potential across the gap (the integral of H_x along the
    reed) vanishes. Computed along the glass (the leads past it add to both
    blades alike) on the bottom side, the piece centred and off along the
    reed and across it, against the ampere-turns the reed needs."""
    depth = reed_depth()
    half = d.REED_GLASS_LEN_MM / 2 * MM
    n = 200

    def hx(x, px, py):
        # B_x of a piece (north pole down) at (px, py) at the point (x, 0)
        # below it, where its B_rho points away from the axis
        # (physics.cylinder_field; a south pole down reverses both blades alike)
        dx, dy = x - px, -py
        rho = math.hypot(dx, dy)
        if rho < 1e-9:
            return 0.0
        b_rho = ph.cylinder_field(d.MAGNET_BR_T, d.MAGNET_DIA_MM / 2 * MM, d.MAGNET_THICK_MM * MM, rho, depth)[0]
        return b_rho * dx / rho / ph.MU0

    def blades(px, py):
        step = half / n
        left = sum(hx(-half + (k + 0.5) * step, px, py) for k in range(n)) * step
        right = sum(hx((k + 0.5) * step, px, py) for k in range(n)) * step
        return left, right
    need = d.REED_AT_MAX * d.REED_GLASS_LEN_MM / d.REED_TEST_COIL_MM   # the test coil's H over the glass
    rows = []
    for mm in d.PIECE_OFFSETS_MM:
        for along, (px, py) in (("along", (mm * MM, 0.0)), ("across", (0.0, mm * MM))):
            if mm == 0 and along == "across":
                continue
            left, right = blades(px, py)
            rows.append((mm, along, left, right, left + right))
    return {"depth": depth, "rows": rows, "need_at": need,
            "end_under": sum(blades(half, 0.0))}


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
             + 8 * d.SENSE_ICC_MA                     # the powered rank's piece sensors
             + readers_on * tx_ma)
    for name, ma in SOURCES:
        ceiling = min(0.9 * ma, d.POLYFUSE_HOLD_A * d.POLYFUSE_DERATE * 1000)
        rows.append((name, ma, max(0, int(ceiling - fixed))))
    return rows, fixed


def figures():
    c = coil()
    sn = sensor()
    return {"stack": stack(), "coil": c, "today": today(c), "unselected": unselected(c),
            "soft_start": soft_start(), "node_sensitivity": node_sensitivity(c),
            "magnet": magnet_read_cost(c), "cc": cc_thresholds(),
            "sensor": sn, "scan": scan(), "reed_dead_zone": reed_dead_zone(),
            # the design's computed reader current, and the data sheet's typical
            "budget": led_budgets(8, c["supply_mA"]),
            "budget_datasheet": led_budgets(8, d.MFRC522_TX_TYP_A * 1000),
            "budget_64": led_budgets(64, d.MFRC522_TX_TYP_A * 1000)}
