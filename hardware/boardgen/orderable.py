"""What is ordered for each placed part: its maker, the maker's part number,
LCSC's number where one can be given, and how the number was checked.

The table is keyed by (catalogue entry, value): the catalogue entry fixes the
footprint (parts.CATALOGUE), the value is the part's nominal value as the
schematic writes it, up to its first space ("100k 1%" is "100k"; what
follows, a tolerance or a dielectric, is a property the part below has).
A placed part whose key is not here has no part number: the BOM shows it
empty and tests/test_orderable.py fails, naming it. So a new part or a new
value (a C1 the feeds move) is caught the day it appears.

How each number was checked (`how`):

* SEEN: the maker's number and the LCSC number were found together in
  public JLCPCB assembly BOMs (several independent ones; the search tool's
  code index, December 2026), so both exist and are one part.
* DATASHEET: the maker's data sheet or ordering guide names this number
  (cited in `note`); no LCSC number was found for it.
* SERIES: a value inside a series whose published range covers it (cited
  in `note`), the code composed by the maker's ordering scheme; the exact
  code was not found in a catalogue this tool could read. A maker checks it
  by entering the code in the maker's product search (murata.com,
  coilcraft.com) or at a distributor, before ordering; the BOM says so.

A distributor number from another maker's part ("second source") is named in
`note`; the assembler places that part.
"""
from collections import namedtuple

Order = namedtuple("Order", "manufacturer mpn lcsc how note")

SEEN, DATASHEET, SERIES = "seen", "datasheet", "series"
HOWS = (SEEN, DATASHEET, SERIES)

_UR = "UNI-ROYAL"
_SAMSUNG = "Samsung"
_TI = "Texas Instruments"

