"""A minimal MFRC522 driver for NTAG21x tiles (ISO 14443-A, 106 kBd).

    rdr = MFRC522(spi, cs_pin, rst_pin)   # spi: machine.SPI, mode 0, <=10 MHz
    buf = bytearray(16)
    if rdr.read_tile(buf) == OK:          # WUPA, anticollision, SELECT,
        terrain = tag.decode(buf)         # READ pages 4-7, HLTA

Statuses: OK, NOTAG (nothing answered the wake-up), ERR (something answered
then failed: timeout, bad CRC_A or BCC, collision, NAK), NOREADER (the chip
itself does not answer: .present is False). A missing chip reads as 0x00 or
0xFF in every register; while it is missing, read_tile() costs one register
read (the version) and initialises the chip once it answers again.
Only one tag is in reach of an antenna, so a collision is an error rather
than the start of a bit-wise anticollision walk. 4- and 7-byte UIDs are
handled (cascade levels 1 and 2); the last UID is in .uid[:uid_len].

CRC_A is computed by the chip's CRC coprocessor (CalcCRC), for the frames we
send and to check the replies. The chip's timer (TAuto) bounds each wait for
a reply; a poll count bounds each wait on the SPI bus. Every buffer, and
every memoryview of a buffer, is made in __init__: reads allocate nothing.
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

import time

from ..tag import OK, NOTAG, ERR, NOREADER  # what read_tile() answers


def _sleep_ms(ms):
    time.sleep(ms / 1000)


sleep_ms = getattr(time, "sleep_ms", _sleep_ms)  # CPython has no sleep_ms

# Registers (datasheet section 9.2).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_MODE = const(0x12)
_RX_MODE = const(0x13)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_H = const(0x21)
_CRC_L = const(0x22)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Chip commands.
_IDLE = const(0x00)
_CALC_CRC = const(0x03)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# Tag commands (ISO 14443-3 and NTAG21x).
_REQA = const(0x26)
_WUPA = const(0x52)
_SEL_CL1 = const(0x93)
_SEL_CL2 = const(0x95)
_CT = const(0x88)        # cascade tag: the UID goes on at the next level
_READ = const(0x30)
_WRITE = const(0xA2)
_HLTA = const(0x50)

_MAXF = const(19)        # longest FIFO transfer: 18 (READ reply) + 1
_TICK_US = const(25)     # timer tick with prescaler 0xA9: 13.56 MHz / 339


class MFRC522:
    """MFRC522(spi, cs, rst=None, timeout_us=1000, max_polls=200)."""

    def __init__(self, spi, cs, rst=None, timeout_us=1000, max_polls=200):
        """spi: a configured bus (mode 0); cs, rst: pins (rst may be None,
        then only the soft reset is used). timeout_us bounds the wait for a
        tag's reply; max_polls bounds any wait on the chip."""
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.timeout_us = timeout_us
        self.max_polls = max_polls
        cs.init(cs.OUT, value=1)
        if rst is not None:
            rst.init(rst.OUT, value=1)
        self._reg = bytearray(2)     # one register, out
        self._regin = bytearray(2)   # one register, in
        # _tx[0] and _rx[0] hold the FIFO write address when their bytes are
        # sent to the FIFO; _rd is n FIFO read addresses then a 0, so that
        # one transfer reads n bytes into _rx[1..n].
        self._tx = bytearray(_MAXF + 1)
        self._rx = bytearray(_MAXF + 1)
        self._rd = bytearray(_MAXF + 1)
        self._tx[0] = _FIFO_DATA << 1
        for i in range(_MAXF):
            self._rd[i] = 0x80 | _FIFO_DATA << 1
        tv = memoryview(self._tx)
        rv = memoryview(self._rx)
        dv = memoryview(self._rd)
        self._txv = tuple(tv[:n + 1] for n in range(_MAXF))
        self._rxv = tuple(rv[:n + 1] for n in range(_MAXF))
        self._rdv = tuple(dv[_MAXF - n:] for n in range(_MAXF))
        self._rx_n = 0       # bytes in the last reply
        self._rx_bits = 0    # valid bits in its last byte (0 = all 8)
        self.uid = bytearray(10)
        self.uid_len = 0
        self.sak = 0
        self.atqa = 0
        self.present = False
        self.init()

    # -- registers and FIFO: one SPI transfer each ------------------------
    def _w(self, reg, val):
        b = self._reg
        b[0] = reg << 1
        b[1] = val
        self.cs.value(0)
        self.spi.write(b)
        self.cs.value(1)

    def _r(self, reg):
        b = self._reg
        b[0] = 0x80 | reg << 1
        b[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(b, self._regin)
        self.cs.value(1)
        return self._regin[1]

    def _fifo_put(self, views, n):
        self.cs.value(0)
        self.spi.write(views[n])
        self.cs.value(1)

    def _fifo_get(self, n):
        self.cs.value(0)
        self.spi.write_readinto(self._rdv[n], self._rxv[n])
        self.cs.value(1)

    # -- chip set-up -------------------------------------------------------
    def init(self):
        """Reset the chip, set the reply timeout and 100 % ASK, field on.
        True (and .present) if a chip answers."""
        if self.rst is not None:
            self.rst.value(0)
            self.rst.value(1)
            sleep_ms(1)               # oscillator start-up after power-down
        self._w(_COMMAND, _SOFT_RESET)
        polls = self.max_polls
        while self._r(_COMMAND) & 0x10 and polls:  # PowerDown until ready
            polls -= 1
        self.present = self._answers()
        if not self.present:
            return False
        self._w(_T_MODE, 0x80)        # TAuto: timer starts after each frame
        self._w(_T_PRESCALER, 0xA9)   # 25 us ticks
        self.set_timeout(self.timeout_us)
        self._w(_TX_ASK, 0x40)        # force 100 % ASK (ISO 14443-A)
        self._w(_MODE, 0x3D)          # CRC preset 0x6363, as CRC_A wants
        self._w(_TX_MODE, 0x00)       # 106 kBd; CRCs are done by hand
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
        v = self._r(_TX_CONTROL)
        if v & 0x03 != 0x03:
            self._w(_TX_CONTROL, v | 0x03)

    def antenna_off(self):
        self._w(_TX_CONTROL, self._r(_TX_CONTROL) & 0xFC)

    # -- the two chip operations -------------------------------------------
    def _transceive(self, n, bits=0):
        """Send _tx[1..n] (`bits` bits of the last byte if not 0); the reply
        goes to _rx[1.._rx_n]. NOTAG if the timer ran out with no reply."""
        self._rx_n = 0
        self._w(_COMMAND, _IDLE)
        self._w(_COM_IRQ, 0x7F)        # clear every interrupt flag
        self._w(_FIFO_LEVEL, 0x80)     # flush the FIFO
        self._fifo_put(self._txv, n)
        self._w(_COMMAND, _TRANSCEIVE)
        self._w(_BIT_FRAMING, 0x80 | bits)  # StartSend
        polls = self.max_polls
        while True:
            irq = self._r(_COM_IRQ)
            if irq & 0x30:             # RxIRq or IdleIRq: a reply
                break
            if irq & 0x01:             # TimerIRq: nobody answered
                return NOTAG
            polls -= 1
            if polls == 0:
                self.present = False   # the chip itself is not answering
                return NOREADER
        if self._r(_ERROR) & 0x1B:     # overflow, collision, parity, protocol
            return ERR
        got = self._r(_FIFO_LEVEL) & 0x7F
        if got > _MAXF - 1:
            return ERR
        self._rx_bits = self._r(_CONTROL) & 0x07
        if got:
            self._fifo_get(got)
        self._rx_n = got
        return OK

    def _crc(self, views, n):
        """CRC_A of the n bytes after views[n][0], by the coprocessor."""
        self._w(_COMMAND, _IDLE)
        self._w(_DIV_IRQ, 0x04)        # clear CRCIRq
        self._w(_FIFO_LEVEL, 0x80)
        self._fifo_put(views, n)
        self._w(_COMMAND, _CALC_CRC)
        polls = self.max_polls
        while not self._r(_DIV_IRQ) & 0x04:
            polls -= 1
            if polls == 0:
                return -1
        self._w(_COMMAND, _IDLE)
        return self._r(_CRC_L) | self._r(_CRC_H) << 8

    def _crc_tx(self, n):
        """Append CRC_A to the frame _tx[1..n]."""
        c = self._crc(self._txv, n)
        if c < 0:
            return ERR
        self._tx[n + 1] = c & 0xFF
        self._tx[n + 2] = c >> 8
        return OK

    def _crc_rx_ok(self, n):
        """True if _rx[1..n] is followed by its CRC_A (low byte first)."""
        rx = self._rx
        want = rx[n + 1] | rx[n + 2] << 8
        rx[0] = _FIFO_DATA << 1
        return self._crc(self._rxv, n) == want

    # -- ISO 14443-3 -------------------------------------------------------
    def request(self, wake=False):
        """REQA (IDLE tags) or, with wake, WUPA (IDLE and HALT tags)."""
        self._w(_COLL, 0x00)            # clear bits received after a collision
        self._tx[1] = _WUPA if wake else _REQA
        st = self._transceive(1, 7)     # a short frame: 7 bits
        if st != OK:
            return st
        if self._rx_n != 2 or self._rx_bits:
            return ERR
        self.atqa = self._rx[1] | self._rx[2] << 8
        return OK

    def select(self):
        """Anticollision and SELECT at cascade levels 1 and 2 (after a
        request). Fills .uid, .uid_len and .sak."""
        self.uid_len = 0
        st = self._cascade(_SEL_CL1)
        if st == OK and self.sak & 0x04:   # UID not complete
            st = self._cascade(_SEL_CL2)
            if st == OK and self.sak & 0x04:
                st = ERR                   # triple size: not an NTAG
        return st

    def _cascade(self, sel):
        tx = self._tx
        rx = self._rx
        tx[1] = sel
        tx[2] = 0x20                       # NVB: no UID bits known
        if self._transceive(2) != OK or self._rx_n != 5:
            return ERR
        if rx[1] ^ rx[2] ^ rx[3] ^ rx[4] != rx[5]:
            return ERR                     # BCC
        tx[2] = 0x70                       # NVB: all 40 bits
        for i in range(5):
            tx[3 + i] = rx[1 + i]
        if self._crc_tx(7) != OK:
            return ERR
        if self._transceive(9) != OK or self._rx_n != 3:
            return ERR
        if not self._crc_rx_ok(1):
            return ERR
        self.sak = rx[1]
        uid = self.uid
        k = self.uid_len
        first = 4 if tx[3] == _CT and self.sak & 0x04 else 3
        for i in range(first, 7):          # skip the cascade tag
            uid[k] = tx[i]
            k += 1
        self.uid_len = k
        return OK

    def halt(self):
        """HLTA: the tag sleeps until a WUPA (it must not answer)."""
        tx = self._tx
        tx[1] = _HLTA
        tx[2] = 0
        if self._crc_tx(2) != OK:
            return ERR
        return OK if self._transceive(4) == NOTAG else ERR

    # -- NTAG21x -----------------------------------------------------------
    def read(self, page, buf):
        """READ (0x30): pages page..page+3, 16 bytes, into buf[0:16]."""
        tx = self._tx
        tx[1] = _READ
        tx[2] = page
        if self._crc_tx(2) != OK:
            return ERR
        if self._transceive(4) != OK or self._rx_n != 18:
            return ERR                     # includes the 4-bit NAK
        if not self._crc_rx_ok(16):
            return ERR
        rx = self._rx
        for i in range(16):
            buf[i] = rx[1 + i]
        return OK

    def write(self, page, data):
        """WRITE (0xA2) of data[0:4] to one page; OK once the tag ACKs."""
        tx = self._tx
        tx[1] = _WRITE
        tx[2] = page
        for i in range(4):
            tx[3 + i] = data[i]
        if self._crc_tx(6) != OK:
            return ERR
        self.set_timeout(10000)            # the EEPROM takes ~4 ms to write
        st = self._transceive(8)
        self.set_timeout(self.timeout_us)
        if st != OK or self._rx_n != 1 or self._rx_bits != 4:
            return ERR
        return OK if self._rx[1] & 0x0F == 0x0A else ERR

    def read_tile(self, buf, page=4):
        """Wake, select, read 16 bytes from `page`, halt: the tile scanner's
        one call per cell. OK, NOTAG, ERR or NOREADER."""
        if not self.present and not (self._answers() and self.init()):
            return NOREADER
        st = self.request(True)
        if st == NOTAG or st == NOREADER:
            return st
        if st == OK:
            st = self.select()
        if st == OK:
            st = self.read(page, buf)
        # Halted, the tag answers the next WUPA even if this went wrong.
        self.halt()
        return st
