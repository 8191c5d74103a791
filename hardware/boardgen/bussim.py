"""The bus across the nine boards (issue 37, M6), simulated with ngspice.

SCK, MOSI and LATCH leave the controller's 74LVC541A and run through eight
100 mm ribbons (3M 3365/40) and the rank boards' tracks to 17 clock loads.
Two designs are simulated, both from dims.py:

- today: one unterminated net from the 541 to the last board's J2, every
  74HC595 and MFRC522 on it (no hysteresis at the 595's clock);
- the fix (CONTRACT.md): a series resistor at every driver, Schmitt buffers
  (two 74LVC3G17) on each rank board re-driving the three lines, one channel
  to the board's own loads and one to the next ribbon, the controller's 595
  on the 541's spare channels, 74LVC595A loads; and MISO and CHAIN_RET
  coming back from the farthest board.

The ribbons and tracks are lossless transmission lines (L-C ladders), the
drivers an ideal edge behind their output resistance, the Schmitt buffer the
XSPICE hyst block with the data sheet's thresholds, then its edge (slew), its
delay (a matched line) and its output resistance; every input a capacitance
with its clamp diodes. Each design runs at two corners: strong (1 ns edges,
10 Ohm, the shortest delay) and weak (3 ns, 23 Ohm, the longest delay).
simulate() returns the figures; markdown() writes figures.md's section.
"""
import functools
import math
import os
import sys

from . import dims as d
from . import spice

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # hardware/: pins.py
import pins  # noqa: E402

VCC = d.BUS_VCC_V
PERIOD_NS = 1e9 / pins.NFC_BAUD
T_RISE_NS = 5.0                       # the Pico's SCK rising edge
HIGH_NS = PERIOD_NS / 4               # then falling this later: edges twice as close as at 4 MHz
                                      # (what settles here settles at 4 MHz), half the steps
STOP_NS = T_RISE_NS + 2 * HIGH_NS
SECTION_NS = 0.1                      # a line's L-C section: cut-off 3.2 GHz, the edges' knee 0.35 GHz
SWEEP_OHM = (0.0, 22.0, 33.0, 47.0, 68.0, 100.0)
OVERSHOOT_LIMIT_V = 0.25              # half the inputs' 0.5 V past a rail (MFRC522 absolute maximum)
LVC_VIL_V, LVC_VIH_V = 0.8, 2.0       # LVC inputs at 2.7-3.6 V (74LVC data sheets)
PICO_VIL_V, PICO_VIH_V = 0.8, 2.0     # RP2040 data sheet, IOVDD 3.3 V

# Tracks measured on generated/rank.kicad_pcb and controller.kicad_pcb (pcbnew,
# each net's tracks as a tree between its pads, before the Schmitt buffers):
# mm from J1 along the J1-J2 trunk to the branch, and the branch's loads in
# order with the mm before each. The branch point along the trunk is not in
# the tree's distances: the middle is taken.
RANK_TRUNK_MM = 24.2                  # J1 to J2, every shared line
RANK_BRANCH = {
    "sck": (12.1, (("mfrc522", 10.8), ("595", 19.2))),    # 54.2 mm in all
    "mosi": (12.1, (("mfrc522", 19.3),)),                 # 43.5
    "latch": (0.0, (("595", 32.5),)),                     # 57.0: branches at J1
    "miso": (12.1, (("buf", 18.0),)),                     # 42.2: the 1G125's output
}
# controller: the 541 to its 595, on to J2 (44.0, 54.0, 46.2 mm in all)
CONTROLLER_MM = {"sck": (16.8, 27.2), "mosi": (20.0, 34.0), "latch": (15.2, 31.0)}
CONTROLLER_MISO_MM = 41.0             # J2 to the Pico (and its 100 k pull-down)
CHAIN_OUT_MM = 48.5                   # a 595's QH' to J2 (BUS_CHAIN_OUT)
CHAIN_IN_MM = 35.0                    # J1 to the next 595's SER (BUS_CHAIN_IN)
SCHMITT_IN_MM = 5.0                   # ASSUMED: J1 to the Schmitt buffer beside it
LOOPBACK_MM = 5.0                     # ASSUMED: through the last J2's loop-back plug
RET_TO_BUF_MM = 20.0                  # ASSUMED: controller J2 to its 74LVC1G126

CORNERS = (
    {"name": "strong", "edge": d.LVC_EDGE_NS[0], "rout": d.LVC_ROUT_FAST_OHM, "tpd": d.LVC_TPD_NS[0]},
    {"name": "weak", "edge": d.LVC_EDGE_NS[1], "rout": d.LVC_ROUT_MAX_OHM, "tpd": d.LVC_TPD_NS[1]},
)


NoSimulator = spice.Missing


# -- the lines ------------------------------------------------------------------

def _ns_per_m():
    return d.RIBBON_NS_PER_FT / 0.3048


def _loop(a, b, ratio):
    """A ribbon wire's loop inductance, in units of mu0/2pi, with its nearest
    grounds a and b wires away (None: none that side) sharing the return;
    ratio = pitch / wire radius. Partial inductances of round wires."""
    ln = math.log
    one = [2 * ln(k * ratio) for k in (a, b) if k]
    if a and b:
        one.append(1.5 * ln(ratio) + ln(a) + ln(b) - 0.5 * ln(a + b))
    return min(one)


