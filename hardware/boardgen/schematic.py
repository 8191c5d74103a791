"""The two boards as SKiDL circuits: one source for each netlist, its ERC
and the parts list.

    build("rank")              # SKiDL's default circuit, filled with one rank board
    erc = run_erc()            # (errors, warnings)
    text = netlist()           # KiCad netlist, reproducible

The game is one **controller board** (the Pico, USB-C, the power path, the
buffers, the decoder) and **eight identical rank boards** (each: its eight
coils, reeds, LEDs, its reader with its switches, its MISO buffer, its own
74HC595 of the chain), joined by a 40-way ribbon from board to board. Every
rank board has the same connector in (J1) and out (J2) with the same pin
map (RIBBON); what is the same on every board passes straight through, and
what is one rank's own, its reader's select and its reed row, arrives on a
rotating bus: a board takes line 1 of a group at J1 and hands lines 2..8 to
J2 shifted down by one, so the board at position p of the ribbon sees the
controller's line p + 1 as its own. The chain's data passes through each
board's 595 (SER at J1, QH' at J2), the LED data through its eight LEDs.

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
from .figures import c1_parts, e24_pair, figures
from .orderable import value_text as fmt_f
from .parts import make

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))      # hardware/: pins.py
import pins  # noqa: E402

FILES = "abcdefgh"
DNP = "DNP"          # a position left empty (its value may need it after a measurement)
BOARDS = ("controller", "rank")
RANK_BOARDS = 8                                # how many rank boards one game takes

# The ribbon (2 x 20, 2.54 mm, pin n to pin n): the same map at the
# controller's J2 and at each rank board's J1 (in) and J2 (out).
RIBBON_POWER = {"+5V": (1, 2, 39, 40), "GND": (3, 4, 13, 15, 17)}
RIBBON_SEL = tuple(range(5, 13))              # rotating: reader selects, line 1 first
RIBBON_ROW = tuple(range(23, 31))             # rotating: reed rows
RIBBON_COL = tuple(range(31, 39))             # shared: reed columns, files a-h
RIBBON_SHARED = {"BUS_SCK": 14, "BUS_MOSI": 16, "BUS_MISO": 18, "BUS_LATCH": 19,
                 "BUS_NRSTPD": 21}
RIBBON_CHAIN = 20                             # 595 chain: in at J1 (SER), out at J2 (QH')
RIBBON_LED = 22                               # LED data: in at J1, out at J2

# pins.py constant -> the net its GPIO drives (a tuple constant: one net each).
ROLE_NETS = {
    "REED_ROWS": tuple("BUS_ROW%d" % (r + 1) for r in range(8)),
    "REED_COLS": tuple("BUS_COL_%s" % f for f in FILES),
    "NFC_SCK": "SPI_SCK", "NFC_MOSI": "SPI_MOSI", "NFC_MISO": "BUS_MISO",
    "NFC_STROBE": "NFC_STROBE", "NFC_LATCH": "NFC_LATCH",
    "LED_PIN": "LED_DATA_3V3", "BUTTON_A": "BUTTON_A", "BUTTON_B": "BUTTON_B",
    "CC_SENSE": "CC_SENSE", "BUZZER": "BUZZER",
}
# The Pico's outputs that leave the controller through the Ioff buffer
# (74LVC541): Pico net -> the buffered net.
BUFFERED = (("SPI_SCK", "BUS_SCK"), ("SPI_MOSI", "BUS_MOSI"), ("NFC_LATCH", "BUS_LATCH"),
            ("NFC_STROBE", "NFC_STROBE_BUF"), ("LED_DATA_3V3", "LED_DATA_BUF"))


NETS = {}


def _circuit():
    """SKiDL's default circuit (SKiDL keeps it in builtins)."""
    return builtins.default_circuit


def _net(name, power=False):
    """The net called name, made on first use."""
    if name in NETS:
        return NETS[name]
    n = Net(name)
    if power:
        n.drive = POWER
    NETS[name] = n
    return n


def _cap(key, value, a, b):
    c = make(key, value)
    a += c[1]
    b += c[2]
    return c



