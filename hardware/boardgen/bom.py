"""The parts list, from the schematic's parts and the game's own numbers.

Board parts are counted from the built circuit; the pieces, tiles, tags and
magnets from the engine's constants (16 tiles of each terrain, the pieces of
the starting position), so the list follows the game.
"""
import csv
import io
import os
import sys

from .parts import CATALOGUE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from vortex.engine import defs, Position, START  # noqa: E402

FIELDS = ("item", "board", "per_board", "qty", "spares", "refs", "value", "manufacturer", "mpn", "description",
          "unit_usd", "line_usd", "price_source")
RANK_BOARDS = 8      # schematic.RANK_BOARDS (not imported: no SKiDL needed here)
TAG_SPARES = 4       # a tag can be written wrong or torn off: keep a few
MAGNET_SPARES = 2
# Board parts worth a spare: glass reeds crack when their leads are bent,
# an LED can die in reflow and breaks the chain after it.
BOARD_SPARES = {"REED": 4, "WS2812B": 2, "MFRC522": 1}


def game_counts():
    """Tiles, tags and pieces the game needs, from the engine."""
    terrains = len(defs.TERRAIN_NAMES) - 1
    tiles = defs.POOL_EACH * terrains
    pos = Position(START)
    per_side = [0, 0]
    for p in pos.pieces:
        if p:
            per_side[p >> 2] += 1
    return {"terrains": terrains, "tiles": tiles, "tags": tiles,
            "pieces": per_side[0] + per_side[1], "per_side": per_side}


