"""The bus across the nine boards, simulated with ngspice (issue 37, M6):
today's unterminated bus is judged unclean, the fix (series resistor at
every driver, a Schmitt re-drive per board) has clean monotonic edges at the
last board, its timing meets half an SPI period, and figures.md says so.
The waveform reading is checked on waveforms with known answers first."""
import os
import shutil
import sys

import pytest

from mpy import ROOT

HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

from boardgen import bussim, dims as d, spice  # noqa: E402

RAIL = d.BUS_VCC_V
ABS_MAX_OVER_V = 0.5      # MFRC522 inputs: -0.5 V .. VDD + 0.5 V (its data sheet)
LVC_MAX_OVER_V = 6.5 - RAIL  # 74LVC inputs: -0.5 .. 6.5 V (SN74LVC1G17 absolute maximum)


def _ramp(points):
    """A waveform through (ns, V) points, sampled every 0.01 ns."""
    t, v = [], []
    for (t0, v0), (t1, v1) in zip(points, points[1:]):
        n = max(1, int(round((t1 - t0) / 0.01)))
        for k in range(n):
            t.append(t0 + (t1 - t0) * k / n)
            v.append(v0 + (v1 - v0) * k / n)
    t.append(points[-1][0])
    v.append(points[-1][1])
    return t, v


# -- reading waveforms: known answers ------------------------------------------------

def test_a_clean_ramp_is_one_crossing_with_its_10_90_time():
    t, v = _ramp([(0, 0), (10, 0), (12.5, RAIL), (40, RAIL)])
    e = bussim.edge(t, v, True, 0, 40, (0.8, 2.0))
    assert e["recross"] == 0 and abs(e["over"]) < 1e-9
    assert e["edge_ns"] == pytest.approx(2.0, abs=0.02)
    assert e["t50"] == pytest.approx(11.25, abs=0.02)
    assert bussim.schmitt_margin(t, v, True, 0, 40) == pytest.approx(
        d.SCHMITT_VT_POS_V[0] - d.SCHMITT_VT_NEG_V[1], abs=0.01)


def test_a_ring_back_through_the_band_is_a_second_clock():
    # up past VCC, back down to 1.0 V (below VIH, above VIL), up again
    t, v = _ramp([(0, 0), (10, 0), (11, 4.0), (13, 1.0), (15, RAIL), (40, RAIL)])
    e = bussim.edge(t, v, True, 0, 40, (0.8, 2.0))
    assert e["recross"] == 2
    assert e["over"] == pytest.approx(0.7, abs=0.01)
    assert e["ring"] == pytest.approx(1.0, abs=0.01)   # 1 V back inside the band
    # a Schmitt input may re-trigger: 1.0 V is below VT- max
    assert bussim.schmitt_margin(t, v, True, 0, 40) == pytest.approx(1.0 - d.SCHMITT_VT_NEG_V[1], abs=0.01)


def test_a_falling_edge_s_undershoot_and_ring_back():
    t, v = _ramp([(0, RAIL), (10, RAIL), (11, -0.6), (12, 1.7), (14, 0), (40, 0)])
    e = bussim.edge(t, v, False, 0, 40, (0.8, 2.0))
    assert e["over"] == pytest.approx(0.6, abs=0.01) and e["recross"] == 2
    assert bussim.schmitt_margin(t, v, False, 0, 40) == pytest.approx(d.SCHMITT_VT_POS_V[0] - 1.7, abs=0.01)


def test_ribbon_wires_beside_fewer_grounds_have_a_higher_impedance():
    grounds = {3, 4, 13, 15, 17}
    gsg, what = bussim.ribbon_line(14, grounds)
    assert gsg == pytest.approx(d.RIBBON_Z0_GSG_OHM) and what == "G-S-G"
    gs, what_gs = bussim.ribbon_line(18, grounds)
    none, what_none = bussim.ribbon_line(19, grounds)
    assert what_gs == "G-S" and "no ground beside" in what_none
    assert gsg < gs < none < 3 * gsg


def test_the_track_model_meets_the_ipc_formula():
    # IPC-2141 for the same microstrip: 87 / sqrt(er + 1.41) ln(5.98 h / (0.8 w + t))
    import math
    w, h, t = d.TRACE_WIDTH_MM, d.PCB_MM, d.COPPER_UM / 1000
    ipc = 87 / math.sqrt(d.FR4_ER + 1.41) * math.log(5.98 * h / (0.8 * w + t))
    z, ns_per_m = bussim.microstrip()
    assert z == pytest.approx(ipc, rel=0.15)
    assert 5.0 < ns_per_m < 6.5          # between air's 3.3 and FR-4's 7.1 ns/m


def test_without_ngspice_the_simulation_says_so(monkeypatch):
    monkeypatch.setattr(spice, "NGSPICE", "no-such-ngspice-here")
    net, _probes = bussim.back("fixed", bussim.CORNERS[0], "miso")
    with pytest.raises(bussim.NoSimulator, match="ngspice is not installed.*make system"):
        bussim.run(net, ["pico"], 10)


