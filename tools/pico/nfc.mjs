// The board's NFC front end, modelled at its register interface for the
// emulated Pico (pico.mjs wires it to rp2040js's SPI0 and GPIOs): eight
// MFRC522 readers, one per rank, each switching its rank's eight coils; a
// chain of 74HC595 and a 74HC138 that select them (hardware/pins.py); and
// NTAG213 tags in the tiles. Everything runs on device time: nothing moves
// until the firmware looks (an SPI byte, a GPIO edge), and then everything
// due by that moment happens first, in order.
//
// Sources, named where they are used:
//   [RC522]  NXP MFRC522 product data sheet, rev. 3.9 (SPI 8.1.2, timer
//            8.5, power 8.8, registers 9.2-9.3, commands 10.3).
//   [14443]  ISO/IEC 14443-2 and -3, type A: 106 kbit/s, a bit is 128/fc;
//            frame delay time 6.2.1.1; states 6.3; anticollision 6.4.
//   [NTAG]   NXP NTAG213/215/216 data sheet (states 8.4, timings 9.2,
//            ATQA/SAK 9.4, READ 10.2, WRITE 10.4, NAK 9.3).
// What the data sheets leave open is said where it is assumed.

export const FC = 13.56e6;                    // carrier, Hz [14443-2]
export const BIT_NS = (128 / FC) * 1e9;       // one bit at 106 kbit/s: 9.44 us
// Frame delay time PCD -> PICC for n = 9 [14443-3 6.2.1.1]: (n*128 + 84)/fc
// after a last bit 1, (n*128 + 20)/fc after a 0; NTAG21x answer at n = 9 [NTAG 9.2].
export const fdtNs = (lastBit) => ((9 * 128 + (lastBit ? 84 : 20)) / FC) * 1e9;
export const POWER_UP_NS = 5e6;               // a PICC accepts a request within 5 ms of the field [14443-3]
export const WRITE_NS = 4.1e6;                // NTAG WRITE: the ACK after the EEPROM write [NTAG 10.4]
export const OSC_NS = 37740;                  // oscillator start-up after the crystal [RC522 8.8.2]
export const CRYSTAL_NS = 1e6;                // 27.12 MHz crystal start-up: assumed 1 ms (part-dependent)
const CRC_NS_PER_BYTE = (8 / FC) * 1e9;       // CalcCRC: assumed one bit a clock (not in [RC522])

// CRC_A [14443-3 annex B]: reflected 0x8408, preset 0x6363 (or ModeReg's).
export function crcA(bytes, preset = 0x6363) {
  let crc = preset;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc;
}
const withCrc = (bytes) => { const c = crcA(bytes); return [...bytes, c & 0xff, c >> 8]; };
const parity = (b) => { let p = 1; for (let i = 0; i < 8; i++) p ^= (b >> i) & 1; return p; };  // odd

// --- frames: bit lists, least significant bit of each byte first --------------
// A frame on the air: data bits and where the byte boundaries (parity) are.
function bitsOf(bytes, lastBits = 8, align = 0) {
  const bits = [];
  bytes.forEach((b, i) => {
    const from = i === 0 ? align : 0;
    const to = i === bytes.length - 1 ? lastBits : 8;
    for (let k = from; k < to; k++) bits.push((b >> k) & 1);
  });
  return bits;
}
function bytesOf(bits, align = 0) {
  // Bits into bytes from bit `align` of the first; the valid bits of the last.
  const out = [];
  let pos = align;
  for (const b of bits) {
    const i = pos >> 3;
    if (i >= out.length) out.push(0);
    out[i] |= b << (pos & 7);
    pos++;
  }
  return { bytes: out, lastBits: pos & 7 };
}
// Air time of a frame of `bits` data bits starting at bit `align` of a byte,
// with a parity bit after every byte completed: PCD frames carry a start bit
// and an end of communication of two bit times, PICC frames a start bit and
// one bit without subcarrier [NTAG 9.2].
function airNs(nbits, align, pcd) {
  const parities = Math.floor((align + nbits) / 8);
  return (1 + nbits + parities + (pcd ? 2 : 1)) * BIT_NS;
}

// --- the tag --------------------------------------------------------------------
// NTAG213: 45 pages of 4 bytes (0x00-0x2C); the UID in pages 0-2 [NTAG 8.5].
export const NTAG213_PAGES = 45;
const IDLE = 'IDLE', READY1 = 'READY1', READY2 = 'READY2', ACTIVE = 'ACTIVE', HALT = 'HALT', OFF = 'OFF';

