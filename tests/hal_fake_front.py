"""A fake SPI bus with the NFC front end behind it (hardware/pins.py's
wiring contract): a chain of nine 74HC595 that every byte shifts through,
latched on the latch pin's rising edge; a 74HC138 whose /E is the strobe pin
and whose address comes from the chain, selecting chips[r] (a FakeRC522, or
None: no chip, MISO stays low); the readers' NRSTPD and each rank's coil
switch from the chain. While the strobe is high (no reader selected) the
farthest 595's QH' comes back on MISO (pins.NFC_CHAIN_RETURN): a byte
shifted in pushes the farthest byte out. Faults (FakeBus.stuck, .glitch,
.broken) spoil the chain as a board could. Plain Python, CPython and
MicroPython."""
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
        # Faults: stuck = (byte, mask, value): those bits of that 595 stuck
        # at value; glitch: so many transfers from now each have a ringing
        # clock edge, one bit more shifted before their last byte (the
        # chain slips); broken: the return line open, MISO pulled low while the
        # strobe is high.
        self.stuck = None
        self.glitch = 0
        self.broken = False
        self.readbacks = 0                # transfers that read the chain back
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
            # A latch changes every output at once: the switch taken to move
            # before the reader's reset stops its drivers (the worse case).
            chip.set_coil(self.coil(r))
            chip.power(bool(run))

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
        chain = self.strobe.v and into is not None
        if chain:
            self.readbacks += 1
        ring = self.glitch > 0
        if ring:
            self.glitch -= 1
        sh = self.shift
        for i, b in enumerate(out):
            if chain:
                into[i] = 0 if self.broken else sh[0]
            sh[:-1] = sh[1:]
            sh[-1] = b
            self._stick()
            if ring and i == len(out) - 2:
                self._bit(b & 1)         # the edge rings: the byte's last bit clocked twice
        self.shifted += len(out)
        chip = None
        if not self.strobe.v:
            chip = self.chips[self.address()]
        if chip is not None:
            self.selections += 1
            chip.xfer(out, into)
        elif into is not None and not chain:
            for i in range(len(into)):
                into[i] = 0

    def _bit(self, b):
        """One clock edge: the chain moves on a bit (MSB first, as SPI sends)."""
        sh = self.shift
        for i in range(CHAIN - 1):
            sh[i] = (sh[i] << 1 | sh[i + 1] >> 7) & 0xFF
        sh[-1] = (sh[-1] << 1 | b) & 0xFF
        self._stick()

    def _stick(self):
        if self.stuck is not None:
            i, m, v = self.stuck
            self.shift[i] = self.shift[i] & ~m & 0xFF | (m if v else 0)


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
    front.reset(0, 0)
    rdr = MFRC522(front, n, clock=None)
    front.coil(n, f)
    front.flush()
    return chips[n], rdr, front, bus