PARTS = {
    # resistors: UNI-ROYAL 0603WAF, thick film 1 %, 100 mW, 75 V
    ("R0603", "330"): Order(_UR, "0603WAF3300T5E", "C23138", SEEN, "330 Ohm 1 %"),
    ("R0603", "1k"): Order(_UR, "0603WAF1001T5E", "C21190", SEEN, "1 k 1 %"),
    ("R0603", "2.2k"): Order(_UR, "0603WAF2201T5E", "C4190", SEEN, "2.2 k 1 %"),
    ("R0603", "5.1k"): Order(_UR, "0603WAF5101T5E", "C23186", SEEN, "5.1 k 1 % (USB-C Rd: +-10 % asked)"),
    ("R0603", "10k"): Order(_UR, "0603WAF1002T5E", "C25804", SEEN, "10 k 1 %"),
    ("R0603", "47k"): Order(_UR, "0603WAF4702T5E", "C25819", SEEN, "47 k 1 %"),
    ("R0603", "100k"): Order(_UR, "0603WAF1003T5E", "C25803", SEEN, "100 k 1 %"),
    ("R0603", "200k"): Order(_UR, "0603WAF2003T5E", "C25811", SEEN, "200 k 1 %"),
    # ceramic capacitors, Samsung CL: the letter after the voltage code is
    # the thickness (Samsung's numbering: 5 = 0.5 mm, Q, Y, F = 1.25 mm)
    ("C0402", "15pF"): Order(_SAMSUNG, "CL05C150JB5NNNC", "C1548", SEEN, "C0G 5 % 50 V, 0.5 mm"),
    ("C0402", "1nF"): Order(_SAMSUNG, "CL05B102KB5NNNC", "C1523", SEEN, "X7R 10 % 50 V, 0.5 mm"),
    ("C0402", "100nF"): Order(_SAMSUNG, "CL05B104KO5NNNC", "C1525", SEEN, "X7R 10 % 16 V, 0.5 mm"),
    ("C0805", "680nF"): Order(_SAMSUNG, "CL21B684KBFVPNE", "C472832", SEEN, "X7R 10 % 50 V, 1.25 mm"),
    ("C0805", "1uF"): Order(_SAMSUNG, "CL21B105KBFNNNE", "C28323", SEEN, "X7R 10 % 50 V, 1.25 mm"),
    ("C0805", "4.7uF"): Order(_SAMSUNG, "CL21A475KAQNNNE", "C1779", SEEN, "X5R 10 % 25 V, 1.25 mm"),
    ("C0805", "10uF"): Order(_SAMSUNG, "CL21A106KAYNNNE", "C15850", SEEN, "X5R 10 % 25 V, 1.25 mm"),
    # aluminium electrolytics, Panasonic FK: the can must be the footprint's
    # (CP_Elec_8x10, CP_Elec_6.3x7.7); at 10 V the FK values of 100 and
    # 220 uF come in the lower 6.3 x 5.8 and 8 x 6.2 cans, so 25 V ones
    ("CP_220U", "220uF"): Order("Panasonic", "EEE-FK1E221P", "", DATASHEET,
                                "FK series, 220 uF 25 V, 8 x 10.2 mm can (Panasonic FK data sheet)"),
    ("CP_100U", "100uF"): Order("Panasonic", "EEE-FK1E101P", "", DATASHEET,
                                "FK series, 100 uF 25 V, 6.3 x 7.7 mm can (Panasonic FK data sheet)"),
    # the EMC filter's L0: Murata's LQW18AN ends at 470 nH; Coilcraft's
    # 0603LS covers 47 nH to 22 uH in 2 % and 5 % (Coilcraft document 264)
    ("L0603_560N", "560nH"): Order("Coilcraft", "0603LS-561XGLC", "", SERIES,
                                   "0603LS: 47 nH-22 uH, 2 % (Coilcraft document 264); check the "
                                   "packaging letter at coilcraft.com"),
    ("XTAL_27M", "27.12MHz"): Order("Abracon", "ABM8-27.120MHZ-10-D1G-T", "", DATASHEET,
                                    "ABM8 3.2 x 2.5 mm, 27.12 MHz, CL 10 pF (MFRC522 data sheet asks "
                                    "27.12 MHz, CL 10 pF)"),
    ("MFRC522", "MFRC522"): Order("NXP", "MFRC52202HN1,151", "", DATASHEET,
                                  "HVQFN32 5 x 5 mm (NXP MFRC522 data sheet, ordering information)"),
    ("ADG1608", "ADG1608"): Order("Analog Devices", "ADG1608BRUZ", "", DATASHEET,
                                  "TSSOP-16 (ADG1608 data sheet, ordering guide)"),
    ("HC595", "74HC595"): Order(_TI, "SN74HC595DR", "C10092", SEEN, "SOIC-16"),
    ("HC138", "HC138"): Order(_TI, "SN74HC138DR", "C6818", SEEN, "SOIC-16"),
    ("AHCT125", "AHCT125"): Order(_TI, "SN74AHCT125DR", "C155176", SEEN, "SOIC-14"),
    ("LVC1G125", "74LVC1G125"): Order(_TI, "SN74LVC1G125DBVR", "", DATASHEET, "SOT-23-5 (TI data sheet)"),
    ("LVC541", "74LVC541A"): Order(_TI, "SN74LVC541APWR", "C113281", SEEN, "TSSOP-20"),
    ("WS2812B", "WS2812B"): Order("Worldsemi", "WS2812B-B/W", "C114586", SEEN, "5050, 4 pins"),
    ("REED", "REED"): Order("Littelfuse", "MDSR-7-10-15", "", DATASHEET,
                            "10-15 AT, 12.7 mm glass (Littelfuse MDSR-7 data sheet); through-hole, "
                            "fitted by hand"),
    ("D_SIGNAL", "D_SIGNAL"): Order("onsemi", "1N4148WT1G", "C2099", SEEN,
                                    "SOD-123; LCSC C2099 is JSCJ's 1N4148W, the same SOD-123 part "
                                    "(second source)"),
    ("POLYFUSE", "2.5A"): Order("Bourns", "MF-MSMF250-2", "", DATASHEET,
                                "1812, 2.5 A hold (Bourns MF-MSMF data sheet)"),
    ("USB_C", "USB_C"): Order("GCT", "USB4105-GF-A", "", DATASHEET,
                              "USB 2.0 receptacle, top mount (GCT USB4105 drawing)"),
    ("USBLC6", "USBLC6"): Order("STMicroelectronics", "USBLC6-2SC6", "", DATASHEET, "SOT-23-6"),
    ("AP2112K33", "AP2112K33"): Order("Diodes Inc.", "AP2112K-3.3TRG1", "C51118", SEEN, "SOT-23-5"),
    ("TPS60403", "TPS60403"): Order(_TI, "TPS60403DBVR", "C11338", SEEN, "SOT-23-5"),
    ("NPN", "NPN"): Order("onsemi", "MMBT3904LT1G", "C20526", SEEN,
                          "SOT-23; LCSC C20526 is CJ's MMBT3904 (second source)"),
    ("PMOS", "PMOS"): Order("Alpha & Omega", "AO3401A", "C15127", SEEN, "SOT-23"),
    ("BUZZER", "BUZZER"): Order("CUI Devices", "CPT-9019S-SMT-TR", "", DATASHEET,
                                "9 x 9 mm SMT piezo (CUI CPT-9019S data sheet)"),
    ("BUTTON", "BUTTON"): Order("Omron", "B3F-1000", "", DATASHEET,
                                "6 x 6 mm through-hole tactile switch; fitted by hand"),
    ("PICO", "PICO"): Order("Raspberry Pi", "SC0915", "", DATASHEET,
                            "Raspberry Pi Pico; soldered by hand on its castellations"),
    ("IDC40", "IDC40"): Order("Wurth Elektronik", "61204021621", "C7433390", SEEN,
                              "WR-BHD 2 x 20 box header, 2.54 mm, 3 A a contact (WR-BHD data sheet); "
                              "the ribbon's IDC sockets (3M 89140) are the 1 A limit"),
}

