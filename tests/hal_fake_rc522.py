"""A fake MFRC522 (register model, FIFO, CalcCRC, Transceive) with a fake
NTAG213 in its field, for the driver's tests. Plain Python: runs on CPython
and MicroPython (kept apart from hal_fakes so each module compiles in the
small heap of the MicroPython tests)."""
from hal_fakes import FakePin


def crc_a(data):
    """ISO 14443-A CRC (init 0x6363, reflected 0x1021), bit by bit."""
    crc = 0x6363
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(data):
    c = crc_a(data)
    return bytes(data) + bytes((c & 0xFF, c >> 8))


class FakeNtag:
    """An NTAG213 in the field: ISO 14443-3 states, READ, WRITE, HLTA.

    Faults: silent_on (a command byte the tag stops answering), bad_crc_on
    (a command byte whose reply gets a wrong CRC_A), collide (anticollision
    replies come with a collision)."""

    def __init__(self, uid=b"\x04\x11\x22\x33\x44\x55\x66", data=None):
        self.uid = bytes(uid)
        self.mem = bytearray(45 * 4)           # NTAG213: pages 0-44
        u = self.uid
        if len(u) == 7:
            self.mem[0:3] = u[0:3]
            self.mem[3] = 0x88 ^ u[0] ^ u[1] ^ u[2]
            self.mem[4:8] = u[3:7]
            self.mem[8] = u[3] ^ u[4] ^ u[5] ^ u[6]
        self.mem[12:16] = b"\xe1\x10\x12\x00"   # capability container
        if data is not None:
            self.mem[16:16 + len(data)] = data
        self.state = "IDLE"
        self.level = 0
        self.silent_on = None
        self.bad_crc_on = None
        self.collide = False
        self.commands = []

    def _cl(self, level):
        u = self.uid
        if len(u) == 4:
            b = u
        elif level == 1:
            b = bytes((0x88,)) + u[0:3]
        else:
            b = u[3:7]
        return b + bytes((b[0] ^ b[1] ^ b[2] ^ b[3],))

    def handle(self, frame, bits):
        """A reply (bytes, last_bits, error_bits) or None (silence)."""
        frame = bytes(frame)
        cmd = frame[0] if frame else -1
        self.commands.append(cmd)
        if cmd == self.silent_on:
            return None
        if bits == 7 and len(frame) == 1:
            if (cmd == 0x26 and self.state == "IDLE") or (
                    cmd == 0x52 and self.state in ("IDLE", "HALT")):
                self.state = "READY"
                self.level = 1
                return (b"\x44\x00", 0, 0)    # ATQA of an NTAG21x
            self.state = "IDLE"
            return None
        if self.state == "READY" and cmd in (0x93, 0x95):
            level = 1 if cmd == 0x93 else 2
            if level != self.level:
                self.state = "IDLE"
                return None
            cl = self._cl(level)
            if frame[1:] == b"\x20":
                return (cl, 0, 0x08 if self.collide else 0)
            if len(frame) == 9 and frame[1] == 0x70 and frame[2:7] == cl \
                    and crc_a(frame[:7]) == frame[7] | frame[8] << 8:
                done = len(self.uid) == 4 or level == 2
                sak = 0x00 if done else 0x04
                if done:
                    self.state = "ACTIVE"
                else:
                    self.level = 2
                return (self._crc(cmd, bytes((sak,))), 0, 0)
            self.state = "IDLE"
            return None
        if self.state == "ACTIVE" and len(frame) >= 3 and \
                crc_a(frame[:-2]) == frame[-2] | frame[-1] << 8:
            if cmd == 0x30 and len(frame) == 4:
                page = frame[1]
                if page > 44:
                    return (b"\x00", 4, 0)    # NAK
                out = bytes(self.mem[(page * 4 + i) % len(self.mem)]
                            for i in range(16))
                return (self._crc(cmd, out), 0, 0)
            if cmd == 0xA2 and len(frame) == 8:
                page = frame[1]
                if not 4 <= page <= 39:
                    return (b"\x00", 4, 0)
                self.mem[page * 4:page * 4 + 4] = frame[2:6]
                return (b"\x0a", 4, 0)        # ACK
            if cmd == 0x50 and frame[1] == 0:
                self.state = "HALT"
                return None
        self.state = "IDLE"
        return None

    def _crc(self, cmd, data):
        out = with_crc(data)
        if cmd == self.bad_crc_on:
            out = out[:-1] + bytes((out[-1] ^ 0xFF,))
        return out