def _chain_stage(data_in, v3, gnd):
    """A 74HC595 of the chain (shifted by the bus's SCK, latched by its
    LATCH, never cleared, outputs always on) and its 100 nF."""
    u = make("HC595", "74HC595")
    data_in += u["SER"]
    NETS["BUS_SCK"] += u["SRCLK"]
    NETS["BUS_LATCH"] += u["RCLK"]
    v3 += u["VCC"], u["SRCLR"]
    gnd += u["GND"], u["OE"]
    _cap("C0402", "100nF", v3, gnd)
    return u

def _res(value, a, b):
    r = make("R0603", value)
    a += r[1]
    b += r[2]
    return r


def _ohms(r):
    return "%gk" % (r / 1000) if r >= 1000 else "%g" % r


def _nc(*pins_):
    for p in pins_:
        NETS["NC"] += p


def _ribbon(j, nets):
    """Power pins of a ribbon connector, and {pin number: net} for the rest."""
    for name, numbers in RIBBON_POWER.items():
        for k in numbers:
            NETS[name] += j[k]
    for k, net in nets.items():
        net += j[k]


def ldo(rail):
    """A 3.3 V AP2112K from +5V (enable tied on), its two 10 uF."""
    v5, gnd = NETS["+5V"], NETS["GND"]
    u = make("AP2112K33")
    v5 += u["VIN"], u["EN"]
    gnd += u["GND"]
    _nc(u["NC"])
    out = _net(rail, True)
    out += u["VOUT"]
    _cap("C0805", "10uF", v5, gnd)
    _cap("C0805", "10uF", out, gnd)
    return out


# -- the controller board -----------------------------------------------------

def power_path():
    """USB-C (power and USB data) with its ESD array, the polyfuse, the soft
    start (the bulk capacitors of all nine boards charge through a P-MOSFET
    whose gate a Miller capacitor slows: USB 2.0 7.2.4.1 allows 10 uF at
    attach), the 5 V rail, the Pico's VSYS through a P-MOSFET, and the
    CC sensing network."""
    gnd = NETS["GND"]
    j = make("USB_C")
    vbus = _net("VBUS_IN", True)
    for pin in ("VBUS_A4", "VBUS_A9", "VBUS_B4", "VBUS_B9"):
        vbus += j[pin]
    for pin in ("GND_A1", "GND_A12", "GND_B1", "GND_B12", "SHIELD"):
        gnd += j[pin]
    dp, dm = _net("USB_DP"), _net("USB_DM")
    dp += j["DP1"], j["DP2"]
    dm += j["DN1"], j["DN2"]
    _nc(j["SBU1"], j["SBU2"])
    esd = make("USBLC6")
    dp += esd["IO1"], esd["IO1B"]
    dm += esd["IO2"], esd["IO2B"]
    vbus += esd["VBUS"]
    gnd += esd["GND"]
    _cap("C0805", "4.7uF", vbus, gnd)           # the only capacitance the source sees
    f = make("POLYFUSE", "%.1fA hold" % d.POLYFUSE_HOLD_A)
    fused = _net("VBUS_FUSED", True)
    vbus += f[1]
    fused += f[2]
    q = make("PMOS")
    gate = _net("SOFTSTART_G")
    v5 = NETS["+5V"]
    fused += q["S"]
    v5 += q["D"]
    gate += q["G"]
    _res(_ohms(d.SOFTSTART_R_TOP_OHM), fused, gate)
    _res(_ohms(d.SOFTSTART_R_BOT_OHM), gate, gnd)
    _cap("C0805", fmt_f(d.SOFTSTART_CGS_F), fused, gate)   # holds it off at the plug's step
    _cap("C0805", fmt_f(d.SOFTSTART_CGD_F), v5, gate)      # Miller: dV/dt = I_gate / C
    _cap("CP_220U", "%duF 25V" % d.CONTROLLER_BULK_UF, v5, gnd)
    # Rd on each CC line; both summed into the ADC through equal resistors.
    sense = _net("CC_SENSE")
    for name in ("CC1", "CC2"):
        cc = _net(name)
        cc += j[name]
        _res("5.1k 1%", cc, gnd)
        _res("%dk 1%%" % (d.CC_SUM_OHM / 1000), cc, sense)
    _cap("C0402", "100nF", sense, gnd)
    # The Pico: 5 V into VSYS through a P-MOSFET whose gate is the Pico's
    # VBUS (Pico data sheet 4.5, Figure 16: "power ORing using P-channel
    # MOSFET"). The board's 5 V alone: the Pico's own VBUS divider holds the
    # gate low, the FET is on (AO3401A: VGS(th) -1.3 V at most, 60 mOhm at
    # -4.5 V: a few mV at the Pico's current, where a Schottky dropped 0.3 V).
    # The Pico's micro-USB alone: VBUS is at 5 V, the FET is off and its body
    # diode reverse-biased, so VSYS feeds the board's dead 5 V with IDSS,
    # 1 uA at 25 C and 5 uA at 55 C (AOS AO3401A data sheet, rev. 3): into
    # the bleeder below that is 10-50 mV. A Schottky's reverse current is
    # milliamperes once warm (onsemi's 20 V 1 A low-VF family: MBRM120L
    # 0.10 mA at 10 V and 25 C, 18 mA at 85 C), which would lift the dead
    # rail, and the rank boards' rails through their LDOs, by volts.
    vsys = _net("VSYS", True)
    q = make("PMOS")
    v5 += q["D"]
    vsys += q["S"]
    _net("PICO_VBUS")
    NETS["PICO_VBUS"] += q["G"]
    # The dead rail's bleeder: 10 k holds it under 0.3 V up to 30 uA of
    # leakage into it (0.5 mA, 2.5 mW while the board runs).
    _res("10k", v5, gnd)


