"""The generated pictures, as plain SVG text (reproducible byte for byte).

stackup(fig): a section through one cell, piece to PCB, to scale, with
every height; blocks(): the board's blocks and the signals between them.
"""
from . import dims as d

FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _svg(w, h, body):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">\n'
            '<rect width="100%%" height="100%%" fill="white"/>\n%s</svg>\n' % (w, h, w, h, body))


def _rect(x, y, w, h, fill, stroke="#333"):
    return '<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="%s"/>\n' % (
        x, y, w, h, fill, stroke)


def _text(x, y, s, size=12, anchor="start", weight="normal"):
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" font-weight="%s" %s>%s</text>\n' % (
        x, y, size, anchor, weight, FONT, s)


def _line(x1, y1, x2, y2, colour="#333", dash=""):
    extra = ' stroke-dasharray="%s"' % dash if dash else ""
    return '<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"%s/>\n' % (x1, y1, x2, y2, colour, extra)


SOT23_BODY_MM = (2.92, 1.12)   # the DBZ package: 2.92 mm long, 1.12 mm high max (SLIS153C, DBZ drawing)


def stackup(fig):
    z = fig["stack"]
    s = 14.0                      # px per mm
    top = z["magnet_top"] + 3
    bottom = z["pcb_bottom"] - 3
    h = int((top - bottom) * s) + 80
    w = 980
    cx = 260                      # the cell's centre line
    half = d.CELL_PITCH_MM / 2 * s

    def y(mm):
        return 40 + (top - mm) * s
    body = _text(20, 24, "Stack-up of one cell (to scale, %.0f px/mm); heights from the PCB's top copper"
                 % s, 14, weight="bold")
    # PCB, the Hall sensor on it at the centre, coil around it, LED beside the coil.
    body += _rect(cx - half, y(0), 2 * half, d.PCB_MM * s, "#cfe8c8")
    body += _rect(cx - SOT23_BODY_MM[0] / 2 * s, y(SOT23_BODY_MM[1]), SOT23_BODY_MM[0] * s,
                  SOT23_BODY_MM[1] * s, "#333")
    coil = fig["coil"]
    out, inner = d.COIL_OUTER_MM / 2 * s, coil["d_in"] * 1000 / 2 * s
    for sign in (-1, 1):
        body += _rect(cx + sign * (out + inner) / 2 - (out - inner) / 2, y(0) - 3, out - inner, 3, "#c87533")
    led_x = cx + (d.COIL_OUTER_MM / 2 + 2.5) * s      # in the channel beside its coil (pcb/place.py)
    body += _rect(led_x, y(d.LED_HEIGHT_MM), 5 * s, d.LED_HEIGHT_MM * s, "#fff7b0")
    body += _rect(cx - half, y(z["panel_top"]), 2 * half, d.TOP_PANEL_MM * s, "#f2f2f2")
    tile = d.TILE_SIDE_MM / 2 * s
    body += _rect(cx - tile, y(z["tile_top"]), 2 * tile, d.TILE_MM * s, "#bfe0ff")
    win = d.TILE_WINDOW_MM / 2 * s
    body += _rect(cx - win, y(z["tile_top"]), 2 * win, d.TILE_MM * s, "#ffffff")
    tag = d.TAG_DIA_MM / 2 * s
    body += _rect(cx - tag, y(z["tile_bottom"] + d.TAG_MM), 2 * tag, d.TAG_MM * s, "#8a2be2")
    base = d.PIECE_BASE_MM / 2 * s
    body += _rect(cx - base, y(top), 2 * base, (top - z["tile_top"]) * s, "#e8d5b5")
    mag = d.MAGNET_DIA_MM / 2 * s
    body += _rect(cx - mag, y(z["magnet_top"]), 2 * mag, d.MAGNET_THICK_MM * s, "#888")
    body += _line(cx, y(top), cx, y(bottom), "#999", "4,3")
    labels = [
        ("magnet_top", "magnet %s %.0f x %.0f mm (top)" % (d.MAGNET_GRADE, d.MAGNET_DIA_MM, d.MAGNET_THICK_MM)),
        ("magnet_bottom", "magnet bottom, piece floor %.1f mm" % d.PIECE_FLOOR_MM),
        ("tile_top", "tile top (tile %.0f mm, %.0f mm window over the LED)" % (d.TILE_MM, d.TILE_WINDOW_MM)),
        ("tag", "NTAG213 %.0f mm under the tile" % d.TAG_DIA_MM),
        ("panel_top", "top panel, %.0f mm opal acrylic" % d.TOP_PANEL_MM),
        ("panel_bottom", "air %.1f mm over the LED" % d.GAP_MM),
        ("led_top", "WS2812B (%.1f mm) beside the coil" % d.LED_HEIGHT_MM),
        ("hall", "%s Hall element, SOT-23 on the top copper at the centre" % d.SENSE_PART),
        ("coil", "coil: %d turns, %.0f mm, top copper" % (d.COIL_TURNS, d.COIL_OUTER_MM)),
        ("pcb_bottom", "PCB %.1f mm FR-4" % d.PCB_MM),
    ]
    lx = cx + half + 30
    used = []
    for key, text in labels:
        yy = y(z[key])
        ty = max([yy] + [u + 15 for u in used if u > yy - 15])
        used.append(ty)
        body += _line(cx + half, yy, lx - 4, ty - 4, "#bbb")
        body += _text(lx, ty, "%+6.1f mm  %s" % (z[key], text))
    m = fig["magnet"]
    notes = [
        "coil to tag %.1f mm, tag to magnet %.1f mm (to its middle), magnet to Hall element %.1f mm"
        % (m["d_coil_tag"] * 1000, m["d_tag_magnet"] * 1000, fig["sensor"]["depth"] * 1000),
        "cell pitch %.0f mm, tile %.0f mm square, piece base %.0f mm" % (
            d.CELL_PITCH_MM, d.TILE_SIDE_MM, d.PIECE_BASE_MM),
    ]
    for i, n in enumerate(notes):
        body += _text(20, h - 30 + i * 16, n)
    return _svg(w, h + 10, body)


