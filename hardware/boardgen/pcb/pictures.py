"""The boards drawn as they look, by PcbDraw 1.1 (its parts library and
default style: green mask, white silkscreen, the parts it knows drawn on
their pads), both sides, as PNG for the README (rsvg-convert).

Each picture keeps in a PNG text chunk the sha256 of the board file it was
drawn from ("Source"), so a test tells a stale picture in milliseconds
without drawing it again (a drawing takes half a minute).
"""
import hashlib
import os
import subprocess
import sys
import tempfile

from PIL import Image, PngImagePlugin

SIDES = ("front", "back")
DPI = {"rank": 100, "controller": 200}      # about 1,500 and 800 pixels wide


def source_digest(board_path):
    with open(board_path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def stored_digest(png_path):
    with Image.open(png_path) as im:
        return im.text.get("Source", "")


def draw(board_path, side, png_path, dpi):
    """One side of a board file as a PNG, tagged with the board's digest."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "plot.png")
        cmd = [sys.executable, "-c", "from pcbdraw.ui import run; run()", "plot", "--side", side,
               "--dpi", str(dpi), "--margin", "2", "--silent", board_path, raw]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode or not os.path.exists(raw):
            raise RuntimeError("pcbdraw failed on %s: %s" % (board_path, (r.stderr or r.stdout)[-1500:]))
        info = PngImagePlugin.PngInfo()
        info.add_text("Source", source_digest(board_path))
        info.add_text("Software", "PcbDraw (hardware/boardgen/pcb/pictures.py)")
        with Image.open(raw) as im:
            im.save(png_path, pnginfo=info, optimize=True)
    return png_path


def names(board):
    return ["%s-%s.png" % (board, side) for side in SIDES]


def draw_all(generated, boards):
    made = []
    for board in boards:
        path = os.path.join(generated, board + ".kicad_pcb")
        for side, name in zip(SIDES, names(board)):
            made.append(draw(path, side, os.path.join(generated, name), DPI[board]))
    return made