export class Ntag213 {
  // mem: 180 bytes (pages 0-44); uid from pages 0-2. faults: {badCrc: bool
  // (its replies' CRC_A spoilt), badBcc: bool (its anticollision replies'
  // BCC spoilt), fail: {cmd, count} (the next `count` frames
  // starting with byte cmd, or any if cmd is null, get no answer)}.
  constructor(mem) {
    this.mem = Uint8Array.from(mem);
    if (this.mem.length !== NTAG213_PAGES * 4) throw new Error('an NTAG213 holds 180 bytes');
    const m = this.mem;
    this.uid = [m[0], m[1], m[2], m[4], m[5], m[6], m[7]];
    this.state = OFF;
    this.halted = false;       // woken from HALT: errors return there [NTAG 8.4]
    this.readyAt = 0;
    this.faults = { badCrc: false, badBcc: false, fail: null };
  }

  power(on, t) {
    if (on && this.state === OFF) { this.state = IDLE; this.halted = false; this.readyAt = t + POWER_UP_NS; }
    if (!on) this.state = OFF;
  }

  get powered() { return this.state !== OFF; }

  // The cascade level's 5 bytes: CT, uid0-2, BCC or uid3-6, BCC [14443-3 6.4.4].
  cl(level) {
    const b = level === 1 ? [0x88, ...this.uid.slice(0, 3)] : this.uid.slice(3, 7);
    return [...b, b[0] ^ b[1] ^ b[2] ^ b[3]];
  }

  error() { this.state = this.halted ? HALT : IDLE; return null; }

  reply(bytes, crc = true) {
    let out = crc ? withCrc(bytes) : bytes;
    if (crc && this.faults.badCrc) out = [...out.slice(0, -1), out[out.length - 1] ^ 0xff];
    return { bits: bitsOf(out), align: 0, delay: 0 };
  }

  nak(code) { this.error(); return { bits: bitsOf([code], 4), align: 0, delay: 0 }; }

  // A frame (bytes, lastBits of the last byte) received at time t: the reply
  // ({bits, align, delay: extra time before it}) or null (silence).
  receive(bytes, lastBits, t) {
    if (this.state === OFF || t < this.readyAt) return null;   // not powered up yet
    const cmd = bytes[0];
    const f = this.faults.fail;
    if (f && f.count > 0 && (f.cmd == null || f.cmd === cmd)) { f.count--; return this.error(); }
    const short = bytes.length === 1 && lastBits === 7;
    if (short) {                                         // REQA / WUPA [14443-3 6.3]
      if ((cmd === 0x26 && this.state === IDLE) || (cmd === 0x52 && (this.state === IDLE || this.state === HALT))) {
        this.halted = this.state === HALT;
        this.state = READY1;
        return this.reply([0x44, 0x00], false);          // ATQA [NTAG 9.4]
      }
      return this.state === IDLE || this.state === HALT ? null : this.error();
    }
    if (this.state === IDLE || this.state === HALT) return null;   // ignored [NTAG 8.4.1, 8.4.6]
    if ((cmd === 0x93 || cmd === 0x95) && bytes.length >= 2 && (this.state === READY1 || this.state === READY2)) {
      const level = cmd === 0x93 ? 1 : 2;
      if ((level === 1) !== (this.state === READY1)) return this.error();
      return this.anticollision(level, bytes, lastBits);
    }
    if (lastBits !== 8 || bytes.length < 3 || crcA(bytes.slice(0, -2)) !== (bytes[bytes.length - 2] | bytes[bytes.length - 1] << 8)) {
      return this.state === ACTIVE ? this.nak(0x1) : this.error();   // CRC error [NTAG 9.3]
    }
    const body = bytes.slice(0, -2);
    if (cmd === 0x30 && body.length === 2 && (this.state === ACTIVE || (this.state === READY1 && body[1] === 0))) {
      const page = body[1];                              // READ [NTAG 10.2]
      if (page >= NTAG213_PAGES) return this.nak(0x0);
      this.state = ACTIVE;
      const out = [];
      for (let i = 0; i < 16; i++) out.push(this.mem[((page * 4) + i) % this.mem.length]);
      return this.reply(out);
    }
    if (this.state !== ACTIVE) return this.error();
    if (cmd === 0x50 && body.length === 2 && body[1] === 0) {   // HLTA: no answer [14443-3 6.4.3]
      this.state = HALT;
      return null;
    }
    if (cmd === 0xa2 && body.length === 6) {             // WRITE [NTAG 10.4]
      const page = body[1];
      if (page < 2 || page > 0x2c) return this.nak(0x0);
      for (let i = 0; i < 4; i++) {
        const o = page * 4 + i;
        // Lock bytes and the capability container are one-time programmable: bits only set.
        this.mem[o] = page < 4 ? this.mem[o] | body[2 + i] : body[2 + i];
      }
      return { bits: bitsOf([0x0a], 4), align: 0, delay: WRITE_NS };   // ACK
    }
    return this.error();
  }

