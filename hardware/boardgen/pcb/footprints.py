"""The `vortex` footprint library, drawn from the board's dimensions.

Each footprint is written as KiCad 6 s-expression text (.kicad_mod) so the
library is a deterministic function of dims.py:

* Coil_Square_24mm_5T: the reader coil as top copper. A square spiral from
  pad 1 (outside the coil, bottom edge) inwards; its inner end drops through
  a plated hole and runs out under the turns on the bottom copper to pad 2,
  beside pad 1. The coil joins its two nets, so the footprint is a KiCad 6
  "net tie" (tag), which lets DRC accept copper shared by pads 1 and 2.
* Reed_Littelfuse_MDSR-7: Littelfuse MDSR-7, glass 12.70 mm max x 1.80 mm
  max, leads 0.47 mm, 40.38 mm nominal overall (Littelfuse data sheet,
  "MDSR-7 12.7mm Sub-miniature Reed Switch"). Lies flat on the bottom under
  the cell; the leads are bent into holes 1.1 in (27.94 mm) apart, outside the
  24 mm coil, so no hole pierces the turns.
* RaspberryPi_Pico_SMD_TP: the Pico (21 x 51 mm) soldered flat by its
  castellations (pads 1-40, 2.54 mm pitch, rows 17.78 mm apart, Raspberry Pi
  Pico data sheet, mechanical drawing) plus two pads under it for its bottom
  test points TP2 (USB D-) and TP3 (USB D+), which the module's micro-USB
  leaves as the only way to its USB lines. KiCad 6 ships no Pico footprint.
  The TP pads' positions are read off the data sheet's drawing (to about
  0.2 mm): check them against a Pico before ordering (hardware/layout.md).
"""
import os

import dims

LIB = "vortex"
COIL = "Coil_Square_24mm_5T"
REED = "Reed_Littelfuse_MDSR-7"
PICO = "RaspberryPi_Pico_SMD_TP"

# The coil's feed pads sit this far outside its outer edge (mm).
COIL_FEED_GAP_MM = 1.0
COIL_VIA_PAD_MM = 0.8
COIL_VIA_DRILL_MM = 0.4
REED_PITCH_MM = 27.94
REED_LEAD_DIA_MM = 0.47


def _n(v):
    """A millimetre figure as KiCad writes it: no trailing zeros, no -0."""
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _xy(x, y):
    return "%s %s" % (_n(x), _n(y))


def _text(kind, txt, x, y, layer):
    return ('  (fp_text %s "%s" (at %s) (layer "%s")\n'
            '    (effects (font (size 1 1) (thickness 0.15))))\n' % (kind, txt, _xy(x, y), layer))


def _line(x0, y0, x1, y1, layer, width):
    return '  (fp_line (start %s) (end %s) (layer "%s") (width %s))\n' % (
        _xy(x0, y0), _xy(x1, y1), layer, _n(width))


def _rect(x0, y0, x1, y1, layer, width):
    return "".join(_line(*seg, layer, width) for seg in (
        (x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)))


def _head(name, descr, tags, attr, ref_y, value_y):
    return ('(footprint "%s" (version 20211014) (generator vortex_boardgen) (layer "F.Cu")\n'
            '  (descr "%s")\n  (tags "%s")\n  (attr %s)\n' % (name, descr, tags, attr)
            + _text("reference", "REF**", 0, ref_y, "F.SilkS")
            + _text("value", name, 0, value_y, "F.Fab"))


# The coil is copper of the board, not a part to buy or place: out of the
# BOM and the placement file (KiCad 6's footprint attributes; KiKit's fab
# reads them).
COIL_ATTR = "exclude_from_pos_files exclude_from_bom"


def coil_path():
    """The spiral's centre line, outer end first, in footprint coordinates
    (centre of the coil at 0, 0; y down as in KiCad): [(x, y), ...]."""
    n, w, s = dims.COIL_TURNS, dims.COIL_TRACE_MM, dims.COIL_SPACE_MM
    a = [dims.COIL_OUTER_MM / 2 - w / 2 - k * (w + s) for k in range(n + 1)]
    pts = [(-a[0], a[0])]
    for k in range(n):
        pts += [(-a[k], -a[k]), (a[k], -a[k]), (a[k], a[k]), (-a[k + 1], a[k])]
    return pts


def coil_feeds():
    """(pad 1, pad 2) positions outside the coil, footprint coordinates."""
    pts = coil_path()
    y = dims.COIL_OUTER_MM / 2 + COIL_FEED_GAP_MM
    return (pts[0][0], y), (pts[-1][0], y)


def coil_keepout():
    """Half side of the square nothing but the coil may use (mm): its copper
    and half a millimetre around it."""
    return dims.COIL_OUTER_MM / 2 + 0.5