def ribbon_line(pin, grounds, pins_total=40):
    """(Z0 ohm, neighbours text) of ribbon wire `pin`: the data sheet's G-S-G
    Z0 scaled by the loop inductance of the wire's own neighbourhood (same
    dielectric, so Z0 goes as L)."""
    ratio = 1.27 / (d.RIBBON_WIRE_DIA_MM / 2)

    def side(step):
        k, p = 1, pin + step
        while 1 <= p <= pins_total:
            if p in grounds:
                return k
            k, p = k + 1, p + step
        return None
    a, b = side(-1), side(+1)
    z = d.RIBBON_Z0_GSG_OHM * _loop(a, b, ratio) / _loop(1, 1, ratio)
    near = [k for k in (a, b) if k]
    what = ("G-S-G" if (a, b) == (1, 1) else "G-S" if 1 in near
            else "no ground beside (nearest %d wires away)" % min(near))
    return z, what


def wire_z(pin, grounds, fixed):
    """Z0 of a bus line's ribbon wire as simulated: as the map has it today;
    in the fix, a wire with no ground beside it (or not in the map yet) is
    taken as beside one (G-S): the issue's ground interleave, hw's map."""
    if pin is not None:
        z, what = ribbon_line(pin, grounds)
        if not fixed or what in ("G-S-G", "G-S"):
            return z
    ratio = 1.27 / (d.RIBBON_WIRE_DIA_MM / 2)
    return d.RIBBON_Z0_GSG_OHM * _loop(1, None, ratio) / _loop(1, 1, ratio)


def series_ohm(z_rib, r_gsg):
    """A driver's series resistor for its ribbon wire: r_gsg between two
    grounds, BUS_SERIES_GS_OHM beside one."""
    return r_gsg if z_rib <= d.RIBBON_Z0_GSG_OHM + 1e-6 else d.BUS_SERIES_GS_OHM


def microstrip():
    """(Z0 ohm, ns per m) of a bus track: Hammerstad's microstrip, w < h
    (Pozar 3.8), over the board to the other side's pour."""
    w, h, er = d.TRACE_WIDTH_MM, d.PCB_MM, d.FR4_ER
    eeff = (er + 1) / 2 + (er - 1) / 2 * ((1 + 12 * h / w) ** -0.5 + 0.04 * (1 - w / h) ** 2)
    return 60 / math.sqrt(eeff) * math.log(8 * h / w + w / (4 * h)), math.sqrt(eeff) / 0.299792458


def ribbon_map():
    """{line: ribbon pin} and the ground pins, from the schematic's map;
    CHAIN_RET where the schematic has it, else None."""
    from . import schematic as s
    lines = {"sck": s.RIBBON_SHARED["BUS_SCK"], "mosi": s.RIBBON_SHARED["BUS_MOSI"],
             "miso": s.RIBBON_SHARED["BUS_MISO"], "latch": s.RIBBON_SHARED["BUS_LATCH"]}
    ret = next((pin for name, pin in s.RIBBON_SHARED.items() if "CHAIN_RET" in name),
               getattr(s, "RIBBON_CHAIN_RET", None))
    lines["chain_ret"] = ret
    return lines, set(s.RIBBON_POWER["GND"])


# -- the netlist ---------------------------------------------------------------------

class Net:
    """An ngspice netlist being written: nodes are names, each element a line."""

    def __init__(self, edge_ns):
        self.lines, self.n = [], 0
        self.step_ns = edge_ns / 20           # the largest time step: 20 to an edge
        self.track_z, self.track_ns = microstrip()

    def _id(self):
        self.n += 1
        return self.n

    def add(self, text):
        self.lines.append(text)

    def line(self, a, b, z0, ns):
        """A line as a ladder of L-C sections each at most SECTION_NS long: its
        cut-off, 1 / (pi SECTION_NS), is far above the edges' spectrum, and
        ngspice steps through it faster than through many delay lines."""
        n = max(1, int(math.ceil(ns / SECTION_NS - 1e-9)))
        l, c = z0 * ns / n, ns / z0 / n
        prev = a
        for i in range(n):
            k = self._id()
            node = b if i == n - 1 else "x%d" % k
            self.add("L%d %s %s %.5gn" % (k, prev, node, max(l, 1e-6)))
            self.add("C%d %s 0 %.5gp" % (k, node, c * 1000))
            prev = node

    def track(self, a, b, mm):
        self.line(a, b, self.track_z, self.track_ns * mm / 1000)

    def ribbon(self, a, b, z0):
        self.line(a, b, z0, _ns_per_m() * d.RIBBON_SEGMENT_MM / 1000)

    def res(self, a, b, ohm):
        self.add("R%d %s %s %.4g" % (self._id(), a, b, max(ohm, 1e-3)))

    def load(self, node, pf, upper_clamp):
        """An input: its capacitance and pad, a clamp diode to GND, and one
        to VCC where the family has it (HC; LVC inputs are 5 V tolerant)."""
        k = self._id()
        self.add("C%d %s 0 %.3gp" % (k, node, pf + d.PAD_PF))
        self.add("D%d 0 %s dclamp" % (k, node))
        if upper_clamp:
            self.add("Du%d %s vcc dclamp" % (k, node))

    def source(self, node, rout, edge_ns, t_rise, t_fall, bits=None):
        """An LVC output switching at t_rise / t_fall (ns; its 50 % points),
        10-90 % in edge_ns, behind rout. bits: a PWL list of (ns, level)."""
        k, ramp = self._id(), edge_ns / 0.8
        if bits is None:
            bits = ((t_rise, 1), (t_fall, 0))
        pts, level = ["0 0"], 0
        for t, v in bits:
            if v != level:
                pts.append("%.4fn %g" % (t - ramp / 2, level * VCC))
                pts.append("%.4fn %g" % (t + ramp / 2, v * VCC))
                level = v
        self.add("V%d s%d 0 PWL(%s)" % (k, k, " ".join(pts)))
        self.res("s%d" % k, node, rout)

    def schmitt(self, inp, out, rout, edge_ns, tpd_ns, vt_pos, vt_neg):
        """74LVC1G17: switches at vt_pos rising, vt_neg falling; its output
        edge, tpd_ns after the input's crossing (at the edge's middle), behind
        rout. The input's capacitance is added by the caller."""
        k, ramp = self._id(), edge_ns / 0.8
        c, h = (vt_pos + vt_neg) / 2, (vt_pos - vt_neg) / 2
        self.add("Ah%d %s hq%d hy%d" % (k, inp, k, k))
        self.add(".model hy%d hyst(in_low=%.4f in_high=%.4f hyst=%.4f out_lower_limit=0 "
                 "out_upper_limit=1 input_domain=0.001 fraction=FALSE)" % (k, c - 0.002, c + 0.002, h))
        self.add("As%d hq%d hs%d sl%d" % (k, k, k, k))
        self.add(".model sl%d slew(rise_slope=%.4g fall_slope=%.4g)" % (k, 1e9 / ramp, 1e9 / ramp))
        delay = max(tpd_ns - ramp / 2, 0.01)
        self.add("Ed%d hd%d 0 hs%d 0 2" % (k, k, k))
        self.add("Rd%d hd%d he%d 50" % (k, k, k))
        self.add("Td%d he%d 0 hf%d 0 Z0=50 TD=%.4fn" % (k, k, k, delay))
        self.add("Rf%d hf%d 0 50" % (k, k))
        self.add("Bo%d ho%d 0 V=%g*v(hf%d)" % (k, k, VCC, k))
        self.res("ho%d" % k, out, rout)

    def text(self, probes, stop_ns):
        return "\n".join(
            ["* vortex bus (generated by boardgen/bussim.py)",
             "Vcc vcc 0 %g" % VCC,
             ".model dclamp d(is=1e-14 n=1.0 rs=5)"] + self.lines +
            [".options interp reltol=0.003", ".tran %gn %gn 0 %gn" % (self.step_ns, stop_ns, self.step_ns), ".control", "set wr_singlescale", "run",
             "wrdata {OUT} %s" % " ".join("v(%s)" % p for p in probes), "quit", ".endc", ".end", ""])


