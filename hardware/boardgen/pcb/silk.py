"""The silkscreen's texts placed where they can be read: off every pad and
every other silkscreen item.

Why: a footprint's texts come where its library put them, and on a board
this dense they landed on a neighbour's pads (where the fab clips them from
the mask opening) or across another part's outline: 118 silkscreen
warnings in KiCad's DRC on the rank board, 11 on the controller.

* A footprint's own text (a pin mark: the LED's "1") stays where it is if
  that is clear, or else goes beside its pin (the pad it names, or pad 1),
  the nearest clear side of it; failing that it is hidden (the outline
  still marks the part's turn: the LED's is open at one corner).
* Each reference then tries the four sides of its part's courtyard, then
  further out, upright then turned, and takes the first place inside the
  board and clear of its side's pads, silkscreen and the texts placed
  before it. A reference with no room is hidden: the fab layer and the
  placement file still name the part.

Clear means the text's box, grown by CLEAR_MM, meets no pad's box on that
side and no silkscreen line's box. The copper does not move: this runs on
a placed board, and the router never looks at the silkscreen.
"""
import pcbnew

# JLCPCB, "Technical Guidance: Character Design Specifications" (blog, 2023,
# updated 2026): characters at least 0.15 mm from solder pads (nearer, the
# fab removes them), 0.15 mm between character lines, standard font 1 mm
# high with 0.15 mm strokes (the libraries' reference texts: 1.0 / 0.15 mm).
GAP_MM = 0.2            # text to its part's courtyard or its pin: reads as that part's
CLEAR_MM = 0.15         # text to another item's box (pad, line, text): JLCPCB's 0.15 mm
EDGE_MM = 0.5           # text to the board's edge: our margin for the routing cutter
STEPS_MM = (0.0, 0.6, 1.2)     # how much further out each ring of tries lies
SILK = {pcbnew.F_SilkS: ("F", pcbnew.F_Cu), pcbnew.B_SilkS: ("B", pcbnew.B_Cu)}


def _box(bb, grow=0.0):
    g = pcbnew.FromMM(grow)
    return (bb.GetLeft() - g, bb.GetTop() - g, bb.GetRight() + g, bb.GetBottom() + g)


def _meets(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def courtyard(fp):
    """The footprint's courtyard box as placed (board units), or its pads'
    if it has none."""
    return _union([_box(i.GetBoundingBox()) for i in fp.GraphicalItems()
                   if i.GetLayer() in (pcbnew.F_CrtYd, pcbnew.B_CrtYd)]
                  or [_box(p.GetBoundingBox()) for p in fp.Pads()])


def _own_texts(fp):
    return [i for i in fp.GraphicalItems()
            if isinstance(i, pcbnew.FP_TEXT) and i.IsVisible() and i.GetLayer() in SILK]


def _obstacles(board):
    """{side: [boxes]} a text may not meet: the pads' boxes and every
    silkscreen line, each grown by CLEAR_MM (the texts join as placed)."""
    out = {"F": [], "B": []}
    for fp in board.GetFootprints():
        for layer, (side, copper) in SILK.items():
            out[side] += [_box(p.GetBoundingBox(), CLEAR_MM) for p in fp.Pads() if p.IsOnLayer(copper)]
            out[side] += [_box(i.GetBoundingBox(), CLEAR_MM) for i in fp.GraphicalItems()
                          if i.GetLayer() == layer and not isinstance(i, pcbnew.FP_TEXT)]
    return out


def _around(box, w, h):
    """Centres for a text of half width w and half height h beside box,
    nearest first: above, below, left, right, each ring further out."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    for step in STEPS_MM:
        g = pcbnew.FromMM(GAP_MM + step)
        yield from ((cx, y0 - g - h), (cx, y1 + g + h), (x0 - g - w, cy), (x1 + g + w, cy))


class _Sheet:
    """What is already on each side's silkscreen, and the board's inside."""

    def __init__(self, board, outline):
        self.inner = tuple(v + s * pcbnew.FromMM(EDGE_MM) for v, s in zip(outline, (1, 1, -1, -1)))
        self.blocked = _obstacles(board)

    def clear(self, side, box):
        i = self.inner
        return (i[0] <= box[0] and box[2] <= i[2] and i[1] <= box[1] and box[3] <= i[3]
                and not any(_meets(box, o) for o in self.blocked[side]))

    def take(self, side, text):
        self.blocked[side].append(_box(text.GetBoundingBox(), CLEAR_MM))

    def place(self, text, side, beside):
        """Move text to the first clear place beside the box (_around);
        whether there was one (text is left where it was if not)."""
        was = text.GetPosition()
        text.SetPosition(pcbnew.wxPoint(0, 0))
        bb = _box(text.GetBoundingBox())
        w, h = (bb[2] - bb[0]) // 2, (bb[3] - bb[1]) // 2
        for x, y in _around(beside, w, h):
            if self.clear(side, (x - w, y - h, x + w, y + h)):
                text.SetPosition(pcbnew.wxPoint(x, y))
                text.SetLocalCoord()
                self.take(side, text)
                return True
        text.SetPosition(was)
        return False


def _pin_box(fp, text):
    pads = [p for p in fp.Pads() if p.GetNumber() == text.GetText()] or \
        [p for p in fp.Pads() if p.GetNumber() == "1"]
    return _box(pads[0].GetBoundingBox()) if pads else courtyard(fp)


def place_texts(board, outline, log=None):
    """Place every footprint's visible silkscreen texts (module docstring).
    outline: the board's (x0, y0, x1, y1) in board units. Returns (shown,
    hidden) over the pin marks and the references."""
    sheet = _Sheet(board, outline)
    fps = sorted(board.GetFootprints(), key=lambda f: f.GetReference())
    shown = hidden = 0
    for fp in fps:
        for text in _own_texts(fp):
            side = SILK[text.GetLayer()][0]
            ok = sheet.clear(side, _box(text.GetBoundingBox(), CLEAR_MM))
            if ok:
                sheet.take(side, text)
            else:
                ok = sheet.place(text, side, _pin_box(fp, text))
            text.SetVisible(ok)
            shown, hidden = shown + ok, hidden + (not ok)
    for fp in fps:
        ref = fp.Reference()
        if not ref.IsVisible() or ref.GetLayer() not in SILK:
            continue
        side = SILK[ref.GetLayer()][0]
        ok = False
        for angle in (0, 900):                       # upright, then turned (tenths of a degree)
            ref.SetTextAngle(angle - fp.GetOrientation())
            ok = sheet.place(ref, side, courtyard(fp))
            if ok:
                break
        ref.SetVisible(ok)
        shown, hidden = shown + ok, hidden + (not ok)
    if log:
        log("silkscreen texts: %d placed clear of pads and lines, %d hidden (no room)" % (shown, hidden))
    return shown, hidden