def pico():
    u = make("PICO")
    gnd = NETS["GND"]
    for pin in u.pins:
        if pin.name in ("GND", "AGND"):
            gnd += pin
    NETS["VSYS"] += u["VSYS"]
    NETS["PICO_VBUS"] += u["VBUS"]
    _net("+3V3", True)
    NETS["+3V3"] += u["3V3"]
    NETS["USB_DP"] += u["USB_DP"]
    NETS["USB_DM"] += u["USB_DM"]
    _nc(u["3V3_EN"], u["ADC_VREF"], u["RUN"])
    for const, names in ROLE_NETS.items():
        gpios = getattr(pins, const)
        pairs = zip(gpios, names) if isinstance(names, tuple) else [(gpios, names)]
        for g, name in pairs:
            _net(name)
            NETS[name] += u["GP%d" % g]
    _cap("C0402", "100nF", NETS["+3V3"], gnd)
    # The strobe idles high through a Pico reset (RP2040 GPIOs reset with
    # pull-downs): no reader selected while the chain is rewritten.
    _res("10k", NETS["+3V3"], NETS["NFC_STROBE"])
    # No reader driving it (every MISO buffer off): the bus reads 0.
    _res("100k", NETS["BUS_MISO"], gnd)
    return u


def out_buffer():
    """The Pico's outputs to the boards through a 74LVC541 powered from the
    board's own 3.3 V: with the board's 5 V absent (the Pico on its own USB)
    its Ioff inputs and outputs float, so no GPIO back-powers an unpowered
    chip through its ESD diodes (TI SCAS298: Ioff, partial power-down)."""
    gnd, vbus3 = NETS["GND"], NETS["+3V3_BUS"]
    u = make("LVC541", "74LVC541A")
    vbus3 += u["VCC"]
    gnd += u["GND"], u["OE1"], u["OE2"]
    _cap("C0402", "100nF", vbus3, gnd)
    for k, (src, dst) in enumerate(BUFFERED):
        NETS[src] += u["A%d" % (k + 1)]
        _net(dst)
        NETS[dst] += u["Y%d" % (k + 1)]
    for k in range(len(BUFFERED), 8):
        gnd += u["A%d" % (k + 1)]
        _nc(u["Y%d" % (k + 1)])


