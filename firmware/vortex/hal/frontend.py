"""The NFC front end's shared wiring: one SPI bus, a chain of 74HC595 shift
registers and a 74HC138 decoder between the RP2040 and eight MFRC522
readers, one per rank (each on its own rank board), each switching its
rank's eight coils.

    front = FrontEnd(spi, Pin(pins.NFC_STROBE, Pin.OUT), Pin(pins.NFC_LATCH, Pin.OUT),
                     check=pins.NFC_CHAIN_RETURN)   # the readers held in reset...
    front.reset()                 # ...until this: every reader through its NRSTPD
    front.coil(3, 5)              # rank 3's switch to coil 5 (file f), staged...
    front.flush()                 # ...and latched: the coils switch now
    front.field(3, True)          # reader 3's field: on while its coil is connected
    front.xfer(3, out, into)      # one register transaction with reader 3:
                                  # addressed (the chain rewritten if need be),
                                  # strobe low, the SPI transfer, strobe high
    front.run(3, script)          # several write transactions in one call:
                                  # segments of (length, bytes), a length with
                                  # bit 7 set skipped, 0 the end

The wiring contract (hardware/pins.py): the 595s see every byte on the bus
but change their outputs only on a latch (RCLK), so the chain is rewritten
whole (NFC_CHAIN_BYTES) while the strobe is high and no reader listens.
image[_CTRL] (the controller's 595, nearest the MCU, shifted last) holds the
decoder's address and the readers' shared NRSTPD; image[_CTRL - 1 - r]
holds rank r's switch (the 595 on the rank board at ribbon position r): the
coil (file) in bits 0-2 and the enable in bit 3. The decoder's /E is the
strobe, so reader r's NSS is low only while the strobe is low and the
chain's address is r; its MISO buffer drives the bus only then.

A reader's field is never on while its rank's switch is open or changing
(hardware/README.md: the drivers would see L0 and the node capacitors near
series resonance, several times the MFRC522's 100 mA): field() records the
field a reader's driver wants, and it is on only while the rank's coil is
connected; flush() turns the field of every rank whose switch changes off
(TxControlReg), latches the new switches, and turns the fields back on
where a coil is now connected. Staged switches live apart from the image
the bus latches (.staged), so no transaction latches them but flush().

Every latch is checked (check=True: pins.NFC_CHAIN_RETURN, issue 37): the
farthest 595's QH' comes back on MISO while the strobe is high, so the
image shifted again with write_readinto (no latch: the outputs stay) reads
what the shift registers held when they were latched. A chain that holds
something else has every field turned off by hardware (the image with
NRSTPD low latched, then every switch open) and is loaded again; after
_TRIES wrong loads in a row the front end is faulted (.fault): no reader is
spoken to (their reads end NOREADER, vortex.hal.tiles lets the game's tiles
stand in) and each later load tries once, until one holds. The check
costs a 9-byte transfer a latch (18 us at 4 MHz; docs/device.md).

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

_BYTES = const(9)       # the chain's 595s (pins.NFC_CHAIN_BYTES)
CHAIN_BYTES = _BYTES
_CTRL = const(8)        # image[8]: the controller's 595 (pins.NFC_CTRL)
_DIRTY = const(9)       # image[9]: 1 while the image differs from the latched outputs
_FAULT = const(10)      # image[10]: 1 while the chain reads back wrong (FrontEnd.fault)
_PEND = const(9)        # staged[9]: 1 while a staged switch waits for flush()
_RUN = const(0x08)      # image[_CTRL] bit 3: NRSTPD high, the readers run
_ADDR = const(0x07)     # image[_CTRL] bits 0-2: the decoder's address
_ENABLE = const(0x08)   # a rank's byte, bit 3: its selected coil connected
OFF = const(-1)         # coil(rank, OFF): every coil of the rank disconnected
_MAX_SEG = const(24)    # the longest transaction in a script
# TxControlReg (MFRC522 data sheet 9.3.2.5), written as a register write:
# the address byte (0x14 << 1) and the value. 0x80 is its reset value, both
# drivers off; Tx1RFEn | Tx2RFEn (bits 0, 1) put the 13.56 MHz on TX1, TX2.
_TXC_W = const(0x28)
_TX_OFF = const(0x80)
_TX_ON = const(0x83)
# Loads of the chain in a row that may read back wrong before the front end
# is faulted (a ringing clock edge is a one-off; a stuck bit or a broken
# line stays): each wrong one is followed by every field off.
_TRIES = const(3)


def _sleep_ms(ms):
    time.sleep(ms / 1000)


sleep_ms = getattr(time, "sleep_ms", _sleep_ms)  # CPython has no sleep_ms


@micropython.viper
def _coil(staged, coils, rank: int, f: int):
    """FrontEnd.coil: rank's byte in the staged image (the coil and its
    enable), marked for flush() if it changed."""
    img = ptr8(staged)
    cs = ptr8(coils)
    v = 0
    cs[rank] = 255
    if f >= 0:
        v = _ENABLE | f
        cs[rank] = f
    i = _CTRL - 1 - rank
    if v != int(img[i]):
        img[i] = v
        img[_PEND] = 1


@micropython.viper
def _plan(image, staged, fields, n: int) -> int:
    """flush()'s switch change, planned (the staged switches taken off
    pending): the readers whose field goes off before it (bit r: rank r's
    switch changes away from a connected coil under the field) and, << 8,
    those whose field comes on after it (a coil connected, the field
    wanted). A rank whose driver wants no field just switches."""
    img = ptr8(image)
    new = ptr8(staged)
    want = ptr8(fields)
    new[_PEND] = 0
    m = 0
    for r in range(n):
        i = _CTRL - 1 - r
        if img[i] != new[i] and want[r]:
            if img[i] & _ENABLE:
                m |= 1 << r
            if new[i] & _ENABLE:
                m |= 0x100 << r
    return m


@micropython.viper
def _adopt(image, staged, n: int, on: int):
    """The staged switches into the image, waiting for the latch, with the
    first reader of `on` (a bit a reader) addressed: its field comes back
    first, without another rewrite of the chain."""
    img = ptr8(image)
    new = ptr8(staged)
    for r in range(n):
        i = _CTRL - 1 - r
        img[i] = new[i]
    r = 0
    while on:
        if on & 1:
            img[_CTRL] = (img[_CTRL] & (0xFF ^ _ADDR)) | r
            on = 0
        on >>= 1
        r += 1
    img[_DIRTY] = 1


@micropython.viper
def _differs(a, b) -> int:
    """Whether the chain's bytes read back (b) differ from the image (a)."""
    x = ptr8(a)
    y = ptr8(b)
    d = 0
    for i in range(_BYTES):
        d |= x[i] ^ y[i]
    return d


