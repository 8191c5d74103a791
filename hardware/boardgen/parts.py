"""The parts the board is made of: pins (so no KiCad library is needed),
footprint, manufacturer part number, and a unit price with where it came from.

Prices are catalogue estimates in USD at the quantity a one-board build
orders (the BOM's quantity, or the distributor's smallest reel-cut above
it), noted 2026-05: they were NOT re-quoted from a live distributor page by
the tool that wrote this file; check them before ordering (each row names
the distributor and the part number to look up).
"""
from skidl import SKIDL, Part, Pin

PASSIVE = Pin.types.PASSIVE
PWRIN = Pin.types.PWRIN
PWROUT = Pin.types.PWROUT
INPUT = Pin.types.INPUT
OUTPUT = Pin.types.OUTPUT
BIDIR = Pin.types.BIDIR
TRISTATE = Pin.types.TRISTATE
NOCONNECT = Pin.types.NOCONNECT

# key: (reference prefix, pins [(number, name, type)], footprint, manufacturer,
#       part number, description, unit price USD, price source)
CATALOGUE = {}


def _define(key, prefix, pins, footprint, mfr, mpn, desc, price, source):
    CATALOGUE[key] = (prefix, pins, footprint, mfr, mpn, desc, price, source)


def _two(kind):
    return [(1, "1", PASSIVE), (2, "2", PASSIVE)]


LCSC = "LCSC"
DK = "DigiKey"
MOUSER = "Mouser"

_define("R0603", "R", _two("R"), "Resistor_SMD:R_0603_1608Metric", "UNI-ROYAL",
        "0603WAF series (value-dependent)", "resistor 0603 1 %", 0.002, LCSC + ", qty 100 cut tape")
_define("C0402", "C", _two("C"), "Capacitor_SMD:C_0402_1005Metric", "Samsung",
        "CL05 series C0G/X7R (value-dependent)", "capacitor 0402", 0.003, LCSC + ", qty 100 cut tape")
_define("C0603_C0G", "C", _two("C"), "Capacitor_SMD:C_0603_1608Metric", "Murata",
        "GRM1885C1H series C0G 2 % (value-dependent)", "capacitor 0603 C0G 2 %, RF path",
        0.02, LCSC + ", qty 50 cut tape")
_define("C0805", "C", _two("C"), "Capacitor_SMD:C_0805_2012Metric", "Samsung",
        "CL21 series X5R (value-dependent)", "capacitor 0805 X5R", 0.01, LCSC + ", qty 50 cut tape")
_define("CP_1000U", "C", [(1, "POS", PASSIVE), (2, "NEG", PASSIVE)],
        "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", "Panasonic", "EEU-FR1A102",
        "electrolytic 1000 uF 10 V low ESR", 0.45, DK + ", qty 1")
_define("L0603_560N", "L", _two("L"), "Inductor_SMD:L_0603_1608Metric", "Murata",
        "LQW18ANR56G00D", "inductor 560 nH 2 % wire-wound (EMC filter L0)", 0.20, DK + ", qty 10")
_define("COIL", "L", _two("L"), "vortex:Coil_Square_24mm_5T", "-", "PCB copper",
        "reader coil, printed spiral (see figures.md)", 0.0, "part of the PCB")
_define("XTAL_27M", "Y", [(1, "1", PASSIVE), (2, "GND", PASSIVE), (3, "3", PASSIVE), (4, "GND2", PASSIVE)],
        "Crystal:Crystal_SMD_3225-4Pin_3.2x2.5mm", "Abracon", "ABM8-27.120MHZ-10-B1U-T",
        "crystal 27.12 MHz, CL 10 pF (MFRC522 data sheet)", 0.45, DK + ", qty 10")
_define("MFRC522", "U", [
    (1, "I2C", INPUT), (2, "PVDD", PWRIN), (3, "DVDD", PWRIN), (4, "DVSS", PWRIN),
    (5, "PVSS", PWRIN), (6, "NRSTPD", INPUT), (7, "MFIN", INPUT), (8, "MFOUT", OUTPUT),
    (9, "SVDD", PWRIN), (10, "TVSS1", PWRIN), (11, "TX1", OUTPUT), (12, "TVDD", PWRIN),
    (13, "TX2", OUTPUT), (14, "TVSS2", PWRIN), (15, "AVDD", PWRIN), (16, "VMID", PASSIVE),
    (17, "RX", INPUT), (18, "AVSS", PWRIN), (19, "AUX1", OUTPUT), (20, "AUX2", OUTPUT),
    (21, "OSCIN", INPUT), (22, "OSCOUT", OUTPUT), (23, "IRQ", OUTPUT), (24, "NSS", INPUT),
    (25, "D1", BIDIR), (26, "D2", BIDIR), (27, "D3", BIDIR), (28, "D4", BIDIR),
    (29, "SCK", INPUT), (30, "MOSI", INPUT), (31, "MISO", TRISTATE), (32, "EA", INPUT)],
    "Package_DFN_QFN:QFN-32-1EP_5x5mm_P0.5mm_EP3.45x3.45mm", "NXP", "MFRC52202HN1,157",
    "NFC reader IC, ISO 14443 A, SPI", 3.10, MOUSER + ", qty 10")
