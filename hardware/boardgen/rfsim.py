"""The reader's whole RF chain in a circuit simulator (ngspice, Debian's
package), beside the closed forms of figures.py (issue 37: M8, M9, M10, m6).

One netlist per case, written here and run with `ngspice -b`: the MFRC522's
TX1/TX2 square-wave drivers (13.56 MHz, TVDD, their output resistance), the
TX series resistors (the interlock), the EMC filter's L0, the node
capacitors as fitted, the two ADG1608s (R_on, C_on; the seven other
channels' C_S(off) with their own C1 and coil), each coil's C1 as fitted,
its feed as laid and the coil with its loss, and the RX divider.

The coil's L and R come from one place, coil_lr(): physics.py's closed
forms today; a field solver's figures replace them there.
"""
import cmath
import math
from concurrent.futures import ThreadPoolExecutor

from . import dims as d
from . import figures as fg
from . import physics as ph
from . import spice

MM = 1e-3
PERIOD = 1 / ph.F_CARRIER
SETTLE_S = 3e-6          # the tanks settle in a few hundred ns (Q < 10); 3 us is ample
WINDOW_PERIODS = 20      # the last 20 carrier periods are measured


SimError = spice.SimError
available = spice.available


def coil_lr():
    """The coil's own inductance and resistance at 13.56 MHz (feed excluded),
    as figures.coil_lr() has them (the field solver's, or the closed forms)."""
    return fg.coil_lr()[:2]


def _feed_r(length_mm):
    return 2 * ph.trace_resistance_ac(length_mm * MM, d.FEED_TRACE_MM * MM, d.COPPER_UM * 1e-6)


def netlist(c, sel, l_scale=1.0, r_series=None, switch="on", glitch=None, c_scale=1.0, t_stop=None,
            c1_sel=None):
    """The rank's chain with coil `sel` selected. switch: "on", "off" (EN low
    for the whole run) or "glitch" (EN low from SETTLE_S for `glitch`
    seconds, None = to the end). l_scale multiplies every coil's own
    inductance (the +-15 % margin); c_scale the switch's capacitances;
    c1_sel replaces the selected coil's C1 (a retuned part)."""
    l_coil, r_coil = coil_lr()
    rs = d.TX_SERIES_OHM if r_series is None else r_series
    c_node = sum(fg.e24_pair(c["C_node"]))
    c_on, c_doff, c_soff = (x * c_scale for x in (d.SWITCH_C_ON_F, d.SWITCH_C_D_OFF_F, d.SWITCH_C_OFF_F))
    t_stop = t_stop or SETTLE_S + WINDOW_PERIODS * PERIOD * 1.5
    half = PERIOD / 2
    rise = 2e-9
    out = ["* vortex rank reader, coil %s selected (rfsim.py)" % "abcdefgh"[sel],
           ".options rshunt=1e12 reltol=1e-3",
           "Vtx1 tx1s 0 DC 0 AC 0.5 0 PULSE(0 %g 0 %g %g %g %g)" % (d.TVDD_V, rise, rise, half - rise, PERIOD),
           "Vtx2 tx2s 0 DC 0 AC 0.5 180 PULSE(%g 0 0 %g %g %g %g)" % (d.TVDD_V, rise, rise, half - rise, PERIOD),
           "Vmid vmid 0 DC %g" % (d.TVDD_V / 2)]
    if switch == "on":
        ctl = "Vctl ctl 0 DC 1"
    elif switch == "off":
        ctl = "Vctl ctl 0 DC 0"
    else:
        t1 = SETTLE_S
        pts = ["0 1", "%g 1" % t1, "%g 0" % (t1 + 1e-9)]
        if glitch is not None:
            pts += ["%g 0" % (t1 + glitch), "%g 1" % (t1 + glitch + 1e-9)]
        ctl = "Vctl ctl 0 PWL(%s)" % " ".join(pts)
    out += [ctl, ".model adgsw sw vt=0.5 vh=0.1 ron=%g roff=1e9" % d.SWITCH_RON_OHM]
    for side, tx in (("a", "tx1"), ("b", "tx2")):
        out += ["Rdrv%s %ss %s %g" % (side, tx, tx, d.MFRC522_TX_ROUT_OHM),
                "Rs%s %s p%s %g" % (side, tx, side, max(rs, 1e-6)),
                "L0%s p%s n%s %g" % (side, side, side, d.EMC_L0_H),
                "Cn%s n%s 0 %g" % (side, side, c_node),
                # the drain's capacitance with every channel off; the on
                # channel adds the rest of CD,CS(on) on its source
                "Cd%s n%s 0 %g" % (side, side, c_doff)]
        for f in range(8):
            s_pin = "s%s%d" % (side, f)
            if f == sel:
                # a plain resistor when the switch stays on: ngspice's
                # switch model is not linearised in the AC analysis
                sw = ("Ron%s n%s %s %g" % (side, side, s_pin, d.SWITCH_RON_OHM) if switch == "on" else
                      "S%s n%s %s ctl 0 adgsw" % (side, side, s_pin))
                out += [sw,
                        "Con%s %s 0 %g" % (side, s_pin, max(c_on - c_doff, 1e-15))]
            else:
                out += ["Csoff%s%d %s 0 %g" % (side, f, s_pin, c_soff)]
            c1 = c1_sel if f == sel and c1_sel else sum(c["coils"][f]["C1_parts"])
            out += ["C1%s%d %s e%s%d %g" % (side, f, s_pin, side, f, c1)]
    for f in range(8):
        pc = c["coils"][f]
        l_loop = l_coil * l_scale + pc["feed_nH"] * 1e-9
        r_loop = r_coil + _feed_r(pc["feed_mm"])
        out += ["Rc%d ea%d m%d %g" % (f, f, f, r_loop), "Lc%d m%d eb%d %g" % (f, f, f, l_loop)]
    out += ["Crx na rxc 1n", "Rrx1 rxc rx 1k", "Rrx2 rx vmid 2.2k", ".end"]
    return "\n".join(out), t_stop