def run(net, probes, stop_ns):
    """Run the netlist through ngspice: {probe: (times ns, volts)}."""
    text = spice.run(net.text(probes, stop_ns).replace("{OUT}", "{dir}/out.txt"), ["out.txt"], timeout=120)[0]
    rows = [[float(x) for x in line.split()] for line in text.splitlines() if line.strip()]
    t = [row[0] * 1e9 for row in rows]
    return {p: (t, [row[i + 1] for row in rows]) for i, p in enumerate(probes)}


# -- the designs ---------------------------------------------------------------------

def _rank_net(net, line, j1, j2, p, loads, z_rib):
    """One rank board's tracks of a forward line from node j1 (where the
    board's driver or J1 is) to node j2 (J2; None: the tracks end at the
    loads), its loads on the branch. loads: kind -> (pF, upper clamp);
    returns {kind: node}."""
    at, branch = RANK_BRANCH[line]
    nodes = {}
    bp = j1 if at == 0 else "%s_b%d" % (line, p)
    if at:
        net.track(j1, bp, at)
    if j2:
        net.track(bp, j2, RANK_TRUNK_MM - at)
    prev = bp
    for kind, mm in branch:
        node = "%s_%s%d" % (line, kind, p)
        net.track(prev, node, mm)
        pf, upper = loads[kind]
        net.load(node, pf, upper)
        nodes[kind] = prev = node
    return nodes


def forward(design, corner, lines=("sck", "mosi", "latch"), series=None, rib=None, split=True):
    """The controller and eight rank boards, the lines given driven by the
    541 (rising at T_RISE_NS, falling half a period later). design: "today"
    or "fixed". Returns (net, {(line, board, kind): node})."""
    rib = rib or ribbon_map()
    lines_pin, grounds = rib
    r_gsg = d.BUS_SERIES_OHM if series is None else series
    net, probes = Net(corner["edge"]), {}
    fixed = design == "fixed"
    today_loads = {"mfrc522": (d.MFRC522_CI_PF, True), "595": (d.HC595_CI_PF, True)}
    fixed_loads = {"mfrc522": (d.MFRC522_CI_PF, True), "595": (d.LVC_CI_PF, False)}
    loads = fixed_loads if fixed else today_loads
    for line in lines:
        z_rib = wire_z(lines_pin[line], grounds, fixed)
        r_s = series_ohm(z_rib, r_gsg)
        drv = "%s_drv" % line
        net.source(drv, corner["rout"] + (r_s if fixed else 0), corner["edge"],
                   T_RISE_NS, T_RISE_NS + HIGH_NS)
        a, b = CONTROLLER_MM[line]
        c595, prev = "%s_595c" % line, "%s_j2c" % line
        if fixed:
            # The controller's own 595 mid-line would see the source-terminated
            # line's half-step (a shelf at its threshold): it takes one of the
            # 541's three spare channels, the ribbon the other, both terminated.
            own = "%s_own" % line
            net.source(own, corner["rout"] + r_s, corner["edge"], T_RISE_NS, T_RISE_NS + HIGH_NS)
            net.track(own, c595, a)
            net.track(drv, prev, a + b)
        else:
            net.track(drv, c595, a)
            net.track(c595, prev, b)
        net.load(c595, *loads["595"])
        probes[(line, -1, "595")] = c595
        for p in range(8):
            j1, j2 = "%s_j1_%d" % (line, p), "%s_j2_%d" % (line, p)
            net.ribbon(prev, j1, z_rib)
            if fixed:
                # Two Schmitt channels from J1: one drives this board's loads,
                # the other only the next ribbon (through the J1-J2 trunk's
                # length): a load part-way along a source-terminated line would
                # see its half-step (a shelf at its threshold).
                sin = "%s_si%d" % (line, p)
                net.track(j1, sin, SCHMITT_IN_MM)
                net.load(sin, (2 if split else 1) * d.LVC_CI_PF, False)
                start = None
                for role in (("own", "next") if split else ("own",)):
                    sr, so = "%s_sr%s%d" % (line, role, p), "%s_so%s%d" % (line, role, p)
                    net.schmitt(sin, sr, corner["rout"], corner["edge"], corner["tpd"],
                                sum(d.SCHMITT_VT_POS_V) / 2, sum(d.SCHMITT_VT_NEG_V) / 2)
                    net.res(sr, so, r_s)
                    start = start or so
                # split=False: one channel, its own loads along the way to J2
                local_end = None if split else j2
                if split:
                    net.track(so, j2, RANK_TRUNK_MM)
                probes[(line, p, "schmitt")] = sin
            else:
                start, local_end = j1, j2
            for kind, node in _rank_net(net, line, start, local_end, p, loads, z_rib).items():
                probes[(line, p, kind)] = node
            prev = j2
    return net, probes


