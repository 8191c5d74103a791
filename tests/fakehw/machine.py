"""A stand-in for MicroPython's `machine` on the rp2 port, for running
firmware/main.py on the unix port (KMK style: the module table is faked,
the firmware is not touched). Buttons read released, no reed is closed,
and the SPI bus has the NFC front end behind it: eight MFRC522s with empty
fields behind the 595 chain and the decoder (hal_fake_front); mem32 reads
the pins' levels at the SIO's GPIO_IN register."""
from hal_fakes import FakePin
from hal_fake_rc522 import FakeRC522
from hal_fake_front import FakeBus
import pins

PINS = {}  # the last Pin made for each GPIO number


class Pin(FakePin):
    def __init__(self, n, mode=-1, pull=-1, value=None):
        FakePin.__init__(self, "GP%d" % n)
        self.init(mode, pull, value)
        if pull == self.PULL_UP:
            self.v = 1  # a released button reads high
        PINS[n] = self


class _Mem32:
    """machine.mem32 as far as the reed matrix reads it: the SIO's GPIO_IN,
    bit n the level of the last Pin made for GPIOn."""

    def __getitem__(self, addr):
        assert addr == 0xD0000004, hex(addr)
        bits = 0
        for n, pin in PINS.items():
            if pin.read():
                bits |= 1 << n
        return bits


mem32 = _Mem32()


class SPI:
    """The front end's bus, on the strobe and latch pins main.py makes.
    SPI.reader = False: no MFRC522 answers (every register reads 0)."""
    reader = True
    made = []

    def __init__(self, bus, **kw):
        self.chips = [FakeRC522() for _ in range(pins.NFC_READERS)]
        for chip in self.chips:
            chip.dead = not SPI.reader
        self.bus = FakeBus(self.chips)
        SPI.made.append(self)

    def transfers(self):
        """Register transactions that reached a reader."""
        return sum(chip.transfers for chip in self.chips)

    def _pins(self):
        strobe = PINS.get(pins.NFC_STROBE)
        if strobe is not None and strobe is not self.bus.strobe:
            self.bus.attach(strobe, PINS[pins.NFC_LATCH])

    def write(self, buf):
        self._pins()
        self.bus.write(buf)

    def write_readinto(self, out, into):
        self._pins()
        self.bus.write_readinto(out, into)


class WDT:
    made = []

    def __init__(self, timeout=5000):
        self.timeout = timeout
        self.fed = 0
        WDT.made.append(self)

    def feed(self):
        self.fed += 1


class Timer:
    """A periodic timer; tests call fire() where the hardware would tick."""
    made = []

    def __init__(self, id=-1):
        self.callback = None
        self.period = 0
        Timer.made.append(self)

    def init(self, period=1000, callback=None, mode=None):
        self.period = period
        self.callback = callback

    def fire(self):
        self.callback(self)

    PERIODIC = 1


class ADC:
    """An ADC input; ADC.u16 is what every read gives (the CC line of a
    USB-C source: hardware/power.py; 0, nothing on CC, by default)."""
    u16 = 0
    made = []

    def __init__(self, pin):
        self.pin = pin
        ADC.made.append(self)

    def read_u16(self):
        return ADC.u16


class PWM:
    """A PWM output: the last frequency and duty set, and each change."""
    made = []

    def __init__(self, pin):
        self.pin = pin
        self.hz = 0
        self.duty = 0
        self.changes = 0
        PWM.made.append(self)

    def freq(self, hz):
        self.hz = hz
        self.changes += 1

    def duty_u16(self, duty):
        self.duty = duty
        self.changes += 1


def unique_id():
    """The flash chip's unique id, as a Pico's (8 bytes)."""
    return b"\xe6\x61\x4c\x31\x23\x45\x67\x89"
