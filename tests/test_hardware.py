"""The board's design as code (hardware/boardgen): the generated files are
fresh, the schematic passes its ERC and agrees with hardware/pins.py, the
parts list follows the game, and the physics behind the figures holds on
cases with known answers."""
import math
import os
import re
import sys

import pytest

from mpy import ROOT

HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

import pins  # noqa: E402
import power  # noqa: E402
from boardgen import physics as ph, sweep  # noqa: E402
from boardgen.parts import CATALOGUE  # noqa: E402


@pytest.fixture(scope="module")
def generated():
    pytest.importorskip("skidl")
    from boardgen.build import generate
    return generate()


def test_every_generated_file_is_fresh_and_the_erc_is_clean(generated):
    files, (errors, warnings) = generated
    assert errors == 0 and warnings == 0
    for rel, text in files.items():
        with open(os.path.join(HW, rel)) as f:
            assert f.read() == text, "hardware/%s is stale: run `make hardware`" % rel


# -- the committed netlist, read on its own ------------------------------------

def _netlist():
    """Parts (ref -> catalogue entry) and nets (name -> {(ref, pin)}) of the
    committed KiCad netlist, read with regular expressions, not with SKiDL."""
    with open(os.path.join(HW, "generated", "vortex.net")) as f:
        text = f.read()
    comps, nets_text = text.split("(nets", 1)
    parts = {}
    for block in re.split(r"\(comp\s", comps)[1:]:
        ref = re.search(r'\(ref "([^"]+)"\)', block).group(1)
        parts[ref] = re.search(r'\(name "Catalogue"\) "([^"]+)"', block).group(1)
    nets = {}
    for block in re.split(r"\(net\s", nets_text)[1:]:
        name = re.search(r'\(name "([^"]+)"\)', block).group(1)
        nets[name] = set(re.findall(r'\(node\s+\(ref "([^"]+)"\)\s+\(pin "([^"]+)"\)', block))
    return parts, nets


def _pin(part_key, name):
    return str(next(n for n, nm, _t in CATALOGUE[part_key][1] if nm == name))


@pytest.fixture(scope="module")
def board():
    parts, nets = _netlist()
    by_kind = {}
    for ref, kind in parts.items():
        by_kind.setdefault(kind, []).append(ref)
    return parts, nets, by_kind


def _net_of(nets, ref, pin):
    found = [n for n, nodes in nets.items() if (ref, pin) in nodes]
    assert len(found) == 1, (ref, pin, found)
    return found[0]


def test_every_gpio_in_pins_py_is_wired_as_the_schematic_says(board):
    from boardgen.schematic import ROLE_NETS
    _parts, nets, kinds = board
    pico, = kinds["PICO"]
    for const, names in ROLE_NETS.items():
        gpios = getattr(pins, const)
        pairs = zip(gpios, names) if isinstance(names, tuple) else [(gpios, names)]
        for g, name in pairs:
            assert _net_of(nets, pico, _pin("PICO", "GP%d" % g)) == name, const


