"""The published formulas the board's figures come from, one function each.

SI units throughout (m, H, F, T, A, Ohm); every function names its source.
Standard library only.
"""
import cmath
import math

MU0 = 4e-7 * math.pi          # vacuum permeability, H/m
RHO_CU = 1.72e-8              # copper resistivity at 20 C, Ohm m
F_CARRIER = 13.56e6           # ISO/IEC 14443 carrier, Hz
FC = F_CARRIER


def omega(f=F_CARRIER):
    return 2 * math.pi * f


# -- planar coil ------------------------------------------------------------

def mohan_square(n, d_out, w, s):
    """Inductance of a square planar spiral: Mohan's modified Wheeler formula,
    L = K1 mu0 n^2 d_avg / (1 + K2 rho), K1 = 2.34, K2 = 2.75 for a square
    (S. S. Mohan, M. Hershenson, S. Boyd, T. Lee, "Simple accurate
    expressions for planar spiral inductances", IEEE JSSC 34(10), 1999,
    eq. 1 and table I). n turns, outer side d_out, trace width w, spacing s."""
    d_in = d_out - 2 * (n * w + (n - 1) * s)
    if d_in <= 0:
        raise ValueError("the turns do not fit in the outer side")
    d_avg = (d_out + d_in) / 2
    rho = (d_out - d_in) / (d_out + d_in)
    return 2.34 * MU0 * n * n * d_avg / (1 + 2.75 * rho)


def square_spiral_length(n, d_out, w, s):
    """Length of the trace of a square spiral: 4 sides per turn at the turn's
    mean side (geometry)."""
    total = 0.0
    side = d_out - w
    for _ in range(n):
        total += 4 * side
        side -= 2 * (w + s)
    return total


def skin_depth(rho=RHO_CU, f=F_CARRIER, mu_r=1.0):
    """delta = sqrt(2 rho / (omega mu)) (any electromagnetics text, e.g.
    Finkenzeller, RFID Handbook, 3rd ed., section 4.1.12)."""
    return math.sqrt(2 * rho / (omega(f) * MU0 * mu_r))


def trace_resistance_ac(length, w, t, f=F_CARRIER):
    """AC resistance of a PCB trace: the current flows in a skin depth on
    the top and bottom faces when the copper is thicker than two of them
    (Finkenzeller 4.1.12); plain DC resistance otherwise."""
    d = skin_depth(f=f)
    t_eff = min(t, 2 * d)
    return RHO_CU * length / (w * t_eff)


# -- matching network ---------------------------------------------------------

def emc_c0(l0, f_cut):
    """C0 of the EMC low-pass L0-C0 for a cut-off f_cut: f = 1/(2 pi sqrt(L0 C0))
    (NXP AN1445, section on the EMC filter)."""
    return 1 / ((2 * math.pi * f_cut) ** 2 * l0)


def match_series(l_coil, r_branch, x_frac, l0):
    """The per-rank network: L0, a shunt capacitor C_N at the switch (all the
    shunt capacitance of the branch: the EMC filter's C0 merged with the
    matching's parallel C), the switch, then per coil a series C1 to the
    antenna (no shunt capacitor at the coil, so an unselected coil is an open
    loop). Half circuit; r_branch = switch + half the antenna's resistance.

    An L-network lifts r_branch to the port: the branch keeps a reactance
    X = x_frac * omega L/2 (C1 cancels the rest), and C_N resonates the
    branch's susceptance at the node (the L-network of AN1445's matching
    section, solved exactly with L0 included). Returns (C_N, C1, Z_port)
    with Z_port the differential impedance the drivers see."""
    w = omega()
    x = x_frac * w * l_coil / 2
    y_b = 1 / complex(r_branch, x)
    # The node must look like 1/(G + jB) with B making L0's reactance vanish:
    # Z_node = 1/(G + jB); Z_port/2 = Z_node + j w L0, real.
    g = y_b.real
    # Im(1/(g + jb)) = -b/(g^2+b^2) = -w L0  ->  b^2 w L0 - b + g^2 w L0 = 0
    disc = 1 - 4 * (w * l0) ** 2 * g * g
    if disc < 0:
        raise ValueError("no match: L0 too large for this branch")
    b = (1 - math.sqrt(disc)) / (2 * w * l0)   # the high-impedance root
    c_n = (b - y_b.imag) / w
    c1 = 1 / (w * (w * l_coil / 2 - x))
    z_port = 2 * (1 / complex(g, b) + 1j * w * l0)
    if c_n <= 0:
        raise ValueError("no match with a positive shunt capacitor")
    return c_n, c1, z_port.real


