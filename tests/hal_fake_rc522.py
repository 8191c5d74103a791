"""A fake MFRC522 (register model, FIFO, Transceive and Transmit with the
hardware CRC) with fake NTAG213s under its coils, for the driver's tests.
Plain Python: runs on CPython and MicroPython (kept apart from hal_fakes so
each module compiles in the small heap of the MicroPython tests). Only what
the driver's logic needs, instantly: tools/pico/nfc.mjs is the chip as the
datasheets time it, on the emulated Pico.
"""


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
    (a command byte whose reply gets a wrong CRC_A), bad_bcc_on (a cascade
    level, 1 or 2, whose anticollision reply gets a wrong BCC: bits spoilt
    on the air that the parity missed), collide (anticollision replies come
    with a collision)."""

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
        self.powered = True
        self.silent_on = None
        self.bad_crc_on = None
        self.bad_bcc_on = None
        self.collide = False
        self.commands = []

    def power(self, on):
        """The field reaches the tag (its coil switched in) or not: a tag
        without power forgets its state."""
        if not on:
            self.state = "IDLE"
        self.powered = on

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
                if level == self.bad_bcc_on:
                    cl = cl[:4] + bytes((cl[4] ^ 0x01,))
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
    """An MFRC522 as its SPI transactions see it (xfer(out, into): one NSS-low
    transfer): the registers the driver uses, the FIFO, Transceive and
    Transmit with TxModeReg / RxModeReg's CRC, and the ISO 14443 exchange
    with the tag under its connected coil (tags: {file: FakeNtag}). Its
    front end (hal_fake_front.FakeBus) connects the coil and drives the reset
    line. dead=True: the chip reads as all zeros (none on the bus)."""

    def __init__(self, tags=None):
        self.tags = tags if tags is not None else {}
        self.coil = -1
        self.overcurrent = 0            # times its field was on into an open switch
        self.running = True
        self.dead = False
        self.regs = bytearray(64)
        self.fifo = []
        self.frames = []                # the last 16 (frame as sent on the air, bits)
        self.cmds = bytearray()         # the first byte of every frame sent
        self.transfers = 0
        self.writes = None              # a list: (register, value) written get logged
        self._recv = False              # Transceive receiving: StartSend ignored
        self._reset()

    def _reset(self):
        for i in range(64):
            self.regs[i] = 0
        self.regs[0x01] = 0x20
        self.regs[0x14] = 0x80
        self.regs[0x37] = 0x92
        self.fifo = []
        self._recv = False
        self._field()

    # the front end's lines
    def set_coil(self, f):
        if f != self.coil:
            if f >= 0 and self.coil >= 0 and self.running and self.regs[0x14] & 0x03:
                self.overcurrent += 1   # coil to coil under the field: open as it changes
            self.coil = f
            self._field()

    def power(self, on):
        if on and not self.running:
            self.running = True
            self._reset()
        elif not on:
            self.running = False
            self._field()

    def _field(self):
        on = self.running and self.regs[0x14] & 0x03 != 0
        if on and self.coil < 0:
            # TX1/TX2 into L0 and the node capacitors with no coil: near
            # series resonance, far over the drivers' 100 mA (hardware/README.md).
            self.overcurrent += 1
        on = on and self.regs[0x14] & 0x03 == 0x03
        for f, t in self.tags.items():
            t.power(on and f == self.coil)

    # SPI
    def xfer(self, out, into):
        self.transfers += 1
        if out[0] & 0x80:
            vals = [0]
            for b in out[:-1]:
                assert b & 0x80, "mixed read/write transfer"
                vals.append(self._read(b >> 1 & 0x3F))
            if into is not None:
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
        if self.dead or not self.running:
            return 0
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg, v):
        if self.dead or not self.running:
            return
        if self.writes is not None:
            self.writes.append((reg, v))
        r = self.regs
        if reg == 0x01:
            cmd = v & 0x0F
            if cmd == 0x0F:
                self._reset()
                return
            self._recv = False          # a command written ends the one running
            r[0x01] = v
            if cmd == 0x04:             # Transmit: the FIFO goes at once
                self._send(0)
                r[0x01] = 0x00
                r[0x04] |= 0x10         # IdleIRq
        elif reg in (0x04, 0x05):       # Set1/Set2 semantics
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
            if v & 0x80 and r[0x01] & 0x0F == 0x0C and not self._recv:
                reply = self._send(v & 0x07)
                self._receive(reply)
        else:
            r[reg] = v
            if reg == 0x14:
                self._field()

    def _send(self, bits):
        frame = bytes(self.fifo)
        self.fifo = []
        if self.regs[0x12] & 0x80:
            frame = with_crc(frame)
        if len(self.frames) < 16:
            self.frames.append((frame, bits))
        if frame:
            self.cmds.append(frame[0])
        self.regs[0x04] |= 0x40         # TxIRq
        t = self.tags.get(self.coil)
        if t is None or not t.powered:
            return None
        return t.handle(frame, bits)

    def _receive(self, reply):
        r = self.regs
        if reply is None:
            r[0x04] |= 0x01             # TimerIRq: no answer in time
            self._recv = True           # still listening until a command is written
            return
        data, last, err = reply
        if r[0x13] & 0x80:
            # RxCRCEn: the frame's last two bytes are its CRC_A, checked by
            # the coprocessor and never written to the FIFO, good or bad: a
            # wrong one leaves the data in the FIFO, its length right, and
            # CRCErr set (MFRC522 data sheet 9.3.1.7, ErrorReg; 9.3.2.4,
            # RxModeReg). Too short a frame for a CRC: kept, CRCErr.
            if not last and len(data) > 2:
                if crc_a(data[:-2]) != data[-2] | data[-1] << 8:
                    err |= 0x04         # CRCErr
                data = data[:-2]
            else:
                err |= 0x04
        self.fifo = list(data)
        r[0x0C] = last
        r[0x06] = err
        r[0x04] |= 0x20 | (0x02 if err else 0)

    def commands(self):
        return list(self.cmds)