_define("ADG1608", "U", [
    (1, "A0", INPUT), (2, "EN", INPUT), (3, "VSS", PWRIN), (4, "S1", PASSIVE), (5, "S2", PASSIVE),
    (6, "S3", PASSIVE), (7, "S4", PASSIVE), (8, "D", PASSIVE), (9, "S8", PASSIVE), (10, "S7", PASSIVE),
    (11, "S6", PASSIVE), (12, "S5", PASSIVE), (13, "VDD", PWRIN), (14, "GND", PWRIN),
    (15, "A2", INPUT), (16, "A1", INPUT)],
    "Package_SO:TSSOP-16_4.4x5mm_P0.65mm", "Analog Devices", "ADG1608BRUZ",
    "8:1 analog multiplexer, 4.5 Ohm, 470 mA, +-5 V", 5.60, DK + ", qty 25")
_define("HC595", "U", [
    (1, "QB", OUTPUT), (2, "QC", OUTPUT), (3, "QD", OUTPUT), (4, "QE", OUTPUT), (5, "QF", OUTPUT),
    (6, "QG", OUTPUT), (7, "QH", OUTPUT), (8, "GND", PWRIN), (9, "QHS", OUTPUT), (10, "SRCLR", INPUT),
    (11, "SRCLK", INPUT), (12, "RCLK", INPUT), (13, "OE", INPUT), (14, "SER", INPUT),
    (15, "QA", OUTPUT), (16, "VCC", PWRIN)],
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm", "Texas Instruments", "SN74HC595DR",
    "8-bit shift register with output latches", 0.12, LCSC + ", qty 10")
_define("HC138", "U", [
    (1, "A", INPUT), (2, "B", INPUT), (3, "C", INPUT), (4, "G2A", INPUT), (5, "G2B", INPUT),
    (6, "G1", INPUT), (7, "Y7", OUTPUT), (8, "GND", PWRIN), (9, "Y6", OUTPUT), (10, "Y5", OUTPUT),
    (11, "Y4", OUTPUT), (12, "Y3", OUTPUT), (13, "Y2", OUTPUT), (14, "Y1", OUTPUT), (15, "Y0", OUTPUT),
    (16, "VCC", PWRIN)],
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm", "Texas Instruments", "SN74HC138DR",
    "3-to-8 decoder, reader chip selects", 0.12, LCSC + ", qty 10")
_define("AHCT125", "U", [
    (1, "1OE", INPUT), (2, "1A", INPUT), (3, "1Y", OUTPUT), (4, "2OE", INPUT), (5, "2A", INPUT),
    (6, "2Y", OUTPUT), (7, "GND", PWRIN), (8, "3Y", OUTPUT), (9, "3A", INPUT), (10, "3OE", INPUT),
    (11, "4Y", OUTPUT), (12, "4A", INPUT), (13, "4OE", INPUT), (14, "VCC", PWRIN)],
    "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm", "Texas Instruments", "SN74AHCT125DR",
    "quad buffer, 3.3 V to 5 V for the LED data", 0.15, LCSC + ", qty 10")
_define("WS2812B", "D", [(1, "VDD", PWRIN), (2, "DOUT", OUTPUT), (3, "VSS", PWRIN), (4, "DIN", INPUT)],
        "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "Worldsemi", "WS2812B-B/W",
        "RGB LED with driver, 5050", 0.06, LCSC + ", qty 100")
_define("REED", "SW", _two("SW"), "vortex:Reed_Glass_7mm_Flat", "Littelfuse", "MDSR-7-10-15",
        "reed switch NO, 10-15 AT, 7 mm glass", 0.55, DK + ", qty 100")
_define("D_SIGNAL", "D", [(1, "K", PASSIVE), (2, "A", PASSIVE)], "Diode_SMD:D_SOD-123",
        "onsemi", "1N4148W", "signal diode", 0.01, LCSC + ", qty 100")
_define("D_SCHOTTKY", "D", [(1, "K", PASSIVE), (2, "A", PASSIVE)], "Diode_SMD:D_SOD-123F",
        "onsemi", "MBR120VLSFT1G", "Schottky 1 A 20 V, board 5 V into the Pico's VSYS",
        0.30, DK + ", qty 1")
_define("POLYFUSE", "F", _two("F"), "Fuse:Fuse_1812_4532Metric", "Bourns", "MF-MSMF250-2",
        "PTC resettable fuse, 2.5 A hold", 0.35, DK + ", qty 1")
