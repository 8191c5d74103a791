"""The parts list, from the schematic's parts and the game's own numbers.

Board parts are counted from the built circuit; the pieces, tiles, tags and
magnets from the engine's constants (16 tiles of each terrain, the pieces of
the starting position), so the list follows the game.
"""
import csv
import io
import os
import sys

from . import orderable
from .parts import CATALOGUE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from vortex.engine import defs, Position, START  # noqa: E402

FIELDS = ("item", "board", "per_board", "qty", "spares", "refs", "value", "manufacturer", "mpn", "lcsc",
          "checked", "description", "unit_usd", "line_usd", "price_source")
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


def _size(sizes, kind):
    """A board's size as its generated .kicad_pcb outlines it."""
    if kind not in sizes:
        return "not laid out yet (make pcb)"
    w, h = sizes[kind]
    return "%.1fx%.1f mm 2-layer" % (w, h)


def board_sizes(folder):
    """{board: (width, height) mm} of the generated boards in folder."""
    from .kicad_pcb import Board
    out = {}
    for kind in ("rank", "controller"):
        path = os.path.join(folder, kind + ".kicad_pcb")
        if os.path.exists(path):
            out[kind] = Board.read(path).size
    return out


# Off-board items: (item, qty key, spares, value, manufacturer, mpn, description, unit, source)
def _off_board(g, sizes):
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
        ("PCB rank", RANK_BOARDS, 0, _size(sizes, "rank"), "-", "fab order",
         "a rank board (its coils in top copper); 8 of the same", 1.20,
         "JLCPCB-class price for 10 boards of this size, 1.6 mm, HASL, / 10, estimate (README)"),
        ("PCB controller", 1, 0, _size(sizes, "controller"), "-", "fab order",
         "the controller board", 0.50, "JLCPCB-class price for 5 boards up to 100 x 100 mm / 5, estimate"),
        ("ribbon", RANK_BOARDS, 0, "2x20 IDC, 1.27 mm, 100 mm", "3M", "3M 3365/40 cable, 2 x 3M 89140-0101 sockets",
         "board to board: controller to rank 1, rank 1 to 2, ...", 1.50, "DigiKey cut cable and sockets, estimate"),
    ]


def board_parts(circuit):
    """(catalogue key, value, reference) of every part of a built board:
    what the parts list needs once SKiDL's circuit is reset for the next."""
    return [(p.fields["Catalogue"], str(p.value), p.ref) for p in circuit.parts]


def _ref_key(r):
    stem = r.rstrip("0123456789")
    return stem, int(r[len(stem):] or 0)


def _checked(order):
    if order is None:
        return "NO PART NUMBER: add it to orderable.PARTS"
    if not order.how:
        return order.note
    return "%s: %s" % (order.how, order.note)


def rows(boards, sizes):
    """BOM rows from [(board, how many, board_parts)]: each board's parts
    grouped by catalogue entry and value (qty = per board x boards), then
    the off-board items (the PCBs' sizes from `sizes`, board_sizes()); the
    total last."""
    out = []
    for board, count, parts in boards:
        groups = {}
        for cat, value, ref in parts:
            if value != "DNP":           # a position not fitted (schematic.DNP)
                groups.setdefault((cat, value), []).append(ref)
        for (cat, value), refs in sorted(groups.items()):
            _p, _pins, _fp, desc, price, source = CATALOGUE[cat]
            order = orderable.find(cat, value)
            if cat in orderable.NOT_ORDERED:
                order = orderable.Order("-", "PCB copper", "", "", "made with the PCB")
            refs.sort(key=_ref_key)
            qty = len(refs) * count
            spares = BOARD_SPARES.get(cat, 0)
            out.append({"item": cat, "board": board if count == 1 else "%s x%d" % (board, count),
                        "per_board": len(refs), "qty": qty, "spares": spares,
                        "refs": " ".join(refs), "value": value,
                        "manufacturer": order.manufacturer if order else "",
                        "mpn": order.mpn if order else "", "lcsc": order.lcsc if order else "",
                        "checked": _checked(order), "description": desc,
                        "unit_usd": price, "line_usd": round(price * (qty + spares), 2),
                        "price_source": source})
    for item, qty, spares, value, mfr, mpn, desc, price, source in _off_board(game_counts(), sizes):
        out.append({"item": item, "board": "", "per_board": "", "qty": qty, "spares": spares,
                    "refs": "", "value": value, "manufacturer": mfr, "mpn": mpn, "lcsc": "", "checked": "",
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
