"""The MFRC522 driver for NTAG21x tiles (ISO/IEC 14443-3 type A, 106 kbit/s),
one reader of the front end (vortex.hal.frontend) per instance.

    rdr = MFRC522(front, 3)            # reader 3: rank 3's coils
    rdr.begin(buf, slot)               # start a tile read (non-blocking)...
    while rdr.step() == BUSY:          # ...come back later: BUSY until done,
        other_work()                   # then OK (buf: pages 4-7), NOTAG, ERR, NOREADER
    rdr.read_tile(buf)                 # the same, blocking (tools, probes)

A read: WUPA, anticollision and SELECT at cascade levels 1 and 2, READ of
pages 4-7 (16 bytes). Each exchange is started and left to the chip: the
caller comes back, and step() looks at the chip only once the frames can
have gone through the air (.due: their length at 106 kbit/s, below), then
reads the interrupt, error, FIFO level, control and TxControl registers in
one SPI transaction (the datasheet's multi-address read, 8.1.2.1) and the
reply from the FIFO in another, and starts the next exchange with one
script of write transactions (FrontEnd.run). So one CPU keeps eight readers
busy. What to send next is decided by _advance(), the protocol, a pure
function of the state buffer and the bytes that came back: machine code
(viper) on MicroPython, the same source run as Python elsewhere.

The chip's CRC coprocessor appends and checks CRC_A on the air: TxModeReg
and RxModeReg's CRC enables on for SELECT, READ and HLTA, off for the
request and anticollision frames, written only when they change. The
chip's timer (TAuto) bounds each wait for a tag's reply; a chip that does
not answer at all (it reads 0x00 or 0xFF) is NOREADER, and .present stays
False until it answers again (begin() then costs one register read). A
chip found reset (TxControlReg not as set up) is set up again.

The cache (slot 0-7: the coil the read is for, -1 none): a tag's 16 bytes
are kept with its UID. When the anticollision at the same slot gives the
same UID again, the READ is skipped: the UID is the tag's own, programmed
at the factory, so the bytes are the ones read before. Anticollision is
still done in full, so two tags in the field still read as an error, and
every CACHE_HITS-th read of a slot is a full one all the same.

A tag left selected (READY or ACTIVE) by a read answers no WUPA: the next
read of the same slot first sends HLTA (begin() knows from the slot); a
read of another coil needs none, that coil's switch cut the tag's power.

Statuses (vortex.tag): OK, NOTAG (nothing answered the wake-up), ERR
(something answered, then failed: timeout, CRC, BCC, collision, NAK),
NOREADER, and BUSY from step(). The last UID is .uid[:.uid_len]. Every
buffer is made in __init__: reads allocate nothing.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

import time
from array import array

from ..tag import OK, NOTAG, ERR, NOREADER, BUSY, FIRST_PAGE, SIZE  # noqa: F401 (re-exported)
from ..ticks import ticks_diff
from ..native import micropython, ptr8

_ticks_us = getattr(time, "ticks_us", None)   # CPython: no clock, no waiting

# Registers (datasheet 9.2).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_MODE = const(0x11)
_TX_MODE = const(0x12)
_RX_MODE = const(0x13)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CW_GSP_REG = const(0x28)
_MOD_GSP_REG = const(0x29)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Chip commands (datasheet 10.3).
_TRANSMIT = const(0x04)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# Tag commands (ISO/IEC 14443-3, NTAG213/215/216 datasheet 10).
_REQA = const(0x26)
_WUPA = const(0x52)
_SEL_CL1 = const(0x93)
_SEL_CL2 = const(0x95)
_CT = const(0x88)        # cascade tag: the UID goes on at the next level
_READ = const(0x30)
_WRITE = const(0xA2)
_HLTA = const(0x50)

_TXCRC = const(1)        # CRC enables: TxModeReg / RxModeReg TxCRCEn / RxCRCEn
_RXCRC = const(2)
_ANTENNA = const(0x83)   # TxControlReg with both drivers on (reset value 0x80)
# The drivers' strength (data sheet 9.3.3.6, 9.3.3.7): CWGsPReg bits 0-5 the
# conductance of the TX p-drivers while the carrier is unmodulated (0-63,
# reset 0x20), ModGsPReg the same during modulation (reset 0x20; with
# TxASKReg's Force100ASK the drivers are off in a pause, so it matters only
# below 100 % ASK). hardware/generated/figures.md computes the field for the
# drivers at full strength: _CW_GSP is their maximum; the prototype plan
# lowers it if a coil's field at the tag exceeds ISO/IEC 14443-2's 7.5 A/m.
_CW_GSP = const(0x3F)
_MOD_GSP = const(0x20)
_MAXF = const(19)        # longest FIFO transfer: 18 (a READ reply and CRC) + 1
_TICK_US = const(25)     # timer tick with prescaler 0xA9: 13.56 MHz / 339
CACHE_HITS = const(15)   # reads from the cache between two full reads of a slot (at least 14)
_SLOTS = const(8)         # cache slots: one per coil of a rank

# Air time of each exchange at 106 kbit/s (ISO/IEC 14443-2: a bit is 128 /
# fc = 9.44 us): the PCD's frame (a start bit, 9 bits a byte: 8 and odd
# parity, an end of 2 bits; a short frame: 7 bits), the frame delay time
# (14443-3 6.2.1.1: (9 * 128 + 84) / fc = 91 us), the tag's frame (a start
# bit, 9 bits a byte, an end of 1), in us: when step() first looks.
_AIR_WUPA = const(376)    # 10 bits out, ATQA: 2 bytes back
_AIR_AC = const(733)      # SEL NVB: 21 bits out, 5 bytes (47 bits) back
_AIR_SEL = const(1158)    # 7 bytes and CRC_A: 84 bits out, SAK and CRC_A: 29 back
_AIR_READ = const(2007)   # READ and CRC_A: 39 bits out, 18 bytes: 164 back
_AIR_HLTA = const(368)    # HLTA and CRC_A: 39 bits out, nothing back
_AIR_WRITE = const(4865)  # WRITE: 75 bits out, the EEPROM's 4.1 ms, a 4-bit ACK

# The script that starts an exchange (FrontEnd.run): one write transaction
# a segment, each 3 bytes long (length, register, value) but the FIFO's;
# a length with bit 7 set skips the segment.
_S_TXMODE = const(0)     # TxModeReg: CRC on or off
_S_RXMODE = const(3)     # RxModeReg: CRC on or off
_S_FLUSH = const(6)      # FIFOLevelReg: flush
_S_CMD = const(9)        # CommandReg: Transceive (re)started
_S_IRQ = const(12)       # ComIrqReg: every flag cleared
_S_FIFO = const(15)      # FIFODataReg: the frame (its length, then 0x12, then the bytes)
_TX = const(16)          # the frame's byte i is script[_TX + i], i from 1
_SKIP = const(0x82)

# The transfer buffers, one bytearray shared by the readers (_Buffers.io):
_IO_POLL = const(0)      # 6: the poll's addresses: ComIrq, Error, FIFOLevel, Control, TxControl, 0
_IO_GOT = const(6)       # 6: what it read (at 1-5)
_IO_RD = const(12)       # 20: FIFODataReg's read address 19 times, then 0
_IO_RX = const(32)       # 20: the reply read from the FIFO (at 1..n)
_IO_SC = const(52)       # the script (_S_*, _TX)
_IO = const(_IO_SC + _TX + 1 + _MAXF + 4)

# The state buffer of a reader (.state): the read under way, the chip as the
# driver left it, the cache.
_PH = const(0)           # phase (below)
_STATUS = const(1)       # the status of a finished read
_CRC = const(2)          # CRC enables written
_RESTART = const(3)      # 1: Transceive to be (re)started before StartSend
_DIRTY = const(4)        # 1: the FIFO may hold bytes nobody read
_LIVE = const(5)         # 1: a tag may be left selected...
_LSLOT = const(6)        # ...under this slot (255: unknown)
_SLOT = const(7)         # the read's slot (255: none)
_PAGE = const(8)         # the read's first page
_ULEN = const(9)         # UID bytes found
_RXBITS = const(10)      # valid bits of the reply's last byte (0: all)
_SAK = const(11)
_ATQA = const(12)        # 2 bytes
_AIR = const(14)         # 2 bytes: us before the exchange started can be through
_UID = const(16)         # 10 bytes
_CN = const(26)          # per slot: the cached UID's length (0: nothing cached)
_CA = const(34)          # per slot: hits left before a full read
_CU = const(42)          # per slot: the cached UID, 7 bytes
_CD = const(98)          # per slot: the cached 16 bytes
_POLLS = const(226)      # looks left before an exchange that never ends is an error
_HITS = const(227)       # 2 bytes: reads answered from the cache
_ADDR = const(229)       # the reader's decoder address
_RAWN = const(230)       # _P_RAW: the frame's length,
_RAWB = const(231)       # the bits of its last byte,
_RAWC = const(232)       # its CRC enables,
_RAWT = const(233)       # 1: sent with Transmit
_STATE = const(234)

# Phases of a read.
_P_DONE = const(0)
_P_HALT = const(1)
_P_WUPA = const(2)
_P_AC1 = const(3)
_P_SEL1 = const(4)
_P_AC2 = const(5)
_P_SEL2 = const(6)
_P_READ = const(7)
_P_START = const(8)
_P_RAW = const(9)        # a blocking helper's frame (_exchange)

# A read's statuses as vortex.tag has them, for the viper code (which needs
# its constants here); what _advance() says besides.
_OK = const(0)
_NOTAG = const(1)
_ERR = const(2)
_HIT = const(0x10)       # OK, from the cache
_WAIT = const(0xFD)      # the exchange is not through yet
_GONE = const(0xFE)      # the chip is not as set up: gone, or reset
_CONT = const(0xFF)      # the next exchange is in the script


@micropython.viper
def _advance(state, buffers, dest) -> int:
    """The protocol: from the phase in state and, after an exchange, the
    poll's registers (ComIrq, Error, FIFOLevel, Control, TxControl) and the
    reply in the buffers (_IO_*), the next exchange's script there (_CONT),
    or the read's end: OK, _HIT (OK from the cache), NOTAG or ERR; _WAIT if
    the exchange is not through, _GONE if the chip is not as set up. In
    phase _P_RAW, only the script of the frame the caller put at _TX + 1
    (state: _RAW* its length, bits, CRC enables, Transmit or not).

    The script: the CRC enables if they change, Transceive (re)started if
    need be (a command written ends the one running: a receive that timed
    out, a finished Transmit), the FIFO flushed first then, interrupts
    cleared, the FIFO filled, StartSend; or, for a Transmit, the command
    last (it sends at once and ends by itself)."""
    st = ptr8(state)
    io = ptr8(buffers)
    buf = ptr8(dest)
    ph = st[_PH]
    slot = st[_SLOT]
    sc = _IO_SC
    fn = 0                                   # the next frame: its length...
    fbits = 0                                # ...bits of its last byte (0: 8)
    fcrc = 0                                 # ...CRC enables
    ftx = 0                                  # ...1: the Transmit command
    air = 0                                  # ...and its time on the air (us)
    if ph == _P_RAW:
        fn = st[_RAWN]
        fbits = st[_RAWB]
        fcrc = st[_RAWC]
        ftx = st[_RAWT]
        air = st[_AIR] << 8 | st[_AIR + 1]
    elif ph == _P_START:
        live = st[_LIVE]
        st[_LIVE] = 0
        if live and (slot == 255 or slot == st[_LSLOT] or st[_LSLOT] == 255):
            st[_PH] = _P_HALT
            io[sc + _TX + 1] = _HLTA
            io[sc + _TX + 2] = 0
            fn = 2
            fcrc = st[_CRC] | _TXCRC
            ftx = 1
            air = _AIR_HLTA
    else:
        if io[_IO_GOT + 5] != _ANTENNA:
            return _GONE
        irq = io[_IO_GOT + 1]
        n = io[_IO_GOT + 3] & 0x7F
        if irq & 0x30:                       # RxIRq, or IdleIRq (Transmit done)
            if io[_IO_GOT + 2] & 0x1F or n > _MAXF - 1:   # overflow, collision, CRC, parity, protocol
                st[_DIRTY] = 1
                st[_RESTART] = 1
                res = _ERR
            else:
                res = _OK
                st[_RXBITS] = io[_IO_GOT + 4] & 0x07
        elif irq & 0x01:                     # TimerIRq: nobody answered
            st[_RESTART] = 1
            res = _NOTAG
        else:
            return _WAIT
        rx = _IO_RX
        if ph == _P_WUPA:
            if res == _NOTAG:
                st[_PH] = _P_DONE
                st[_STATUS] = _NOTAG
                return _NOTAG
            st[_LIVE] = 1                    # something answered: READY from here on
            st[_LSLOT] = slot
            if res != _OK or n != 2 or st[_RXBITS]:
                st[_PH] = _P_DONE
                st[_STATUS] = _ERR
                return _ERR
            st[_ATQA] = io[rx + 1]
            st[_ATQA + 1] = io[rx + 2]
            st[_PH] = _P_AC1
            io[sc + _TX + 1] = _SEL_CL1
            io[sc + _TX + 2] = 0x20          # NVB: no UID bits known
            fn = 2
            air = _AIR_AC
        else:
            ok = 1 if res == _OK else 0
            if ok and (ph == _P_AC1 or ph == _P_AC2):
                ok = 1 if n == 5 and (io[rx + 1] ^ io[rx + 2] ^ io[rx + 3] ^ io[rx + 4]) == io[rx + 5] else 0
                if ok:                       # the BCC checks
                    k = st[_ULEN]
                    first = 2 if ph == _P_AC1 and io[rx + 1] == _CT else 1   # the cascade tag: not the UID's
                    for i in range(first, 5):
                        st[_UID + k] = io[rx + i]
                        k += 1
                    st[_ULEN] = k
                    if first == 1 and slot != 255 and st[_PAGE] == 4 and st[_CN + slot] == k \
                            and st[_CA + slot]:
                        same = True
                        for i in range(k):
                            if st[_CU + 7 * slot + i] != st[_UID + i]:
                                same = False
                        if same:             # the same tag: its bytes are known
                            st[_CA + slot] -= 1
                            for i in range(16):
                                buf[i] = st[_CD + 16 * slot + i]
                            h = (st[_HITS] | st[_HITS + 1] << 8) + 1
                            st[_HITS] = h & 0xFF
                            st[_HITS + 1] = (h >> 8) & 0xFF
                            st[_PH] = _P_DONE
                            st[_STATUS] = _OK
                            return _HIT
                    # SELECT this level: its 5 bytes, after SEL and NVB = all 40 bits.
                    st[_PH] = _P_SEL1 if ph == _P_AC1 else _P_SEL2
                    io[sc + _TX + 1] = _SEL_CL1 if ph == _P_AC1 else _SEL_CL2
                    io[sc + _TX + 2] = 0x70
                    for i in range(5):
                        io[sc + _TX + 3 + i] = io[rx + 1 + i]
                    fn = 7
                    fcrc = _TXCRC | _RXCRC
                    air = _AIR_SEL
            elif ok and (ph == _P_SEL1 or ph == _P_SEL2):
                # One byte, and not a triple size UID's cascade at level 2: not an NTAG.
                ok = 1 if n == 1 and not (ph == _P_SEL2 and io[rx + 1] & 0x04) else 0
                if ok:
                    st[_SAK] = io[rx + 1]
                    if io[rx + 1] & 0x04:    # UID not complete: cascade level 2
                        st[_PH] = _P_AC2
                        io[sc + _TX + 1] = _SEL_CL2
                        io[sc + _TX + 2] = 0x20
                        fn = 2
                        air = _AIR_AC
                    else:
                        st[_PH] = _P_READ
                        io[sc + _TX + 1] = _READ
                        io[sc + _TX + 2] = st[_PAGE]
                        fn = 2
                        fcrc = _TXCRC | _RXCRC
                        air = _AIR_READ
            elif ok and ph == _P_READ:
                ok = 1 if n == 16 else 0     # not the 4-bit NAK
                if ok:
                    for i in range(16):
                        buf[i] = io[rx + 1 + i]
                    if slot != 255 and st[_PAGE] == 4:
                        k = st[_ULEN]
                        # Cached afresh: the slots' full reads staggered, not
                        # all in one sweep of the rank.
                        st[_CA + slot] = CACHE_HITS if st[_CN + slot] else CACHE_HITS - 2 * slot
                        st[_CN + slot] = k
                        for i in range(k):
                            st[_CU + 7 * slot + i] = st[_UID + i]
                        for i in range(16):
                            st[_CD + 16 * slot + i] = buf[i]
                    st[_PH] = _P_DONE
                    st[_STATUS] = _OK
                    return _OK
            if not fn and ph != _P_HALT:
                if slot != 255:
                    st[_CN + slot] = 0       # read it in full next time
                st[_PH] = _P_DONE
                st[_STATUS] = _ERR
                return _ERR
    if not fn:
        # The HLTA frame is out (the tag sleeps until a WUPA), or none was
        # needed: the wake-up, a short frame of 7 bits; ATQA back.
        st[_PH] = _P_WUPA
        st[_ULEN] = 0
        io[sc + _TX + 1] = _WUPA
        fn = 1
        fbits = 7
        air = _AIR_WUPA
    # The script (see above).
    d = fcrc ^ st[_CRC]
    io[sc + _S_TXMODE] = 2 if d & _TXCRC else _SKIP
    io[sc + _S_TXMODE + 2] = 0x80 if fcrc & _TXCRC else 0
    io[sc + _S_RXMODE] = 2 if d & _RXCRC else _SKIP
    io[sc + _S_RXMODE + 2] = 0x80 if fcrc & _RXCRC else 0
    st[_CRC] = fcrc
    restart = st[_RESTART]
    io[sc + _S_FLUSH] = 2 if restart or st[_DIRTY] else _SKIP
    io[sc + _S_CMD] = 2 if restart and not ftx else _SKIP
    st[_RESTART] = ftx
    st[_DIRTY] = 0
    io[sc + _S_FIFO] = fn + 1
    i = sc + _TX + 1 + fn
    io[i] = 2
    if ftx:
        io[i + 1] = _COMMAND << 1
        io[i + 2] = _TRANSMIT
    else:
        io[i + 1] = _BIT_FRAMING << 1
        io[i + 2] = 0x80 | fbits
    io[i + 3] = 0
    st[_AIR] = air >> 8
    st[_AIR + 1] = air & 0xFF
    return _CONT


class _Buffers:
    """The SPI transfer buffers (io, _IO_*), one set for all the readers
    (each is filled and emptied within one call, and calls never
    interleave), and views of them for the plain-Python path's transfers."""
    one = None  # type: _Buffers | None

    def __init__(self):
        self.reg = bytearray(2)      # one register, out
        self.regin = bytearray(2)    # one register, in
        io = bytearray(_IO)
        for i, reg in enumerate((_COM_IRQ, _ERROR, _FIFO_LEVEL, _CONTROL, _TX_CONTROL)):
            io[_IO_POLL + i] = 0x80 | reg << 1
        for i in range(_MAXF):
            io[_IO_RD + i] = 0x80 | _FIFO_DATA << 1
        for at, reg, val in ((_S_TXMODE, _TX_MODE, 0), (_S_RXMODE, _RX_MODE, 0),
                             (_S_FLUSH, _FIFO_LEVEL, 0x80), (_S_CMD, _COMMAND, _TRANSCEIVE),
                             (_S_IRQ, _COM_IRQ, 0x7F)):
            io[_IO_SC + at] = _SKIP
            io[_IO_SC + at + 1] = reg << 1
            io[_IO_SC + at + 2] = val
        io[_IO_SC + _S_IRQ] = 2
        io[_IO_SC + _TX] = _FIFO_DATA << 1
        self.io = io
        v = memoryview(io)
        self.poll = v[_IO_POLL:_IO_POLL + 6]
        self.got = v[_IO_GOT:_IO_GOT + 6]
        self.script = v[_IO_SC:]
        self.rx = v[_IO_RX:_IO_RX + _MAXF + 1]
        # n bytes from the FIFO: n read addresses and a 0, into rx[0..n].
        self.rxv = tuple(v[_IO_RX:_IO_RX + n + 1] for n in range(_MAXF))
        self.rdv = tuple(v[_IO_RD + _MAXF - n:_IO_RD + _MAXF + 1] for n in range(_MAXF))