def drive_series(l_coil, r_coil, r_switch, l0, c_n, c1, v_diff, r_series=0.0, r_drv=0.0):
    """Forward solve of match_series's half circuit, driven by the fundamental
    of TX1-TX2 (v_diff peak) through the drivers' output resistance r_drv and
    a resistor r_series in each TX line. Peak values: the port impedance the
    TX pins see (r_series included) and the port current, the antenna
    current, the AC voltage at the switch, the powers into the port (the TX
    pins), lost in both switches and in the antenna."""
    w = omega()
    z_b = r_switch + r_coil / 2 + 1j * w * l_coil / 2 + 1 / (1j * w * c1)
    z_n = 1 / (1 / z_b + 1j * w * c_n)
    z_half = z_n + 1j * w * l0 + r_series
    i_port = (v_diff / 2) / (z_half + r_drv)
    v_node = i_port * z_n
    i_ant = v_node / z_b
    return {
        "z_port": 2 * z_half,
        "v_node": abs(v_node),
        "i_port": abs(i_port),
        "i_ant": abs(i_ant),
        "v_switch": abs(v_node),
        "p_port": (i_port * z_half * i_port.conjugate()).real,
        "p_series": abs(i_port) ** 2 * r_series,
        "p_switch": abs(i_ant) ** 2 * r_switch,
        "p_antenna": 0.5 * abs(i_ant) ** 2 * r_coil,
    }


def tank_frequency(l, c):
    """f = 1 / (2 pi sqrt(L C))."""
    return 1 / (2 * math.pi * math.sqrt(l * c))


def coupled_current_ratio(k, q, f_self, f=F_CARRIER, l1=1.0, l2=1.0):
    """Current induced in a neighbouring resonant loop, relative to the
    driving loop's: |I2/I1| = omega M / |Z2| with Z2 = R2 + j(omega L2 -
    1/(omega C2)) (two coupled resonant circuits, Finkenzeller 4.1.10).
    q is the neighbour's Q at its own resonance f_self."""
    w = omega(f)
    w0 = 2 * math.pi * f_self
    r2 = w0 * l2 / q
    c2 = 1 / (w0 * w0 * l2)
    z2 = r2 + 1j * (w * l2 - 1 / (w * c2))
    return w * k * math.sqrt(l1 * l2) / abs(z2)


def coplanar_strips_inductance(w, s):
    """Inductance per metre of two coplanar strips of width w, gap s (a feed
    pair on one layer, no plane under it): L' = mu0 K(k) / K(k'),
    k = s / (s + 2w), from the coplanar-strip impedance
    Z0 = 120 pi / sqrt(eps_eff) K(k)/K(k') (B. C. Wadell, Transmission Line
    Design Handbook, 1991, 3.4.1; K by the AGM, Abramowitz & Stegun 17.6)."""
    k = s / (s + 2 * w)
    kk, _e = _agm_ke(k)
    kk1, _e1 = _agm_ke(math.sqrt(1 - k * k))
    return MU0 * kk / kk1


# -- loops, fields, mutual inductance -----------------------------------------

def _agm_ke(k):
    """Complete elliptic integrals K(k), E(k) by the arithmetic-geometric mean
    (Abramowitz & Stegun 17.6)."""
    a, b = 1.0, math.sqrt(1 - k * k)
    c_sum = 0.5 * k * k
    p = 0.5
    while abs(a - b) > 1e-15:
        a, b, c = (a + b) / 2, math.sqrt(a * b), (a - b) / 2
        p *= 2
        c_sum += p * c * c
    kk = math.pi / (2 * a)
    return kk, kk * (1 - c_sum)


def mutual_coaxial(a, b, d):
    """Mutual inductance of two coaxial circular loops of radii a, b at axial
    distance d: Maxwell's formula, M = mu0 sqrt(ab) [(2/k - k) K(k) - 2/k E(k)],
    k^2 = 4ab / ((a+b)^2 + d^2) (F. W. Grover, Inductance Calculations, 1946)."""
    k = math.sqrt(4 * a * b / ((a + b) ** 2 + d * d))
    kk, ee = _agm_ke(k)
    return MU0 * math.sqrt(a * b) * ((2 / k - k) * kk - 2 / k * ee)


def loop_self(a, r_wire):
    """Self-inductance of a thin circular loop: L = mu0 a (ln(8a/r) - 2)
    (Grover 1946, loop of round wire, high frequency)."""
    return MU0 * a * (math.log(8 * a / r_wire) - 2)


def loop_field_axis(n, i, a, z):
    """H on the axis of a circular loop: H = N I a^2 / (2 (a^2 + z^2)^1.5)
    (Biot-Savart; Finkenzeller, RFID Handbook, 4.1.1.1). A/m."""
    return n * i * a * a / (2 * (a * a + z * z) ** 1.5)


