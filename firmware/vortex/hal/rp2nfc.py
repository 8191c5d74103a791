"""The NFC front end's fast path on the RP2040: the register transactions
of vortex.hal.frontend and the reads of vortex.hal.mfrc522, each in one
viper function straight on the SPI and SIO registers (machine.SPI sets the
bus up first): the same bytes on the wires as FrontEnd's spi and pin calls,
in a fraction of their time.

    front = Rp2FrontEnd(spi, strobe, latch, pins.NFC_READERS, pins.NFC_SPI,
                        pins.NFC_STROBE, pins.NFC_LATCH)
    readers = Readers(front)      # mfrc522 sees front.cfg and reads through serve()

Only MicroPython on the RP2040 imports this module (vortex/hal/mp.py's build()):
elsewhere, and on CircuitPython (no viper, no registers), FrontEnd and the
readers' own step() do the same in plain Python.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from array import array

from .frontend import FrontEnd, _plan, _adopt
from .mfrc522 import _advance
from ..native import micropython, ptr8, ptr32

# frontend's chain image and mfrc522's state and I/O buffers, as the viper
# code below reads them (tests/test_hal_nfc_front.py checks they agree).
_F_ADDR = const(0x07)    # frontend._ADDR: image[_F_CTRL]'s decoder address bits
_F_CTRL = const(8)       # frontend._CTRL: the controller's byte, the last shifted
_F_BYTES = const(9)      # frontend.CHAIN_BYTES
_F_DIRTY = const(9)      # frontend._DIRTY: image[9], the image waits for a latch
_F_FAULT = const(10)     # frontend._FAULT: image[10], the chain reads back wrong
_F_TRIES = const(3)      # frontend._TRIES: loads of a chain reading back wrong before the fault
_MAX_SEG = const(24)     # frontend._MAX_SEG: the longest transaction in a script
_F_TXC_W = const(0x28)   # frontend._TXC_W: TxControlReg's write address
_F_TX_OFF = const(0x80)  # frontend._TX_OFF: its value with both drivers off
_F_TX_ON = const(0x83)   # frontend._TX_ON: both on
# mfrc522's (its names): the poll's answer, the I/O buffer, the state buffer.
_ANTENNA = const(0x83)
_MAXF = const(19)
_IO_POLL = const(0)
_IO_GOT = const(6)
_IO_RD = const(12)
_IO_RX = const(32)
_IO_SC = const(52)
_PH = const(0)
_STATUS = const(1)
_RESTART = const(3)
_DIRTY = const(4)
_SLOT = const(7)
_PAGE = const(8)
_AIR = const(14)
_POLLS = const(226)
_ADDR = const(229)
_P_DONE = const(0)
_P_START = const(8)
_ERR = const(2)
_WAIT = const(0xFD)
_GONE = const(0xFE)
_CONT = const(0xFF)

# The latch pulse: RCLK held high for this many reads of the PL022's status
# register (an APB read, several 125 MHz cycles each): about 100 ns, where
# the 74HC595 asks 20-25 ns at 3.3 V (TI SCLS041, tw) and the pulse crosses
# a buffer and a ribbon. Two SIO writes in a row would make it 16 ns.
_LATCH_READS = const(4)
_SIO = const(0xD0000000)   # RP2040 SIO: GPIO_OUT_SET at +0x14, GPIO_OUT_CLR at +0x18
_SPI0 = const(0x4003C000)  # RP2040 SPI0 (PL022: SSPDR at +0x08, SSPSR at +0x0C); SPI1 +0x4000


# The viper functions below each begin by addressing the reader: the chain
# rewritten and latched if the decoder's address is another or something is
# waiting (image[9]). Then their transactions: strobe low (GPIO_OUT_CLR),
# bytes through the PL022's FIFOs (SSPSR.TNF: room to send; RNE: a byte
# in; never more than 8 ahead, so the RX FIFO never overfills), strobe high
# (GPIO_OUT_SET) once the last byte is in. cfg: the SPI's base address, the
# strobe's and the latch's GPIO masks.


@micropython.viper
def _load(config, chain, start: int) -> int:
    """FrontEnd._load: the image shifted (SSPSR.TNF: room to send; RNE: a
    byte in) and latched; with the chain's return (cfg[3]) shifted again,
    what comes back compared with it, and on a difference every field off
    (the image with NRSTPD low latched, then zeros: every switch open too)
    and the load tried again, _F_TRIES times in all (once while faulted).
    start: 2 when the image was just latched and read back wrong (serve()'s
    own load): its fields off first, that the first try. 1 if the chain
    holds the image (image[_F_DIRTY], [_F_FAULT] cleared), else 0 (both set)."""
    cfg = ptr32(config)
    image = ptr8(chain)
    spi = ptr32(cfg[0])
    sio = ptr32(_SIO)
    tries = 1 if image[_F_FAULT] else _F_TRIES
    p = start
    while tries:
        bad = 1 if p else 0
        # 0: the image; 1: it again, read back; 2: it with NRSTPD low; 3: zeros
        while p < 4:
            i = 0
            j = 0
            while j < _F_BYTES:
                if i < _F_BYTES and i - j < 8 and spi[3] & 2:
                    v = image[i]
                    if p == 3:
                        v = 0
                    elif p == 2 and i == _F_CTRL:
                        v &= 0xF7            # NRSTPD (bit 3) low: the readers reset
                    spi[2] = v
                    i += 1
                if spi[3] & 4:
                    x = spi[2]
                    if p == 1:
                        bad |= x ^ image[j]
                    j += 1
            if p != 1:
                sio[5] = cfg[2]              # RCLK up: the outputs change
                k = 0
                while k < _LATCH_READS:      # RCLK held high (see _LATCH_READS)
                    x = spi[3]  # noqa: F841
                    k += 1
                sio[6] = cfg[2]
            if p == 0 and not cfg[3]:
                p = 4
            elif p == 1 and not bad:
                p = 4
            else:
                p += 1
        if not bad:
            image[_F_DIRTY] = 0
            image[_F_FAULT] = 0
            return 1
        tries -= 1
        p = 0
    image[_F_FAULT] = 1
    return 0


@micropython.viper
def _xfer(config, chain, reader: int, out, into, n: int):
    """One transaction with reader: n bytes out, n in."""
    cfg = ptr32(config)
    image = ptr8(chain)
    spi = ptr32(cfg[0])
    sio = ptr32(_SIO)
    d = ptr8(into)
    if (image[_F_CTRL] & 7) != reader or image[_F_DIRTY]:
        image[_F_CTRL] = (image[_F_CTRL] & 0xF8) | reader
        image[_F_DIRTY] = 1
        if not int(_load(config, chain, 0)):    # faulted: no reader spoken to, none answers
            i = 0
            while i < n:
                d[i] = 0
                i += 1
            return
    o = ptr8(out)
    strobe = cfg[1]
    sio[6] = strobe
    i = 0
    j = 0
    while j < n:
        if i < n and i - j < 8 and spi[3] & 2:
            spi[2] = o[i]
            i += 1
        if spi[3] & 4:
            d[j] = spi[2]
            j += 1
    sio[5] = strobe


@micropython.viper
def _run(config, chain, reader: int, script):
    """FrontEnd.run's script with reader, a transaction a segment (what comes
    back dropped)."""
    cfg = ptr32(config)
    image = ptr8(chain)
    spi = ptr32(cfg[0])
    sio = ptr32(_SIO)
    if (image[_F_CTRL] & 7) != reader or image[_F_DIRTY]:
        image[_F_CTRL] = (image[_F_CTRL] & 0xF8) | reader
        image[_F_DIRTY] = 1
        if not int(_load(config, chain, 0)):    # faulted: the script dropped
            return
    strobe = cfg[1]
    p = ptr8(script)
    i = 0
    k = p[0]
    while k:
        if not k & 0x80:
            sio[6] = strobe
            o = i + 1
            end = o + k
            got = 0
            while got < k:
                if o < end and (o - i - 1) - got < 8 and spi[3] & 2:
                    spi[2] = p[o]
                    o += 1
                if spi[3] & 4:
                    x = spi[2]  # noqa: F841
                    got += 1
            sio[5] = strobe
        i += 1 + (k & 0x7F)
        k = p[i]


@micropython.viper
def _switch(config, chain, staged, fields, n: int, txc, sink):
    """FrontEnd._switch in one call (the same transactions): each changing
    rank's field off over the old switches, the new ones latched with the
    first reader to get its field back addressed, the fields on. txc: 2
    bytes for TxControlReg's writes; sink: what comes back."""
    m = int(_plan(chain, staged, fields, n))
    t = ptr8(txc)
    t[0] = _F_TXC_W
    t[1] = _F_TX_OFF
    b = m & 0xFF
    r = 0
    while b:
        if b & 1:
            _xfer(config, chain, r, txc, sink, 2)
        b >>= 1
        r += 1
    b = m >> 8
    _adopt(chain, staged, n, b)
    img = ptr8(chain)
    if not b:                                # no field back: the latch alone
        _xfer(config, chain, img[_F_CTRL] & _F_ADDR, txc, sink, 0)
        return
    t[1] = _F_TX_ON
    r = 0
    while b:
        if b & 1:
            _xfer(config, chain, r, txc, sink, 2)   # the first: latches the new switches too
        b >>= 1
        r += 1