  // ANTICOLLISION or SELECT of a cascade level [14443-3 6.4.3-6.4.4]: NVB
  // says how many bits of the level's 40 the PCD sends; a tag whose first
  // bits match answers the rest, or, with all 40 and a CRC, the SAK.
  anticollision(level, bytes, lastBits) {
    const nvb = bytes[1];
    const known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0f);
    const cl = this.cl(level);
    if (known === 40 && bytes.length === 9 && lastBits === 8) {
      if (crcA(bytes.slice(0, 7)) !== (bytes[7] | bytes[8] << 8)) return this.error();
      for (let i = 0; i < 5; i++) if (bytes[2 + i] !== cl[i]) return this.error();
      const complete = level === 2;
      this.state = complete ? ACTIVE : READY2;
      return this.reply([complete ? 0x00 : 0x04]);      // SAK [NTAG 9.4]
    }
    if (known < 0 || known >= 40) return this.error();
    const mine = bitsOf(this.faults.badBcc ? [...cl.slice(0, 4), cl[4] ^ 0x01] : cl);
    const sent = bitsOf(bytes.slice(2), lastBits).slice(0, known);
    for (let i = 0; i < known; i++) if (sent[i] !== mine[i]) return this.error();
    return { bits: mine.slice(known), align: known & 7, delay: 0 };
  }
}

// --- the reader -------------------------------------------------------------------
// Registers [RC522 9.2]; the ones modelled have behaviour, the rest hold what is written.
export const R = {
  Command: 0x01, ComIEn: 0x02, DivIEn: 0x03, ComIrq: 0x04, DivIrq: 0x05, Error: 0x06,
  Status1: 0x07, Status2: 0x08, FIFOData: 0x09, FIFOLevel: 0x0a, WaterLevel: 0x0b,
  Control: 0x0c, BitFraming: 0x0d, Coll: 0x0e, Mode: 0x11, TxMode: 0x12, RxMode: 0x13,
  TxControl: 0x14, TxASK: 0x15, CRCResultH: 0x21, CRCResultL: 0x22, TMode: 0x2a,
  TPrescaler: 0x2b, TReloadH: 0x2c, TReloadL: 0x2d, TCounterH: 0x2e, TCounterL: 0x2f,
  Version: 0x37,
};
export const CMD = { Idle: 0x0, CalcCRC: 0x3, Transmit: 0x4, NoCmdChange: 0x7, Receive: 0x8, Transceive: 0xc, SoftReset: 0xf };
// Reset values [RC522 9.2 tables], of the registers that have one the driver may see.
const RESET = {
  0x01: 0x20, 0x02: 0x80, 0x04: 0x14, 0x07: 0x21, 0x0b: 0x08, 0x0c: 0x10, 0x0e: 0xa0,
  0x11: 0x3f, 0x14: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4d, 0x1c: 0x62,
  0x1f: 0xeb, 0x21: 0xff, 0x22: 0xff, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20,
  0x29: 0x20, 0x33: 0x80, 0x36: 0x40, 0x37: 0x92,
};
const CRC_PRESETS = [0x0000, 0x6363, 0xa671, 0xffff];   // ModeReg CRCPreset [RC522 9.3.2.2]
// Status2Reg ModemState [RC522 9.3.1.9].
const MODEM = { idle: 0, waitStart: 1, txWait: 2, transmitting: 3, rxWait: 4, waitData: 5, receiving: 6 };