# -- the simulations -------------------------------------------------------------------

@pytest.fixture(scope="module")
def sim():
    if shutil.which("ngspice") is None:
        pytest.skip("ngspice is not installed (make system installs it)")
    pytest.importorskip("skidl")
    return bussim.simulate()


def test_today_s_unterminated_bus_is_judged_unclean(sim):
    for corner in ("strong", "weak"):
        t = sim["today"][corner]
        assert t["every"]["recross"] > 0, corner            # a second clock somewhere
        assert t["boards_recrossing"], corner
        assert t["last_mfrc522"]["over"] > ABS_MAX_OVER_V, corner   # past the reader's VDD + 0.5 V
        assert t["last_595"]["under"] > ABS_MAX_OVER_V, corner


def test_without_its_resistor_the_re_driven_bus_re_triggers(sim):
    worst = bussim.worst_line(sim["sweep"][0.0])
    assert worst["schmitt_margin"] < 0 or worst["loads"]["recross"] > 0      # a re-trigger somewhere
    assert worst["loads"]["over"] > ABS_MAX_OVER_V


def test_one_schmitt_channel_for_both_the_board_and_the_next_ribbon_is_judged_unclean(sim):
    assert bussim.worst_line(sim["shared"])["recross_at"]
    assert "re-crossings on" in bussim.markdown(sim)


def test_the_fixed_bus_has_clean_monotonic_edges_at_the_last_board(sim):
    assert d.BUS_SERIES_OHM in bussim.SWEEP_OHM
    for corner, figs in sim["fixed"].items():
        for line, x in figs.items():
            for where in ("last_schmitt", "last_595", "last_mfrc522", "loads"):
                if where not in x:            # MOSI has no 595 on a rank board, LATCH no reader
                    continue
                e = x[where]
                assert e["recross"] == 0, (corner, line, where)
                # LVC inputs take -0.5 .. 6.5 V; the MFRC522's only VDD + 0.5 V
                over = LVC_MAX_OVER_V if where == "last_schmitt" else ABS_MAX_OVER_V
                assert e["over"] < over and e["under"] < ABS_MAX_OVER_V, (corner, line, where)
                assert e["ring"] is not None and e["ring"] < 0, (corner, line, where)   # never back into the band
                assert e["edge_ns"] < 10, (corner, line, where)
        w = bussim.worst_line(figs)
        assert w["recross_at"] == []
        # never back past the far threshold: the least hysteresis is the most it can keep
        assert w["schmitt_margin"] > 0.25, corner
        assert max(w["loads"]["over"], w["loads"]["under"]) <= bussim.OVERSHOOT_LIMIT_V, corner


def test_the_chosen_resistor_is_the_sweep_s_smallest_clean_one(sim):
    assert bussim.chosen_ohm(sim["sweep"]) == d.BUS_SERIES_OHM
    assert "**BUS_SERIES_OHM = %.0f Ohm**" % d.BUS_SERIES_OHM in bussim.markdown(sim)


def test_the_timing_at_4_mhz_leaves_margin(sim):
    b = sim["budget"]
    assert b["half"] == pytest.approx(125.0)
    assert b["skew_worst"] >= b["skew_spread"] > 0
    for key in ("mfrc522_setup", "mfrc522_hold", "miso_margin", "ret_margin",
                "chain_hold_falling", "chain_setup_falling"):
        assert b[key] > 0, key
    # today's MISO and the fix's both arrive without a second crossing
    for design in ("today", "fixed"):
        for corner in ("strong", "weak"):
            assert sim["miso"][design][corner]["edge"]["recross"] == 0


def test_a_595_s_own_cascade_behind_a_re_driven_clock_is_reported_when_it_fails(sim):
    b = sim["budget"]
    text = bussim.markdown(sim)
    assert b["chain_stage"][1] > b["chain_stage"][0] > 0
    if b["chain_hold_rising"] <= 0:
        assert "fails: the next board's clock comes after the data" in text
    else:
        assert "| > 0: **holds** |" in text


def test_figures_md_has_the_bus_section_as_simulated(sim):
    with open(os.path.join(HW, "generated", "figures.md")) as f:
        text = f.read()
    assert bussim.markdown(sim) in text, "hardware/generated/figures.md is stale: run `make hardware`"
    assert "**BUS_SERIES_OHM = %.0f Ohm**" % d.BUS_SERIES_OHM in text


def test_the_fix_takes_every_bus_wire_beside_a_ground():
    grounds = {3, 4, 13, 15, 17}
    gs = bussim.ribbon_line(18, grounds)[0]
    assert bussim.wire_z(19, grounds, fixed=False) == pytest.approx(bussim.ribbon_line(19, grounds)[0])
    assert bussim.wire_z(19, grounds, fixed=True) == pytest.approx(gs)      # interleaved
    assert bussim.wire_z(14, grounds, fixed=True) == pytest.approx(d.RIBBON_Z0_GSG_OHM)
    assert bussim.wire_z(None, grounds, fixed=True) == pytest.approx(gs)    # CHAIN_RET, not yet mapped