BLOCKS = [
    # (x, y, w, h, title, lines): the controller board on the left, one of
    # the eight identical rank boards on the right, the ribbon between.
    (20, 60, 200, 90, "USB-C (controller)", ["5.1k Rd on CC1, CC2, USBLC6 ESD",
                                             "D+/D- to the Pico's TP3/TP2"]),
    (20, 190, 200, 110, "Power (controller)", ["polyfuse 2.5 A, soft start (P-FET)",
                                               "+5V -> P-FET -> VSYS", "AP2112K: +3V3_BUS",
                                               "220 uF + 100 uF a rank"]),
    (20, 340, 200, 70, "CC sense", ["(CC1+CC2)/2 via 2x100k", "-> GP27 (ADC1)"]),
    (300, 60, 220, 350, "Raspberry Pi Pico", ["GP0-7 reed rows", "GP8-15 reed columns",
                                              "GP16/18/19 SPI0 MISO/SCK/MOSI", "GP17 NFC strobe",
                                              "GP21 chain latch", "GP22 LED data", "GP26, GP20 buttons",
                                              "GP27 CC sense (ADC)", "GP28 buzzer (PWM)",
                                              "outputs via 74LVC541 (Ioff)"]),
    (600, 40, 300, 110, "595 (image[8]) + 74HC138", ["reader address, NRSTPD",
                                                     "Y0-Y7: rotating select lines",
                                                     "138 /G2A = strobe"]),
    (600, 180, 300, 60, "40-way ribbon, board to board", ["rotating: selects, rows; shared: the rest"]),
    (600, 270, 300, 170, "Rank board (x8, identical)", ["its 595 (image[7 - position]): coil, EN",
                                                        "MFRC522 + crystal, L0, C_N, RX",
                                                        "2 x ADG1608, -5 V charge pump",
                                                        "74LVC1G125: MISO only when selected",
                                                        "AP2112K: +3V3_RF", "8 reeds + diodes (its row)",
                                                        "8 WS2812B a..h, data on to the next"]),
    (960, 270, 170, 130, "8 coils a rank", ["printed, 5 turns, 24 mm", "C1 per coil (its feed)",
                                            "unselected: open loop"]),
    (300, 470, 220, 90, "Buttons, buzzer", ["A: GP26, B: GP20 (to GND)", "piezo via MMBT3904 from +5V"]),
    (20, 470, 200, 90, "LED data (controller)", ["74AHCT125 3.3 -> 5 V", "to rank 1's a1, on a..h"]),
]

ARROWS = [
    ((220, 105), (300, 105), "USB data"), ((120, 150), (120, 190), "VBUS"),
    ((220, 245), (300, 245), "VSYS"), ((220, 375), (300, 375), "CC_SENSE"),
    ((520, 90), (600, 90), "SCK MOSI latch strobe"), ((750, 150), (750, 180), "selects, chain"),
    ((750, 240), (750, 270), "ribbon"), ((520, 300), (600, 300), "rows, columns, MISO"),
    ((900, 335), (960, 335), "coil"), ((300, 515), (220, 515), "LED data"),
    ((410, 410), (410, 470), "GPIO"),
]


def blocks():
    body = _text(20, 24, "Vortex: the controller and a rank board, blocks and signals (the netlists have "
                 "every connection)", 14,
                 weight="bold")
    body += ('<defs><marker id="a" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
             '<path d="M0,0 L8,4 L0,8 z" fill="#333"/></marker></defs>\n')
    for x, y, w, h, title, lines in BLOCKS:
        body += _rect(x, y, w, h, "#f5f9ff")
        body += _text(x + 8, y + 18, title, 13, weight="bold")
        for i, line in enumerate(lines):
            body += _text(x + 8, y + 38 + i * 16, line, 11)
    for (x1, y1), (x2, y2), label in ARROWS:
        body += '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" marker-end="url(#a)"/>\n' % (
            x1, y1, x2, y2)
        body += _text((x1 + x2) / 2, (y1 + y2) / 2 - 4, label, 9, "middle")
    return _svg(1150, 580, body)
