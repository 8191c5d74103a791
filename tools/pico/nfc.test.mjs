// The NFC front end model (nfc.mjs) against the data sheets' sequences:
// node --test tools/pico/nfc.test.mjs (tests/test_pico_nfc.py runs it).
// A device clock of our own (ns); the bus driven byte by byte as the
// RP2040's SPI would: the chain written with the strobe high, then latched,
// a register transaction with the strobe low.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrontEnd, Ntag213, crcA, fdtNs, BIT_NS, POWER_UP_NS, WRITE_NS, OSC_NS, CRYSTAL_NS, R } from './nfc.mjs';

const UID = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66];
function ntag(uid = UID, user = []) {
  const m = new Uint8Array(180);
  m.set(uid.slice(0, 3), 0);
  m[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2];
  m.set(uid.slice(3), 4);
  m[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6];
  m.set([0xe1, 0x10, 0x12, 0x00], 12);
  m.set(user, 16);
  return m;
}

class Bench {
  // Eight readers; reader r's coil f connected; the readers out of reset.
  constructor(chainReturn = true) {
    this.t = 0;
    this.fe = new FrontEnd({ now: () => this.t, chainReturn });
    this.image = [0, 0, 0, 0, 0, 0, 0, 0, 0x08];   // NRSTPD high (image[8]: the controller's)
    this.latch();
    this.wait(CRYSTAL_NS + OSC_NS);
  }
  wait(ns) { this.t += ns; }
  latch() {
    this.fe.setStrobe(true);
    for (const b of this.image) this.fe.byte(b);
    this.fe.latch();
  }
  coil(r, f) {
    this.image[7 - r] = f < 0 ? 0 : 0x08 | f;      // rank r's board at ribbon position r
    this.latch();
  }
  // One transaction with reader r: the bytes out, the bytes back.
  xfer(r, bytes) {
    if ((this.image[8] & 7) !== r) {
      this.image[8] = (this.image[8] & 0xf8) | r;
      this.latch();
    }
    this.fe.setStrobe(false);
    const back = bytes.map((b) => { this.wait(2048); return this.fe.byte(b); });   // 8 bits at 3.9 MHz
    this.fe.setStrobe(true);
    return back;
  }
  w(r, reg, ...vals) { this.xfer(r, [reg << 1, ...vals]); }
  r(r, ...regs) { return this.xfer(r, [...regs.map((x) => 0x80 | x << 1), 0]).slice(1); }
  // The driver's set-up: timer 25 us ticks, 1 ms; 100 % ASK; CRC preset 6363; field on.
  init(r) {
    this.w(r, R.Command, 0x0f);
    this.wait(OSC_NS);
    this.w(r, R.TMode, 0x80);
    this.w(r, R.TPrescaler, 0xa9);
    this.w(r, R.TReloadH, 0);
    this.w(r, R.TReloadL, 40);
    this.w(r, R.TxASK, 0x40);
    this.w(r, R.Mode, 0x3d);
    this.w(r, R.TxControl, 0x83);
  }
  // A Transceive of a frame; returns the time StartSend went.
  send(r, bytes, { bits = 0, crc = 0 } = {}) {
    this.w(r, R.TxMode, crc & 1 ? 0x80 : 0);
    this.w(r, R.RxMode, crc & 2 ? 0x80 : 0);
    this.w(r, R.Command, 0x0c);
    this.w(r, R.ComIrq, 0x7f);
    this.w(r, R.FIFOLevel, 0x80);
    this.w(r, R.FIFOData, ...bytes);
    const t = this.t;
    this.w(r, R.BitFraming, 0x80 | bits);
    return t;
  }
  // Wait until ComIrq has one of mask; the time it was seen.
  until(r, mask, limit = 20e6) {
    const end = this.t + limit;
    while (this.t < end) {
      if (this.r(r, R.ComIrq)[0] & mask) return this.t;
      this.wait(1000);
    }
    throw new Error('no IRQ');
  }
  fifo(r) {
    const n = this.r(r, R.FIFOLevel)[0];
    return n ? this.xfer(r, [...new Array(n).fill(0x80 | R.FIFOData << 1), 0]).slice(1) : [];
  }
  lay(cell, ...tags) { this.fe.setTags(cell, tags); }
}