def _run(text, t_stop, vectors, tmax=0.5e-9, ac=True):
    """Run one netlist; (ac: {name: complex}, tran: columns {name: [floats]})."""
    ctl = [".control", "set wr_singlescale", "set wr_vecnames", "option numdgt=10"]
    outputs = []
    if ac:
        ctl += ["ac lin 1 %g %g" % (ph.F_CARRIER, ph.F_CARRIER),
                "wrdata {dir}/ac.txt v(tx1) v(tx2) i(vtx1) i(lc0) i(lc1) i(lc2) i(lc3) i(lc4) i(lc5) i(lc6) i(lc7)"]
        outputs.append("ac.txt")
    if vectors:
        ctl += ["tran %g %g 0 %g" % (tmax, t_stop, tmax), "wrdata {dir}/tran.txt %s" % " ".join(vectors)]
        outputs.append("tran.txt")
    ctl += ["quit", ".endc"]
    texts = spice.run(text.replace(".end", "\n".join(ctl) + "\n.end"), outputs)
    acv = _read_ac(texts.pop(0)) if ac else {}
    return acv, _read_cols(texts[0]) if vectors else {}


def _read_cols(text):
    lines = text.splitlines()
    head = lines[0].split()
    cols = {h: [] for h in head}
    for line in lines[1:]:
        for h, v in zip(head, line.split()):
            cols[h].append(float(v))
    return cols


def _read_ac(text):
    """wrdata of complex vectors: frequency, then real and imaginary of each."""
    lines = text.splitlines()
    head = lines[0].split()
    vals = [float(v) for v in lines[1].split()]
    names = [h for h in head if h != "frequency"]
    # with wr_singlescale: frequency once, then re/im pairs (the name repeated or not)
    nums = vals[1:]
    uniq = []
    for h in names:
        if h not in uniq:
            uniq.append(h)
    return {h: complex(nums[2 * i], nums[2 * i + 1]) for i, h in enumerate(uniq)}


def _fundamental(t, y, t0, t1):
    """Peak amplitude (complex) of y's 13.56 MHz component over [t0, t1]
    (a whole number of periods), trapezoid rule on the simulator's points."""
    w = ph.omega()
    acc = 0j
    for k in range(1, len(t)):
        if t[k - 1] < t0 or t[k] > t1:
            continue
        dt = t[k] - t[k - 1]
        acc += 0.5 * dt * (y[k] * cmath.exp(-1j * w * t[k]) + y[k - 1] * cmath.exp(-1j * w * t[k - 1]))
    return 2 * acc / (t1 - t0)


def _supply(cols):
    """TVDD's current at each point: each driver draws from TVDD while its
    output is high (ngspice's i(v) flows into the source's + pin)."""
    out = []
    for i1, i2, v1, v2 in zip(cols["i(vtx1)"], cols["i(vtx2)"], cols["v(tx1s)"], cols["v(tx2s)"]):
        out.append((-i1 if v1 > d.TVDD_V / 2 else 0.0) + (-i2 if v2 > d.TVDD_V / 2 else 0.0))
    return out


def _mean(t, y, t0, t1):
    acc = 0.0
    for k in range(1, len(t)):
        if t[k - 1] < t0 or t[k] > t1:
            continue
        acc += 0.5 * (t[k] - t[k - 1]) * (y[k] + y[k - 1])
    return acc / (t1 - t0)


