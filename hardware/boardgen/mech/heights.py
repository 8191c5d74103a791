"""How tall each footprint's part stands, from its maker's drawing: what
the mechanical fit checks need of a part that the board file does not say.

BODY: footprint (library:name) -> (height above the board's surface on its
own side, mm, the largest the drawing allows; how far its leads stand out
of the other side, mm; source). A footprint of a board that is not here
stops the fit checks with its name (tests/test_mech.py): a new part (a
Hall sensor for the reed, a new connector) gets its height before the
mechanics can be trusted.

SENSORS: footprint -> height of the point that senses the magnet above the
surface the part lies on, mm, and the source. The reed senses along its
glass's axis (figures.py's stack-up puts the reed there); a Hall switch
would sense in its die, a fraction of a millimetre into its package.
"""
from .. import dims

LEAD_TRIMMED_MM = 1.5     # a through-hole lead cut after soldering (IPC-A-610: 0.5-2.3 mm)

BODY = {
    "Resistor_SMD:R_0603_1608Metric": (0.55, 0.0, "UNI-ROYAL 0603WAF: 0.45 +-0.10 mm"),
    "Capacitor_SMD:C_0402_1005Metric": (0.55, 0.0, "Samsung CL05: 0.50 +-0.05 mm"),
    "Capacitor_SMD:C_0603_1608Metric": (0.90, 0.0, "Murata GRM18: 0.80 +-0.10 mm"),
    "Capacitor_SMD:C_0805_2012Metric": (1.45, 0.0, "Samsung CL21 thickness Q/F/Y: 1.25 +-0.20 mm"),
    "Capacitor_SMD:CP_Elec_8x10": (10.5, 0.0, "Panasonic FK 8 x 10.2 mm: L 10.2 +-0.3 mm"),
    "Capacitor_SMD:CP_Elec_6.3x7.7": (8.0, 0.0, "Panasonic FK 6.3 x 7.7 mm: L 7.7 +-0.3 mm"),
    "Inductor_SMD:L_0603_1608Metric": (1.02, 0.0, "Coilcraft 0603LS: 1.02 mm max"),
    "Crystal:Crystal_SMD_3225-4Pin_3.2x2.5mm": (0.80, 0.0, "Abracon ABM8: 0.80 mm max"),
    "Package_DFN_QFN:QFN-32-1EP_5x5mm_P0.5mm_EP3.45x3.45mm": (1.00, 0.0, "NXP HVQFN32 (SOT617): 1.00 mm max"),
    "Package_SO:TSSOP-16_4.4x5mm_P0.65mm": (1.20, 0.0, "JEDEC MO-153: 1.20 mm max"),
    "Package_SO:TSSOP-20_4.4x6.5mm_P0.65mm": (1.20, 0.0, "JEDEC MO-153: 1.20 mm max"),
    "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm": (1.75, 0.0, "JEDEC MS-012: 1.75 mm max"),
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm": (1.75, 0.0, "JEDEC MS-012: 1.75 mm max"),
    "Package_TO_SOT_SMD:SOT-23": (1.20, 0.0, "onsemi / AOS SOT-23: 1.12-1.25 mm max"),
    "Package_TO_SOT_SMD:SOT-23-5": (1.45, 0.0, "TI DBV: 1.45 mm max"),
    "Package_TO_SOT_SMD:SOT-23-6": (1.45, 0.0, "ST SOT23-6L: 1.45 mm max"),
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm": (dims.LED_HEIGHT_MM, 0.0,
                                                   "Worldsemi WS2812B: 5.0 x 5.0 x 1.6 mm (dims.LED_HEIGHT_MM)"),
    "Diode_SMD:D_SOD-123": (1.35, 0.0, "onsemi SOD-123: 1.35 mm max"),
    "Diode_SMD:D_SOD-123F": (1.10, 0.0, "onsemi SOD-123FL: 1.08 mm max"),
    "Fuse:Fuse_1812_4532Metric": (1.80, 0.0, "Bourns MF-MSMF: 1.80 mm max"),
    "Connector_USB:USB_C_Receptacle_GCT_USB4105-xx-A_16P_TopMnt_Horizontal": (
        3.31, 0.8, "GCT USB4105 drawing: 3.31 mm over the board; shell tabs through it"),
    "Button_Switch_THT:SW_PUSH_6mm": (4.30, 3.5 - 1.6, "Omron B3F-1000: 4.3 mm; 3.5 mm terminals"),
    "Buzzer_Beeper:Buzzer_CUI_CPT-9019S-SMT": (2.50, 0.0, "CUI CPT-9019S-SMT: 9 x 9 x 2.5 mm"),
    "Connector_IDC:IDC-Header_2x20_P2.54mm_Vertical": (
        8.85, 3.0, "Wurth WR-BHD 612 xx0 216 21: 8.85 mm body, 3.0 mm pins below"),
    "vortex:RaspberryPi_Pico_SMD_TP": (4.0, 0.0, "Raspberry Pi Pico data sheet: 1 mm board, "
                                                 "the micro-USB and BOOTSEL about 3 mm above it"),
    "vortex:Reed_Littelfuse_MDSR-7": (dims.REED_GLASS_DIA_MM, LEAD_TRIMMED_MM,
                                      "Littelfuse MDSR-7: 1.80 mm glass lying flat; leads trimmed"),
    "vortex:Coil_Square_24mm_5T": (0.0, 0.0, "copper of the board"),
    "MountingHole:MountingHole_2.7mm_M2.5": (0.0, 0.0, "a hole"),
}

SENSORS = {
    "vortex:Reed_Littelfuse_MDSR-7": (dims.REED_GLASS_DIA_MM / 2,
                                      "the glass's axis: the reed lies flat (Littelfuse MDSR-7, 1.80 mm glass)"),
}


class UnknownPart(KeyError):
    """A footprint with no height: the fit checks cannot vouch for it."""


def body(name):
    """(height, leads below, source) of a footprint, or UnknownPart."""
    if name not in BODY:
        raise UnknownPart("no height for footprint %s: add it to hardware/boardgen/mech/heights.py" % name)
    return BODY[name]