_define("USB_C", "J", [
    ("A1B12", "GND1", PASSIVE), ("B1A12", "GND2", PASSIVE), ("A4B9", "VBUS1", PASSIVE),
    ("B4A9", "VBUS2", PASSIVE), ("A5", "CC1", BIDIR), ("B5", "CC2", BIDIR), ("A6", "DP1", BIDIR),
    ("A7", "DN1", BIDIR), ("B6", "DP2", BIDIR), ("B7", "DN2", BIDIR), ("A8", "SBU1", BIDIR),
    ("B8", "SBU2", BIDIR), ("S1", "SHIELD", PASSIVE)],
    "Connector_USB:USB_C_Receptacle_GCT_USB4105-xx-A_16P_TopMnt_Horizontal", "GCT",
    "USB4105-GF-A", "USB-C receptacle, USB 2.0, 16 pins", 0.75, DK + ", qty 1")
_define("AP2112K33", "U", [(1, "VIN", PWRIN), (2, "GND", PWRIN), (3, "EN", INPUT), (4, "NC", NOCONNECT),
                           (5, "VOUT", PWROUT)],
        "Package_TO_SOT_SMD:SOT-23-5", "Diodes Inc.", "AP2112K-3.3TRG1",
        "LDO 3.3 V 600 mA, the readers' supply", 0.12, LCSC + ", qty 5")
_define("TPS60403", "U", [(1, "OUT", PWROUT), (2, "IN", PWRIN), (3, "CFLYN", PASSIVE), (4, "GND", PWRIN),
                          (5, "CFLYP", PASSIVE)],
        "Package_TO_SOT_SMD:SOT-23-5", "Texas Instruments", "TPS60403DBVR",
        "charge pump inverter, -5 V for the switches' VSS", 0.70, DK + ", qty 1")
_define("NPN", "Q", [(1, "B", INPUT), (2, "E", PASSIVE), (3, "C", PASSIVE)],
        "Package_TO_SOT_SMD:SOT-23", "onsemi", "MMBT3904LT1G", "NPN, buzzer driver", 0.02,
        LCSC + ", qty 10")
_define("BUZZER", "BZ", [(1, "POS", PASSIVE), (2, "NEG", PASSIVE)], "vortex:Buzzer_CUI_CPT-9019S-SMT",
        "CUI Devices", "CPT-9019S-SMT-TR", "piezo transducer, externally driven", 0.95, DK + ", qty 1")
_define("BUTTON", "SW", [(1, "1", PASSIVE), (2, "2", PASSIVE)], "Button_Switch_THT:SW_PUSH_6mm",
        "Omron", "B3F-1000", "tactile button 6 mm", 0.25, DK + ", qty 10")
_define("PICO", "U", [
    (1, "GP0", BIDIR), (2, "GP1", BIDIR), (3, "GND", PWRIN), (4, "GP2", BIDIR), (5, "GP3", BIDIR),
    (6, "GP4", BIDIR), (7, "GP5", BIDIR), (8, "GND", PWRIN), (9, "GP6", BIDIR), (10, "GP7", BIDIR),
    (11, "GP8", BIDIR), (12, "GP9", BIDIR), (13, "GND", PWRIN), (14, "GP10", BIDIR),
    (15, "GP11", BIDIR), (16, "GP12", BIDIR), (17, "GP13", BIDIR), (18, "GND", PWRIN),
    (19, "GP14", BIDIR), (20, "GP15", BIDIR), (21, "GP16", BIDIR), (22, "GP17", BIDIR),
    (23, "GND", PWRIN), (24, "GP18", BIDIR), (25, "GP19", BIDIR), (26, "GP20", BIDIR),
    (27, "GP21", BIDIR), (28, "GND", PWRIN), (29, "GP22", BIDIR), (30, "RUN", INPUT),
    (31, "GP26", BIDIR), (32, "GP27", BIDIR), (33, "AGND", PWRIN), (34, "GP28", BIDIR),
    (35, "ADC_VREF", PASSIVE), (36, "3V3", PWROUT), (37, "3V3_EN", INPUT), (38, "GND", PWRIN),
    (39, "VSYS", PWRIN), (40, "VBUS", PASSIVE), ("TP2", "USB_DM", BIDIR), ("TP3", "USB_DP", BIDIR)],
    "Module:RaspberryPi_Pico_SMD_HandSolder", "Raspberry Pi", "SC0915",
    "Raspberry Pi Pico (RP2040), soldered by its castellations", 4.00, "Raspberry Pi approved reseller list price, qty 1")


def make(key, value="", **attrs):
    """One part of the catalogue, placed in the default circuit."""
    prefix, pins, footprint, mfr, mpn, desc, _price, _src = CATALOGUE[key]
    part = Part(tool=SKIDL, name=key, ref_prefix=prefix, footprint=footprint,
                pins=[Pin(num=n, name=nm, func=t) for n, nm, t in pins])
    part.value = value or key
    part.fields["MPN"] = mpn
    part.fields["Manufacturer"] = mfr
    part.fields["Catalogue"] = key
    part.description = desc
    for k, v in attrs.items():
        setattr(part, k, v)
    return part