const withCrc = (b) => { const c = crcA(b); return [...b, c & 0xff, c >> 8]; };

test('CRC_A: ISO/IEC 14443-3 annex B', () => {
  assert.equal(crcA([0x00, 0x00]), 0x1ea0);
  assert.equal(crcA([0x12, 0x34]), 0xcf26);        // sent as 26h CFh
});

test('registers: reset values, a multi-address read (8.1.2.1), Set1 semantics', () => {
  const b = new Bench();
  assert.deepEqual(b.r(0, R.Version, R.TxControl, R.Command, R.ComIrq), [0x92, 0x80, 0x20, 0x14]);
  b.w(0, R.ComIrq, 0x7f);                        // bit 7 clear: the bits marked are cleared
  assert.equal(b.r(0, R.ComIrq)[0], 0x00);
  b.w(0, R.ComIrq, 0x80 | 0x21);                 // bit 7 set: set
  assert.equal(b.r(0, R.ComIrq)[0], 0x21);
  b.w(0, R.FIFOData, 1, 2, 3);                    // every data byte to the one address
  assert.deepEqual(b.r(0, R.FIFOLevel, R.FIFOData, R.FIFOData, R.FIFOLevel), [3, 1, 2, 1]);
});

test('the decoder: a reader answers only with the strobe low and its address latched', () => {
  const b = new Bench();
  b.fe.setStrobe(true);
  assert.equal(b.fe.byte(0x80 | R.Version << 1), 0);
  assert.equal(b.fe.byte(0), 0);                  // nobody selected: MISO low
  assert.deepEqual(b.r(5, R.Version), [0x92]);
  b.fe.readers[5].dead = true;                   // a reader that does not answer
  assert.deepEqual(b.r(5, R.Version, R.TxControl), [0, 0]);
  assert.deepEqual(b.r(4, R.Version), [0x92]);
});

test('NRSTPD low: no reader answers; high: reset values after the oscillator starts (8.8.2)', () => {
  const b = new Bench();
  b.w(2, R.TxControl, 0x83);
  b.image[8] &= ~0x08;
  b.latch();
  assert.deepEqual(b.r(2, R.Version), [0]);
  b.image[8] |= 0x08;
  b.latch();
  assert.deepEqual(b.r(2, R.Version), [0]);      // still starting
  b.wait(CRYSTAL_NS + OSC_NS);
  assert.deepEqual(b.r(2, R.Version, R.TxControl), [0x92, 0x80]);
});

test('SoftReset: PowerDown reads 1 until the oscillator is up', () => {
  const b = new Bench();
  b.w(0, R.Command, 0x0f);
  assert.equal(b.r(0, R.Command)[0] & 0x10, 0x10);
  b.wait(OSC_NS);
  assert.equal(b.r(0, R.Command)[0], 0x20);
});

test('the timer: TAuto from the frame end, (TReload + 1) ticks of (2 TPrescaler + 1) / fc', () => {
  const b = new Bench();
  b.init(0);
  b.coil(0, 0);
  const t0 = b.send(0, [0x52], { bits: 7 });     // WUPA, nobody there
  const tx = b.until(0, 0x40);
  const timer = b.until(0, 0x01);
  const frame = 10 * BIT_NS;                     // start, 7 bits, end of 2 bits
  assert.ok(Math.abs(tx - t0 - frame) < 10000, tx - t0);    // within a poll's SPI time
  const timeout = 41 * (339 / 13.56e6) * 1e9;    // 41 ticks of 25 us
  assert.ok(Math.abs(timer - t0 - frame - timeout) < 10000, timer - t0 - frame - timeout);
  assert.equal(b.r(0, R.ComIrq)[0] & 0x20, 0);  // nothing received
  assert.equal(b.r(0, R.Status2)[0] & 7, 5);     // Transceive still waiting for data
});

