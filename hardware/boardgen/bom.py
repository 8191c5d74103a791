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

FIELDS = ("item", "qty", "spares", "refs", "value", "manufacturer", "mpn", "description",
          "unit_usd", "line_usd", "price_source")
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
        ("PCB", 1, 0, "310x310 mm 2-layer", "-", "fab order", "the board (coils in top copper)",
         45.0, "JLCPCB-class quote for 5 boards / 5, estimate"),
    ]


def rows(circuit):
    """BOM rows: board parts grouped by catalogue entry and value, then the
    off-board items; the total last."""
    groups = {}
    for part in circuit.parts:
        key = (part.fields["Catalogue"], str(part.value))
        groups.setdefault(key, []).append(part.ref)
    out = []
    for (cat, value), refs in sorted(groups.items()):
        _p, _pins, _fp, mfr, mpn, desc, price, source = CATALOGUE[cat]
        refs.sort(key=lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):] or 0)))
        spares = BOARD_SPARES.get(cat, 0)
        out.append({"item": cat, "qty": len(refs), "spares": spares, "refs": " ".join(refs),
                    "value": value, "manufacturer": mfr, "mpn": mpn, "description": desc,
                    "unit_usd": price, "line_usd": round(price * (len(refs) + spares), 2),
                    "price_source": source})
    for item, qty, spares, value, mfr, mpn, desc, price, source in _off_board(game_counts()):
        out.append({"item": item, "qty": qty, "spares": spares, "refs": "", "value": value,
                    "manufacturer": mfr, "mpn": mpn, "description": desc, "unit_usd": price,
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
                "description": "USD, one board, estimates (see price_source)"})
    return buf.getvalue()
