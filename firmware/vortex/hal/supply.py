"""The USB-C CC line's voltage, read once at boot to learn what the power
source offers (hardware/power.py turns the reading into default USB, 1.5 A
or 3 A, and the LED current each leaves).

    cc = CCSense(ADC(Pin(pins.CC_SENSE)))
    source = power.source(cc.read_u16())

A source advertises its current by the pull-up on CC, a DC level that
holds while it stays plugged in; the RP2040's ADC is noisy by a few counts
and has a few codes that read wide (RP2040 datasheet, errata RP2040-E11),
so a reading is the mean of several, after one thrown away while the
sampling capacitor charges from the high-impedance summing node.

adc: a machine.ADC, or anything with read_u16() -> 0-65535: a CircuitPython
backend passes one whose read_u16() returns analogio.AnalogIn's .value
(the same scale).
"""
READS = 8


class CCSense:
    """CCSense(adc, reads=READS): read_u16() -> the mean of `reads` readings."""

    def __init__(self, adc, reads=READS):
        self._adc = adc
        self.reads = reads

    def read_u16(self):
        adc = self._adc
        adc.read_u16()  # settling: the node is 50 kOhm behind its two resistors
        total = 0
        for _ in range(self.reads):
            total += adc.read_u16()
        return (total + self.reads // 2) // self.reads