export class Mfrc522 {
  // env: {now() -> ns, tags(reader) -> the powered tags its field reaches,
  //       fieldChanged(reader)}: what the front end gives it.
  constructor(index, env) {
    this.index = index;
    this.env = env;
    this.regs = new Uint8Array(64);
    this.fifo = [];
    this.events = [];          // [t, gen, fn], kept in time order
    this.gen = 0;              // a command's events die when it ends
    this.running = false;      // NRSTPD high and the oscillator up
    this.readyAt = 0;
    this.dead = false;         // fault: the chip never answers
    this.modem = MODEM.idle;
    this.timer = null;         // {start, period, reload} while running
    this.timerGen = 0;
    this.nss = false;          // selected (NSS low)
    this.spi = null;           // the transaction: {write: addr} or {read: addr}
    this.log = [];             // frames on the air, for tests: {t, dir, bytes, lastBits}
    this.keepLog = false;
    this.reset();
  }

  reset() {
    this.regs.fill(0);
    for (const [a, v] of Object.entries(RESET)) this.regs[a] = v;
    this.fifo = [];
    this.events = [];
    this.gen++;
    this.modem = MODEM.idle;
    this.stopTimer();
    this.env.fieldChanged?.(this);
  }

  // --- power: NRSTPD from the 595 chain [RC522 8.8.1-8.8.2]
  setPower(on, t) {
    if (on && !this.running && this.readyAt === 0) {
      this.reset();
      this.readyAt = t + CRYSTAL_NS + OSC_NS;
    } else if (!on) {
      this.running = false;
      this.readyAt = 0;
      this.events = [];
      this.gen++;
      this.env.fieldChanged?.(this);
    }
  }

  get answers() { return !this.dead && (this.running || (this.readyAt && this.env.now() >= this.readyAt)); }

  get fieldOn() { return this.answers && (this.regs[R.TxControl] & 0x03) !== 0; }

  // --- time: run every event due by now
  at(t, fn, gen = this.gen) {
    const ev = [t, gen, fn];
    let i = this.events.length;
    while (i > 0 && this.events[i - 1][0] > t) i--;
    this.events.splice(i, 0, ev);
  }

  sync(now = this.env.now()) {
    // Up once the oscillator runs; its field is off until TxControlReg says.
    if (!this.running && this.readyAt && now >= this.readyAt) this.running = true;
    while (this.events.length && this.events[0][0] <= now) {
      const [t, gen, fn] = this.events.shift();
      if (gen === -1 || gen === this.gen) fn(t);   // -1: the timer's, which outlives commands
    }
  }

  irq(bits) { this.regs[R.ComIrq] |= bits; }

  // --- the timer [RC522 8.5, 9.3.3.10]
  timerPeriodNs() {
    const pre = ((this.regs[R.TMode] & 0x0f) << 8) | this.regs[R.TPrescaler];
    return ((2 * pre + 1) / FC) * 1e9;
  }

  startTimer(t) {
    const reload = (this.regs[R.TReloadH] << 8) | this.regs[R.TReloadL];
    const period = this.timerPeriodNs();
    const gen = ++this.timerGen;
    this.timer = { start: t, period, reload };
    this.at(t + (reload + 1) * period, (te) => {
      if (gen !== this.timerGen) return;
      this.irq(0x01);                                    // TimerIRq
      if (this.regs[R.TMode] & 0x10) this.startTimer(te);   // TAutoRestart
      else this.timer = null;
    }, -1);
  }

  stopTimer() { this.timerGen++; this.timer = null; }

  timerValue(now) {
    const tm = this.timer;
    if (!tm) return 0;
    return Math.max(0, tm.reload - Math.floor((now - tm.start) / tm.period));
  }

  // --- SPI [RC522 8.1.2]: an address byte, then data (write) or further
  // addresses ending in 00h (read); MISO carries the register addressed by
  // the byte before.
  select() { this.nss = true; this.spi = null; }
  deselect() { this.nss = false; this.spi = null; }

  byte(b) {
    if (!this.nss || !this.answers) return 0;
    this.sync();
    const s = this.spi;
    if (s === null) {
      this.spi = b & 0x80 ? { read: (b >> 1) & 0x3f } : { write: (b >> 1) & 0x3f };
      return 0;
    }
    if (s.write !== undefined) { this.write(s.write, b); return 0; }
    const out = this.read(s.read);
    s.read = (b >> 1) & 0x3f;        // the next address (the closing 00h reads nothing)
    return out;
  }