def back(design, corner, what, rib=None):
    """A line coming back from the farthest board: "miso" (its 1G125 through
    its board's branch, then every board's trunk) or "chain_ret" (its last
    595's QH' to J2, the loop-back, then every board's trunk). The driver
    switches at T_RISE_NS. Returns (net, {"pico" or "buf126": node, "src": node})."""
    lines_pin, grounds = rib or ribbon_map()
    pin = lines_pin[what]
    fixed = design == "fixed"
    z_rib = wire_z(pin, grounds, fixed)
    r_s = series_ohm(z_rib, d.BUS_SERIES_OHM) if fixed else 0.0
    net = Net(corner["edge"])
    src = "drv"
    net.source(src, corner["rout"] + r_s, corner["edge"], T_RISE_NS, 10 * PERIOD_NS)
    at, ((_k, stub),) = RANK_BRANCH["miso"]
    for p in range(7, -1, -1):
        j1, j2, bp = "j1_%d" % p, "j2_%d" % p, "b%d" % p
        if what == "miso":
            net.track(j2, bp, RANK_TRUNK_MM - at)
            net.track(bp, j1, at)
            off = "o%d" % p
            net.track(bp, off, stub)
            if p == 7:
                net.track(src, off, 0.1)           # the farthest board's buffer drives
            else:
                net.load(off, d.LVC_CI_PF, False)  # the others' buffers are off
        else:
            net.track(j2, j1, RANK_TRUNK_MM)
            if p == 7:
                net.track(src, "qh", CHAIN_OUT_MM)
                net.track("qh", j2, LOOPBACK_MM)
        if p:
            net.ribbon(j1, "j2_%d" % (p - 1), z_rib)
    net.ribbon("j1_0", "j2c", z_rib)
    if what == "miso":
        end = "pico"
        net.track("j2c", end, CONTROLLER_MISO_MM)
        net.load(end, d.PICO_CI_PF, True)
    else:
        end = "buf126"
        net.track("j2c", end, RET_TO_BUF_MM)
        net.load(end, d.LVC_CI_PF, False)
    return net, {"end": end, "src": "s1"}


# -- reading a waveform -----------------------------------------------------------

def _crossings(t, v, level, t0, t1):
    """Times (ns) v crosses level within [t0, t1), linearly interpolated."""
    out = []
    for i in range(1, len(t)):
        if t[i] < t0 or t[i - 1] >= t1:
            continue
        a, b = v[i - 1] - level, v[i] - level
        if (a < 0) != (b < 0):
            out.append(t[i - 1] + (t[i] - t[i - 1]) * a / (a - b))
    return out


def _window(t, v, t0, t1):
    return [x for tt, x in zip(t, v) if t0 <= tt < t1]


def edge(t, v, rising, t0, t1, band):
    """Figures of one edge within [t0, t1): overshoot past the rail it goes
    to (an undershoot on a falling edge), ring-back (how far back into band
    it comes after first leaving it: > 0 is inside), 10-90 % time, the 50 %
    time, and the most times any threshold inside band (an input without
    hysteresis switches somewhere in it) is crossed, less one: 0 is clean."""
    w = _window(t, v, t0, t1)
    lo_v, hi_v = (0.1 * VCC, 0.9 * VCC) if rising else (0.9 * VCC, 0.1 * VCC)
    first = _crossings(t, v, lo_v, t0, t1)
    late = _crossings(t, v, hi_v, t0, t1)
    mid = _crossings(t, v, VCC / 2, t0, t1)
    steps = 26
    worst = max(len(_crossings(t, v, band[0] + (band[1] - band[0]) * k / steps, t0, t1))
                for k in range(steps + 1))
    out_of_band = _crossings(t, v, band[1] if rising else band[0], t0, t1)
    ring = None
    if out_of_band:
        after = _window(t, v, out_of_band[0], t1)
        ring = band[1] - min(after) if rising else max(after) - band[0]
    return {"rising": rising, "over": (max(w) - VCC) if rising else -min(w), "ring": ring,
            "edge_ns": (late[0] - first[0]) if first and late else None,
            "t50": mid[0] if mid else None, "recross": max(worst - 1, 0)}


def schmitt_margin(t, v, rising, t0, t1):
    """How far (V) the edge keeps from re-triggering a Schmitt input whose
    thresholds lie anywhere in the data sheet's ranges: after first passing
    VT+ min it must stay above VT- max (rising), and the other way round;
    and it must end past VT+ max (VT- min). The smaller of the two margins."""
    vp_min, vp_max = d.SCHMITT_VT_POS_V
    vn_min, vn_max = d.SCHMITT_VT_NEG_V
    if rising:
        c = _crossings(t, v, vp_min, t0, t1)
        if not c:
            return -VCC
        after = _window(t, v, c[0], t1)
        return min(min(after) - vn_max, after[-1] - vp_max)
    c = _crossings(t, v, vn_max, t0, t1)
    if not c:
        return -VCC
    after = _window(t, v, c[0], t1)
    return min(vp_min - max(after), vn_min - after[-1])