def _period_means(t, y):
    """y averaged over each whole carrier period from t[0] (one pass)."""
    out, acc, edge = [], 0.0, t[0] + PERIOD
    for k in range(1, len(t)):
        if t[k] > edge:
            out.append(acc / PERIOD)
            acc, edge = 0.0, edge + PERIOD
        acc += 0.5 * (t[k] - t[k - 1]) * (y[k] + y[k - 1])
    return out or [0.0]


_TRAN = ["v(tx1s)", "v(tx2s)", "v(tx1)", "v(tx2)", "i(vtx1)", "i(vtx2)", "v(rx)", "v(na)"]


def _z_tag():
    z = fg.stack()
    return (z["tag"] - z["coil"]) * MM


V_FUND = 2 / math.pi * d.TVDD_V    # each driver's fundamental (peak): a 0..TVDD square wave's
AC_V = 0.5                         # what the AC analysis drives each side with


def run_coil(c, sel, l_scale=1.0, r_series=None, c_scale=1.0, c1_sel=None, tran=True):
    """One coil driven, steady state: port impedance at the TX pins and coil
    current (fundamental, peak) from the AC analysis, the field at the tag
    from that current, TVDD's current; with tran, the square-wave run as
    well: the coil current and TVDD's current from it (harmonics included),
    and the RX pin's peak-to-peak carrier."""
    text, t_stop = netlist(c, sel, l_scale, r_series, c_scale=c_scale, c1_sel=c1_sel)
    acv, cols = _run(text, t_stop, _TRAN + ["i(lc%d)" % sel] if tran else [])
    scale = V_FUND / AC_V
    i_out = -acv["i(vtx1)"]
    z_port = (acv["v(tx1)"] - acv["v(tx2)"]) / i_out
    a = fg._coil_geometry()[4]
    i_ac = abs(acv["i(lc%d)" % sel]) * scale
    out = {"Z_port": z_port, "i_coil": i_ac,
           "H": ph.loop_field_axis(d.COIL_TURNS, i_ac / math.sqrt(2), a, _z_tag()),
           "supply_mA": 2 / math.pi * i_out.real * scale * 1000}
    if not tran:
        return out
    t = cols["time"]
    t1 = t[-1]
    t0 = t1 - WINDOW_PERIODS * PERIOD
    i_tr = abs(_fundamental(t, cols["i(lc%d)" % sel], t0, t1))
    rx = [v for tt, v in zip(t, cols["v(rx)"]) if tt >= t0]
    out.update({"i_coil_tran": i_tr, "H_tran": ph.loop_field_axis(d.COIL_TURNS, i_tr / math.sqrt(2), a, _z_tag()),
                "supply_mA_tran": _mean(t, _supply(cols), t0, t1) * 1000,
                "rx_vpp": max(rx) - min(rx),
                "i_coil_early": abs(_fundamental(t, cols["i(lc%d)" % sel], t0 - WINDOW_PERIODS * PERIOD, t0))})
    return out


def run_open(c, sel=7, r_series=None, glitch="off", c_scale=1.0):
    """The field on and the switches open: glitch "off" = EN low throughout
    (steady state), or a duration in seconds (EN low for that long from
    SETTLE_S, then back), or None (EN low from SETTLE_S to the end: for ever).
    The worst TVDD current averaged over any carrier period, the drivers'
    peak current, and the steady TVDD current while open."""
    if glitch == "off":
        text, t_stop = netlist(c, sel, r_series=r_series, switch="off", c_scale=c_scale)
    else:
        open_for = glitch if glitch is not None else 4e-6
        t_stop = SETTLE_S + open_for + 3e-6
        text, t_stop = netlist(c, sel, r_series=r_series, switch="glitch", glitch=glitch,
                               c_scale=c_scale, t_stop=t_stop)
    tmax = 2e-9 if t_stop > 20e-6 else 0.5e-9
    _acv, cols = _run(text, t_stop, _TRAN[:2] + _TRAN[4:6], tmax=tmax, ac=False)
    # from a period before the switch opens (EN low from the start: from
    # SETTLE_S, the drivers' own start-up left behind)
    k0 = next(k for k, tt in enumerate(cols["time"]) if tt >= SETTLE_S - PERIOD)
    t = cols["time"][k0:]
    sup = _supply(cols)[k0:]
    worst = max(_period_means(t, sup))
    peak = max(max(abs(x) for x in cols["i(vtx1)"][k0:]), max(abs(x) for x in cols["i(vtx2)"][k0:]))
    t1 = t[-1] if glitch in ("off", None) else SETTLE_S + glitch
    steady = _mean(t, sup, t1 - WINDOW_PERIODS * PERIOD, t1) if t1 - WINDOW_PERIODS * PERIOD > SETTLE_S \
        or glitch == "off" else None
    return {"worst_mA": worst * 1000, "peak_mA": peak * 1000,
            "steady_mA": None if steady is None else steady * 1000}


GLITCHES = ((1e-6, "1 us"), (100e-6, "100 us"), (None, "for ever"))

