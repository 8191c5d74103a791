"""The whole board as a SKiDL circuit: one source for the netlist, the ERC
and the parts list.

    circuit = build()          # SKiDL's default circuit, filled
    erc = run_erc()            # (errors, warnings)
    text = netlist()           # KiCad netlist, reproducible

The Pico's GPIOs come from hardware/pins.py (ROLE_NETS names the net of each
of its constants); the analogue values from figures.py; the parts from
parts.py. Net names are the signals' names, so the netlist reads on its own.
"""
import os
import re
import sys

import builtins

from skidl import POWER, Net, erc_logger

from . import dims as d
from .figures import figures
from .parts import make

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # hardware/: pins.py
import pins  # noqa: E402

FILES = "abcdefgh"

# pins.py constant -> the net its GPIO drives (a tuple constant: one net each).
ROLE_NETS = {
    "REED_ROWS": tuple("REED_ROW%d" % (r + 1) for r in range(8)),
    "REED_COLS": tuple("REED_COL_%s" % f for f in FILES),
    "NFC_SCK": "SPI_SCK", "NFC_MOSI": "SPI_MOSI", "NFC_MISO": "SPI_MISO",
    "NFC_STROBE": "NFC_STROBE", "NFC_LATCH": "NFC_LATCH",
    "LED_PIN": "LED_DATA_3V3", "BUTTON_A": "BUTTON_A", "BUTTON_B": "BUTTON_B",
    "CC_SENSE": "CC_SENSE", "BUZZER": "BUZZER",
}

E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3,
       4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1)


def e24_values(lo, hi):
    out = []
    decade = lo
    while decade <= hi * 10:
        out.extend(v * decade for v in E24)
        decade *= 10
    return [v for v in out if lo <= v <= hi]


def e24_pair(c):
    """Two E24 capacitors in parallel closest to c (the second may be 0):
    C0G parts come in E24 steps, the network wants the computed value."""
    best = (abs(c), 0.0, 0.0)
    vals = e24_values(1e-12, 1e-6)
    for a in vals:
        if a > c * 1.001:
            break
        rest = c - a
        b = min(vals + [0.0], key=lambda v: abs(v - rest))
        best = min(best, (abs(a + b - c), a, b))
    return best[1], best[2]


def fmt_f(c):
    for unit, scale in (("pF", 1e-12), ("nF", 1e-9), ("uF", 1e-6)):
        if c < scale * 1000 * 0.9999:
            return ("%.3g" % (c / scale)) + unit
    return "%.3guF" % (c * 1e6)


def _gnd(*pins_):
    for p in pins_:
        NETS["GND"] += p


def _cap(key, value, a, b):
    c = make(key, value)
    a += c[1]
    b += c[2]
    return c


def _res(value, a, b):
    r = make("R0603", value)
    a += r[1]
    b += r[2]
    return r


NETS = {}


def _circuit():
    """SKiDL's default circuit (SKiDL keeps it in builtins)."""
    return builtins.default_circuit


def _net(name, power=False):
    n = Net(name)
    if power:
        n.drive = POWER
    NETS[name] = n
    return n