  read(a) {
    const r = this.regs;
    const now = this.env.now();
    switch (a) {
      case R.FIFOData: return this.fifo.length ? this.fifo.shift() : 0;
      case R.FIFOLevel: return this.fifo.length;
      case R.Status1: {
        const level = this.fifo.length;
        const water = r[R.WaterLevel] & 0x3f;
        const irq = (r[R.ComIrq] & r[R.ComIEn] & 0x7f) || (r[R.DivIrq] & r[R.DivIEn] & 0x14);
        return (r[R.Status1] & 0x60) | (irq ? 0x10 : 0) | (this.timer ? 0x08 : 0)
          | (level >= 64 - water ? 0x02 : 0) | (level <= water ? 0x01 : 0);
      }
      case R.Status2: return (r[R.Status2] & 0xf8) | this.modem;
      case R.TCounterH: return this.timerValue(now) >> 8;
      case R.TCounterL: return this.timerValue(now) & 0xff;
      case R.BitFraming: return r[a] & 0x7f;       // StartSend reads 0
      default: return r[a];
    }
  }

  write(a, v) {
    const r = this.regs;
    switch (a) {
      case R.Command: return this.command(v);
      case R.ComIrq: case R.DivIrq: {             // Set1/Set2: set or clear the bits marked
        const mask = v & 0x7f;
        r[a] = v & 0x80 ? r[a] | mask : r[a] & ~mask;
        return;
      }
      case R.FIFOData:
        if (this.fifo.length < 64) this.fifo.push(v);
        else r[R.Error] |= 0x10;                  // BufferOvfl
        return;
      case R.FIFOLevel:
        if (v & 0x80) { this.fifo = []; r[R.Error] &= ~0x10; }   // FlushBuffer
        return;
      case R.Control:
        if (v & 0x40) this.startTimer(this.env.now());            // TStartNow
        if (v & 0x80) this.stopTimer();                           // TStopNow
        return;
      case R.BitFraming:
        r[a] = v & 0x7f;
        if (v & 0x80 && (r[R.Command] & 0x0f) === CMD.Transceive && this.modem === MODEM.waitStart) {
          this.transmit(true);
        }
        return;
      case R.Version: case R.Status1: case R.Status2: case R.Error: return;   // read only
      case R.TxControl:
        r[a] = v;
        this.env.fieldChanged?.(this);
        return;
      default:
        r[a] = v;
    }
  }

  // --- commands [RC522 10.3]: writing one ends the one running.
  command(v) {
    const r = this.regs;
    const cmd = v & 0x0f;
    if (cmd === CMD.NoCmdChange) { r[R.Command] = (r[R.Command] & 0x0f) | (v & 0x30); return; }
    this.gen++;                                   // what the old command had pending dies
    this.events = this.events.filter((e) => e[1] === -1);   // but the timer
    this.modem = MODEM.idle;
    r[R.Command] = v & 0x3f;
    const now = this.env.now();
    switch (cmd) {
      case CMD.SoftReset: {
        // Registers to their reset values; PowerDown reads 1 until the
        // oscillator is up again.
        this.reset();
        r[R.Command] = 0x30;
        this.at(now + OSC_NS, () => { r[R.Command] = 0x20; this.irq(0x10); });
        return;
      }
      case CMD.Transceive:
        this.modem = MODEM.waitStart;             // StartSend sends [RC522 10.3.1.8]
        return;
      case CMD.Transmit:
        this.transmit(false);
        return;
      case CMD.CalcCRC: {
        const data = this.fifo;
        this.fifo = [];
        this.at(now + data.length * CRC_NS_PER_BYTE, () => {
          const c = crcA(data, CRC_PRESETS[r[R.Mode] & 0x03]);
          r[R.CRCResultL] = c & 0xff;
          r[R.CRCResultH] = c >> 8;
          r[R.Status1] |= 0x20 | 0x40;           // CRCReady, CRCOk
          r[R.DivIrq] |= 0x04;                   // CRCIRq; CalcCRC stays until Idle
        });
        return;
      }
      case CMD.Idle:
        return;
      default:
        // Mem, Generate RandomID, Receive alone and MFAuthent are not modelled:
        // the chip does nothing and goes idle.
        r[R.Command] = (v & 0x30) | CMD.Idle;
    }
  }