_CACHE = {}


def simulate(c=None):
    """Every case the report and the tests need, run once per process:
    per coil the nominal chain (AC and square wave), the coil's own
    inductance L_MARGIN low and high with its nominal parts and with a C1
    retuned from the catalogue (AC); the interlock with and without the TX
    series resistors (EN low throughout, and low for 1 us, 100 us, for ever
    with the field on); the switch's capacitances at each of SWITCH_C_SCALES."""
    c = c or fg.coil()
    if "all" in _CACHE and _CACHE["all"][0] == _fingerprint(c):
        return _CACHE["all"][1]
    jobs = {}
    for f in range(8):
        pc = c["coils"][f]
        jobs[(f, "nominal")] = (run_coil, (c, f), {})
        for k, m in sorted(pc["margin"].items()):
            jobs[(f, k)] = (run_coil, (c, f), {"l_scale": k, "tran": False})
            if m["C1_retune"]:
                jobs[(f, ("retuned", k))] = (run_coil, (c, f), {
                    "l_scale": k, "c1_sel": sum(fg.c1_parts(m["C1_retune"])), "tran": False})
    jobs["no_series"] = (run_coil, (c, 7), {"r_series": 0.0})
    jobs[("open", "with", "steady")] = (run_open, (c,), {"glitch": "off"})
    for g, name in GLITCHES:
        jobs[("open", "with", name)] = (run_open, (c,), {"glitch": g})
    # without the resistors: EN low (for ever is the same) and a 1 us glitch
    jobs[("open", "without", "steady")] = (run_open, (c,), {"r_series": 0.0, "glitch": "off"})
    jobs[("open", "without", "1 us")] = (run_open, (c,), {"r_series": 0.0, "glitch": 1e-6})
    for k in d.SWITCH_C_SCALES:
        jobs[("spread", k, "coil")] = (run_coil, (c, 0), {"c_scale": k, "tran": False})
        jobs[("spread", k, "open")] = (run_open, (c,), {"glitch": "off", "c_scale": k})
        jobs[("spread", k, "open_without")] = (run_open, (c,), {"r_series": 0.0, "glitch": "off", "c_scale": k})
    # two at a time: each case is its own ngspice process
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(fn, *args, **kw) for key, (fn, args, kw) in jobs.items()}
        got = {key: fut.result() for key, fut in futures.items()}
    res = {"coils": [{k[1]: v for k, v in got.items() if isinstance(k, tuple) and k[0] == f}
                     for f in range(8)],
           "no_series": got["no_series"], "open": {"with": {}, "without": {}}, "spread": {}}
    for key, v in got.items():
        if isinstance(key, tuple) and key[0] == "open":
            res["open"][key[1]][key[2]] = v
        elif isinstance(key, tuple) and key[0] == "spread":
            res["spread"].setdefault(key[1], {})[key[2]] = v
    _CACHE["all"] = (_fingerprint(c), res)
    return res


def _fingerprint(c):
    return (c["C_N"], tuple(pc["C1_parts"] for pc in c["coils"]), tuple(pc["feed_nH"] for pc in c["coils"]),
            d.TX_SERIES_OHM, d.SWITCH_C_ON_F, d.SWITCH_C_D_OFF_F, d.SWITCH_C_OFF_F, coil_lr())


def open_closed_form(c, r_series=None, c_scale=1.0):
    """The closed form of the open switch: each driver into its series
    resistances, L0 and the node capacitance (fitted parts + CD(off)),
    the fundamental only; TVDD's current 2/pi of the drivers' peak."""
    rs = d.TX_SERIES_OHM if r_series is None else r_series
    w = ph.omega()
    cn = sum(fg.e24_pair(c["C_node"])) + d.SWITCH_C_D_OFF_F * c_scale
    z = d.MFRC522_TX_ROUT_OHM + rs + 1j * (w * d.EMC_L0_H - 1 / (w * cn))
    i = (2 / math.pi * d.TVDD_V) / abs(z)
    # TVDD gives each driver's current while it is high: 2/pi of the peak
    # times the power factor (the current lags the square wave)
    return {"i_pk_mA": i * 1000, "supply_mA": 2 / math.pi * i * z.real / abs(z) * 1000, "x_ohm": z.imag,
            "worst_supply_mA": 2 / math.pi * (2 / math.pi * d.TVDD_V) / (d.MFRC522_TX_ROUT_OHM + rs) * 1000}


def rx_closed_form(c, pc):
    """The RX pin's carrier (peak-to-peak): the node's AC through CRX and the
    R1/R2 divider to VMID (AN1445's receive circuit)."""
    w = ph.omega()
    z1 = 1000 + 1 / (1j * w * 1e-9)
    return 2 * pc["drive"]["v_node"] * abs(2200 / (z1 + 2200))