def power_path():
    """USB-C (power and USB data), polyfuse, the 5 V rail and bulk capacitor,
    the Pico's VSYS through a Schottky, the readers' 3.3 V LDO, the -5 V
    charge pump for the switches, and the CC sensing network."""
    j = make("USB_C")
    vbus, v5, gnd = _net("VBUS_IN", True), _net("+5V", True), NETS["GND"]
    vbus += j["VBUS1"], j["VBUS2"]
    gnd += j["GND1"], j["GND2"], j["SHIELD"]
    f = make("POLYFUSE", "%.1fA hold" % d.POLYFUSE_HOLD_A)
    vbus += f[1]
    v5 += f[2]
    _cap("CP_1000U", "%duF 10V" % d.BULK_UF, v5, gnd)
    # USB data straight to the Pico's D-/D+ test pads (TP2/TP3).
    dp, dm = _net("USB_DP"), _net("USB_DM")
    dp += j["DP1"], j["DP2"]
    dm += j["DN1"], j["DN2"]
    NETS["NC"] += j["SBU1"], j["SBU2"]
    # Rd on each CC line; both summed into the ADC through equal resistors.
    sense = _net("CC_SENSE")
    for name in ("CC1", "CC2"):
        cc = _net(name)
        cc += j[name]
        _res("5.1k 1%", cc, gnd)
        _res("%dk 1%%" % (d.CC_SUM_OHM / 1000), cc, sense)
    _cap("C0402", "100nF", sense, gnd)
    # The Pico: 5 V into VSYS through a Schottky (Pico data sheet 4.5).
    vsys = _net("VSYS", True)
    dsch = make("D_SCHOTTKY")
    v5 += dsch["A"]
    vsys += dsch["K"]
    # The readers' 3.3 V, apart from the Pico's (its regulator gives 300 mA).
    ldo = make("AP2112K33")
    v5 += ldo["VIN"], ldo["EN"]
    gnd += ldo["GND"]
    NETS["NC"] += ldo["NC"]
    rf = _net("+3V3_RF", True)
    rf += ldo["VOUT"]
    _cap("C0805", "10uF", v5, gnd)
    _cap("C0805", "10uF", rf, gnd)
    # -5 V for the ADG1608s' VSS: the switch node swings below ground.
    cp = make("TPS60403")
    v5 += cp["IN"]
    gnd += cp["GND"]
    vneg = _net("-5V", True)
    vneg += cp["OUT"]
    fly_p, fly_m = _net("CP_FLY+"), _net("CP_FLY-")
    fly_p += cp["CFLYP"]
    fly_m += cp["CFLYN"]
    _cap("C0805", "1uF", fly_p, fly_m)
    _cap("C0805", "1uF", v5, gnd)
    _cap("C0805", "1uF", vneg, gnd)


def pico():
    u = make("PICO")
    gnd = NETS["GND"]
    for pin in u.pins:
        if pin.name in ("GND", "AGND"):
            gnd += pin
    NETS["VSYS"] += u["VSYS"]
    NETS["+3V3"] += u["3V3"]
    NETS["USB_DP"] += u["USB_DP"]
    NETS["USB_DM"] += u["USB_DM"]
    NETS["NC"] += u["VBUS"], u["3V3_EN"], u["ADC_VREF"], u["RUN"]
    for const, names in ROLE_NETS.items():
        gpios = getattr(pins, const)
        if isinstance(names, tuple):
            for g, name in zip(gpios, names):
                _net(name) if name not in NETS else None
                NETS[name] += u["GP%d" % g]
        else:
            if names not in NETS:
                _net(names)
            NETS[names] += u["GP%d" % gpios]
    _cap("C0402", "100nF", NETS["+3V3"], gnd)
    return u


def reeds():
    """64 reeds, each behind a diode (anode on the row), and the columns'
    external pull-downs (the 280 mm columns: 10 k beside the RP2040's 50 k)."""
    gnd = NETS["GND"]
    for r in range(8):
        for f in range(8):
            mid = Net("REED_%s%d" % (FILES[f], r + 1))
            dio = make("D_SIGNAL")
            NETS["REED_ROW%d" % (r + 1)] += dio["A"]
            mid += dio["K"]
            sw = make("REED")
            mid += sw[1]
            NETS["REED_COL_%s" % FILES[f]] += sw[2]
    for f in range(8):
        _res("10k", NETS["REED_COL_%s" % FILES[f]], gnd)


def leds():
    """64 WS2812B in a serpentine chain (pins.LED_SERPENTINE), data through a
    74AHCT125 (3.3 V to 5 V) and 330 Ohm; 100 nF beside each LED."""
    gnd, v5, v33 = NETS["GND"], NETS["+5V"], NETS["+3V3"]
    buf = make("AHCT125")
    v5 += buf["VCC"]
    gnd += buf["GND"], buf["1OE"]
    NETS["LED_DATA_3V3"] += buf["1A"]
    for i in (2, 3, 4):            # unused buffers: inputs low, disabled
        gnd += buf["%dA" % i]
        v5 += buf["%dOE" % i]
        NETS["NC"] += buf["%dY" % i]
    _cap("C0402", "100nF", v5, gnd)
    out5 = _net("LED_DATA_5V")
    out5 += buf["1Y"]
    din = _net("LED_DIN_1")
    _res("330", out5, din)
    prev = din
    for i in range(d.__dict__.get("LEDS", 64)):
        led = make("WS2812B")
        v5 += led["VDD"]
        gnd += led["VSS"]
        prev += led["DIN"]
        if i < 63:
            prev = Net("LED_DIN_%d" % (i + 2))
            prev += led["DOUT"]
        else:
            NETS["NC"] += led["DOUT"]
        _cap("C0402", "100nF", v5, gnd)
    del v33