def distance_for_field(n, i, a, h):
    """Axial distance where loop_field_axis falls to h (0 if never reached)."""
    h0 = loop_field_axis(n, i, a, 0.0)
    if h0 <= h:
        return 0.0
    return a * math.sqrt((n * i / (2 * a * h)) ** (2 / 3) - 1)


def square_loop_radius(side):
    """Radius of the circular loop of the same area as a square of this side:
    how the square coils enter the circular-loop formulas (an approximation
    good to a few per cent at these distances)."""
    return side / math.sqrt(math.pi)


# -- magnets --------------------------------------------------------

def disc_magnet_axial(br, radius, thickness, z):
    """B on the axis of an axially magnetised disc (cylinder), z from its face:
    B = Br/2 [(L+z)/sqrt(R^2+(L+z)^2) - z/sqrt(R^2+z^2)]
    (J. M. Camacho, V. Sosa, "Alternative method to calculate the magnetic
    field of permanent magnets with azimuthal symmetry", Rev. Mex. Fis. E 59,
    2013, eq. 24). Tesla."""
    lz = thickness + z
    return br / 2 * (lz / math.hypot(radius, lz) - z / math.hypot(radius, z))


def loop_field(a, i, rho, z):
    """(B_rho, B_z) of a circular current loop of radius a, current i, at
    radius rho and height z from its centre: the elliptic-integral form
    (J. C. Simpson et al., "Simple analytic expressions for the magnetic
    field of a circular current loop", NASA/TM-2013-217919, eqs. 11-12;
    K, E by the AGM). Tesla."""
    rho = max(rho, 1e-12)                    # on the axis B_rho vanishes; keep the formula finite
    alpha2 = a * a + rho * rho + z * z - 2 * a * rho
    beta2 = a * a + rho * rho + z * z + 2 * a * rho
    k = math.sqrt(1 - alpha2 / beta2)
    kk, ee = _agm_ke(k)
    c = MU0 * i / math.pi
    beta = math.sqrt(beta2)
    b_rho = c * z / (2 * alpha2 * beta * rho) * ((a * a + rho * rho + z * z) * ee - alpha2 * kk)
    b_z = c / (2 * alpha2 * beta) * ((a * a - rho * rho - z * z) * ee + alpha2 * kk)
    return b_rho, b_z


def disc_magnet_field(br, radius, thickness, rho, z, slices=64):
    """(B_rho, B_z) of an axially magnetised disc anywhere outside it: its
    magnetisation is a surface current Br/mu0 per metre of its side, so the
    field is that of `slices` loops stacked through its thickness (midpoint
    rule; z from the face nearest the point). On the axis it meets
    disc_magnet_axial. Tesla."""
    b_rho = b_z = 0.0
    dz = thickness / slices
    for n in range(slices):
        h = z + (n + 0.5) * dz
        r_, z_ = loop_field(radius, br / MU0 * dz, rho, h)
        b_rho += r_
        b_z += z_
    return b_rho, b_z


def cel(kc, p, c, s, tol=1e-12):
    """Bulirsch's general complete elliptic integral
    cel(kc, p, c, s) = int_0^(pi/2) (c cos^2 t + s sin^2 t) /
    ((cos^2 t + p sin^2 t) sqrt(cos^2 t + kc^2 sin^2 t)) dt
    (R. Bulirsch, Numer. Math. 13, 1969; the algorithm as printed by
    Derby & Olbert 2010, below). cel(kc, 1, 1, 1) = K(k), kc^2 = 1 - k^2."""
    if kc == 0:
        raise ValueError("cel: kc = 0 (a point on the magnet's edge)")
    k = abs(kc)
    pp, cc, ss, em = p, c, s, 1.0
    if p > 0:
        pp = math.sqrt(p)
        ss = s / pp
    else:
        f = kc * kc
        q = 1 - f
        g = 1 - pp
        f = f - pp
        q = q * (ss - c * pp)
        pp = math.sqrt(f / g)
        cc = (c - ss) / g
        ss = -q / (g * g * pp) + cc * pp
    f = cc
    cc = cc + ss / pp
    g = k / pp
    ss = 2 * (ss + f * g)
    pp = g + pp
    g = em
    em = k + em
    kk = k
    while abs(g - k) > g * tol:
        k = 2 * math.sqrt(kk)
        kk = k * em
        f = cc
        cc = cc + ss / pp
        g = kk / pp
        ss = 2 * (ss + f * g)
        pp = g + pp
        g = em
        em = k + em
    return (math.pi / 2) * (ss + cc * em) / (em * (em + pp))