def controller_chain():
    """The chain's first 74HC595 (image[pins.NFC_CTRL]: the decoder's address
    and the readers' NRSTPD), the 74HC138 whose outputs are the rotating
    select lines, and the ribbon connector to the first rank board."""
    gnd, v3 = NETS["GND"], NETS["+3V3_BUS"]
    u = _chain_stage(NETS["BUS_MOSI"], v3, gnd)
    dec = make("HC138")
    for k, name in enumerate("ABC"):
        n = _net("NFC_ADDR_%s" % name)
        n += u["Q%s" % "ABC"[k]], dec[name]
    _net("BUS_NRSTPD")
    NETS["BUS_NRSTPD"] += u["QD"]
    _nc(u["QE"], u["QF"], u["QG"], u["QH"])
    _net("BUS_CHAIN")
    NETS["BUS_CHAIN"] += u["QHS"]
    NETS["NFC_STROBE_BUF"] += dec["G2A"]
    gnd += dec["G2B"], dec["GND"]
    v3 += dec["G1"], dec["VCC"]
    _cap("C0402", "100nF", v3, gnd)
    # Reader r (rank r + 1) is the board at ribbon position r: select line r + 1.
    nets = {}
    for r in range(8):
        sel = _net("BUS_SEL%d" % (r + 1))
        sel += dec["Y%d" % r]
        nets[RIBBON_SEL[r]] = sel
        nets[RIBBON_ROW[r]] = NETS["BUS_ROW%d" % (r + 1)]
        nets[RIBBON_COL[r]] = NETS["BUS_COL_%s" % FILES[r]]
    for name, k in RIBBON_SHARED.items():
        nets[k] = _net(name)
    nets[RIBBON_CHAIN] = NETS["BUS_CHAIN"]
    nets[RIBBON_LED] = NETS["BUS_LED"]
    _ribbon(make("IDC40"), nets)


def controller_leds():
    """The LED data: 3.3 V to 5 V through a 74AHCT125, onto the ribbon."""
    gnd, v5 = NETS["GND"], NETS["+5V"]
    buf = make("AHCT125")
    v5 += buf["VCC"]
    gnd += buf["GND"], buf["1OE"]
    NETS["LED_DATA_BUF"] += buf["1A"]
    for i in (2, 3, 4):            # unused buffers: inputs low, disabled
        gnd += buf["%dA" % i]
        v5 += buf["%dOE" % i]
        _nc(buf["%dY" % i])
    _cap("C0402", "100nF", v5, gnd)
    _net("BUS_LED")
    NETS["BUS_LED"] += buf["1Y"]


def columns():
    """The reed columns' pull-downs (the RP2040's 50 k is weak for a bus
    that runs through eight boards)."""
    for f in FILES:
        _res("10k", NETS["BUS_COL_%s" % f], NETS["GND"])


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


def controller():
    power_path()
    pico()
    ldo("+3V3_BUS")
    out_buffer()
    controller_leds()
    columns()
    buttons_and_buzzer()
    controller_chain()


# -- the rank board -------------------------------------------------------------

def rank_bus():
    """J1 (from the controller's side) and J2 (to the next board): shared
    lines straight through, the rotating groups shifted by one, the spare
    last line of each group at J2 parked (select high, row low)."""
    gnd, v3 = NETS["GND"], NETS["+3V3_RF"]
    j_in, j_out = make("IDC40"), make("IDC40")
    into, out = {}, {}
    for name, k in RIBBON_SHARED.items():
        into[k] = out[k] = _net(name)
    for f in range(8):
        into[RIBBON_COL[f]] = out[RIBBON_COL[f]] = _net("BUS_COL_%s" % FILES[f])
    into[RIBBON_SEL[0]] = _net("NFC_NSS")
    into[RIBBON_ROW[0]] = _net("REED_ROW")
    for k in range(1, 8):
        into[RIBBON_SEL[k]] = out[RIBBON_SEL[k - 1]] = _net("BUS_SEL%d" % (k + 1))
        into[RIBBON_ROW[k]] = out[RIBBON_ROW[k - 1]] = _net("BUS_ROW%d" % (k + 1))
    out[RIBBON_SEL[7]] = _net("BUS_SEL_SPARE")
    out[RIBBON_ROW[7]] = _net("BUS_ROW_SPARE")
    _res("10k", v3, NETS["BUS_SEL_SPARE"])
    _res("10k", NETS["BUS_ROW_SPARE"], gnd)
    into[RIBBON_CHAIN], out[RIBBON_CHAIN] = _net("BUS_CHAIN_IN"), _net("BUS_CHAIN_OUT")
    into[RIBBON_LED], out[RIBBON_LED] = _net("BUS_LED_IN"), _net("BUS_LED_OUT")
    _ribbon(j_in, into)
    _ribbon(j_out, out)
    # Deselected while the controller is unplugged or resetting.
    _res("10k", v3, NETS["NFC_NSS"])


