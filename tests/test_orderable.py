"""Every placed part has a part number (hardware/boardgen/orderable.py):
read from the committed netlists, so a part or a value added to the
schematic (a new sensor, a C1 the feeds move) without one fails here,
naming it."""
import csv
import os
import re
import sys

import pytest

from mpy import ROOT

HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, HW)

from boardgen import orderable  # noqa: E402
from boardgen.parts import CATALOGUE  # noqa: E402


def _placed(board):
    """[(ref, catalogue, value, fields)] of a committed netlist's parts that
    are fitted (not DNP) and bought (not the board's own copper)."""
    with open(os.path.join(HW, "generated", board + ".net")) as f:
        text = f.read().split("(nets", 1)[0]
    out = []
    for block in re.split(r"\(comp\s", text)[1:]:
        ref = re.search(r'\(ref "([^"]+)"\)', block).group(1)
        value = re.search(r'\(value "([^"]*)"\)', block).group(1)
        fields = dict(re.findall(r'\(field\s+\(name "([^"]+)"\)(?:\s+"([^"]*)")?\)', block))
        cat = fields["Catalogue"]
        if value != "DNP" and cat not in orderable.NOT_ORDERED:
            out.append((ref, cat, value, fields))
    return out


@pytest.mark.parametrize("board", ["rank", "controller"])
def test_every_placed_part_has_a_part_number_from_the_table(board):
    missing = ["%s (%s %s)" % (ref, cat, value) for ref, cat, value, _f in _placed(board)
               if orderable.find(cat, value) is None]
    assert not missing, "no part number in orderable.PARTS for: " + ", ".join(missing)
    for ref, cat, value, fields in _placed(board):
        order = orderable.find(cat, value)
        assert order.mpn and order.manufacturer and order.how in orderable.HOWS, (ref, order)
        # the netlist carries what the table says (the BOM and the fab files read it)
        assert (fields["MPN"], fields["Manufacturer"], fields["LCSC"]) == \
            (order.mpn, order.manufacturer, order.lcsc), ref


def test_a_distributor_number_is_lcscs_form_and_seen_ones_have_one():
    for key, order in orderable.PARTS.items():
        assert order.lcsc == "" or re.fullmatch(r"C\d+", order.lcsc), key
        assert order.lcsc or order.how != orderable.SEEN, key
        assert key[0] in CATALOGUE, key


def test_a_part_without_a_row_has_none_and_the_bom_says_so():
    from boardgen import bom
    assert orderable.find("C0603_C0G", "36nF C0G") is None       # past 0603 C0G at 50 V
    assert orderable.find("R0603", "10k 1%") == orderable.find("R0603", "10k")
    assert "NO PART NUMBER" in bom._checked(None)


def test_the_rf_capacitors_come_from_their_series_range_only():
    """GRM18 C0G at 50 V: 10 pF (where 2 % applies) to 10 nF; the coils'
    C1 and the nodes' C_N are fitted from these values alone."""
    from boardgen.figures import c1_parts, e24_pair
    assert min(orderable.C0G_VALUES) == pytest.approx(10e-12)
    assert max(orderable.C0G_VALUES) == pytest.approx(10e-9)
    assert all(orderable.find("C0603_C0G", orderable.value_text(v) + " C0G") for v in orderable.C0G_VALUES)
    assert orderable.find("C0603_C0G", "4.7nF C0G").mpn == "GRM1885C1H472GA01D"
    assert orderable.find("C0603_C0G", "10pF C0G").mpn == "GRM1885C1H100GA01D"
    # a C1 past the series is two of its largest, never a value it lacks
    assert c1_parts(45e-9) == (10e-9, 10e-9)
    assert set(e24_pair(3.3e-9)) <= set(orderable.C0G_VALUES) | {0.0}


def test_an_electrolytics_can_is_its_footprints():
    """The FK part's can (its note, from Panasonic's table) is the size the
    footprint's pads and the mechanics assume."""
    for cat in ("CP_220U", "CP_100U"):
        fp = CATALOGUE[cat][2]
        dia, height = (float(v) for v in re.search(r"CP_Elec_([0-9.]+)x([0-9.]+)", fp).groups())
        rows = [o for (c, _v), o in orderable.PARTS.items() if c == cat]
        assert rows
        for order in rows:
            d2, h2 = (float(v) for v in re.search(r"([0-9.]+) x ([0-9.]+) mm can", order.note).groups())
            assert d2 == dia and abs(h2 - height) <= 0.5, (cat, order)


def test_the_bom_lists_the_part_numbers_and_their_check():
    with open(os.path.join(HW, "generated", "bom.csv")) as f:
        rows = list(csv.DictReader(f))
    placed = [r for r in rows if r["board"] and r["item"] not in orderable.NOT_ORDERED]
    assert placed
    for r in placed:
        assert r["mpn"] and r["checked"].split(":")[0] in orderable.HOWS, r