def _settle(t, v, t0, t1, level_hi):
    """When a rising v last enters its final region (past level_hi) in [t0, t1)."""
    c = _crossings(t, v, level_hi, t0, t1)
    return c[-1] if c else None


# -- the figures -------------------------------------------------------------------------

def _edges(wave, band):
    t, v = wave
    tf = T_RISE_NS + HIGH_NS
    stop = STOP_NS
    return edge(t, v, True, 0, tf, band), edge(t, v, False, tf, stop, band)


def _worst(edges):
    """The worst of several edges' figures: overshoot of the rising edges,
    undershoot of the falling ones."""
    def pick(key, which=(True, False)):
        vals = [e[key] for e in edges if e[key] is not None and e["rising"] in which]
        return max(vals) if vals else None
    return {"over": pick("over", (True,)), "under": pick("over", (False,)), "ring": pick("ring"),
            "recross": pick("recross"), "edge_ns": pick("edge_ns")}


def _forward_run(design, corner, lines, series=None, rib=None, split=True):
    net, probes = forward(design, corner, lines, series, rib, split)
    keys = sorted(probes, key=lambda k: (k[0], k[1], k[2]))
    waves = run(net, [probes[k] for k in keys], STOP_NS)
    return {k: waves[probes[k]] for k in keys}


def today_figures(rib=None):
    """The unterminated bus at both corners: each load's edges (HC595 band)."""
    band = (d.HC595_VIL_V, d.HC595_VIH_V)
    out = {}
    for corner in CORNERS:
        w = _forward_run("today", corner, ("sck", "latch"), rib=rib)
        last = [_edges(w[("sck", 7, k)], band) for k in ("595", "mfrc522")]
        every = [e for k in w if k[0] == "sck" for e in _edges(w[k], band)]
        lat = _edges(w[("latch", 7, "595")], band)
        out[corner["name"]] = {
            "last_595": _worst(last[0]), "last_mfrc522": _worst(last[1]), "every": _worst(every),
            "boards_recrossing": sorted({k[1] for k in w if k[0] == "sck"
                                         and _worst(_edges(w[k], band))["recross"] > 0}),
            "latch_last": _worst(lat),
        }
    return out


def _fixed_figures(w, line="sck"):
    """The fixed line's figures from its waveforms: the last board's loads,
    every LVC load (0.8-2.0 V band), every Schmitt input's margin."""
    band = (LVC_VIL_V, LVC_VIH_V)
    tf = T_RISE_NS + HIGH_NS
    sck = {("sck",) + k[1:]: v for k, v in w.items() if k[0] == line}
    loads = [e for k in sck if k[2] != "schmitt" for e in _edges(sck[k], band)]
    margins = []
    for k in sck:
        if k[2] == "schmitt":
            t, v = sck[k]
            margins += [schmitt_margin(t, v, True, 0, tf), schmitt_margin(t, v, False, tf, STOP_NS)]
    out = {"last_" + kind: _worst(_edges(sck[("sck", 7, kind)], band))
           for kind in ("schmitt", "595", "mfrc522") if ("sck", 7, kind) in sck}
    return {**out, "loads": _worst(loads), "schmitt_margin": min(margins),
            "recross_at": sorted({k[1] for k in sck if k[2] != "schmitt"
                                  and _worst(_edges(sck[k], band))["recross"] > 0})}


def fixed_all(corner, rib=None, series=None, split=True):
    """The fixed bus (SCK, MOSI, LATCH; series resistance BUS_SERIES_OHM
    unless given) at one corner: each line's figures, and the 50 % times
    (ns from the Pico's edge) of the rising edge at the last board's loads."""
    w = _forward_run("fixed", corner, ("sck", "mosi", "latch"), series, rib, split)
    t = {}
    for key in (("sck", 7, "595"), ("sck", 7, "mfrc522"), ("mosi", 7, "mfrc522"), ("latch", 7, "595"),
                ("sck", 0, "595")):
        tt, v = w[key]
        t["%s_%s%s" % (key[0], key[2], "_first" if key[1] == 0 else "")] = _crossings(
            tt, v, VCC / 2, 0, T_RISE_NS + HIGH_NS)[0] - T_RISE_NS
    return {line: _fixed_figures(w, line) for line in ("sck", "mosi", "latch")}, t


def worst_line(figs):
    """The worst of the three lines' figures: every load's, the Schmitt margin."""
    loads = {key: max(x["loads"][key] for x in figs.values() if x["loads"][key] is not None)
             for key in ("over", "under", "ring", "recross", "edge_ns")}
    return {"loads": loads, "schmitt_margin": min(x["schmitt_margin"] for x in figs.values()),
            "recross_at": sorted({p for x in figs.values() for p in x["recross_at"]})}


def chosen_ohm(sweep):
    """The smallest series resistance of the sweep with no re-crossing, a
    Schmitt margin, and over- and undershoot at every load within
    OVERSHOOT_LIMIT_V (strong corner: the fastest edges ring most)."""
    for r in sorted(sweep):
        w = worst_line(sweep[r])
        if (w["loads"]["recross"] == 0 and w["schmitt_margin"] > 0
                and max(w["loads"]["over"], w["loads"]["under"]) <= OVERSHOOT_LIMIT_V):
            return r
    return None