  // Send the FIFO on the air (Transceive after StartSend, or Transmit).
  transmit(transceive) {
    const r = this.regs;
    const now = this.env.now();
    let bytes = this.fifo;
    this.fifo = [];
    const txBits = r[R.BitFraming] & 0x07 || 8;
    if (r[R.TxMode] & 0x80 && bytes.length) {   // TxCRCEn: CRC_A appended
      const c = crcA(bytes, CRC_PRESETS[r[R.Mode] & 0x03]);
      bytes = [...bytes, c & 0xff, c >> 8];
    }
    const lastBits = bytes.length && !(r[R.TxMode] & 0x80) ? txBits : 8;
    const bits = bitsOf(bytes, lastBits);
    const end = now + airNs(bits.length, 0, true);
    r[R.Error] &= 0x10;                           // the last command's errors clear (BufferOvfl stays)
    this.modem = MODEM.transmitting;
    if (this.keepLog) this.log.push({ t: now, dir: 'tx', bytes: [...bytes], lastBits });
    this.at(end, (te) => {
      this.irq(0x40);                             // TxIRq
      if (lastBits === 7 && bytes.length === 1) this.env.woke?.(this, te);   // a REQA / WUPA
      const field = this.fieldOn;
      const replies = [];
      for (const tag of field ? this.env.tags(this) : []) {
        const rep = tag.receive(bytes, lastBits, te);
        if (rep) replies.push(rep);
      }
      if (!transceive) {                          // Transmit ends by itself
        r[R.Command] = r[R.Command] & 0x30;
        this.modem = MODEM.idle;
        this.irq(0x10);                           // IdleIRq
        return;
      }
      if (r[R.TMode] & 0x80) this.startTimer(te); // TAuto [RC522 9.3.3.10]
      this.modem = MODEM.waitData;
      if (!replies.length || r[R.Command] & 0x20) return;   // silence, or RcvOff
      this.receive(replies, te, bits[bits.length - 1]);
    });
  }

  // Replies (from every tag that answered: bit by bit, a collision where they
  // differ) arriving after the frame delay time.
  receive(replies, te, lastBit) {
    const r = this.regs;
    const n = Math.max(...replies.map((x) => x.bits.length));
    const align = replies[0].align;
    const bits = [];
    let coll = -1;
    for (let i = 0; i < n; i++) {
      const vals = new Set(replies.map((x) => (i < x.bits.length ? x.bits[i] : null)).filter((x) => x !== null));
      if (vals.size > 1 && coll < 0) coll = i;
      let v = vals.size > 1 ? 1 : [...vals][0];
      if (coll >= 0 && i > coll && !(r[R.Coll] & 0x80)) v = 0;   // ValuesAfterColl = 0: cleared
      bits.push(v);
    }
    const start = te + fdtNs(lastBit) + Math.max(...replies.map((x) => x.delay));
    const end = start + airNs(n, align, false);
    // The timer stops at the 5th bit received (start bit and 4 data bits) [RC522 9.3.3.10].
    this.at(start + 5 * BIT_NS, () => { if (!(r[R.RxMode] & 0x04)) this.stopTimer(); });
    this.at(start, () => { this.modem = MODEM.receiving; });
    this.at(end, () => {
      const rxAlign = (r[R.BitFraming] >> 4) & 0x07;
      let { bytes, lastBits } = bytesOf(bits, rxAlign);
      let err = 0;
      if (coll >= 0) {
        err |= 0x08;                               // CollErr
        const pos = coll + 1;
        r[R.Coll] = (r[R.Coll] & 0x80) | (pos > 32 ? 0x20 : pos & 0x1f);
      } else {
        r[R.Coll] = (r[R.Coll] & 0x80) | 0x20;     // CollPosNotValid: no collision
      }
      if (r[R.RxMode] & 0x80) {                    // RxCRCEn: the last two bytes are the CRC_A,
        if (lastBits === 0 && bytes.length > 2) {  // checked, never in the FIFO, good or bad [RC522 9.3.1.7]
          const crc = crcA(bytes.slice(0, -2), CRC_PRESETS[r[R.Mode] & 0x03]);
          if (crc !== (bytes[bytes.length - 2] | bytes[bytes.length - 1] << 8)) err |= 0x04;   // CRCErr
          bytes = bytes.slice(0, -2);
        } else err |= 0x04;                        // too short for a CRC_A
      }
      for (const b of bytes) {
        if (this.fifo.length < 64) this.fifo.push(b);
        else err |= 0x10;
      }
      if (this.keepLog) this.log.push({ t: end, dir: 'rx', bytes: [...bytes], lastBits, err });
      r[R.Control] = (r[R.Control] & 0xf8) | lastBits;
      r[R.Error] = (r[R.Error] & 0x10) | err;
      this.irq(0x20 | (err ? 0x02 : 0));          // RxIRq, ErrIRq
      this.modem = MODEM.waitStart;                // Transceive: the next StartSend may come
    });
  }
}

