"""A fake SPI bus with the NFC front end behind it (hardware/pins.py's
wiring contract): a chain of nine 74HC595 that every byte shifts through,
latched on the latch pin's rising edge; a 74HC138 whose /E is the strobe pin
and whose address comes from the chain, selecting chips[r] (a FakeRC522, or
None: no chip, MISO stays low); the readers' NRSTPD and each rank's coil
switch from the chain. Plain Python, CPython and MicroPython."""
from hal_fakes import FakePin
from hal_fake_rc522 import FakeNtag, FakeRC522
from vortex import tag
from vortex.hal.frontend import FrontEnd
from vortex.hal.mfrc522 import MFRC522

CHAIN = 9
CTRL = 8        # the controller's byte; rank r's is latched[CTRL - 1 - r]


class FakeBus:
    """FakeBus(chips, strobe=None, latch=None): a machine.SPI stand-in
    (write, write_readinto). .latched: the chain's outputs; .latches and
    .shifted count latch pulses and bytes shifted."""

    def __init__(self, chips, strobe=None, latch=None):
        self.chips = list(chips)
        self.shift = bytearray(CHAIN)     # the chain's shift registers
        self.latched = bytearray(CHAIN)   # its outputs
        self.latches = 0
        self.shifted = 0
        self.selections = 0               # transactions that reached a chip
        self.strobe = None
        self.latch = None
        self.attach(strobe or FakePin("strobe"), latch or FakePin("latch"))

    def attach(self, strobe, latch):
        """The strobe and latch pins (as the driver's code made them)."""
        self.strobe = strobe
        self.latch = latch
        latch.hook = self._edge
        self._level = latch.v

    def _edge(self, v):
        if v and not self._level:          # RCLK rising edge
            self.latches += 1
            self.latched[:] = self.shift
            self._apply()
        self._level = v

    def _apply(self):
        out = self.latched
        run = out[CTRL] & 0x08
        for r, chip in enumerate(self.chips):
            if chip is None:
                continue
            chip.power(bool(run))
            chip.set_coil(self.coil(r))

    def address(self):
        return self.latched[CTRL] & 0x07

    def coil(self, r):
        """Rank r's connected coil, or -1."""
        v = self.latched[CTRL - 1 - r] & 0x0F
        return v & 7 if v & 8 else -1

    def overcurrents(self):
        """How often a reader's field was on into its rank's open switch."""
        return sum(c.overcurrent for c in self.chips if c is not None)

    # machine.SPI
    def write(self, buf):
        self._xfer(bytes(buf), None)

    def write_readinto(self, out, into):
        assert len(out) == len(into)
        self._xfer(bytes(out), into)

    def _xfer(self, out, into):
        for b in out:
            self.shift[:-1] = self.shift[1:]
            self.shift[-1] = b
        self.shifted += len(out)
        chip = None
        if not self.strobe.v:
            chip = self.chips[self.address()]
        if chip is not None:
            self.selections += 1
            chip.xfer(out, into)
        elif into is not None:
            for i in range(len(into)):
                into[i] = 0


UID7 = b"\x04\x11\x22\x33\x44\x55\x66"


def tile(terrain=tag.FIRE, serial=9, uid=UID7):
    return FakeNtag(uid, tag.encode(terrain, serial))


def make(t=None, n=0, f=0):
    """Reader n of eight, tag t under its coil f (connected)."""
    chips = [FakeRC522() for _ in range(8)]
    if t is not None:
        chips[n].tags[f] = t
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    rdr = MFRC522(front, n, clock=None)
    front.coil(n, f)
    front.flush()
    return chips[n], rdr, front, bus