# The RF path's C0G capacitors (the coils' C1 and the nodes' C_N): Murata
# GRM1885C1H, 0603, C0G, 50 V, 2 %. Murata's catalogue (C02E, GRM series
# selection guide) lists GRM18 C0G at 50 V from 0.1 pF to 10 nF; 2 % (G)
# applies from 10 pF. Above 10 nF there is no 0603 C0G at 50 V: the fit of
# C1 (figures.c1_parts) draws its values from this list only, so no value
# past the series can be chosen.
_E24 = (1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3,
        4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1)
C0G_MIN_F, C0G_MAX_F = 10e-12, 10e-9


def _pf_code(pf):
    """Murata's three-digit capacitance code: two figures and the number of
    zeros, in pF (101 = 100 pF)."""
    exp = 0
    while pf >= 100 - 1e-9:
        pf /= 10
        exp += 1
    return "%02d%d" % (round(pf), exp)


_SI = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "k": 1e3, "M": 1e6}


def parse_value(text, unit):
    """The number a schematic value states: '4.7uF C0G' -> 4.7e-6 (unit
    'F'), '5.1k 1%' -> 5100.0 (unit '')."""
    word = text.split()[0].rstrip(unit)
    if word and word[-1] in _SI:
        return float(word[:-1]) * _SI[word[-1]]
    return float(word)


def value_text(c):
    """A capacitor's value as the schematic writes it: 4.7nF, 220pF."""
    for unit, scale in (("pF", 1e-12), ("nF", 1e-9), ("uF", 1e-6)):
        if c < scale * 1000 * 0.9999:
            return ("%.3g" % (c / scale)) + unit
    return "%.3guF" % (c * 1e6)


def _c0g_series():
    values = []
    decade = C0G_MIN_F
    while decade <= C0G_MAX_F:
        values += [round(v * decade, 18) for v in _E24 if v * decade <= C0G_MAX_F * 1.0001]
        decade *= 10
    return values


C0G_VALUES = tuple(_c0g_series())
for _c in C0G_VALUES:
    PARTS[("C0603_C0G", value_text(_c))] = Order(
        "Murata", "GRM1885C1H%sGA01D" % _pf_code(_c * 1e12), "", SERIES,
        "C0G 2 % 50 V; GRM18 C0G 50 V: 0.1 pF-10 nF (Murata catalogue C02E); check the code at murata.com")
del _c

# Parts that are copper of the board itself: ordered with the PCB.
NOT_ORDERED = {"COIL"}


def key(catalogue, value):
    """The table's key of a part: its catalogue entry and its nominal value."""
    return catalogue, value.split()[0] if value.split() else value


def find(catalogue, value):
    """The Order for a part, or None when it has none."""
    return PARTS.get(key(catalogue, value))