// --- the front end: the 595 chain, the 74HC138, eight readers, the tags --------------
export class FrontEnd {
  // opts: {readers: 8, chainBytes: 9, now() -> ns}. The chain (hardware/pins.py):
  // latched[chainBytes - 1] is the controller's 595 (the decoder's address in
  // bits 0-2, NRSTPD in bit 3); latched[ctrl - 1 - r] rank r's board (coil in
  // bits 0-2, the switch enable in bit 3).
  constructor({ readers = 8, chainBytes = 9, now, chainReturn = true }) {
    this.now = now;
    this.chainReturn = chainReturn;               // CHAIN_RET wired (pins.NFC_CHAIN_RETURN)
    this.chainBytes = chainBytes;
    this.ctrl = chainBytes - 1;
    this.shift = new Array(chainBytes).fill(0);   // the chain's shift registers
    this.latched = new Array(chainBytes).fill(0); // its outputs; NRSTPD low at power-on
    this.strobe = true;                           // high: no reader selected
    this.selected = -1;
    this.cells = new Map();                       // cell -> [Ntag213]
    this.crosstalk = new Map();                   // cell -> [other cells whose coil also reaches it]
    // Over-current: a reader whose drivers are on (TxControlReg Tx1RFEn or
    // Tx2RFEn) while its rank's switch is open drives L0 into the node
    // capacitors near series resonance, several times the MFRC522's 100 mA
    // (hardware/README.md). Counted per reader at each moment it starts; a
    // latch that moves the switch from one coil to another under the field
    // counts too (the analog switch opens for a moment as it changes).
    this.overcurrent = new Array(readers).fill(0);
    this.shorted = new Array(readers).fill(false);
    this.chainFault = { stuck: null, slip: 0, broken: false };
    const env = { now, tags: (rd) => this.tagsOf(rd), fieldChanged: () => this.updatePower(),
                  woke: (rd, t) => this.woke(rd, t) };
    this.resetStats();
    this.readers = Array.from({ length: readers }, (_, i) => new Mfrc522(i, env));
  }

  coilOf(rank) {
    const v = this.latched[this.ctrl - 1 - rank] & 0x0f;
    return v & 0x08 ? v & 0x07 : -1;
  }

  // The tags reader rd's field reaches: those on its coil's cell, and those
  // a neighbouring cell's coil couples to (crosstalk).
  tagsOf(rd) {
    const f = this.coilOf(rd.index);
    if (f < 0) return [];
    const cell = rd.index * 8 + f;
    const out = [...(this.cells.get(cell) ?? [])];
    for (const [other, coils] of this.crosstalk) if (coils.includes(cell)) out.push(...(this.cells.get(other) ?? []));
    return out.filter((t) => t.powered);
  }

  // A tag has power while some reader's field reaches it through a coil.
  updatePower() {
    if (!this.readers) return;                    // still being built
    const t = this.now();
    const reached = new Set();
    for (const rd of this.readers) {
      rd.sync(t);
      const f = this.coilOf(rd.index);
      const shorted = rd.fieldOn && f < 0;
      if (shorted && !this.shorted[rd.index]) this.overcurrent[rd.index]++;
      this.shorted[rd.index] = shorted;
      if (!rd.fieldOn || f < 0) continue;
      const cell = rd.index * 8 + f;
      for (const tag of this.cells.get(cell) ?? []) reached.add(tag);
      for (const [other, coils] of this.crosstalk) {
        if (coils.includes(cell)) for (const tag of this.cells.get(other) ?? []) reached.add(tag);
      }
    }
    for (const tags of this.cells.values()) for (const tag of tags) tag.power(reached.has(tag), t);
  }