class Rp2FrontEnd(FrontEnd):
    """Rp2FrontEnd(spi, strobe, latch, readers, spi_id, strobe_gpio, latch_gpio):
    FrontEnd on the RP2040's registers. spi: the machine.SPI(spi_id) that set
    up the bus (pins, rate, mode 0); strobe, latch: their machine.Pins
    (outputs) and GPIO numbers."""

    def __init__(self, spi, strobe, latch, readers, spi_id, strobe_gpio, latch_gpio, check=True):
        # The SPI's registers, the strobe's and the latch's GPIO masks, and
        # whether the chain is read back: what the viper functions here use.
        self.cfg = array("I", (_SPI0 + 0x4000 * spi_id, 1 << strobe_gpio, 1 << latch_gpio,
                               1 if check else 0))
        self._sink = bytearray(_MAX_SEG)      # what comes back while writing
        FrontEnd.__init__(self, spi, strobe, latch, readers, check)

    def _load(self):
        self.image[_F_DIRTY] = 1
        _xfer(self.cfg, self.image, self.image[_F_CTRL] & _F_ADDR, self._sink, self._sink, 0)

    def _switch(self):
        _switch(self.cfg, self.image, self.staged, self.fields, self.readers, self._txs,
                self._sink)

    def xfer(self, reader, out, into=None):
        _xfer(self.cfg, self.image, reader, out, self._sink if into is None else into, len(out))

    def run(self, reader, script):
        _run(self.cfg, self.image, reader, script)