class FakeRC522:
    """An MFRC522 behind a fake SPI bus: the registers the driver uses,
    the FIFO, CalcCRC, Transceive and the ISO 14443 exchange with `tag`
    (None: an empty field). dead=True: the chip reads as all zeros."""

    def __init__(self, tag=None):
        self.tag = tag
        self.cs = FakePin("cs")
        self.rst = FakePin("rst")
        self.dead = False
        self.regs = bytearray(64)
        self.fifo = []
        self.frames = []                # (frame, bits) sent to the field
        self.transfers = 0
        self._reset()

    def _reset(self):
        for i in range(64):
            self.regs[i] = 0
        self.regs[0x01] = 0x20
        self.regs[0x14] = 0x80
        self.regs[0x37] = 0x92
        self.fifo = []

    # SPI
    def write(self, buf):
        self._xfer(bytes(buf), None)

    def write_readinto(self, out, into):
        assert len(out) == len(into)
        self._xfer(bytes(out), into)

    def _xfer(self, out, into):
        assert self.cs.v == 0, "SPI transfer with CS high"
        self.transfers += 1
        if out[0] & 0x80:
            vals = [0]
            for b in out[:-1]:
                assert b & 0x80, "mixed read/write transfer"
                vals.append(self._read(b >> 1 & 0x3F))
            for i in range(len(out)):
                into[i] = vals[i]
        else:
            reg = out[0] >> 1 & 0x3F
            for b in out[1:]:
                self._write(reg, b)
            if into is not None:
                for i in range(len(into)):
                    into[i] = 0

    def _read(self, reg):
        if self.dead:
            return 0
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg, v):
        r = self.regs
        if reg == 0x01:
            cmd = v & 0x0F
            if cmd == 0x0F:
                self._reset()
                return
            r[0x01] = v
            if cmd == 0x03:                 # CalcCRC over the FIFO
                c = crc_a(bytes(self.fifo))
                self.fifo = []
                r[0x22] = c & 0xFF
                r[0x21] = c >> 8
                r[0x05] |= 0x04
        elif reg in (0x04, 0x05):           # Set1/Set2 semantics
            if v & 0x80:
                r[reg] |= v & 0x7F
            else:
                r[reg] &= ~v & 0x7F
        elif reg == 0x0A:
            if v & 0x80:
                self.fifo = []
        elif reg == 0x09:
            self.fifo.append(v)
        elif reg == 0x0D:
            r[reg] = v & 0x7F
            if v & 0x80 and r[0x01] & 0x0F == 0x0C:
                self._transmit(v & 0x07)
        else:
            r[reg] = v

    def _transmit(self, bits):
        frame = bytes(self.fifo)
        self.fifo = []
        self.frames.append((frame, bits))
        r = self.regs
        reply = None
        if self.tag is not None and r[0x14] & 0x03 == 0x03:
            reply = self.tag.handle(frame, bits)
        if reply is None:
            r[0x04] |= 0x01                 # TimerIRq: no answer in time
            return
        data, last, err = reply
        self.fifo = list(data)
        r[0x0C] = last
        r[0x06] = err
        r[0x04] |= 0x30 | (0x02 if err else 0)

    def commands(self):
        return [f[0][0] for f in self.frames if f[0]]