class FrontEnd:
    """FrontEnd(spi, strobe, latch, readers=8, check=True): the chain, the
    decoder and the bus, shared by the readers (vortex.hal.mfrc522) and the
    scheduler (vortex.hal.tiles). spi: configured, mode 0; strobe, latch:
    output pins; check: the chain comes back on MISO (pins.NFC_CHAIN_RETURN)
    and every latch is read back. The readers are held in reset until
    reset().

    .readers      how many readers (ranks) the board has
    .addressed    the reader the decoder's address names
    .coils        bytearray: each rank's connected coil (staged), or 255 (none)
    .fields       bytearray: 1 where a reader's driver wants its field on
    .image        the chain's bytes as latched (and the address), at [9]
                  whether they wait for a latch, at [10] .fault
    .fault        1 while the chain reads back wrong (see above)
    .staged       the switches as coil() left them, and at [9] whether
                  they wait for flush()
    """

    def __init__(self, spi, strobe, latch, readers=8, check=True):
        self.spi = spi
        self.strobe = strobe
        self.latch = latch
        self.readers = readers
        self.check = check        # the chain comes back on MISO (pins.NFC_CHAIN_RETURN)
        strobe.value(1)       # no reader selected while the chain is written
        latch.value(0)
        # The first latch holds every reader in reset (NRSTPD low) with every
        # switch open: nothing drives a coil until reset() lets them run.
        self.image = bytearray(_BYTES + 2)
        self.image[_DIRTY] = 1
        self.staged = bytearray(_BYTES + 1)
        self._chain = memoryview(self.image)[:_BYTES]
        self._back = bytearray(_BYTES)        # the chain as read back
        self._safe = bytes(_BYTES)            # every switch open, every reader in reset
        self.coils = bytearray(b"\xff" * readers)
        self.fields = bytearray(readers)
        self._txc = bytearray(2)
        self._txs = bytearray(2)  # _switch's own: field() -> xfer() -> _switch() nests
        self._seg = tuple(bytearray(k) for k in range(_MAX_SEG + 1))
        self.flush()

    @property
    def addressed(self):
        return self.image[_CTRL] & _ADDR

    @property
    def fault(self):
        """1 while the chain reads back other than it was loaded: every
        reader held in reset, no reader spoken to, until a load holds."""
        return self.image[_FAULT]

    # -- the chain ---------------------------------------------------------
    def flush(self):
        """Latch what is staged: coils switch (their readers' fields off
        across the change), the address and NRSTPD take effect now."""
        if self.staged[_PEND]:
            self._switch()
        if self.image[_DIRTY]:
            self._load()

    def _load(self):
        """The image latched and, with the chain's return (check), read back:
        the same bytes shifted again (no latch: the outputs stay) push out
        what the shift registers held, which the latch copied to the
        outputs. A chain that holds something else (a ringing clock edge, a
        stuck bit, a broken line) has every field turned off by hardware at
        once (NRSTPD low latched, then every switch open as well) and is
        loaded again, _TRIES times in all; then the front end is faulted
        (.fault) and the image waits (image[_DIRTY]) for the next
        transaction to try again, once while faulted. The readers so reset find their chips at
        reset values (mfrc522's poll: TxControlReg) and set them up again."""
        spi = self.spi
        chain = self._chain
        img = self.image
        tries = 1 if img[_FAULT] else _TRIES
        while tries:
            spi.write(chain)
            self._pulse()
            if not self.check:
                break
            spi.write_readinto(chain, self._back)
            if not _differs(chain, self._back):
                break
            # Every field off, break before make: the image again with
            # NRSTPD low (the readers reset, the switches as they are), then
            # the safe image (every switch open).
            c = img[_CTRL]
            img[_CTRL] = c & ~_RUN
            spi.write(chain)
            self._pulse()
            img[_CTRL] = c
            spi.write(self._safe)
            self._pulse()
            tries -= 1
        img[_DIRTY] = 0 if tries else 1
        img[_FAULT] = 0 if tries else 1

    def _pulse(self):
        self.latch.value(1)       # RCLK rising edge: shift register -> outputs
        self.latch.value(0)

    def _switch(self):
        """The staged switches onto the outputs, no field on across a change:
        each changing rank's field off (its reader addressed over the old
        switches), the new switches latched with the first reader to get
        its field back already addressed, the fields on (_plan, _adopt;
        rp2nfc does the same in one call)."""
        m = _plan(self.image, self.staged, self.fields, self.readers)
        t = self._txs
        t[0] = _TXC_W
        t[1] = _TX_OFF
        r = 0
        off = m & 0xFF
        while off:
            if off & 1:
                self.xfer(r, t)
            off >>= 1
            r += 1
        on = m >> 8
        _adopt(self.image, self.staged, self.readers, on)
        self._load()
        t[1] = _TX_ON
        r = 0
        while on:
            if on & 1:
                self.xfer(r, t)
            on >>= 1
            r += 1

    def _tx_control(self, reader, value):
        b = self._txc
        b[0] = _TXC_W
        b[1] = value
        self.xfer(reader, b)

    def coil(self, rank, f):
        """Stage rank's switch: coil f (0-7) connected, or OFF. Takes effect
        at the next flush()."""
        _coil(self.staged, self.coils, rank, f)

    def field(self, reader, on):
        """The field reader's driver wants: off at once; on at once if its
        rank's coil is connected, else as soon as flush() connects one."""
        self.fields[reader] = 1 if on else 0
        if not on or self.image[_CTRL - 1 - reader] & _ENABLE:
            self._tx_control(reader, _TX_ON if on else _TX_OFF)

    def select(self, reader):
        """Address `reader` on the decoder (and latch whatever was staged)."""
        if self.staged[_PEND]:
            self._switch()
        img = self.image
        v = img[_CTRL] & ~_ADDR | reader
        if v != img[_CTRL]:
            img[_CTRL] = v
            img[_DIRTY] = 1
        if img[_DIRTY]:
            self._load()

    def reset(self, hold_ms=1, start_ms=2):
        """Hard reset of every reader: NRSTPD low for hold_ms (MFRC522
        datasheet 8.8.1: over 100 ns), then high, then start_ms for the
        oscillators to start (8.8.2). Their registers are at reset values
        then: every field off until a driver asks again."""
        for r in range(self.readers):
            self.fields[r] = 0
        self.image[_CTRL] &= ~_RUN
        self._load()
        sleep_ms(hold_ms)
        self.image[_CTRL] |= _RUN
        self._load()
        sleep_ms(start_ms)

    # -- register transactions -----------------------------------------------
    def xfer(self, reader, out, into=None):
        """One transaction with `reader`: out on MOSI, MISO into `into`
        (None: dropped)."""
        img = self.image
        if img[_CTRL] & _ADDR != reader or img[_DIRTY] or self.staged[_PEND]:
            self.select(reader)
            if img[_DIRTY]:       # faulted: no reader spoken to, none answers
                if into is not None:
                    for i in range(len(into)):
                        into[i] = 0
                return
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