class MFRC522:
    """MFRC522(front, n, timeout_us=1000, clock=ticks_us, max_polls=200).

    front: vortex.hal.frontend.FrontEnd (anything with xfer(n, out,
    into=None) and run(n, script); one with .cfg is vortex.hal.rp2nfc's
    Rp2FrontEnd, whose serve() does an exchange in one call); n: the
    reader's decoder address. timeout_us: the chip's timer, how long a tag
    may take to answer; clock: a microsecond tick source for knowing when
    frames are through (None: look at once); max_polls: how often the chip
    may be looked at before a hung exchange counts as an error."""

    def __init__(self, front, n, timeout_us=1000, clock=_ticks_us, max_polls=200):
        self.front = front
        self.n = n
        self.timeout_us = timeout_us
        self.max_polls = max_polls
        self._clock = clock
        bufs = _Buffers.one
        if bufs is None:
            bufs = _Buffers.one = _Buffers()
        self._b = bufs
        self._io = bufs.io
        self.state = bytearray(_STATE)
        self.state[_ADDR] = n
        self._buf = bytearray(SIZE)  # the read's destination (begin()'s buf)
        # Rp2FrontEnd: each exchange's transactions in one call
        # (vortex.hal.rp2nfc.serve, on this reader alone in step()): the
        # function, the front end's cfg and image, and its arguments.
        self._fast = None
        if hasattr(front, "cfg"):
            from .rp2nfc import serve
            self._fast = (serve, front.cfg, front.image, (self.state,), [self._buf],
                          array("i", [0]), bytearray(1), bytearray(b"\xff"))
        self.uid = memoryview(self.state)[_UID:_UID + 10]
        self.due = 0         # clock time when the exchange under way can be through
        self.present = False
        self.init()

    @property
    def uid_len(self):
        return self.state[_ULEN]

    @property
    def sak(self):
        return self.state[_SAK]

    @property
    def atqa(self):
        return self.state[_ATQA] | self.state[_ATQA + 1] << 8

    # -- registers: one SPI transaction each ---------------------------------
    def _w(self, reg, val):
        b = self._b.reg
        b[0] = reg << 1
        b[1] = val
        self.front.xfer(self.n, b)

    def _r(self, reg):
        b = self._b.reg
        b[0] = 0x80 | reg << 1
        b[1] = 0
        into = self._b.regin
        self.front.xfer(self.n, b, into)
        return into[1]

    # -- chip set-up -------------------------------------------------------
    def init(self):
        """Soft reset, the timer, 100 % ASK, the drivers' strength, CRC
        preset, and the field asked for (on once the rank's coil is
        connected: never into an open switch). True (and .present) if the
        chip answers."""
        self._w(_COMMAND, _SOFT_RESET)
        polls = self.max_polls
        while self._r(_COMMAND) & 0x10 and polls:  # PowerDown until it is up
            polls -= 1
        self.present = self._answers()
        st = self.state
        for i in range(_CU):
            st[i] = 0
        st[_RESTART] = 1
        st[_DIRTY] = 1
        st[_STATUS] = NOREADER
        if not self.present:
            return False
        self._w(_T_MODE, 0x80)        # TAuto: the timer starts after each frame sent
        self._w(_T_PRESCALER, 0xA9)   # 25 us ticks
        self.set_timeout(self.timeout_us)
        self._w(_TX_ASK, 0x40)        # force 100 % ASK (ISO 14443-A)
        self._w(_CW_GSP_REG, _CW_GSP)
        self._w(_MOD_GSP_REG, _MOD_GSP)
        self._w(_MODE, 0x3D)          # CRC preset 0x6363, as CRC_A wants
        self._w(_TX_MODE, 0x00)       # 106 kBd, no CRC yet (reset values, said)
        self._w(_RX_MODE, 0x00)
        self.antenna_on()
        return True

    def _answers(self):
        v = self._r(_VERSION)
        return v != 0x00 and v != 0xFF

    def set_timeout(self, us):
        """How long to wait for a reply (the tag's, not the SPI's)."""
        t = us // _TICK_US
        if t < 1:
            t = 1
        self._w(_T_RELOAD_H, t >> 8 & 0xFF)
        self._w(_T_RELOAD_L, t & 0xFF)

    def version(self):
        """VersionReg: 0x91 or 0x92 for NXP parts, other values for clones."""
        return self._r(_VERSION)

    def antenna_on(self):
        """The field on, through the front end: only while the rank's coil
        is connected (FrontEnd.field), or as soon as one is."""
        self.front.field(self.n, True)

    def antenna_off(self):
        self.front.field(self.n, False)
        self.state[_LIVE] = 0         # no field: every tag is reset

    def forget(self):
        """Empty the cache (after writing a tag, say)."""
        for i in range(_SLOTS):
            self.state[_CN + i] = 0

    # -- the exchange's I/O ------------------------------------------------
    @micropython.native
    def _sent(self):
        """An exchange's script has gone: when to look, and how often."""
        st = self.state
        st[_POLLS] = self.max_polls if self.max_polls < 255 else 255
        clock = self._clock
        if clock is not None:
            self.due = clock() + (st[_AIR] << 8 | st[_AIR + 1])

    @micropython.native
    def _look(self):
        """The poll: its registers into got[1:6], the reply (if one waits)
        into rx[1..] (what rp2nfc.serve does in the same call as the rest on the
        RP2040)."""
        f = self.front
        b = self._b
        got = b.got
        f.xfer(self.n, b.poll, got)
        n = got[3] & 0x7F
        if got[1] & 0x30 and not got[2] & 0x1F and 0 < n < _MAXF and got[5] == _ANTENNA:
            f.xfer(self.n, b.rdv[n], b.rxv[n])

    def _gone(self):
        """The chip is not as set up: ERR if it answers (set up again), else NOREADER."""
        self.state[_PH] = _P_DONE
        if self._answers() and self.init():
            self.state[_STATUS] = ERR
            return ERR
        self.present = False
        self.state[_STATUS] = NOREADER
        return NOREADER

    @property
    def hits(self):
        """Reads answered from the cache (modulo 65536)."""
        return self.state[_HITS] | self.state[_HITS + 1] << 8

    @property
    def status(self):
        """The last read's status, BUSY while it goes on."""
        st = self.state
        return BUSY if st[_PH] != _P_DONE else st[_STATUS]

    # -- the non-blocking tile read ------------------------------------------
    @micropython.native
    def begin(self, buf, slot=-1, page=FIRST_PAGE):
        """Read 16 bytes from `page` into buf, for the coil `slot` (0-7: its
        cache; -1: none): step() until it is not BUSY (the first exchange
        goes at the first step)."""
        st = self.state
        self._buf = buf
        if not self.present and not (self._answers() and self.init()):
            st[_PH] = _P_DONE
            st[_STATUS] = NOREADER
            return
        st[_SLOT] = 255 if slot < 0 else slot
        st[_PAGE] = page
        st[_PH] = _P_START

    @micropython.native
    def step(self, now=None):
        """Move the read on if its exchange is through: BUSY, or its status.
        now: the clock's time, if the caller has it (else read here)."""
        st = self.state
        ph = st[_PH]
        if ph == _P_DONE:
            return st[_STATUS]
        clock = self._clock
        if clock is not None and ph != _P_START:
            if now is None:
                now = clock()
            if ticks_diff(now, self.due) < 0:
                return BUSY                  # still on the air: no SPI spent
        f = self._fast
        if f is not None:
            f[4][0] = self._buf
            if not f[0](f[1], f[2], f[3], self._io, f[4], f[5], 1, f[6], f[7]):
                self.due = f[5][0]
                return BUSY
            r = f[6][0]
            if r != _GONE:
                return r
        else:
            if ph != _P_START:
                self._look()
            r = _advance(st, self._io, self._buf)
            if r == _CONT:
                self.front.run(self.n, self._b.script)
                self._sent()
                return BUSY
        if r == _WAIT:
            st[_POLLS] -= 1
            if st[_POLLS]:
                return BUSY
            st[_RESTART] = 1                 # hung: start afresh
            st[_DIRTY] = 1
            st[_PH] = _P_DONE
            st[_STATUS] = ERR
            return ERR
        if r == _GONE:
            return self._gone()
        return st[_STATUS]

    def read_tile(self, buf, page=FIRST_PAGE, slot=-1):
        """Wake, select, read 16 bytes from `page` into buf: OK, NOTAG, ERR
        or NOREADER (blocking)."""
        self.begin(buf, slot, page)
        st = BUSY
        while st == BUSY:
            st = self.step()
        return st

    # -- blocking exchanges: tools (writing tags) and tests -------------------
    def _exchange(self, n, bits, crc, air, transmit=0):
        """Send the frame at _tx[1..n]; OK (the reply: _rx[1..n], .rx_n),
        NOTAG, ERR or NOREADER."""
        st = self.state
        st[_PH] = _P_RAW
        st[_RAWN] = n
        st[_RAWB] = bits
        st[_RAWC] = crc
        st[_RAWT] = transmit
        st[_AIR] = air >> 8
        st[_AIR + 1] = air & 0xFF
        _advance(st, self._io, self._buf)
        st[_PH] = _P_DONE
        self.front.run(self.n, self._b.script)
        self._sent()
        clock = self._clock
        while True:
            while clock is not None and ticks_diff(clock(), self.due) < 0:
                pass
            self._look()
            got = self._b.got
            if got[5] != _ANTENNA:
                return self._gone()
            if got[1] & 0x30:
                self.rx_n = got[3] & 0x7F
                if got[2] & 0x1F or self.rx_n > _MAXF - 1:
                    st[_DIRTY] = 1
                    st[_RESTART] = 1
                    return ERR
                st[_RXBITS] = got[4] & 0x07
                return OK
            if got[1] & 0x01:
                st[_RESTART] = 1
                return NOTAG
            st[_POLLS] -= 1
            if not st[_POLLS]:
                st[_RESTART] = 1
                return ERR

    def _frame_bytes(self, *data):
        sc = self._b.script
        for i in range(len(data)):
            sc[_TX + 1 + i] = data[i]

    def request(self, wake=False):
        """REQA (IDLE tags) or, with wake, WUPA (IDLE and HALT tags)."""
        self._frame_bytes(_WUPA if wake else _REQA)
        r = self._exchange(1, 7, 0, _AIR_WUPA)
        if r == NOTAG or r == NOREADER:
            return r
        st = self.state
        st[_LIVE] = 1
        st[_LSLOT] = 255
        if r != OK or self.rx_n != 2 or st[_RXBITS]:
            return ERR
        st[_ATQA] = self._b.rx[1]
        st[_ATQA + 1] = self._b.rx[2]
        return OK

    def select(self):
        """Anticollision and SELECT at cascade levels 1 and 2 (after a
        request). Fills .uid, .uid_len and .sak; the tag is ACTIVE."""
        st = self.state
        rx = self._b.rx
        st[_ULEN] = 0
        for sel in (_SEL_CL1, _SEL_CL2):
            self._frame_bytes(sel, 0x20)
            if self._exchange(2, 0, 0, _AIR_AC) != OK or self.rx_n != 5:
                return ERR
            if rx[1] ^ rx[2] ^ rx[3] ^ rx[4] != rx[5]:
                return ERR
            first = 2 if sel == _SEL_CL1 and rx[1] == _CT else 1
            for i in range(first, 5):
                st[_UID + st[_ULEN]] = rx[i]
                st[_ULEN] += 1
            self._frame_bytes(sel, 0x70, rx[1], rx[2], rx[3], rx[4], rx[5])
            if self._exchange(7, 0, _TXCRC | _RXCRC, _AIR_SEL) != OK or self.rx_n != 1:
                return ERR
            st[_SAK] = rx[1]
            if not rx[1] & 0x04:
                return OK
        return ERR                           # triple size: not an NTAG

    def halt(self):
        """HLTA: the tag sleeps until a WUPA."""
        self._frame_bytes(_HLTA, 0)
        self.state[_LIVE] = 0
        return self._exchange(2, 0, self.state[_CRC] | _TXCRC, _AIR_HLTA, 1)

    def read(self, page, buf):
        """READ (0x30): pages page..page+3, 16 bytes, into buf[0:16]."""
        self._frame_bytes(_READ, page)
        if self._exchange(2, 0, _TXCRC | _RXCRC, _AIR_READ) != OK or self.rx_n != SIZE:
            return ERR
        for i in range(SIZE):
            buf[i] = self._b.rx[1 + i]
        return OK

    def write(self, page, data):
        """WRITE (0xA2) of data[0:4] to one page; OK once the tag ACKs (a
        4-bit frame without CRC, so the receiver's check is off)."""
        self._frame_bytes(_WRITE, page, data[0], data[1], data[2], data[3])
        self.forget()
        self.set_timeout(10000)              # NTAG21x: the EEPROM takes ~4 ms
        r = self._exchange(6, 0, _TXCRC, _AIR_WRITE)
        self.set_timeout(self.timeout_us)
        if r != OK or self.rx_n != 1 or self.state[_RXBITS] != 4:
            return ERR
        return OK if self._b.rx[1] & 0x0F == 0x0A else ERR