  // --- the bus
  // One byte on SPI: it shifts into the chain, pushing the farthest 595's
  // byte out of its QH'. MISO: the selected reader, while the strobe is
  // low; while it is high, the chain's return (hardware/pins.py
  // NFC_CHAIN_RETURN: CHAIN_RET through a 74LVC1G126 enabled by the
  // strobe), so shifting the image again reads back what the chain held.
  // Faults (fault({chain})): a stuck output, a slipping clock, the return
  // line open (MISO pulled low).
  byte(b) {
    const back = this.shift[0];
    const c = this.chainFault;
    this.shift.shift();
    this.shift.push(b);
    if (c.slip > 0 && this.strobe) {
      // A ringing edge: the byte's last bit clocked twice, the chain one bit on.
      c.slip--;
      for (let i = 0; i < this.chainBytes - 1; i++) this.shift[i] = ((this.shift[i] << 1) | (this.shift[i + 1] >> 7)) & 0xff;
      this.shift[this.chainBytes - 1] = ((b << 1) | (b & 1)) & 0xff;
    }
    if (c.stuck) {
      const [i, mask, v] = c.stuck;
      this.shift[i] = (this.shift[i] & ~mask & 0xff) | (v ? mask : 0);
    }
    if (this.strobe) return c.broken || !this.chainReturn ? 0 : back;
    if (this.selected < 0) return 0;
    return this.readers[this.selected].byte(b);
  }

  setStrobe(high) {
    this.strobe = high;
    this.updateSelect();
  }

  latch() {
    const t = this.now();
    for (const rd of this.readers) rd.sync(t);
    const was = this.latched[this.ctrl] & 0x08;
    const before = this.readers.map((rd) => (rd.fieldOn ? this.coilOf(rd.index) : -1));
    this.latched = [...this.shift];
    before.forEach((f, r) => {
      const now = this.coilOf(r);
      if (f >= 0 && now >= 0 && now !== f) this.overcurrent[r]++;
    });
    const run = this.latched[this.ctrl] & 0x08;   // NRSTPD of every reader
    if (run !== was) for (const rd of this.readers) rd.setPower(!!run, t);
    this.updatePower();
    this.updateSelect();
  }

  updateSelect() {
    const sel = this.strobe ? -1 : this.latched[this.ctrl] & 0x07;   // 74HC138: /E low selects Y[A..C]
    const want = sel < this.readers.length ? sel : -1;
    if (want === this.selected) return;
    if (this.selected >= 0) this.readers[this.selected].deselect();
    this.selected = want;
    if (want >= 0) this.readers[want].select();
  }

  // --- what the readers did: each cell's wake-ups (REQA / WUPA with its coil
  // in), how many and the longest time between two, since resetStats().
  resetStats() {
    this.stats = { since: this.now(), wakes: new Array(64).fill(0), last: new Array(64).fill(-1),
                   gap: new Array(64).fill(0) };
  }

  woke(rd, t) {
    const f = this.coilOf(rd.index);
    if (f < 0) return;
    const c = rd.index * 8 + f;
    const s = this.stats;
    if (s.last[c] >= 0) s.gap[c] = Math.max(s.gap[c], t - s.last[c]);
    s.last[c] = t;
    s.wakes[c]++;
  }

  // --- the harness's hands and faults
  setTags(cell, mems) {
    for (const tag of this.cells.get(cell) ?? []) tag.power(false, this.now());
    this.cells.set(cell, mems.map((m) => new Ntag213(m)));
    this.updatePower();
  }

  // f.chain: {stuck: [byte, mask, value] or null (those outputs of that
  // 595 stuck), slip: n (the next n bytes shifted with the strobe high each
  // clock a bit twice), broken: bool (the return line open)}.
  fault(f) {
    if (f.chain !== undefined) Object.assign(this.chainFault, f.chain);
    if (f.reader !== undefined) {
      this.readers[f.reader].dead = !!f.dead;
    }
    if (f.cell !== undefined) {
      for (const tag of this.cells.get(f.cell) ?? []) {
        if (f.badCrc !== undefined) tag.faults.badCrc = !!f.badCrc;
        if (f.badBcc !== undefined) tag.faults.badBcc = !!f.badBcc;
        if (f.fail !== undefined) tag.faults.fail = f.fail ? { cmd: f.fail.cmd ?? null, count: f.fail.count ?? 1 } : null;
      }
      if (f.crosstalk !== undefined) this.crosstalk.set(f.cell, f.crosstalk);
      this.updatePower();
    }
  }
}