test('WUPA: ATQA 0x0044 after the frame delay time; the timer stopped by the reply', () => {
  const b = new Bench();
  b.init(1);
  b.lay(8, ntag());
  b.coil(1, 0);
  b.wait(POWER_UP_NS);
  const t0 = b.send(1, [0x52], { bits: 7 });
  const rx = b.until(1, 0x20);
  const want = 10 * BIT_NS + fdtNs(1) + 20 * BIT_NS;   // WUPA, FDT (last bit 1), ATQA: 20 bits
  assert.ok(Math.abs(rx - t0 - want) < 10000, [rx - t0, want]);
  assert.deepEqual(b.fifo(1), [0x44, 0x00]);
  b.wait(2e6);
  assert.equal(b.r(1, R.ComIrq)[0] & 0x01, 0);   // no TimerIRq
  assert.equal(b.r(1, R.Control)[0] & 7, 0);     // whole bytes
});

test('a tag answers only once powered up: 5 ms after its coil is switched in', () => {
  const b = new Bench();
  b.init(0);
  b.lay(3, ntag());
  b.coil(0, 3);
  b.wait(POWER_UP_NS - 1e6);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x01);                              // silence
  b.wait(1e6);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x20);
  b.coil(0, 4);                                  // switched away: power lost
  b.coil(0, 3);
  b.send(0, [0x52], { bits: 7 });
  assert.equal(b.until(0, 0x21) && b.r(0, R.ComIrq)[0] & 0x20, 0);
});

test('a whole read: anticollision and SELECT at levels 1 and 2, READ, with the chip CRC', () => {
  const b = new Bench();
  b.init(0);
  const user = [0xfd, 0x0c, 0x56, 0x58, 1, 2, 7, 0, 0, 0, 0, 0, 0, 0xd9, 0xfe, 0];
  b.lay(0, ntag(UID, user));
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x20);
  assert.deepEqual(b.fifo(0), [0x44, 0x00]);
  b.send(0, [0x93, 0x20]);                       // no CRC for the anticollision
  b.until(0, 0x20);
  const cl1 = b.fifo(0);
  assert.deepEqual(cl1, [0x88, 0x04, 0x11, 0x22, 0x88 ^ 0x04 ^ 0x11 ^ 0x22]);
  b.send(0, [0x93, 0x70, ...cl1], { crc: 3 });   // CRC appended and checked by the chip
  b.until(0, 0x20);
  assert.deepEqual(b.fifo(0), [0x04]);           // SAK, its CRC_A kept out of the FIFO
  assert.equal(b.r(0, R.Error)[0], 0);
  b.send(0, [0x95, 0x20]);
  b.until(0, 0x20);
  const cl2 = b.fifo(0);
  assert.deepEqual(cl2, [0x33, 0x44, 0x55, 0x66, 0x33 ^ 0x44 ^ 0x55 ^ 0x66]);
  b.send(0, [0x95, 0x70, ...cl2], { crc: 3 });
  b.until(0, 0x20);
  assert.deepEqual(b.fifo(0), [0x00]);           // UID complete
  const t0 = b.send(0, [0x30, 0x04], { crc: 3 });
  const rx = b.until(0, 0x20);
  assert.deepEqual(b.fifo(0), user);
  // NTAG213 data sheet Fig 15: 368 us command, the FDT, 1548 us reply.
  assert.ok(Math.abs(rx - t0 - (368e3 + fdtNs(0) + 1548e3)) < 20e3, rx - t0);
  b.send(0, [0x30, 44], { crc: 3 });             // page 44, then around to pages 0, 1, 2
  b.until(0, 0x20);
  assert.deepEqual(b.fifo(0).slice(4, 8), [...ntag().slice(0, 4)]);
  b.send(0, [0x30, 45], { crc: 1 });             // beyond the memory: a 4-bit NAK 0
  b.until(0, 0x20);
  assert.deepEqual(b.fifo(0), [0x00]);
  assert.equal(b.r(0, R.Control)[0] & 7, 4);
});