def test_the_nfc_wiring_is_the_contract_of_pins_py(board):
    _parts, nets, kinds = board
    assert len(kinds["MFRC522"]) == pins.NFC_READERS
    assert len(kinds["HC595"]) == pins.NFC_CHAIN_BYTES
    dec, = kinds["HC138"]
    assert (dec, _pin("HC138", "G2A")) in nets["NFC_STROBE"]
    for u in kinds["HC595"]:
        assert (u, _pin("HC595", "RCLK")) in nets["NFC_LATCH"]
        assert (u, _pin("HC595", "SRCLK")) in nets["SPI_SCK"]
    # Walk the chain from MOSI: the first chip holds image[last], the last image[0].
    order = []
    net = "SPI_MOSI"
    while True:
        nxt = [u for u in kinds["HC595"] if (u, _pin("HC595", "SER")) in nets[net]]
        if not nxt:
            break
        order.append(nxt[0])
        out = [n for n, nodes in nets.items() if (nxt[0], _pin("HC595", "QHS")) in nodes]
        if not out:                          # the last chip's serial out is unused
            break
        net = out[0]
    assert len(order) == pins.NFC_CHAIN_BYTES
    image = list(reversed(order))           # image[i] -> chip

    def q(i, bit):
        return (image[i], _pin("HC595", "Q" + "ABCDEFGH"[bit]))
    for bit, name in enumerate("ABC"):
        assert q(pins.NFC_CTRL, bit) in nets["NFC_ADDR_" + name]
        assert (dec, _pin("HC138", name)) in nets["NFC_ADDR_" + name]
    assert q(pins.NFC_CTRL, 3) in nets["NFC_NRSTPD"]
    readers = {}
    for u in kinds["MFRC522"]:
        assert (u, _pin("MFRC522", "NRSTPD")) in nets["NFC_NRSTPD"]
        nss = _net_of(nets, u, _pin("MFRC522", "NSS"))
        y = [int(p) for ref, p in nets[nss] if ref == dec]
        r = {_pin("HC138", "Y%d" % k): k for k in range(8)}[str(y[0])]
        readers[r] = u
    assert sorted(readers) == list(range(pins.NFC_READERS))
    for r, u in readers.items():
        # Its two switches take rank r's nibble, and its coils are rank r's cells.
        node = _net_of(nets, u, _pin("MFRC522", "TX1"))
        for k, name in enumerate(("A0", "A1", "A2", "EN")):
            net = nets["RANK%d_%s" % (r + 1, name)]
            assert q(1 + (r >> 1), 4 * (r & 1) + k) in net
            switches = [ref for ref, _p in net if ref in kinds["ADG1608"]]
            assert len(switches) == 2
        assert node == "R%d_TXA" % r
        for f in range(8):
            assert "COIL_%s%d_A" % ("abcdefgh"[f], r + 1) in nets


def test_reeds_leds_and_power_are_there_once_per_cell(board):
    _parts, nets, kinds = board
    for kind in ("REED", "D_SIGNAL", "WS2812B", "COIL"):
        assert len(kinds[kind]) == 64, kind
    for r in range(8):
        for f in "abcdefgh":
            assert len(nets["REED_%s%d" % (f, r + 1)]) == 2
    j, = kinds["USB_C"]
    for cc in ("CC1", "CC2"):
        assert (j, _pin("USB_C", cc)) in nets[cc]
        assert len(nets[cc]) == 3        # the receptacle, its Rd, its summing resistor


# -- the parts list follows the game -------------------------------------------

def test_bom_quantities_follow_the_engine(generated):
    import csv
    import io
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    from vortex.engine import defs, Position, START
    files, _erc = generated
    listed = list(csv.DictReader(io.StringIO(files["generated/bom.csv"])))
    rows = {}
    for r in listed:                 # one item may come in several values
        if r["item"] in rows:
            rows[r["item"]] = dict(r, qty=int(rows[r["item"]]["qty"]) + int(r["qty"]))
        else:
            rows[r["item"]] = r
    terrains = len(defs.TERRAIN_NAMES) - 1
    pieces = sum(1 for p in Position(START).pieces if p)
    assert int(rows["tile"]["qty"]) == int(rows["tag"]["qty"]) == defs.POOL_EACH * terrains == 64
    assert int(rows["magnet"]["qty"]) == int(rows["piece"]["qty"]) == pieces == 18
    assert int(rows["tag"]["spares"]) > 0 and int(rows["magnet"]["spares"]) > 0
    for item in ("REED", "D_SIGNAL", "WS2812B", "COIL"):
        assert int(rows[item]["qty"]) == 64, item
    assert int(rows["MFRC522"]["qty"]) == pins.NFC_READERS
    total = sum(float(r["line_usd"]) for r in listed if r["item"] != "TOTAL")
    assert abs(float(rows["TOTAL"]["line_usd"]) - total) < 0.01
    assert all(r["price_source"] for r in listed if r["item"] != "TOTAL")


