"""The reader's RF chain in ngspice (hardware/boardgen/rfsim.py): every
simulated figure against its own limit and against the closed form of
figures.py within a stated tolerance; the +-15 % inductance margin (M8); the
interlock that keeps an open switch from overdriving the reader (M10); the
RX pin's carrier (m6)."""
import os
import subprocess
import sys

import pytest

from mpy import ROOT

HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

from boardgen import dims as d, figures as fg, orderable, rfsim, spice  # noqa: E402

NO_NGSPICE = "ngspice is not installed (Debian package 'ngspice'; `make system` installs it)"
needs_ngspice = pytest.mark.skipif(not rfsim.available(), reason=NO_NGSPICE)

# How far the simulation may sit from the closed form. The closed form lumps
# the switch's whole on-capacitance at the node; the simulation puts the part
# above CD(off) at the source, behind R_on, where a little of the coil's
# current circulates through it: the port impedance reads 15-20 % higher,
# the coil current and the field a few per cent.
TOL_Z = 0.25
TOL_H = 0.10
TOL_SUPPLY = 0.25
TOL_RX = 0.15


@pytest.fixture(scope="module")
def c():
    return fg.coil()


@pytest.fixture(scope="module")
def sim(c):
    if not rfsim.available():
        pytest.skip(NO_NGSPICE)
    return rfsim.simulate(c)


@needs_ngspice
def test_every_coil_simulated_meets_its_limits(c, sim):
    for f, row in enumerate(sim["coils"]):
        n, name = row["nominal"], "abcdefgh"[f]
        assert d.H_MIN_A_PER_M <= n["H"] <= 7.5, (name, n["H"])
        assert abs(n["H"] / d.H_TARGET_A_PER_M - 1) <= 0.15, (name, n["H"])
        assert n["supply_mA_tran"] <= d.MFRC522_TX_MAX_A * 1000, (name, n["supply_mA_tran"])
        assert d.RX_MIN_VPP <= n["rx_vpp"] <= d.RX_MAX_VPP, (name, n["rx_vpp"])
        assert abs(n["Z_port"].imag) <= 0.15 * n["Z_port"].real, (name, n["Z_port"])
        # the square wave's run agrees with the AC analysis (harmonics are
        # filtered out), and it had settled: the window before the last
        # carries the same current
        assert n["i_coil_tran"] == pytest.approx(n["i_coil"], rel=0.02), name
        assert n["i_coil_early"] == pytest.approx(n["i_coil_tran"], rel=0.01), name


@needs_ngspice
def test_the_simulation_meets_the_closed_form(c, sim):
    for f, (pc, row) in enumerate(zip(c["coils"], sim["coils"])):
        n, name = row["nominal"], "abcdefgh"[f]
        assert abs(n["Z_port"]) == pytest.approx(abs(pc["Z_port"]), rel=TOL_Z), name
        assert n["H"] == pytest.approx(pc["H"], rel=TOL_H), name
        assert n["i_coil"] == pytest.approx(pc["drive"]["i_ant"], rel=TOL_H), name
        assert n["supply_mA_tran"] == pytest.approx(pc["supply_mA"], rel=TOL_SUPPLY), name
        assert n["rx_vpp"] == pytest.approx(rfsim.rx_closed_form(c, pc), rel=TOL_RX), name


def test_every_coil_keeps_its_margin_with_catalogue_parts(c):
    """M8: each coil's own inductance 15 % low or high: one 0603 C0G part of
    the series retunes it, and with the nominal parts fitted the field and
    the drivers' current stay inside their limits (closed form; the
    simulation below)."""
    top = max(orderable.C0G_VALUES)
    for pc in c["coils"]:
        name = "abcdefgh"[pc["file"]]
        assert max(pc["C1_parts"]) <= top and min(pc["C1_parts"]) >= min(orderable.C0G_VALUES), name
        for k, m in pc["margin"].items():
            assert m["C1_retune"] is not None, (name, k)
            assert m["C1_retune"] <= d.C1_RETUNE_MAX_F * 1.001, (name, k, m["C1_retune"])
            parts = fg.c1_parts(m["C1_retune"])
            assert all(v in orderable.C0G_VALUES for v in parts), (name, k, parts)
            for h in (m["H"], m["H_ron_max"]):
                assert d.H_MIN_A_PER_M <= h <= 7.5, (name, k, h)
            assert m["supply_max_mA"] <= d.MFRC522_TX_MAX_A * 1000, (name, k)