test('NTAG213 states: HLTA to HALT; REQA does not wake it, WUPA does; a WUPA in READY is an error', () => {
  const b = new Bench();
  b.init(0);
  b.lay(0, ntag());
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  const read = () => { b.send(0, [0x52], { bits: 7 }); return b.until(0, 0x21) && b.r(0, R.ComIrq)[0] & 0x20; };
  assert.ok(read());                             // READY1
  assert.ok(!read());                            // a WUPA in READY1: back to IDLE, silent
  assert.ok(read());
  b.send(0, [0x93, 0x20]);
  b.until(0, 0x20);
  const cl1 = b.fifo(0);
  b.send(0, [0x93, 0x70, ...cl1], { crc: 3 });
  b.until(0, 0x20);
  b.fifo(0);
  b.send(0, [0x95, 0x20]);
  b.until(0, 0x20);
  const cl2 = b.fifo(0);
  b.send(0, [0x95, 0x70, ...cl2], { crc: 3 });
  b.until(0, 0x20);
  b.fifo(0);
  const tag = b.fe.cells.get(0)[0];
  assert.equal(tag.state, 'ACTIVE');
  b.w(0, R.TxMode, 0x80);
  b.w(0, R.ComIrq, 0x7f);
  b.w(0, R.FIFOData, 0x50, 0x00);
  b.w(0, R.Command, 0x04);                       // Transmit: HLTA, nothing back
  b.until(0, 0x10);                              // IdleIRq: the command ended
  assert.equal(tag.state, 'HALT');
  b.send(0, [0x26], { bits: 7 });                // REQA: silent
  b.until(0, 0x01);
  assert.equal(tag.state, 'HALT');
  assert.ok(read());                             // WUPA wakes it
});

test('faults: a bad CRC_A, a wrong BCC, a read that fails, two tags colliding', () => {
  const b = new Bench();
  b.init(0);
  b.lay(0, ntag());
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  const select = () => {
    b.send(0, [0x52], { bits: 7 });
    b.until(0, 0x21);
    b.fifo(0);
    b.send(0, [0x93, 0x20]);
    b.until(0, 0x21);
    return b.fifo(0);
  };
  const cl1 = select();
  b.fe.fault({ cell: 0, badCrc: true });
  b.send(0, [0x93, 0x70, ...cl1], { crc: 3 });
  b.until(0, 0x20);
  assert.equal(b.r(0, R.Error)[0] & 0x04, 0x04);  // CRCErr; the CRC_A kept out of the FIFO all the same
  assert.equal(b.fifo(0).length, 1);
  b.fe.fault({ cell: 0, badCrc: false, badBcc: true });
  b.coil(0, -1);
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  const bad = select();
  assert.deepEqual(bad.slice(0, 4), cl1.slice(0, 4));
  assert.equal(bad[4], cl1[4] ^ 0x01);            // the BCC does not check
  assert.equal(b.r(0, R.Error)[0], 0);            // and nothing else tells
  b.fe.fault({ cell: 0, badBcc: false, fail: { cmd: 0x93, count: 1 } });
  b.coil(0, -1);
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x21);
  b.fifo(0);
  b.send(0, [0x93, 0x20]);
  b.until(0, 0x21);
  assert.equal(b.r(0, R.ComIrq)[0] & 0x20, 0);   // that one failed: no answer
  // A second tag on the cell: both answer; their UIDs differ at bit 14 (uid1).
  b.lay(0, ntag(), ntag([0x04, 0x13, 0x22, 0x33, 0x44, 0x55, 0x67]));
  b.coil(0, -1);
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x21);
  assert.deepEqual(b.fifo(0), [0x44, 0x00]);     // the same ATQA: no collision
  b.send(0, [0x93, 0x20]);
  b.until(0, 0x20);
  assert.equal(b.r(0, R.Error)[0] & 0x08, 0x08); // CollErr
  assert.equal(b.r(0, R.Coll)[0] & 0x1f, 18);   // CT, uid0, then uid1's bit 1 (11h vs 13h): the 18th bit
});

test('crosstalk: a tag another cell\'s coil reaches', () => {
  const b = new Bench();
  b.init(0);
  b.lay(1, ntag());
  b.fe.fault({ cell: 1, crosstalk: [2] });
  b.coil(0, 2);
  b.wait(POWER_UP_NS);
  b.send(0, [0x52], { bits: 7 });
  assert.ok(b.until(0, 0x21) && b.r(0, R.ComIrq)[0] & 0x20);
});

