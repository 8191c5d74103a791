"""The NFC front end's shared wiring: one SPI bus, a chain of 74HC595 shift
registers and a 74HC138 decoder between the RP2040 and eight MFRC522
readers, one per rank, each switching its rank's eight coils.

    front = FrontEnd(spi, Pin(pins.NFC_STROBE, Pin.OUT), Pin(pins.NFC_LATCH, Pin.OUT))
    front.reset()                 # every reader through its NRSTPD (hard reset)
    front.coil(3, 5)              # rank 3's switch to coil 5 (file f), staged...
    front.flush()                 # ...and latched: the coils switch now
    front.xfer(3, out, into)      # one register transaction with reader 3:
                                  # addressed (the chain rewritten if need be),
                                  # strobe low, the SPI transfer, strobe high
    front.run(3, script)          # several write transactions in one call:
                                  # segments of (length, bytes), a length with
                                  # bit 7 set skipped, 0 the end

The wiring contract (hardware/pins.py): the 595s see every byte on the bus
but change their outputs only on a latch (RCLK), so the chain is rewritten
whole (NFC_CHAIN_BYTES) while the strobe is high and no reader listens.
image[0] (the 595 farthest from the MCU, shifted first) holds the decoder's
address and the readers' shared NRSTPD; image[1 + (r >> 1)] holds rank r's
switch in its nibble at bit 4 * (r & 1): the coil (file) and an enable bit.
The decoder's /E is the strobe, so reader r's NSS is low only while the
strobe is low and the chain's address is r.

FrontEnd uses the bus through spi.write and spi.write_readinto and the pins
through value(): thin enough for CircuitPython (vortex.hal.cp.bus wraps
busio.SPI and digitalio so). On the RP2040, vortex.hal.rp2nfc.Rp2FrontEnd
does each of xfer(), run() and the chain's update in one viper function,
straight on the SPI and SIO registers. Nothing here allocates after
__init__.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

import time

from ..native import micropython, ptr8

CHAIN_BYTES = const(5)
_DIRTY = const(5)       # image[5]: 1 while the image differs from the latched outputs
_RUN = const(0x08)      # image[0] bit 3: NRSTPD high, the readers run
_ADDR = const(0x07)     # image[0] bits 0-2: the decoder's address
_ENABLE = const(0x08)   # a rank's nibble, bit 3: its selected coil connected
OFF = const(-1)         # coil(rank, OFF): every coil of the rank disconnected
_MAX_SEG = const(24)    # the longest transaction in a script


def _sleep_ms(ms):
    time.sleep(ms / 1000)


sleep_ms = getattr(time, "sleep_ms", _sleep_ms)  # CPython has no sleep_ms


@micropython.viper
def _coil(chain, coils, rank: int, f: int):
    """FrontEnd.coil: rank's nibble in the image (the coil and its enable),
    marked to latch if it changed."""
    img = ptr8(chain)
    cs = ptr8(coils)
    nib = 0
    cs[rank] = 255
    if f >= 0:
        nib = _ENABLE | f
        cs[rank] = f
    i = 1 + (rank >> 1)
    sh = 4 * (rank & 1)
    v = (int(img[i]) & (0xFF ^ (0x0F << sh))) | (nib << sh)
    if v != int(img[i]):
        img[i] = v
        img[_DIRTY] = 1


class FrontEnd:
    """FrontEnd(spi, strobe, latch, readers=8): the chain, the decoder and
    the bus, shared by the readers (vortex.hal.mfrc522) and the scheduler
    (vortex.hal.tiles). spi: configured, mode 0; strobe, latch: output pins.

    .readers      how many readers (ranks) the board has
    .addressed    the reader the decoder's address names
    .coils        bytearray: each rank's connected coil, or 255 (none)
    .image        the chain's bytes, and at [5] whether they wait for a latch
    """

    def __init__(self, spi, strobe, latch, readers=8):
        self.spi = spi
        self.strobe = strobe
        self.latch = latch
        self.readers = readers
        strobe.value(1)       # no reader selected while the chain is written
        latch.value(0)
        self.image = bytearray(CHAIN_BYTES + 1)
        self.image[0] = _RUN
        self.image[_DIRTY] = 1
        self._chain = memoryview(self.image)[:CHAIN_BYTES]
        self.coils = bytearray(b"\xff" * readers)
        self._seg = tuple(bytearray(k) for k in range(_MAX_SEG + 1))
        self.flush()

    @property
    def addressed(self):
        return self.image[0] & _ADDR

    # -- the chain ---------------------------------------------------------
    def flush(self):
        """Latch the staged image if it changed: coils switch, the address
        and NRSTPD take effect now."""
        if self.image[_DIRTY]:
            self._load()

    def _load(self):
        self.spi.write(self._chain)
        self.latch.value(1)       # RCLK rising edge: shift register -> outputs
        self.latch.value(0)
        self.image[_DIRTY] = 0

    def coil(self, rank, f):
        """Stage rank's switch: coil f (0-7) connected, or OFF. Takes effect
        at the next flush(), or the next transaction that rewrites the chain."""
        _coil(self.image, self.coils, rank, f)

    def select(self, reader):
        """Address `reader` on the decoder (and latch whatever was staged)."""
        img = self.image
        v = img[0] & ~_ADDR | reader
        if v != img[0]:
            img[0] = v
            img[_DIRTY] = 1
        self.flush()

    def reset(self, hold_ms=1, start_ms=2):
        """Hard reset of every reader: NRSTPD low for hold_ms (MFRC522
        datasheet 8.8.1: over 100 ns), then high, then start_ms for the
        oscillators to start (8.8.2)."""
        self.image[0] &= ~_RUN
        self._load()
        sleep_ms(hold_ms)
        self.image[0] |= _RUN
        self._load()
        sleep_ms(start_ms)

    # -- register transactions -----------------------------------------------
    def xfer(self, reader, out, into=None):
        """One transaction with `reader`: out on MOSI, MISO into `into`
        (None: dropped)."""
        if self.image[0] & _ADDR != reader or self.image[_DIRTY]:
            self.select(reader)
        self.strobe.value(0)
        if into is None:
            self.spi.write(out)
        else:
            self.spi.write_readinto(out, into)
        self.strobe.value(1)

    def run(self, reader, script):
        """The script's write transactions with `reader`, in order."""
        i = 0
        k = script[0]
        while k:
            if not k & 0x80:
                seg = self._seg[k]
                for j in range(k):
                    seg[j] = script[i + 1 + j]
                self.xfer(reader, seg)
            i += 1 + (k & 0x7F)
            k = script[i]