def buttons_and_buzzer():
    gnd, v5 = NETS["GND"], NETS["+5V"]
    for name in ("BUTTON_A", "BUTTON_B"):
        b = make("BUTTON")
        NETS[name] += b[1]
        gnd += b[2]
    q = make("NPN")
    base = _net("BUZZER_B")
    _res("1k", NETS["BUZZER"], base)
    _res("10k", base, gnd)
    base += q["B"]
    gnd += q["E"]
    low = _net("BUZZER_LOW")
    low += q["C"]
    bz = make("BUZZER")
    v5 += bz["POS"]
    low += bz["NEG"]
    _res("1k", v5, low)              # bleeds the piezo's charge between edges


def chain():
    """The five 74HC595 (pins.NFC_CHAIN_BYTES) and the 74HC138. Chip i holds
    image[i] of spi.write(image): image[4] is first on MOSI, image[0]
    (pins.NFC_CTRL) last. Byte bit k is output Q(A+k). Returns the output
    pin of every image bit, bits[i][k], and the decoder."""
    gnd, v33 = NETS["GND"], NETS["+3V3"]
    bits = [[None] * 8 for _ in range(pins.NFC_CHAIN_BYTES)]
    ser = NETS["SPI_MOSI"]
    for i in reversed(range(pins.NFC_CHAIN_BYTES)):
        u = make("HC595", "74HC595")
        ser += u["SER"]
        NETS["SPI_SCK"] += u["SRCLK"]
        NETS["NFC_LATCH"] += u["RCLK"]
        v33 += u["VCC"], u["SRCLR"]
        gnd += u["GND"], u["OE"]
        _cap("C0402", "100nF", v33, gnd)
        for k in range(8):
            bits[i][k] = u["Q%s" % "ABCDEFGH"[k]]
        if i:
            ser = Net("CHAIN_SER%d" % (i - 1))
            ser += u["QHS"]
        else:
            NETS["NC"] += u["QHS"]
    # The strobe idles high: no reader selected while the chain is rewritten
    # or the Pico resets (RP2040 GPIOs reset with pull-downs).
    _res("10k", v33, NETS["NFC_STROBE"])
    dec = make("HC138")
    ctrl = bits[pins.NFC_CTRL]
    for k, name in enumerate("ABC"):
        n = Net("NFC_ADDR_%s" % name)
        n += ctrl[k], dec[name]
    NETS["NFC_STROBE"] += dec["G2A"]
    gnd += dec["G2B"], dec["GND"]
    v33 += dec["G1"], dec["VCC"]
    _cap("C0402", "100nF", v33, gnd)
    for k in range(4, 8):
        NETS["NC"] += ctrl[k]
    return bits, dec