test('WRITE: the ACK after the EEPROM write; CalcCRC into CRCResultReg', () => {
  const b = new Bench();
  b.init(0);
  b.lay(0, ntag());
  b.coil(0, 0);
  b.wait(POWER_UP_NS);
  b.send(0, [0x52], { bits: 7 });
  b.until(0, 0x21);
  b.fifo(0);
  b.send(0, [0x30, 0x00], { crc: 3 });           // READ from page 0 selects it from READY1
  b.until(0, 0x20);
  assert.equal(b.fifo(0).length, 16);
  const t0 = b.send(0, [0xa2, 5, 1, 2, 3, 4], { crc: 1 });
  const rx = b.until(0, 0x20);
  assert.ok(rx - t0 > WRITE_NS, rx - t0);
  assert.deepEqual(b.fifo(0), [0x0a]);
  assert.equal(b.r(0, R.Control)[0] & 7, 4);
  assert.deepEqual([...b.fe.cells.get(0)[0].mem.slice(20, 24)], [1, 2, 3, 4]);
  b.w(0, R.Command, 0x00);
  b.w(0, R.FIFOData, 0x00, 0x00);
  b.w(0, R.Command, 0x03);
  b.wait(10000);
  assert.equal(b.r(0, R.DivIrq)[0] & 0x04, 0x04);
  const [h, l] = b.r(0, 0x21, 0x22);
  assert.equal(h << 8 | l, 0x1ea0);
});

test('over-current: a field on while the rank\'s switch is open or changing is counted, once per moment', () => {
  const b = new Bench();
  b.w(3, R.TxControl, 0x83);                     // no coil connected: the fault
  assert.deepEqual(b.fe.overcurrent, [0, 0, 0, 1, 0, 0, 0, 0]);
  b.coil(3, 2);                                  // the coil in: the drivers see their load
  b.coil(3, -1);                                 // the switch opened under the field: again
  assert.equal(b.fe.overcurrent[3], 2);
  b.w(3, R.TxControl, 0x80);
  b.coil(3, 4);
  b.w(3, R.TxControl, 0x83);                     // the right order: coil, then field
  b.w(3, R.TxControl, 0x80);
  b.coil(3, -1);                                 // field off, then the switch
  b.w(5, R.TxControl, 0x82);                     // one driver alone is a fault too
  assert.deepEqual(b.fe.overcurrent, [0, 0, 0, 2, 0, 1, 0, 0]);
  b.coil(3, 1);
  b.w(3, R.TxControl, 0x83);
  b.coil(3, 6);                                  // coil to coil under the field: the switch changes
  assert.equal(b.fe.overcurrent[3], 3);
  b.image[7 - 3] = 0x08 | 6;                     // the same coil latched again: no change, no fault
  b.image[7 - 2] = 0x08 | 5;                     // (rank 2's field is off: its switch may change)
  b.latch();
  assert.deepEqual(b.fe.overcurrent, [0, 0, 0, 3, 0, 1, 0, 0]);
});

test('the chain\'s return: the image shifted again comes back on MISO while the strobe is high; faults spoil it', () => {
  const b = new Bench();
  b.coil(2, 5);
  const again = () => { b.fe.setStrobe(true); return b.image.map((x) => b.fe.byte(x)); };
  assert.deepEqual(again(), b.image);            // what was latched, the farthest 595's first
  assert.deepEqual(again(), b.image);            // and the chain holds it still
  b.fe.setStrobe(false);
  assert.deepEqual(b.xfer(0, [0x80 | R.Version << 1, 0]), [0, 0x92]);   // strobe low: the reader's
  b.fe.fault({ chain: { broken: true } });
  assert.deepEqual(again(), new Array(9).fill(0));
  b.fe.fault({ chain: { broken: false, stuck: [7 - 5, 0x40, 1] } });
  b.latch();
  assert.equal(again()[7 - 5], 0x40);            // rank 5's unused output stuck high
  b.fe.fault({ chain: { stuck: null, slip: 9 } });
  b.latch();                                     // every byte of the load slips a bit
  assert.notEqual(b.fe.coilOf(2), 5);
  assert.notDeepEqual(again(), b.image);
  b.latch();
  assert.deepEqual(again(), b.image);            // the slip over: sound again
  assert.equal(b.fe.coilOf(2), 5);
  const bare = new Bench(false);                 // a board without CHAIN_RET: MISO's pull-down
  bare.coil(2, 5);
  bare.fe.setStrobe(true);
  assert.deepEqual(bare.image.map((x) => bare.fe.byte(x)), new Array(9).fill(0));
  assert.equal(bare.fe.coilOf(2), 5);            // the chain works all the same
});