class Readers:
    """Readers(front, n=8, **kw): the front end's readers, MFRC522(front, r,
    **kw) for r in range(n), as the read scheduler (vortex.hal.tiles) uses
    them: readers[r], len(readers), and serve(mask, wake, bufs), which
    moves on every reader in mask at once: one call for all of them on the
    RP2040 (vortex.hal.rp2nfc.serve), their step() in turn elsewhere."""

    def __init__(self, front, n=8, **kw):
        self._all = tuple(MFRC522(front, r, **kw) for r in range(n))
        self._states = tuple(rd.state for rd in self._all)
        self._front = front
        rd = self._all[0]
        self._serve = rd._fast[0] if rd._fast is not None and rd._clock is _ticks_us else None
        self._io = rd._io

    def __getitem__(self, r):
        return self._all[r]

    def __len__(self):
        return len(self._all)

    @micropython.native
    def serve(self, mask, wake, bufs, now, status, starts):
        """Move on the reads of the readers in mask (bit r), bufs[r] their
        destinations; starts[r] (not 255): reader r's read of that slot
        begins (begin()); wake[r]: when to look at reader r next (clock
        ticks; without a clock, now). Returns the mask of those whose read
        has ended, their statuses in status[r]."""
        if self._serve is not None:
            done = self._serve(self._front.cfg, self._front.image, self._states, self._io, bufs,
                          wake, mask, status, starts)
            gone = done
            r = 0
            while gone:
                if gone & 1 and status[r] == _GONE:
                    status[r] = self._all[r]._gone()
                gone >>= 1
                r += 1
            return done
        done = 0
        for r in range(len(self._all)):
            if mask >> r & 1:
                rd = self._all[r]
                if starts[r] != 255:
                    rd.begin(bufs[r], starts[r])
                    starts[r] = 255
                st = rd.step()
                if st == BUSY:
                    wake[r] = now if rd._clock is None else rd.due
                else:
                    status[r] = st
                    done |= 1 << r
        return done