def coil():
    pts = coil_path()
    w = dims.COIL_TRACE_MM
    (p1x, p1y), (p2x, p2y) = coil_feeds()
    inner = pts[-1]
    half = dims.COIL_OUTER_MM / 2
    out = _head(COIL, "reader coil: %d turns, %s mm square, %s mm trace, %s mm space (dims.py)"
                % (dims.COIL_TURNS, _n(dims.COIL_OUTER_MM), _n(w), _n(dims.COIL_SPACE_MM)),
                "net tie coil antenna NFC", COIL_ATTR, -half - 1.5, half + 3.5)
    out += _rect(-half, -half, half, half, "F.CrtYd", 0.05)     # flat copper: its own outline
    out += _rect(-half, -half, half, half, "F.Fab", 0.1)
    # pad 1: the spiral itself, a custom pad anchored at its outer feed
    chain = [(p1x, p1y)] + pts
    prims = "".join("      (gr_line (start %s) (end %s) (width %s))\n" % (
        _xy(x0 - p1x, y0 - p1y), _xy(x1 - p1x, y1 - p1y), _n(w))
        for (x0, y0), (x1, y1) in zip(chain, chain[1:]))
    out += ('  (pad "1" smd custom (at %s) (size %s %s) (layers "F.Cu" "F.Mask")\n'
            '    (options (clearance outline) (anchor rect))\n    (primitives\n%s    ))\n'
            % (_xy(p1x, p1y), _n(COIL_VIA_PAD_MM), _n(COIL_VIA_PAD_MM), prims))
    # pad 2: through the board at the inner end, under the turns on B.Cu, up again
    via = '  (pad "2" thru_hole circle (at %s) (size %s %s) (drill %s) (layers *.Cu))\n'
    out += via % (_xy(*inner), _n(COIL_VIA_PAD_MM), _n(COIL_VIA_PAD_MM), _n(COIL_VIA_DRILL_MM))
    out += ('  (pad "2" smd custom (at %s) (size %s %s) (layers "B.Cu")\n'
            '    (options (clearance outline) (anchor circle))\n    (primitives\n'
            '      (gr_line (start 0 0) (end %s) (width %s))\n    ))\n'
            % (_xy(*inner), _n(w), _n(w), _xy(p2x - inner[0], p2y - inner[1]), _n(w)))
    out += via % (_xy(p2x, p2y), _n(COIL_VIA_PAD_MM), _n(COIL_VIA_PAD_MM), _n(COIL_VIA_DRILL_MM))
    return out + ")\n"


def reed():
    half = REED_PITCH_MM / 2
    g, d = dims.REED_GLASS_LEN_MM / 2, dims.REED_GLASS_DIA_MM / 2
    out = _head(REED, "Littelfuse MDSR-7 reed switch, 12.70 x 1.80 mm glass, axial leads bent "
                "into holes 27.94 mm apart, body flat on the board", "reed switch MDSR-7",
                "through_hole", -2.5, 2.5)
    out += _rect(-g, -d, g, d, "F.Fab", 0.1)
    out += _line(-half, 0, -g, 0, "F.Fab", REED_LEAD_DIA_MM)
    out += _line(g, 0, half, 0, "F.Fab", REED_LEAD_DIA_MM)
    out += _rect(-g - 0.2, -d - 0.2, g + 0.2, d + 0.2, "F.SilkS", 0.12)
    out += _rect(-half - 1.1, -d - 0.4, half + 1.1, d + 0.4, "F.CrtYd", 0.05)
    for num, x in (("1", -half), ("2", half)):
        out += ('  (pad "%s" thru_hole circle (at %s 0) (size 1.6 1.6) (drill 0.8) '
                '(layers *.Cu *.Mask))\n' % (num, _n(x)))
    return out + ")\n"


# The Pico's test points under the module, in the carrier's footprint (mm
# from the module's centre, y negative towards its USB end, pin 1 at
# (-8.89, -24.13)): the Raspberry Pi Pico data sheet's SMT footprint
# (figure 5, "test point locations and pad sizes"), as KLC-drawn in
# recursivenomad/ki-lime-pi-to-go's RaspberryPi_Pico_Original_SMD, whose
# castellations 1, 20 and 40 sit where these do: TP1 (GND) at (0, -21),
# TP2 (USB D-) at (1, -24.3), TP3 (USB D+) at (-1, -24.3). Until 6 December
# TP2/TP3 were at (-/+1.27, -20.9), read off the drawing by eye: TP2's pad
# then reached TP1's, USB D- onto GND.
PICO_TP = {"TP2": (1.0, -24.3), "TP3": (-1.0, -24.3)}


def pico():
    out = _head(PICO, "Raspberry Pi Pico soldered flat by its castellations, with pads for its "
                "bottom test points TP2 (USB D-) and TP3 (USB D+)", "Raspberry Pi Pico RP2040 module",
                "smd", -27.0, 27.0)
    out += _rect(-10.5, -25.5, 10.5, 25.5, "F.Fab", 0.1)
    out += _rect(-10.6, -25.6, 10.6, 25.6, "F.SilkS", 0.12)
    out += _rect(-11.2, -26.0, 11.2, 26.0, "F.CrtYd", 0.05)
    out += _rect(-4.0, -26.8, 4.0, -23.0, "F.Fab", 0.1)       # the micro-USB receptacle
    for k in range(20):
        y = -24.13 + 2.54 * k
        for num, x in ((k + 1, -8.89), (40 - k, 8.89)):
            out += ('  (pad "%d" smd rect (at %s %s) (size 3.2 1.6) '
                    '(layers "F.Cu" "F.Paste" "F.Mask"))\n' % (num, _n(x), _n(y)))
    for num, (x, y) in sorted(PICO_TP.items()):
        out += ('  (pad "%s" smd circle (at %s %s) (size 1.5 1.5) '
                '(layers "F.Cu" "F.Paste" "F.Mask"))\n' % (num, _n(x), _n(y)))
    return out + ")\n"


def library():
    """{file name: text} of vortex.pretty."""
    return {name + ".kicad_mod": fn() for name, fn in ((COIL, coil), (REED, reed), (PICO, pico))}


def write(folder):
    os.makedirs(folder, exist_ok=True)
    for name, text in library().items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