def cylinder_field(br, radius, thickness, rho, z):
    """(B_rho, B_z) of a uniformly, axially magnetised cylinder, exact: its
    magnetisation is an ideal solenoid's surface current Br/mu0, whose field
    is closed in Bulirsch's cel (N. Derby, S. Olbert, "Cylindrical magnets
    and ideal solenoids", Am. J. Phys. 78(3), 2010, eqs. 3-4 and 12-13).
    z from the face nearest the point, along the magnetisation (the point
    is on the magnetisation's side: a point on the other side mirrors it,
    B_z the same, B_rho reversed); rho from the axis. Tesla."""
    a, b = radius, thickness / 2
    zc = z + b                          # from the magnet's centre
    b0 = br / math.pi
    gamma = (a - rho) / (a + rho)
    out_r = out_z = 0.0
    for sign, zz in ((1, zc + b), (-1, zc - b)):
        den = math.sqrt(zz * zz + (rho + a) ** 2)
        alpha, beta = a / den, zz / den
        k = math.sqrt((zz * zz + (a - rho) ** 2) / (zz * zz + (a + rho) ** 2))
        out_r += sign * alpha * cel(k, 1, 1, -1)
        out_z += sign * beta * cel(k, gamma * gamma, 1, gamma)
    return b0 * out_r, b0 * a / (a + rho) * out_z


def shorted_turn_effect(a_tag, a_mag, d_tag_mag, a_coil, d_coil_tag, r_wire_tag,
                        r_wire_mag):
    """A sintered NdFeB magnet conducts (about 1.4 uOhm m): at 13.56 MHz its
    skin depth is a fraction of a millimetre, so it acts as a shorted turn of
    its own radius (Finkenzeller 4.1.12 on metal near a transponder). With
    the three loops coaxial (reader coil, tag, magnet) its eddy current
    I_m = -M_cm I / L_m takes back part of the flux through the tag and
    lowers the tag's inductance by k^2 (k tag-magnet coupling).
    Returns (flux_factor, k2): the fraction of the reader's flux linkage the
    tag keeps, and k^2."""
    m_ct = mutual_coaxial(a_coil, a_tag, d_coil_tag)
    m_cm = mutual_coaxial(a_coil, a_mag, d_coil_tag + d_tag_mag)
    m_tm = mutual_coaxial(a_tag, a_mag, d_tag_mag)
    l_m = loop_self(a_mag, r_wire_mag)
    l_t = loop_self(a_tag, r_wire_tag)
    flux = 1 - m_tm * m_cm / (l_m * m_ct)
    k2 = m_tm * m_tm / (l_m * l_t)
    return flux, k2


def detuned_response(f_tag, q_tag, k2, f=F_CARRIER):
    """Voltage a tag tuned to f_tag (quality q_tag) develops at f, after a
    shorted turn lowered its inductance by k^2 (its resonance rises by
    1/sqrt(1-k^2)), relative to the same tag without it (series resonance
    response 1/sqrt(1 + Q^2 (f/f0 - f0/f)^2), Finkenzeller 4.1.10)."""
    def resp(f0):
        x = f / f0 - f0 / f
        return 1 / math.sqrt(1 + (q_tag * x) ** 2)
    return resp(f_tag / math.sqrt(1 - k2)) / resp(f_tag)


# -- USB Type-C ------------------------------------------------------------------

def summed_cc(v_cc, r_sum, r_d):
    """Voltage at the node where CC1 and CC2 meet through two equal resistors
    r_sum, when one CC line sits at v_cc and the other at 0 V through its own
    Rd (a plain sink): v = v_cc (r_sum + r_d) / (2 r_sum + r_d). The ADC's
    input current is neglected (RP2040 datasheet: ADC input leakage in nA)."""
    return v_cc * (r_sum + r_d) / (2 * r_sum + r_d)


def rd_seen(r_d, r_sum):
    """The Rd a source sees on the active CC line: Rd in parallel with the
    path through both summing resistors and the other line's Rd."""
    other = 2 * r_sum + r_d
    return r_d * other / (r_d + other)


def parallel(*rs):
    return 1 / sum(1 / r for r in rs)


def phase(z):
    return math.degrees(cmath.phase(z))


def coplanar_k(n, a, l_coil, d):
    """Coupling factor of two equal coils side by side in one plane, centres d
    apart, each seen as a magnetic dipole N pi a^2 (far field in the plane:
    B = mu0 m / (4 pi d^3), Jackson 5.56): k = M / L."""
    m = MU0 * (n * math.pi * a * a) ** 2 / (4 * math.pi * d ** 3)
    return m / l_coil