def rank_chain():
    """The board's 74HC595: image[pins.NFC_CTRL - 1 - position] of the chain:
    QA-QC the coil, QD the switch enable; QH' onward to the next board."""
    gnd, v3 = NETS["GND"], NETS["+3V3_RF"]
    u = _chain_stage(NETS["BUS_CHAIN_IN"], v3, gnd)
    NETS["BUS_CHAIN_OUT"] += u["QHS"]
    for k, name in enumerate(("A0", "A1", "A2", "EN")):
        _net("SW_" + name)
        NETS["SW_" + name] += u["Q%s" % "ABCD"[k]]
    _nc(u["QE"], u["QF"], u["QG"], u["QH"])


def rank_reeds():
    """Eight reeds, each behind a diode (anode on the board's row)."""
    for f in range(8):
        mid = _net("REED_%s" % FILES[f])
        dio = make("D_SIGNAL")
        NETS["REED_ROW"] += dio["A"]
        mid += dio["K"]
        sw = make("REED")
        mid += sw[1]
        NETS["BUS_COL_%s" % FILES[f]] += sw[2]


def rank_leds():
    """Eight WS2812B, file a to h, 100 nF beside each; 330 Ohm at the
    board's data input; the rank's bulk capacitor where 5 V enters."""
    gnd, v5 = NETS["GND"], NETS["+5V"]
    din = _net("LED_DIN_a")
    _res("330", NETS["BUS_LED_IN"], din)
    _cap("CP_100U", "%duF 25V" % d.RANK_BULK_UF, v5, gnd)
    prev = din
    for f in range(8):
        led = make("WS2812B")
        v5 += led["VDD"]
        gnd += led["VSS"]
        prev += led["DIN"]
        prev = NETS["BUS_LED_OUT"] if f == 7 else _net("LED_DIN_%s" % FILES[f + 1])
        prev += led["DOUT"]
        _cap("C0402", "100nF", v5, gnd)