def reader(r, bits, dec, fig):
    """Rank r's reader: MFRC522, crystal, EMC filter, node capacitors, the RX
    network, two ADG1608 (one per side, after the EMC filter) and per coil
    two series capacitors to the coil."""
    gnd, rf, v5, vneg = NETS["GND"], NETS["+3V3_RF"], NETS["+5V"], NETS["-5V"]
    c = fig["coil"]
    u = make("MFRC522")
    rf += u["PVDD"], u["DVDD"], u["TVDD"], u["AVDD"], u["SVDD"], u["EA"]
    gnd += u["DVSS"], u["PVSS"], u["TVSS1"], u["TVSS2"], u["AVSS"], u["I2C"], u["MFIN"]
    for name in ("MFOUT", "AUX1", "AUX2", "IRQ", "D1", "D2", "D3", "D4"):
        NETS["NC"] += u[name]
    NETS["SPI_SCK"] += u["SCK"]
    NETS["SPI_MOSI"] += u["MOSI"]
    NETS["SPI_MISO"] += u["MISO"]
    NETS["NFC_NRSTPD"] += u["NRSTPD"]
    nss = Net("NFC_NSS%d" % r)
    nss += u["NSS"], dec["Y%d" % r]
    for _ in range(4):
        _cap("C0402", "100nF", rf, gnd)
    _cap("C0805", "10uF", rf, gnd)
    vmid = Net("R%d_VMID" % r)
    vmid += u["VMID"]
    _cap("C0402", "100nF", vmid, gnd)
    x = make("XTAL_27M", "27.12MHz")
    oi, oo = Net("R%d_OSCIN" % r), Net("R%d_OSCOUT" % r)
    oi += u["OSCIN"], x[1]
    oo += u["OSCOUT"], x[3]
    gnd += x["GND"], x["GND2"]
    _cap("C0402", "15pF C0G", oi, gnd)
    _cap("C0402", "15pF C0G", oo, gnd)
    nib = bits[1 + (r >> 1)][4 * (r & 1): 4 * (r & 1) + 4]
    c_a, c_b = e24_pair(c["C_node"])
    for side, tx in (("A", "TX1"), ("B", "TX2")):
        txn, node = Net("R%d_TX%s" % (r, side)), Net("R%d_NODE%s" % (r, side))
        txn += u[tx]
        l0 = make("L0603_560N", "560nH")
        txn += l0[1]
        node += l0[2]
        for val in (c_a, c_b):
            if val:
                _cap("C0603_C0G", fmt_f(val) + " C0G", node, gnd)
        sw = make("ADG1608", "ADG1608")
        node += sw["D"]
        v5 += sw["VDD"]
        vneg += sw["VSS"]
        gnd += sw["GND"]
        for k, name in enumerate(("A0", "A1", "A2", "EN")):
            n = NETS.get("RANK%d_%s" % (r + 1, name)) or _net("RANK%d_%s" % (r + 1, name))
            n += nib[k], sw[name]
        _cap("C0402", "100nF", v5, gnd)
        _cap("C0402", "100nF", vneg, gnd)
        for f in range(8):
            s_net = Net("R%d_S%s%d" % (r, side, f + 1))
            s_net += sw["S%d" % (f + 1)]
            end = NETS.setdefault("COIL_%s%d_%s" % (FILES[f], r + 1, side),
                                  Net("COIL_%s%d_%s" % (FILES[f], r + 1, side)))
            _cap("C0402", fmt_f(e24_nearest(c["C1"])) + " X7R", s_net, end)
        if side == "A":
            # RX from the EMC filter's output, before the switch: one receive
            # path per reader whichever coil is selected (ST's advice).
            rx1, rx = Net("R%d_RXC" % r), Net("R%d_RX" % r)
            _cap("C0402", "1nF", node, rx1)
            _res("1k", rx1, rx)
            rx += u["RX"]
            _res("2.2k", rx, vmid)
    for f in range(8):
        coil = make("COIL", "%.2fuH" % (c["L"] * 1e6))
        NETS["COIL_%s%d_A" % (FILES[f], r + 1)] += coil[1]
        NETS["COIL_%s%d_B" % (FILES[f], r + 1)] += coil[2]


def e24_nearest(c):
    return min(e24_values(1e-12, 1e-6), key=lambda v: abs(v - c))


def build():
    """Fill SKiDL's default circuit with the board (once per process)."""
    _circuit().reset()
    _circuit().no_files = True       # no .log/.erc files beside the caller
    NETS.clear()
    _net("GND", True)
    _net("+3V3", True)
    _net("NFC_NRSTPD")
    NETS["NC"] = _circuit().NC
    fig = figures()
    power_path()
    pico()
    reeds()
    leds()
    buttons_and_buzzer()
    bits, dec = chain()
    NETS["NFC_NRSTPD"] += bits[pins.NFC_CTRL][3]
    for r in range(pins.NFC_READERS):
        reader(r, bits, dec, fig)
    _tag_parts()
    return _circuit()


def _tag_parts():
    """Stable references and timestamps, so the netlist is reproducible."""
    for i, part in enumerate(_circuit().parts):
        part.tag = "p%04d" % i


def run_erc():
    """SKiDL's ERC on the built circuit: (errors, warnings)."""
    _circuit().no_files = True
    _circuit().ERC()
    return erc_logger.error.count, erc_logger.warning.count


def netlist():
    """The KiCad netlist, with the date and source path made reproducible."""
    _circuit().no_files = True
    text = _circuit().generate_netlist(tool="kicad8", track_abs_path=False)
    text = re.sub(r'\(date "[^"]*"\)', '(date "generated by tools/hardware.py")', text)
    text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/boardgen/schematic.py")', text)
    # Where each part was made, relative to the repository whatever the cwd.
    text = re.sub(r'"[^"]*?(hardware/boardgen/[a-z_]+\.py:\d+)"', r'"\1"', text)
    return text