def back_figures(design, what, rib=None):
    """The line back from the farthest board at each corner: its flight
    (driver's 50 % to the receiver's last entry past 2.0 V) and its edge."""
    out = {}
    for corner in CORNERS:
        net, p = back(design, corner, what, rib)
        waves = run(net, [p["end"]], T_RISE_NS + HIGH_NS)
        t, v = waves[p["end"]]
        settle = _settle(t, v, 0, T_RISE_NS + HIGH_NS, PICO_VIH_V)
        e = edge(t, v, True, 0, T_RISE_NS + HIGH_NS, (PICO_VIL_V, PICO_VIH_V))
        out[corner["name"]] = {"flight": settle - T_RISE_NS, "edge": e}
    return out


@functools.lru_cache(maxsize=1)
def simulate():
    """Every figure of the bus: today's, the sweep of the series resistor,
    the fix's edges, skew and timing budgets. The ngspice runs are
    independent: a few at a time. Kept for the process (make hardware's
    build and check, and the tests, ask for it more than once)."""
    from concurrent.futures import ThreadPoolExecutor
    rib = ribbon_map()
    lines_pin, grounds = rib
    f = {"ribbon": {k: (pin, ribbon_line(pin, grounds)) for k, pin in lines_pin.items() if pin},
         "track": microstrip()}
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        today = pool.submit(today_figures, rib)
        sweep = {r: pool.submit(fixed_all, CORNERS[0], rib, r) for r in SWEEP_OHM
                 if r != d.BUS_SERIES_OHM}
        chosen = {c["name"]: pool.submit(fixed_all, c, rib) for c in CORNERS}
        shared = pool.submit(fixed_all, CORNERS[0], rib, None, False)
        miso = {des: pool.submit(back_figures, des, "miso", rib) for des in ("today", "fixed")}
        ret = pool.submit(back_figures, "fixed", "chain_ret", rib)
        f["today"] = today.result()
        f["fixed"] = {k: v.result()[0] for k, v in chosen.items()}
        f["skew"] = {k: v.result()[1] for k, v in chosen.items()}
        f["sweep"] = {r: (f["fixed"][CORNERS[0]["name"]] if r == d.BUS_SERIES_OHM
                          else sweep[r].result()[0]) for r in SWEEP_OHM}
        f["miso"] = {k: v.result() for k, v in miso.items()}
        f["chain_ret"] = ret.result()
        f["shared"] = shared.result()[0]
    f["budget"] = budget(f)
    return f


def budget(f):
    """Setup and hold at the last board, and the round trips back to the
    Pico, against half an SPI period (ns)."""
    half = PERIOD_NS / 2
    sk = f["skew"]
    # simulated skew: the largest |MOSI - SCK| at the last MFRC522 (the 595
    # takes the chain, not MOSI); device spread: each re-drive's tpd range
    # on either line, the 541's output skew.
    sim = max(abs(s["mosi_mfrc522"] - s["sck_mfrc522"]) for s in sk.values())
    spread = 8 * (d.LVC_TPD_NS[1] - d.LVC_TPD_NS[0]) + d.LVC541_SKEW_NS
    worst = sim + spread
    weak = sk["weak"]
    fwd_max = d.LVC541_TPD_NS[1] + weak["sck_mfrc522"]           # Pico SCK to the last reader
    fwd_595 = d.LVC541_TPD_NS[1] + weak["sck_595"]
    miso = (fwd_max + d.MFRC522_TOUT_NS + d.LVC125_TPD_NS[1]
            + f["miso"]["fixed"]["weak"]["flight"])
    ret = (fwd_595 + d.LVC595_TCO_NS + f["chain_ret"]["weak"]["flight"] + d.LVC125_TPD_NS[1])
    # The chain: board p's SER is board p-1's QH', launched by p-1's clock
    # edge; board p's clock comes one re-drive later. Rising-edge cascade (a
    # 595's QH'): hold needs tco > that delay; a cascade output that changes
    # on the clock's fall (a lock-up flip-flop, or 74HC4094's QS') moves the
    # data half a period later.
    ns_t = f["track"][1]
    flight = (CHAIN_OUT_MM + CHAIN_IN_MM) * ns_t / 1000 + _ns_per_m() * d.RIBBON_SEGMENT_MM / 1000
    stage = [(s["sck_595"] - s["sck_595_first"]) / 7 for s in sk.values()]
    hold_rise = d.LVC595_TCO_MIN_NS + flight - max(stage) - d.LVC595_TH_NS
    hold_fall = half + d.LVC_TPD_NS[0] + flight - max(stage) - d.LVC595_TH_NS
    setup_fall = half - d.LVC595_TCO_NS - flight + min(stage) - d.LVC595_TSU_NS
    return {
        "chain_stage": (min(stage), max(stage)), "chain_flight": flight,
        "chain_hold_rising": hold_rise, "chain_hold_falling": hold_fall, "chain_setup_falling": setup_fall,
        "half": half, "skew_sim": sim, "skew_spread": spread, "skew_worst": worst,
        "mfrc522_setup": half - worst - d.MFRC522_TSU_NS,
        "mfrc522_hold": half - worst - d.MFRC522_TH_NS,
        "fwd": fwd_max, "miso_round": miso, "miso_margin": half - miso - d.PICO_TSU_NS,
        "ret_round": ret, "ret_margin": half - ret - d.PICO_TSU_NS,
    }


# -- figures.md -------------------------------------------------------------------------

def _gsg_lines(f):
    return ", ".join(k.upper() for k, (pin, (z, what)) in sorted(f["ribbon"].items())
                     if what == "G-S-G") or "none"


def _shared_text(figs):
    bad = ["%s at board(s) %s" % (line.upper(), " ".join(str(p) for p in x["recross_at"]))
           for line, x in sorted(figs.items()) if x["recross_at"]]
    return "re-crossings on " + "; ".join(bad) if bad else "no re-crossing"


def _v0(x):
    return "none" if x is None else "%.0f" % x


def _v(x):
    return "-" if x is None else "%.2f" % x


