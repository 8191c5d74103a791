"""The USB-C source a virtual board is plugged into, as the board's CC_SENSE
input reads it (vortex.hal.supply's adc). Loaded when a rig is plugged in
(host_sim.scenario.Rig.plug), so a rig that is not costs no memory for it.

A source advertises its current by its pull-up Rp to 5 V on the CC line
(USB Type-C spec, table 4-24); the board has a 5.1 k Rd on each CC line and
sums both into CC_SENSE through 100 k each, the unused line sitting at 0 V
through its own Rd (hardware/README.md, Power; the same arithmetic as
hardware/boardgen/physics.py's rd_seen and summed_cc). "none" is no CC at
all: a legacy cable, or the Pico's own USB.
"""
SOURCE_RP_OHM = {"none": 0, "usb": 56000, "1.5a": 22000, "3a": 10000}
WORDS = {"none": "no USB-C source", "usb": "default USB", "1.5a": "USB-C 1.5 A", "3a": "USB-C 3 A"}
# The sources the simulators offer ("none" budgets as "usb"). Their board
# runs on a 3 A source unless told: the supply it is designed for, its LEDs
# at full brightness.
SUPPLIES = ("usb", "1.5a", "3a")
SUPPLY = "3a"
RD_OHM = 5100
SUM_OHM = 100000
ADC_NOISE = 24  # read_u16 counts either way: a few LSB of the RP2040 ADC's 12 bits


def cc_u16(source):
    """The CC_SENSE reading (machine.ADC.read_u16) a source gives, noise aside."""
    rp = SOURCE_RP_OHM[source]
    if not rp:
        return 0
    other = 2 * SUM_OHM + RD_OHM  # through both summing resistors and the other line's Rd
    rd = RD_OHM * other / (RD_OHM + other)  # the Rd the source sees
    v_cc = 5.0 * rd / (rp + rd)
    v = v_cc * (SUM_OHM + RD_OHM) / other
    return int(v / 3.3 * 65535 + 0.5)


class VirtualCC:
    """VirtualCC(source, rng): read_u16() -> the source's CC_SENSE reading,
    with a few counts of noise on each read."""

    def __init__(self, source, rng):
        self.source = source
        self._u16 = cc_u16(source)
        self._rng = rng

    def read_u16(self):
        v = self._u16 + self._rng.below(2 * ADC_NOISE + 1) - ADC_NOISE
        return min(max(v, 0), 65535)