# -- physics on cases with known answers ----------------------------------------

def test_a_long_magnet_gives_half_its_remanence_at_its_face():
    assert ph.disc_magnet_axial(1.2, 0.001, 10.0, 0.0) == pytest.approx(0.6, rel=1e-6)
    # far away it falls like a dipole: B = mu0 m / (2 pi z^3) on the axis
    br, r, t, z = 1.2, 0.004, 0.002, 0.2
    m = br * math.pi * r * r * t / ph.MU0
    assert ph.disc_magnet_axial(br, r, t, z) == pytest.approx(ph.MU0 * m / (2 * math.pi * z ** 3), rel=0.02)
    b = ph.disc_magnet_axial(br, r, t, 0.01)
    assert ph.closing_distance(br, r, t, b) == pytest.approx(0.01, rel=1e-6)


def test_loop_formulas_meet_their_limits():
    assert ph.loop_field_axis(1, 1.0, 0.01, 0.0) == pytest.approx(1 / 0.02)
    h = ph.loop_field_axis(3, 0.2, 0.01, 0.02)
    assert ph.distance_for_field(3, 0.2, 0.01, h) == pytest.approx(0.02, rel=1e-9)
    # Two small loops far apart: Maxwell's formula meets the dipole limit.
    a, b, d = 0.001, 0.002, 0.2
    assert ph.mutual_coaxial(a, b, d) == pytest.approx(ph.MU0 * math.pi * a * a * b * b / (2 * d ** 3), rel=1e-3)


def test_mohan_formula_on_the_papers_kind_of_coil():
    # A square spiral's inductance grows as n^2 d_avg: twice the turns in the
    # same hole is about four times the inductance (less, as the fill grows).
    l1 = ph.mohan_square(2, 0.02, 0.0005, 0.0005)
    l2 = ph.mohan_square(4, 0.0235, 0.0005, 0.0005)
    assert 2.5 < l2 / l1 < 4.5
    with pytest.raises(ValueError):
        ph.mohan_square(40, 0.02, 0.0005, 0.0005)


def test_the_matching_network_delivers_what_it_was_solved_for():
    l, r = 1e-6, 0.4
    c_n, c1, z = ph.match_series(l, 4.5 + r / 2, 0.8, 560e-9)
    drv = ph.drive_series(l, r, 4.5, 560e-9, c_n, c1, 4.2)
    assert drv["z_port"].real == pytest.approx(z, rel=1e-9)
    assert abs(drv["z_port"].imag) < 1e-6 * z
    assert drv["p_port"] == pytest.approx(drv["p_switch"] + drv["p_antenna"], rel=1e-6)


def test_the_sweep_model_adds_the_frames():
    # WUPA alone: a 7-bit short frame (9 bit times) then the no-answer wait.
    assert sweep.read_us(False) == pytest.approx(9 * 128 / 13.56 + 1000)
    assert 7000 < sweep.read_us(True) < 9000
    full = sweep.read_us(True) / 1000
    assert sweep.per_rank(full, 0, True) < sweep.per_rank(full, 0) < sweep.one_reader(full, 0)
    # When the CPU's cost per read dominates, 64 readers buy nothing over 8.
    assert sweep.per_cell(full, 10, True) == sweep.per_rank(full, 10, True)


def test_cc_thresholds_sort_the_sources():
    assert power.CC_ATTACHED_U16 < power.CC_1A5_U16 < power.CC_3A0_U16
    u = {v: round(ph.summed_cc(v, 100e3, 5.1e3) / 3.3 * 65535) for v in (0.0, 0.41, 0.92, 1.6)}
    assert [power.source(u[v]) for v in sorted(u)] == [power.SOURCE_NONE, power.SOURCE_USB,
                                                       power.SOURCE_1A5, power.SOURCE_3A0]
    assert power.LED_BUDGET_MA == tuple(sorted(power.LED_BUDGET_MA))
    assert 5100 * 0.9 < ph.rd_seen(5100, 100e3) < 5100  # inside the spec's +-10 %