@micropython.viper
def serve(cfg, image, states, buffers, dests, wake, mask: int, status, starts) -> int:
    """The RP2040's fast path (Rp2FrontEnd's cfg and image): for each reader
    i in mask (bit i) of states (their state buffers) with a read under way,
    in one call: its address on the decoder (the 595 chain rewritten and
    latched if need be); the poll and the reply, unless the read is only
    starting; _advance(); the script it made. A transaction each: strobe
    low, the bytes through the PL022's FIFOs (never more than 8 ahead),
    strobe high. wake[i]: when its frames can be through, on the RP2040's
    microsecond timer as ticks_us counts it. Returns the mask of those whose
    read has ended, their statuses in status[i]. starts[i] (not 255): reader
    i's read of that slot begins now (page 4), as begin() would."""
    c = ptr32(cfg)
    img = ptr8(image)
    io = ptr8(buffers)
    w = ptr32(wake)
    out = ptr8(status)
    go = ptr8(starts)
    spi = ptr32(c[0])
    sio = ptr32(0xD0000000)                  # SIO: GPIO_OUT_SET +0x14, GPIO_OUT_CLR +0x18
    timer = ptr32(0x40054000)                # TIMERAWL at +0x28
    strobe = c[1]
    n = int(len(states))
    done = 0
    # The readers in turn from one picked by the timer's bits: those served
    # last in a call wait for the others' transactions (about 0.1 ms each),
    # and always the same ones made their ranks' sweeps the longest.
    r = (timer[10] >> 3) & 7
    while r >= n:
        r -= n
    seen = 0
    while seen < n:
        seen += 1
        if seen > 1:
            r += 1
            if r == n:
                r = 0
        if not mask & (1 << r):
            continue
        state = states[r]
        st = ptr8(state)
        if go[r] != 255:
            st[_SLOT] = go[r]
            st[_PAGE] = 4
            st[_PH] = _P_START
            go[r] = 255
        if st[_PH] == _P_DONE:
            out[r] = st[_STATUS]
            done |= 1 << r
            continue
        a = st[_ADDR]
        if (img[_F_CTRL] & 7) != a or img[_F_DIRTY]:
            img[_F_CTRL] = (img[_F_CTRL] & 0xF8) | a
            img[_F_DIRTY] = 1
            # _load, inline (a call each reader's step costs the loop's reed
            # scans): the image shifted and latched, then, with the chain's
            # return, shifted again and compared with what comes back; a
            # difference, or a fault already, goes on in _load.
            bad = 0
            if img[_F_FAULT]:
                bad = 2                      # _load from the start: one try
            else:
                i = 0
                j = 0
                while j < _F_BYTES:
                    if i < _F_BYTES and spi[3] & 2:     # SSPSR.TNF: room to send
                        spi[2] = img[i]      # SSPDR
                        i += 1
                    if spi[3] & 4:           # SSPSR.RNE: a byte in
                        x = spi[2]  # noqa: F841
                        j += 1
                sio[5] = c[2]                # the latch: the chain's outputs change
                k = 0
                while k < _LATCH_READS:       # RCLK held high (see _LATCH_READS)
                    x = spi[3]  # noqa: F841
                    k += 1
                sio[6] = c[2]
                if c[3]:
                    i = 0
                    j = 0
                    while j < _F_BYTES:
                        if i < _F_BYTES and i - j < 8 and spi[3] & 2:
                            spi[2] = img[i]
                            i += 1
                        if spi[3] & 4:
                            if spi[2] != img[j]:
                                bad = 1
                            j += 1
            if bad:
                # Read back wrong (every field off, then tried again), or faulted.
                if not int(_load(cfg, image, 2 if bad == 1 else 0)):
                    st[_PH] = _P_DONE        # faulted: the read ends, its chip not spoken to
                    out[r] = _GONE
                    done |= 1 << r
                    continue
            else:
                img[_F_DIRTY] = 0
        if st[_PH] != _P_START:
            sio[6] = strobe
            i = 0
            j = 0
            while j < 6:
                if i < 6 and spi[3] & 2:
                    spi[2] = io[_IO_POLL + i]
                    i += 1
                if spi[3] & 4:
                    io[_IO_GOT + j] = spi[2]
                    j += 1
            sio[5] = strobe
            k = io[_IO_GOT + 3] & 0x7F
            if io[_IO_GOT + 1] & 0x30 and not io[_IO_GOT + 2] & 0x1F and 0 < k < _MAXF \
                    and io[_IO_GOT + 5] == _ANTENNA:
                k += 1
                sio[6] = strobe
                i = 0
                j = 0
                while j < k:
                    if i < k and i - j < 8 and spi[3] & 2:
                        spi[2] = io[_IO_RD + _MAXF + 1 - k + i]
                        i += 1
                    if spi[3] & 4:
                        io[_IO_RX + j] = spi[2]
                        j += 1
                sio[5] = strobe
        res = int(_advance(state, buffers, dests[r]))
        if res == _CONT:
            p = _IO_SC
            k = io[p]
            while k:
                if not k & 0x80:
                    sio[6] = strobe
                    o = p + 1
                    end = o + k
                    got = 0
                    while got < k:
                        if o < end and (o - p - 1) - got < 8 and spi[3] & 2:
                            spi[2] = io[o]
                            o += 1
                        if spi[3] & 4:
                            x = spi[2]  # noqa: F841
                            got += 1
                    sio[5] = strobe
                p += 1 + (k & 0x7F)
                k = io[p]
            st[_POLLS] = 200
            w[r] = (timer[10] + (st[_AIR] << 8 | st[_AIR + 1])) & 0x3FFFFFFF
        elif res == _WAIT:
            st[_POLLS] = st[_POLLS] - 1
            if st[_POLLS]:
                w[r] = (timer[10] + 50) & 0x3FFFFFFF
            else:                            # hung: start afresh
                st[_RESTART] = 1
                st[_DIRTY] = 1
                st[_PH] = _P_DONE
                st[_STATUS] = _ERR
                out[r] = _ERR
                done |= 1 << r
        else:
            out[r] = _GONE if res == _GONE else st[_STATUS]
            done |= 1 << r
    return done