# Off-board items: (item, qty key, spares, value, manufacturer, mpn, description, unit, source)
def _off_board(g):
    return [
        ("tile", g["tiles"], 0, "33x33x3 mm", "-", "printed / laser-cut",
         "terrain tile, %d of each of %d terrains, 8 mm window over the LED"
         % (g["tiles"] // g["terrains"], g["terrains"]), 0.15, "material estimate (PLA/acrylic)"),
        ("tag", g["tags"], TAG_SPARES, "NTAG213 25 mm", "NXP (inlay)", "NTAG213 round sticker 25 mm",
         "one under each tile (tag-format.md)", 0.12, "AliExpress/Amazon packs of 100, estimate"),
        ("magnet", g["pieces"], MAGNET_SPARES, "N35 8x2 mm", "-", "N35 disc 8 x 2 mm axial",
         "one in each piece's base, same pole down", 0.06, "packs of 100, estimate"),
        ("piece", g["pieces"], 0, "24 mm base", "-", "printed", "%d a side: %d Light, %d Dark"
         % (g["per_side"][0], g["per_side"][0], g["per_side"][1]), 0.30, "material estimate (PLA)"),
        ("ferrite", g["pieces"], 0, "10 mm x 0.1 mm", "-", "NFC ferrite sheet, cut discs",
         "optional: under each magnet, see figures.md", 0.05, "A4 sheet cut, estimate"),
        ("top panel", 1, 0, "300x300x2 mm", "-", "opal acrylic", "light-diffusing top", 12.0,
         "plastics shop, estimate"),
        ("PCB rank", RANK_BOARDS, 0, "280x35 mm 2-layer", "-", "fab order",
         "a rank board (its coils in top copper); 8 of the same", 1.20,
         "JLCPCB-class price for 10 boards of 280 x 35 mm, 1.6 mm, HASL, / 10, estimate (README)"),
        ("PCB controller", 1, 0, "100x90 mm 2-layer", "-", "fab order",
         "the controller board", 0.50, "JLCPCB-class price for 5 boards up to 100 x 100 mm / 5, estimate"),
        ("ribbon", RANK_BOARDS, 0, "2x20 IDC, 1.27 mm, 100 mm", "3M", "3M 3365/40 cable, 2 x 3M 89140-0101 sockets",
         "board to board: controller to rank 1, rank 1 to 2, ...", 1.50, "DigiKey cut cable and sockets, estimate"),
    ]


_SI = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "k": 1e3, "M": 1e6}


def _value(text, unit):
    """'4.7uF C0G' -> 4.7e-6; '5.1k 1%' -> 5100.0 (the value's first word)."""
    word = text.split()[0].rstrip(unit)
    if word and word[-1] in _SI:
        return float(word[:-1]) * _SI[word[-1]]
    return float(word)


def _code(x, digits):
    """EIA value code: `digits` significant figures then the power of ten
    (1002 = 10.0 k with 3 figures; 104 = 100 nF in pF with 2)."""
    if x < 10 ** (digits - 1):                 # below the code's range: 4R7 = 4.7
        return ("%.1f" % x).replace(".", "R")
    exp = 0
    while round(x) >= 10 ** digits:
        x /= 10
        exp += 1
    while round(x, 6) < 10 ** (digits - 1):
        x *= 10
        exp -= 1
    return "%0*d%d" % (digits, round(x), exp)


def part_number(cat, value, series):
    """A passive's own ordering code, built by its maker's part-numbering
    scheme (UNI-ROYAL 0603WAF: 4-digit value; Samsung CL: 2-digit pF code,
    dielectric, tolerance, voltage; Murata GRM1885C1H: C0G 50 V, 2 %);
    every other part keeps its catalogue number."""
    if cat == "R0603":
        return "0603WAF%sT5E" % _code(_value(value, ""), 3)
    if cat in ("C0402", "C0805", "C0603_C0G"):
        pf = _value(value, "F") * 1e12
        if cat == "C0603_C0G":
            return "GRM1885C1H%s%sA01D" % (_code(pf, 2), "G" if pf >= 10 else "C")
        c0g = "C0G" in value
        size = "CL05" if cat == "C0402" else "CL21"
        diel = "C" if c0g else ("B" if pf <= 1e6 else "A")
        volts = "B" if pf <= 1e5 else ("O" if pf <= 1e6 else "P")   # 50, 16, 10 V
        tail = "5NNNC" if cat == "C0402" else "QNNNE"
        return "%s%s%s%s%s%s" % (size, diel, _code(pf, 2), "J" if c0g else "K", volts, tail)
    return series


def board_parts(circuit):
    """(catalogue key, value, reference) of every part of a built board:
    what the parts list needs once SKiDL's circuit is reset for the next."""
    return [(p.fields["Catalogue"], str(p.value), p.ref) for p in circuit.parts]


def _ref_key(r):
    stem = r.rstrip("0123456789")
    return stem, int(r[len(stem):] or 0)


def rows(boards):
    """BOM rows from [(board, how many, board_parts)]: each board's parts
    grouped by catalogue entry and value (qty = per board x boards), then
    the off-board items; the total last."""
    out = []
    for board, count, parts in boards:
        groups = {}
        for cat, value, ref in parts:
            if value != "DNP":           # a position not fitted (schematic.DNP)
                groups.setdefault((cat, value), []).append(ref)
        for (cat, value), refs in sorted(groups.items()):
            _p, _pins, _fp, mfr, mpn, desc, price, source = CATALOGUE[cat]
            refs.sort(key=_ref_key)
            qty = len(refs) * count
            spares = BOARD_SPARES.get(cat, 0)
            out.append({"item": cat, "board": board if count == 1 else "%s x%d" % (board, count),
                        "per_board": len(refs), "qty": qty, "spares": spares,
                        "refs": " ".join(refs), "value": value, "manufacturer": mfr,
                        "mpn": part_number(cat, value, mpn), "description": desc,
                        "unit_usd": price, "line_usd": round(price * (qty + spares), 2),
                        "price_source": source})
    for item, qty, spares, value, mfr, mpn, desc, price, source in _off_board(game_counts()):
        out.append({"item": item, "board": "", "per_board": "", "qty": qty, "spares": spares,
                    "refs": "", "value": value, "manufacturer": mfr, "mpn": mpn,
                    "description": desc, "unit_usd": price,
                    "line_usd": round(price * (qty + spares), 2), "price_source": source})
    return out


def total(rs):
    return round(sum(r["line_usd"] for r in rs), 2)


def csv_text(rs):
    buf = io.StringIO()
    w = csv.DictWriter(buf, FIELDS, lineterminator="\n")
    w.writeheader()
    for r in rs:
        w.writerow(r)
    w.writerow({"item": "TOTAL", "line_usd": total(rs),
                "description": "USD, one game: the controller and 8 rank boards, estimates (see price_source)"})
    return buf.getvalue()