def _row(corner, where, e):
    return "| %s | %s | %s | %s | %s | %d | %s |" % (corner, where, _v(e["over"]), _v(e["under"]),
                                                    _v(e["ring"]), e["recross"], _v(e["edge_ns"]))


def markdown(f):
    """figures.md's section on the bus."""
    z_t, ns_t = f["track"]
    tod, fx, b = f["today"], f["fixed"], f["budget"]
    out = ["", "## The bus across the nine boards (ngspice)", "",
           "`make hardware` writes a netlist per case (boardgen/bussim.py) and runs `ngspice -b`: "
           "the controller, eight %.0f mm ribbons (3M 3365/40) and the rank boards' tracks as lossless "
           "lines, every input a capacitance with its clamp diodes, the drivers an edge behind their "
           "output resistance; the Schmitt buffer is XSPICE's hyst block with SN74LVC1G17's thresholds. "
           "Two corners: strong (%.0f ns edges, %.0f Ohm, tpd %.1f ns) and weak (%.0f ns, %.0f Ohm, %.1f ns). "
           "SCK %.0f MHz (pins.NFC_BAUD). Tracks: %.1f mm microstrip, Z0 %.0f Ohm, %.2f ns/m; lengths "
           "measured on the routed boards (bussim.py says which are assumed)."
           % (d.RIBBON_SEGMENT_MM, d.LVC_EDGE_NS[0], d.LVC_ROUT_FAST_OHM, d.LVC_TPD_NS[0],
              d.LVC_EDGE_NS[1], d.LVC_ROUT_MAX_OHM, d.LVC_TPD_NS[1], pins.NFC_BAUD / 1e6,
              d.TRACE_WIDTH_MM, z_t, ns_t), "",
           "| ribbon wire | pin | neighbours | Z0 (Ohm) |", "|---|---:|---|---:|"]
    for k, (pin, (z, what)) in sorted(f["ribbon"].items()):
        out.append("| %s | %d | %s | %.0f |" % (k.upper(), pin, what, z))
    if "chain_ret" not in f["ribbon"]:
        out.append("| CHAIN_RET | - | not in the ribbon map yet | - |")
    out += ["", "The fix is simulated with every bus wire beside a ground (the issue's interleave): a wire "
            "the map leaves without one (%s) is taken as G-S, %.0f Ohm."
            % (", ".join(k.upper() for k, (pin, (z, what)) in sorted(f["ribbon"].items())
                         if what not in ("G-S-G", "G-S")) or "none", wire_z(None, (), True))]
    out += ["", "### Today: unterminated, 17 clock loads, 74HC595 (no hysteresis, switching "
            "anywhere in %.2f-%.2f V at 3.3 V)" % (d.HC595_VIL_V, d.HC595_VIH_V), "",
            "| corner | where | overshoot (V) | undershoot (V) | ring-back into the band (V) | threshold re-crossings | 10-90 % edge (ns) |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for c in CORNERS:
        t = tod[c["name"]]
        for where, key in (("last 595 SRCLK", "last_595"), ("last MFRC522 SCK", "last_mfrc522"),
                           ("every SCK load", "every"), ("last 595 RCLK (LATCH)", "latch_last")):
            e = t[key]
            out.append(_row(c["name"], where, e))
        out.append("| %s | boards with a re-crossing SCK load (-1: controller) | %s | | | | |"
                   % (c["name"], " ".join(str(p) for p in t["boards_recrossing"]) or "none"))
    out += ["", "A re-crossing is a second clock: the chain shifts twice and can open a switch under a field.", "",
            "### The fix: a series resistor at every driver, a Schmitt re-drive per board, LVC loads", "",
            "Each rank board re-drives SCK, MOSI and LATCH through two Schmitt channels from J1 (two "
            "74LVC3G17): one feeds the board's own loads, the other only the next ribbon; the controller's "
            "595 takes its own three of the 74LVC541A's spare channels. A load part-way along a "
            "source-terminated line sees its half-step, a shelf at its threshold: with one channel for "
            "both (strong corner) this simulation finds %s. Every driver output has the series resistor."
            % _shared_text(f["shared"]), "",
            "Sweep of the series resistor of the wires between two grounds (%s; a wire beside one "
            "ground keeps BUS_SERIES_GS_OHM = %.0f Ohm; strong corner: the fastest edges ring most; "
            "worst over SCK, MOSI, LATCH and every board; LVC loads' band 0.8-2.0 V; Schmitt margin: how far an edge "
            "keeps from re-triggering with VT+ anywhere in %.2f-%.2f V and VT- in %.2f-%.2f V, at most "
            "VT+ min - VT- max = %.2f V for an edge that never turns back):"
            % ((_gsg_lines(f), d.BUS_SERIES_GS_OHM) + d.SCHMITT_VT_POS_V + d.SCHMITT_VT_NEG_V
               + (d.SCHMITT_VT_POS_V[0] - d.SCHMITT_VT_NEG_V[1],)), "",
            "| series (Ohm) | overshoot (V) | undershoot (V) | re-crossings at any load | Schmitt margin (V) | "
            "slowest 10-90 % edge at a load (ns) |",
            "|---:|---:|---:|---:|---:|---:|"]
    for r, figs in sorted(f["sweep"].items()):
        w = worst_line(figs)
        out.append("| %.0f%s | %.2f | %.2f | %d | %.2f | %.2f |" % (
            r, " (chosen)" if r == d.BUS_SERIES_OHM else "", w["loads"]["over"], w["loads"]["under"],
            w["loads"]["recross"], w["schmitt_margin"], w["loads"]["edge_ns"]))
    out += ["", "The smallest resistance with no re-crossing, a Schmitt margin and over- and undershoot within "
            "%.2f V (half the MFRC522's 0.5 V past a rail): %s Ohm. It is near Z0 less the driver's own "
            "(105 - 10..23 Ohm), a little under it for the boards' load capacitance."
            % (OVERSHOOT_LIMIT_V, _v0(chosen_ohm(f["sweep"]))), "",
            "**BUS_SERIES_OHM = %.0f Ohm** (dims.py) at every bus driver's output whose ribbon wire lies "
            "between two grounds; **BUS_SERIES_GS_OHM = %.0f Ohm** where it has one ground beside it "
            "(Z0 %.0f Ohm)." % (d.BUS_SERIES_OHM, d.BUS_SERIES_GS_OHM, wire_z(None, (), True)), "",
            "| corner | where | overshoot (V) | undershoot (V) | ring-back into the band (V) | re-crossings | 10-90 % edge (ns) |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for c in CORNERS:
        x = fx[c["name"]]
        for line, where, key in (("sck", "last Schmitt input, SCK", "last_schmitt"),
                                 ("sck", "last 595 SHCP", "last_595"),
                                 ("sck", "last MFRC522 SCK", "last_mfrc522"),
                                 ("mosi", "last MFRC522 MOSI", "last_mfrc522"),
                                 ("latch", "last 595 STCP (LATCH)", "last_595")):
            out.append(_row(c["name"], where, x[line][key]))
        w = worst_line(x)
        out.append(_row(c["name"], "every load of the three lines", w["loads"]))
        out.append("| %s | Schmitt margin, every board and line | %.2f V | | | | |" % (c["name"], w["schmitt_margin"]))
    sk = f["skew"]
    out += ["", "### Timing at 4 MHz (half a period: %.0f ns)" % b["half"], "",
            "| figure | strong | weak |", "|---|---:|---:|",
            "| Pico SCK to the last 595's SHCP (50 %%, ns; the 541's own tpd apart) | %.1f | %.1f |"
            % (sk["strong"]["sck_595"], sk["weak"]["sck_595"]),
            "| ... to the last MFRC522's SCK | %.1f | %.1f |" % (sk["strong"]["sck_mfrc522"], sk["weak"]["sck_mfrc522"]),
            "| ... MOSI to the last MFRC522 | %.1f | %.1f |" % (sk["strong"]["mosi_mfrc522"], sk["weak"]["mosi_mfrc522"]),
            "| ... LATCH to the last 595's STCP | %.1f | %.1f |" % (sk["strong"]["latch_595"], sk["weak"]["latch_595"]),
            "| MISO from the farthest board to the Pico, flight (ns): today / fixed | %.1f / %.1f | %.1f / %.1f |"
            % (f["miso"]["today"]["strong"]["flight"], f["miso"]["fixed"]["strong"]["flight"],
               f["miso"]["today"]["weak"]["flight"], f["miso"]["fixed"]["weak"]["flight"]),
            "| MISO at the Pico: re-crossings of 0.8-2.0 V, today / fixed | %d / %d | %d / %d |"
            % (f["miso"]["today"]["strong"]["edge"]["recross"], f["miso"]["fixed"]["strong"]["edge"]["recross"],
               f["miso"]["today"]["weak"]["edge"]["recross"], f["miso"]["fixed"]["weak"]["edge"]["recross"]),
            "| CHAIN_RET from the last QH' to the controller's 1G126, flight (ns) | %.1f | %.1f |"
            % (f["chain_ret"]["strong"]["flight"], f["chain_ret"]["weak"]["flight"]), "",
            "| budget | ns | limit |", "|---|---:|---|",
            "| SCK-MOSI skew at the last board: simulated / data-sheet spread (8 re-drives' tpd "
            "%.1f-%.1f ns, the 541's %.1f ns) / worst | %.1f / %.1f / %.1f | |"
            % (d.LVC_TPD_NS[0], d.LVC_TPD_NS[1], d.LVC541_SKEW_NS, b["skew_sim"], b["skew_spread"], b["skew_worst"]),
            "| setup margin at the last MFRC522 (MOSI changes on SCK's fall) | %.1f | > 0 (tsu %.0f ns) |"
            % (b["mfrc522_setup"], d.MFRC522_TSU_NS),
            "| hold margin at the last MFRC522 | %.1f | > 0 (th %.0f ns) |" % (b["mfrc522_hold"], d.MFRC522_TH_NS),
            "| the chain: one board's clock after the board before's (a re-drive and a ribbon) | %.1f-%.1f | |"
            % b["chain_stage"],
            "| ... hold at each 595's SER with the 595's own QH' cascade (tco >= %.1f ns, th %.1f ns, "
            "%.1f ns of tracks and ribbon) | %.1f | > 0: **%s** |"
            % (d.LVC595_TCO_MIN_NS, d.LVC595_TH_NS, b["chain_flight"], b["chain_hold_rising"],
               "holds" if b["chain_hold_rising"] > 0 else "fails: the next board's clock comes after the data"),
            "| ... hold / setup with a cascade output that changes on the clock's fall (lock-up flip-flop "
            "or 74HC4094's QS') | %.1f / %.1f | > 0 |" % (b["chain_hold_falling"], b["chain_setup_falling"]),
            "| MISO round trip: SCK's fall at the Pico, the 541, the re-drives, the reader's %.0f ns, its 1G125, "
            "back | %.1f | < %.0f ns less the Pico's %.0f ns: margin %.1f |"
            % (d.MFRC522_TOUT_NS, b["miso_round"], b["half"], d.PICO_TSU_NS, b["miso_margin"]),
            "| CHAIN_RET round trip: SCK's rise at the Pico to the last QH' (%.0f ns), back, the 1G126 | %.1f | "
            "< %.0f ns (half a period; a full one in mode 0): margin %.1f |"
            % (d.LVC595_TCO_NS, b["ret_round"], b["half"], b["ret_margin"]), ""]
    return "\n".join(out)
