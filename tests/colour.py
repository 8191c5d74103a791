"""Colour difference for the LED palette's tests: CIEDE2000 (Sharma, Wu and
Dalal, "The CIEDE2000 color-difference formula: implementation notes,
supplementary test data, and mathematical observations", Color Research &
Application 30(1), 2005), on colours as the eye gets them:

- an LED's light (led()): its drive values are linear in light (a WS2812
  is pulse-width modulated), taken at full scale, since brightness is no
  cue on the board (the brightness setting and the current budget scale
  every LED alike); sRGB primaries stand in for the LEDs';
- a surface or a pixel on screen (srgb()): sRGB values, gamma-encoded.

One way to tell colours apart, for the tests of the palette
(firmware/vortex/app/leds.py) and of the page's drawing of it.
"""
import math

# White point D65, and linear sRGB to XYZ (IEC 61966-2-1).
WHITE = (0.95047, 1.0, 1.08883)
TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))

# Two colours must differ by this much to be told apart at a glance, as
# small lights or a light on a tile: about what parts red from orange, the
# nearest two basic colour names (sRGB #ff0000 and #ff8000: 21.2). Two
# LEDs under 10 apart are mistaken for each other (the Earth tile asked for
# and the last action's amber were 6.8 apart in issue 14).
APART = 20.0


def decode(v):
    """An sRGB value (0-1) to linear light."""
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def lab(linear):
    """CIE L*a*b* of a linear sRGB triple (0-1)."""
    xyz = [sum(m * c for m, c in zip(row, linear)) / w for row, w in zip(TO_XYZ, WHITE)]

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(t) for t in xyz)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def led(rgb):
    """The L*a*b* of an LED driven at rgb (0-255 each), at full scale."""
    top = max(rgb)
    return lab([c / top for c in rgb])


def srgb(rgb):
    """The L*a*b* of an sRGB colour: (r, g, b) 0-255, or '#rrggbb'."""
    if isinstance(rgb, str):
        rgb = tuple(int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return lab([decode(c / 255) for c in rgb])


def de2000(lab1, lab2):
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = L2 - L1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-((hbar - 275) / 25) ** 2)
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2
                     + rt * (dcp / sc) * (dhp / sh))