def rank_reader(fig):
    """The rank's reader: MFRC522, crystal, EMC filter, node capacitors, the
    RX network, its MISO buffer, the -5 V charge pump, two ADG1608 (one per
    side, after the EMC filter) and per coil two series capacitors, each
    coil's own value (its feed's inductance taken back)."""
    gnd, rf, v5 = NETS["GND"], NETS["+3V3_RF"], NETS["+5V"]
    c = fig["coil"]
    u = make("MFRC522")
    rf += u["PVDD"], u["DVDD"], u["TVDD"], u["AVDD"], u["SVDD"], u["EA"]
    gnd += u["DVSS"], u["PVSS"], u["TVSS1"], u["TVSS2"], u["AVSS"], u["I2C"], u["MFIN"], u["EP"]
    _nc(*(u[name] for name in ("MFOUT", "AUX1", "AUX2", "IRQ", "D1", "D2", "D3", "D4")))
    NETS["BUS_SCK"] += u["SCK"]
    NETS["BUS_MOSI"] += u["MOSI"]
    NETS["BUS_NRSTPD"] += u["NRSTPD"]
    NETS["NFC_NSS"] += u["NSS"]
    # MISO onto the shared bus only while this reader is selected: an
    # unselected MFRC522 may keep driving it (miguelbalboa/rfid issue 290).
    miso = _net("READER_MISO")
    miso += u["MISO"]
    buf = make("LVC1G125", "74LVC1G125")
    miso += buf["A"]
    NETS["BUS_MISO"] += buf["Y"]
    NETS["NFC_NSS"] += buf["OE"]
    rf += buf["VCC"]
    gnd += buf["GND"]
    _cap("C0402", "100nF", rf, gnd)
    for _ in range(4):
        _cap("C0402", "100nF", rf, gnd)
    _cap("C0805", "10uF", rf, gnd)
    vmid = _net("VMID")
    vmid += u["VMID"]
    _cap("C0402", "100nF", vmid, gnd)
    x = make("XTAL_27M", "27.12MHz")
    oi, oo = _net("OSCIN"), _net("OSCOUT")
    oi += u["OSCIN"], x[1]
    oo += u["OSCOUT"], x[3]
    gnd += x["GND"], x["GND2"]
    _cap("C0402", "15pF C0G", oi, gnd)
    _cap("C0402", "15pF C0G", oo, gnd)
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
    c_a, c_b = e24_pair(c["C_node"])
    for side, tx in (("A", "TX1"), ("B", "TX2")):
        txn, node = _net("TX%s" % side), _net("NODE%s" % side)
        txn += u[tx]
        l0 = make("L0603_560N", "560nH")
        txn += l0[1]
        node += l0[2]
        for val in (c_a, c_b):       # two positions, whatever the values: the layout's
            _cap("C0603_C0G", fmt_f(val) + " C0G" if val else DNP, node, gnd)   # connectivity stays
        sw = make("ADG1608", "ADG1608")
        node += sw["D"]
        v5 += sw["VDD"]
        vneg += sw["VSS"]
        gnd += sw["GND"]
        for name in ("A0", "A1", "A2", "EN"):
            NETS["SW_" + name] += sw[name]
        _cap("C0402", "100nF", v5, gnd)
        _cap("C0402", "100nF", vneg, gnd)
        for f in range(8):
            s_net = _net("S%s_%s" % (side, FILES[f]))
            s_net += sw["S%d" % (f + 1)]
            end = _net("COIL_%s_%s" % (FILES[f], side))
            fitted = c1_parts(c["coils"][f]["C1"])
            for k in range(2):           # two positions: a pair when E24 needs one
                val = fitted[k] if k < len(fitted) else 0
                _cap("C0603_C0G", fmt_f(val) + " C0G" if val else DNP, s_net, end)
        if side == "A":
            # RX from the EMC filter's output, before the switch: one receive
            # path per reader whichever coil is selected (ST's advice).
            rx1, rx = _net("RXC"), _net("RX")
            _cap("C0402", "1nF", node, rx1)
            _res("1k", rx1, rx)
            rx += u["RX"]
            _res("2.2k", rx, vmid)
    for f in range(8):
        coil = make("COIL", "%.2fuH" % (c["L"] * 1e6))
        NETS["COIL_%s_A" % FILES[f]] += coil[1]
        NETS["COIL_%s_B" % FILES[f]] += coil[2]


def rank(fig):
    ldo("+3V3_RF")
    rank_bus()
    rank_chain()
    rank_reeds()
    rank_leds()
    rank_reader(fig)


def build(board):
    """Fill SKiDL's default circuit with one board: "controller" or "rank"."""
    if board not in BOARDS:
        raise ValueError("no board %r (boards: %s)" % (board, ", ".join(BOARDS)))
    _circuit().reset()
    _circuit().no_files = True       # no .log/.erc files beside the caller
    NETS.clear()
    _net("GND", True)
    _net("+5V", True)
    NETS["NC"] = _circuit().NC
    if board == "controller":
        controller()
    else:
        rank(figures())
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
    # Where each part was made (parts.make, for every part): relative to the
    # repository whatever the cwd, and without the line, which says nothing.
    text = re.sub(r'"[^"]*?(hardware/boardgen/[a-z_]+\.py):\d+"', r'"\1"', text)
    return text