@needs_ngspice
def test_every_coil_keeps_its_margin_in_the_simulation(c, sim):
    for f, (pc, row) in enumerate(zip(c["coils"], sim["coils"])):
        name, nominal = "abcdefgh"[f], row["nominal"]
        for k in pc["margin"]:
            untuned, retuned = row[k], row[("retuned", k)]
            assert d.H_MIN_A_PER_M <= untuned["H"] <= 7.5, (name, k, untuned["H"])
            assert untuned["supply_mA"] <= d.MFRC522_TX_MAX_A * 1000, (name, k)
            assert untuned["H"] == pytest.approx(pc["margin"][k]["H"], rel=TOL_H), (name, k)
            # retuned from the catalogue, the coil is back where it was
            assert retuned["Z_port"].real == pytest.approx(nominal["Z_port"].real, rel=0.15), (name, k)
            assert abs(retuned["Z_port"].imag) <= 0.15 * nominal["Z_port"].real, (name, k)
            assert abs(retuned["H"] / d.H_TARGET_A_PER_M - 1) <= 0.15, (name, k, retuned["H"])


@needs_ngspice
def test_an_open_switch_cannot_overdrive_the_reader_with_the_tx_resistors(c, sim):
    """M10: EN low with the field on, for 1 us, 100 us, for ever, and with the
    switch's capacitances +-30 %: TVDD's current over any carrier period
    stays under the MFRC522's 100 mA. Without the resistors it does not:
    the interlock is needed, and the simulation shows it."""
    limit = d.MFRC522_TX_MAX_A * 1000
    for case, got in sim["open"]["with"].items():
        assert got["worst_mA"] <= limit / 2, (case, got)       # half the limit: margin
    for k, spread in sim["spread"].items():
        assert spread["open"]["worst_mA"] <= limit / 2, (k, spread["open"])
    without = [sim["open"]["without"]["1 us"]["worst_mA"]] + [
        s["open_without"]["worst_mA"] for s in sim["spread"].values()]
    assert max(without) > limit, without
    # the closed form agrees, and bounds any capacitance: exactly at resonance
    cf = rfsim.open_closed_form(c)
    assert sim["open"]["with"]["steady"]["steady_mA"] == pytest.approx(cf["supply_mA"], rel=0.1)
    assert cf["worst_supply_mA"] <= limit / 2
    assert rfsim.open_closed_form(c, 0.0)["worst_supply_mA"] > limit


def test_the_tx_resistor_is_an_e24_value_the_match_was_solved_with(c):
    e24 = {round(v * 10 ** k, 6) for v in (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6,
                                             3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1) for k in (0, 1, 2)}
    assert round(d.TX_SERIES_OHM, 6) in e24
    # the match's branch reactance sits at or under its margin's cap
    assert c["x"] <= c["x_max"] + 1e-9
    assert c["Z_port"] == pytest.approx(c["coils"][0]["Z_port"].real, rel=0.15)


def test_the_coil_s_l_and_r_come_from_one_place(c, monkeypatch):
    """A field solver's L and R replace physics.py's in rfsim.coil_lr() and
    reach every coil of the netlist."""
    l, r = rfsim.coil_lr()
    base, _t = rfsim.netlist(c, 0)
    monkeypatch.setattr(rfsim, "coil_lr", lambda: (l * 1.1, r * 2))
    text, _t = rfsim.netlist(c, 0)
    lines = dict(line.split(None, 1) for line in text.splitlines() if line[:2] in ("Lc", "Rc"))
    for f, pc in enumerate(c["coils"]):
        _n1, _n2, henry = lines["Lc%d" % f].split()
        assert float(henry) == pytest.approx(l * 1.1 + pc["feed_nH"] * 1e-9, rel=1e-5)
        _n1, _n2, ohm = lines["Rc%d" % f].split()
        assert float(ohm) == pytest.approx(2 * r + rfsim._feed_r(pc["feed_mm"]), rel=1e-5)
    assert text != base


def test_the_netlist_holds_the_whole_chain(c):
    text, _t = rfsim.netlist(c, 3)
    names = [line.split()[0] for line in text.splitlines() if line and line[0] not in "*."]
    count = {p: sum(1 for n in names if n.startswith(p)) for p in ("Vtx", "Rdrv", "Rs", "L0", "Cn", "Cd", "Ron",
                                                                    "Con", "Csoff", "C1", "Lc", "Rc")}
    assert count == {"Vtx": 2, "Rdrv": 2, "Rs": 2, "L0": 2, "Cn": 2, "Cd": 2, "Ron": 2, "Con": 2,
                     "Csoff": 14, "C1": 16, "Lc": 8, "Rc": 8}
    assert "Crx na rxc 1n" in text and "Rrx2 rx vmid 2.2k" in text
    open_text, _t = rfsim.netlist(c, 3, switch="off")
    assert "Ron" not in open_text and "adgsw" in open_text


def test_without_ngspice_the_simulation_says_so_in_one_line(c, monkeypatch):
    monkeypatch.setattr(spice, "NGSPICE", "no-such-ngspice-here")
    assert not rfsim.available()
    with pytest.raises(rfsim.SimError) as e:
        rfsim.run_coil(c, 0)
    assert "\n" not in str(e.value) and "ngspice" in str(e.value)


def test_make_hardware_without_ngspice_refuses_in_one_line():
    env = dict(os.environ, PATH=os.path.dirname(sys.executable))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "hardware.py"), "check"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 1
    assert "ngspice is not installed" in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
