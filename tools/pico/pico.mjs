// The emulated Pico: rp2040js running the MicroPython rp2 firmware, driven
// over pipes by tools/pico/__init__.py (read that first: this is its engine).
//
//   node pico.mjs CONFIG.json
//
// CONFIG: {firmware: UF2 path or a whole flash image (.bin), bootrom: path,
//          fsImage: path or null,
//          fsOffset: byte offset in flash, ledPin, ledCount, reedRows: [gpio],
//          reedCols: [gpio], nfc: {spi, sck, mosi, miso, strobe, latch,
//          readers, chainBytes} or absent, buttons: [gpio],
//          buzzerPin: gpio or null, adc: {gpio: read_u16 value}}
// stdin, one JSON object a line:   {"serial": "latin-1 text"}  bytes to the USB CDC port
//                                   {"reeds": [cell, ...]}      closed reed switches
//                                   {"tags": {"cell": c, "mems": [hex, ...]}}  the NTAG213s
//                                        lying on a cell now (180 bytes each; [] none)
//                                   {"fault": {...}}            nfc.mjs FrontEnd.fault()
//                                   {"buttons": [gpio, ...]}    buttons held down (to ground)
//                                   {"nfcstats": true}          the readers' wake-ups per cell
//                                        since the last ask, then counted afresh
//                                   {"dump": path, "bytes": n}  the flash's first n bytes (all: no n) now, to a file
//                                        ("stop": true: and nothing more run, a power cut)
// stdout, one JSON object a line:  {"ev": "usb"}                the CDC port is up
//                                   {"ev": "serial", "data": s} bytes from the port
//                                   {"ev": "frame", "t": ns, "grb": hex}  an LED frame sent,
//                                                                 in wire order (G, R, B per LED)
//                                   {"ev": "reeds", "t": ns}    the reeds above took effect
//                                   {"ev": "scan", "t": ns}     the first reed row driven high
//                                   {"ev": "watchdog", "t": ns} the chip's watchdog fired
//                                   {"ev": "tags", "t": ns}     the tags above took effect
//                                   {"ev": "fault", "t": ns}    the fault above took effect
//                                   {"ev": "buttons", "t": ns}  the buttons above took effect
//                                   {"ev": "nfcstats", "t": ns, "since": ns, "wakes": [64],
//                                    "gap": [64 ns], "overcurrent": [8]}  REQA/WUPA per cell, longest
//                                    time between two; per reader, its field on into an open switch
//                                   {"ev": "dumped", "t": ns}   the flash is in the file
//                                   {"ev": "tone", "t": ns, "hz": f, "duty": d}  the buzzer pin's
//                                                                 square wave changed (hz 0: still)
// Times are device time, nanoseconds since reset, at the emulated 125 MHz.
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, GPIOPinState, BasePeripheral, StateMachine } from 'rp2040js';
import { FrontEnd } from './nfc.mjs';

// One line for the harness to show (a bad image, say), not a stack trace.
process.on('uncaughtException', (e) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
});

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// ASCII only: a device byte over 0x7f (a latin-1 character here) goes as a
// \u escape, not as the UTF-8 that stdout would make of it.
const send = (obj) => process.stdout.write(
  JSON.stringify(obj).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  + '\n');
const mcu = new RP2040();
mcu.logger = { debug() {}, info() {}, warn() {}, error(tag, msg) { process.stderr.write(`${tag}: ${msg}\n`); } };

// --- images ----------------------------------------------------------------
mcu.loadBootrom(new Uint32Array(new Uint8Array(readFileSync(config.bootrom)).buffer));

function loadUF2(bytes) {
  // 512-byte blocks: magics at 0 and 4, flags 8, target address 12, payload
  // size 16, payload from 32.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 512) throw new Error(`${config.firmware}: not a UF2 file`);
  for (let at = 0; at + 512 <= bytes.length; at += 512) {
    if (view.getUint32(at, true) !== 0x0a324655 || view.getUint32(at + 4, true) !== 0x9e5d5157) {
      throw new Error(`${config.firmware}: not a UF2 file`);
    }
    const addr = view.getUint32(at + 12, true) - 0x10000000;
    const size = view.getUint32(at + 16, true);
    if (addr >= 0 && addr + size <= mcu.flash.length) {
      mcu.flash.set(bytes.subarray(at + 32, at + 32 + size), addr);
    }
  }
}
const firmware = new Uint8Array(readFileSync(config.firmware));
if (config.firmware.endsWith('.bin')) mcu.flash.set(firmware, 0);
else loadUF2(firmware);
if (config.fsImage) mcu.flash.set(new Uint8Array(readFileSync(config.fsImage)), config.fsOffset);

// BOOTSEL released, as on a real Pico: the flash chip select's pad has its
// input enabled and the 10K pull-up holds it high (rp2040js leaves the
// input disabled, so it reads low). CircuitPython reads BOOTSEL there at
// boot and waits while it is "held"; MicroPython does not read it at boot.
mcu.qspi[1].padValue = 0x5a;
mcu.qspi[1].setInputValue(true);

// --- the flash chip behind the SSI ------------------------------------------
// rp2040js reads XIP flash straight from mcu.flash; writes come from the boot
// ROM's flash routines, which drive the SSI in plain SPI mode with the chip
// select forced low through IO_QSPI. So: a SPI NOR chip (W25Q16-like) that
// sees the bytes sent while CS is forced low, and an SSI with a real RX FIFO.
class NorFlash {
  constructor(mem) { this.mem = mem; this.cmd = []; this.wel = false; }
  deselect() { this.cmd = []; }
  addr() { return (this.cmd[1] << 16) | (this.cmd[2] << 8) | this.cmd[3]; }
  // One byte in, one byte out (full duplex).
  transfer(byte) {
    const c = this.cmd;
    c.push(byte);
    const n = c.length - 1;      // bytes after the command byte
    switch (c[0]) {
      case 0x06: this.wel = true; return 0;                       // write enable
      case 0x04: this.wel = false; return 0;                      // write disable
      case 0x05: return 0;                                        // status 1: never busy
      case 0x35: return 0x02;                                     // status 2: QE set
      case 0x9f: return [0, 0xef, 0x40, 0x15][n] ?? 0;            // JEDEC ID
      case 0x4b: return n >= 5 ? 0x50 + n : 0;                    // unique ID
      case 0x03:                                                  // read
        return n >= 4 ? this.mem[(this.addr() + n - 4) % this.mem.length] : 0;
      case 0x02:                                                  // page program
        if (n >= 4 && this.wel) {
          const a = this.addr();
          const page = a & ~0xff;
          this.mem[page | ((a + n - 4) & 0xff)] &= byte;          // wraps in its page
        }
        return 0;
      case 0x20: case 0x52: case 0xd8: {                          // erase 4K, 32K, 64K
        if (n === 3 && this.wel) {
          const size = c[0] === 0x20 ? 4096 : c[0] === 0x52 ? 32768 : 65536;
          const a = this.addr() & ~(size - 1);
          this.mem.fill(0xff, a, Math.min(a + size, this.mem.length));
          this.wel = false;
        }
        return 0;
      }
      case 0xc7: case 0x60:                                       // chip erase
        if (this.wel) this.mem.fill(0xff);
        return 0;
      default: return 0;
    }
  }
}
const nor = new NorFlash(mcu.flash);

class QSPIPins extends BasePeripheral {
  // IO_QSPI: six pins, STATUS at 8i, CTRL at 8i+4. Pin 1 is SS: OUTOVER
  // (bits 9:8) = 2 forces it low, selecting the chip.
  constructor(rp2040, name) { super(rp2040, name); this.ctrl = new Uint32Array(6); }
  get selected() { return ((this.ctrl[1] >> 8) & 3) === 2; }
  readUint32(offset) {
    const i = offset >> 3;
    // STATUS: every input reads high (INFROMPAD, INTOPERI); the boot ROM
    // reads SS low as the BOOTSEL button held.
    if (i < 6) return offset & 4 ? this.ctrl[i] : (1 << 17) | (1 << 19);
    return super.readUint32(offset);
  }
  writeUint32(offset, value) {
    const i = offset >> 3;
    if (i < 6 && offset & 4) {
      const was = this.selected;
      this.ctrl[i] = value;
      if (was && !this.selected) nor.deselect();
      return;
    }
    super.writeUint32(offset, value);
  }
}
const qspi = new QSPIPins(mcu, 'IO_QSPI');

class SSI extends BasePeripheral {
  constructor(rp2040, name) {
    super(rp2040, name);
    this.regs = new Uint32Array(64);
    this.rx = [];
  }
  readUint32(offset) {
    switch (offset) {
      case 0x20: return 0;                          // TXFLR: sent at once
      case 0x24: return this.rx.length;             // RXFLR
      case 0x28: return 0x06 | (this.rx.length ? 0x08 : 0);  // SR: TFNF, TFE, RFNE
      case 0x58: return 0x51535049;                 // IDR
      case 0x5c: return 0x3430312a;                 // SSI_VERSION_ID
      case 0x60: return this.rx.length ? this.rx.shift() : 0;  // DR0
      default: return this.regs[offset >> 2];
    }
  }
  writeUint32(offset, value) {
    if (offset === 0x60) {
      const out = qspi.selected ? nor.transfer(value & 0xff) : 0;
      if (this.rx.length < 16) this.rx.push(out);
      return;
    }
    if (offset === 0x08 && !(value & 1)) this.rx = [];  // disabled: FIFOs cleared
    this.regs[offset >> 2] = value;
  }
}
mcu.peripherals[0x18000] = new SSI(mcu, 'SSI');
mcu.peripherals[0x40018] = qspi;

// --- USB CDC ----------------------------------------------------------------
// rp2040js's USBCDC answers the device's OUT request at once, with an empty
// packet when it has nothing, and keeps only 512 bytes. Hold the request
// until there are bytes (a NAK, as a real host does) and queue without limit.
const cdc = new USBCDC(mcu.usbCtrl);
const toDevice = [];
let pendingRead = null;      // [endpoint, size] of the OUT request held
function feedDevice() {
  if (!pendingRead || !toDevice.length) return;
  const [endpoint, size] = pendingRead;
  pendingRead = null;
  const chunk = Uint8Array.from(toDevice.splice(0, size));
  mcu.usbCtrl.endpointReadDone(endpoint, chunk);
}
cdc.usb.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  pendingRead = [endpoint, size];
  feedDevice();
};
cdc.onDeviceConnected = () => send({ ev: 'usb' });
let fromDevice = '';         // sent once a slice, not once a USB packet
cdc.onSerialData = (bytes) => { fromDevice += Buffer.from(bytes).toString('latin1'); };
function flushSerial() {
  if (fromDevice) send({ ev: 'serial', data: fromDevice });
  fromDevice = '';
}

// --- reed matrix --------------------------------------------------------------
// Each row drives its rank through a switch and a diode into the file's
// column: a column reads high when a driven row has a closed switch on it.
const rows = config.reedRows ?? [];
const cols = config.reedCols ?? [];
let closed = new Uint8Array(rows.length * cols.length);
function updateColumns() {
  for (let f = 0; f < cols.length; f++) {
    let v = false;
    for (let r = 0; r < rows.length && !v; r++) {
      v = closed[r * cols.length + f] === 1 && mcu.gpio[rows[r]].value === GPIOPinState.High;
    }
    mcu.gpio[cols[f]].setInputValue(v);
  }
}
rows.forEach((pin, r) => {
  mcu.gpio[pin].addListener((state) => {
    if (r === 0 && state === GPIOPinState.High) send({ ev: 'scan', t: mcu.clock.nanos });
    updateColumns();
  });
});

// --- pulls: rp2040js leaves an input low whatever its pad's pull; a pin
// with nothing on it (a released button to ground) reads its pull, a held
// button reads low.
let held = new Set();
mcu.gpio.forEach((pin) => {
  if (cols.includes(pin.index)) return;
  pin.addListener((state) => {
    if (held.has(pin.index)) pin.setInputValue(false);
    else if (state === GPIOPinState.InputPullUp) pin.setInputValue(true);
    else if (state === GPIOPinState.InputPullDown) pin.setInputValue(false);
  });
});
function setButtons(pins) {
  held = new Set(pins);
  for (const pin of mcu.gpio) {
    if (cols.includes(pin.index)) continue;
    if (held.has(pin.index)) pin.setInputValue(false);
    else if (pin.value === GPIOPinState.InputPullUp) pin.setInputValue(true);
  }
}

// --- the NFC front end (nfc.mjs): SPI0's bytes go through the 595 chain to
// the reader the 74HC138 selects, each byte taking its 8 clocks at the
// bus's rate; the strobe (/E) and latch (RCLK) are GPIOs.
const FUNCTION_SPI = 1;
let nfc = null;
if (config.nfc) {
  const c = config.nfc;
  nfc = new FrontEnd({ readers: c.readers, chainBytes: c.chainBytes, chainReturn: c.chainReturn,
                      now: () => mcu.clock.nanos });
  const spi = mcu.spi[c.spi];
  const wired = () => [c.sck, c.mosi, c.miso].every((p) => mcu.gpio[p].functionSelect === FUNCTION_SPI);
  let miso = 0;
  const done = mcu.clock.createAlarm(() => spi.completeTransmit(miso));
  spi.onTransmit = (value) => {
    miso = wired() ? nfc.byte(value) : 0;      // a pin not on SPI: nothing reaches the chips
    const hz = spi.clockFrequency || 1e6;
    done.schedule(Math.round((spi.dataBits * 1e9) / hz));
  };
  mcu.gpio[c.strobe].addListener((state) => nfc.setStrobe(state !== GPIOPinState.Low));
  let latchHigh = false;
  mcu.gpio[c.latch].addListener((state) => {
    const high = state === GPIOPinState.High;
    if (high && !latchHigh) nfc.latch();
    latchHigh = high;
  });
}

// --- NeoPixels: the WS2812 bits sent on the LED pin ----------------------------
// Driven from the CPU (machine.bitstream's timed loop: MicroPython 1.28's
// neopixel), the pin's pulses are decoded: high over 0.6 us is a 1 (WS2812:
// 0.4 us for 0, 0.8 us for 1). Driven by a PIO state machine (its out or
// side-set pins on the LED pin), the words written to its TX FIFO are taken
// as the bits it shifts out. On the pin, a pause over 50 us ends a frame (the
// reset). rp2040js runs PIO state machines on the host's event loop, not on
// the device clock, so the device time of a PIO frame means little.
const ledBits = (config.ledCount ?? 0) * 24;
const ledPin = ledBits ? mcu.gpio[config.ledPin] : null;
const FUNCTION_SIO = 5;
let bits = [];
let last = 0;        // device time of the last bit
function ledBit(bit, t, paced) {
  if (paced && t - last > 50000) bits = [];
  last = t;
  bits.push(bit);
  if (bits.length === ledBits) {
    const bytes = Buffer.alloc(ledBits / 8);
    for (let i = 0; i < ledBits; i++) bytes[i >> 3] |= bits[i] << (7 - (i & 7));
    flushSerial();  // keep the order of prints and frames
    send({ ev: 'frame', t, grb: bytes.toString('hex') });
    bits = [];
  }
}
if (ledPin) {
  // A bit is a high pulse seen whole from the CPU (SIO), under 50 us. Not a
  // bit: the pin let go low by the PIO's owner when a PIO frame is done
  // (CircuitPython's neopixel_write: gpio_init), whose rise the PIO made;
  // counted, it began the next frame with a stray 1 (every colour shifted).
  let rise = -1;
  ledPin.addListener((state) => {
    const t = mcu.clock.nanos;
    if (ledPin.functionSelect !== FUNCTION_SIO) { rise = -1; return; }
    if (state === GPIOPinState.High) rise = t;
    else if (state === GPIOPinState.Low && rise >= 0) {
      if (t - rise < 50000) ledBit(t - rise > 600 ? 1 : 0, t, true);
      rise = -1;
    }
  });
  const writeFIFO = StateMachine.prototype.writeFIFO;
  StateMachine.prototype.writeFIFO = function (value) {
    writeFIFO.call(this, value);
    const outBase = this.pinCtrl & 31;
    const sideBase = (this.pinCtrl >> 10) & 31;
    if (outBase !== config.ledPin && sideBase !== config.ledPin) return;
    const n = ((this.shiftCtrl >>> 25) & 31) || 32;   // PULL_THRESH
    const right = (this.shiftCtrl >>> 19) & 1;        // OUT_SHIFTDIR
    const t = mcu.clock.nanos;
    for (let i = 0; i < n; i++) ledBit(right ? (value >>> i) & 1 : (value >>> (31 - i)) & 1, t, false);
  };
}

// --- PIO on the device clock ------------------------------------------------------
// rp2040js steps PIO state machines from the host's event loop (a thousand
// instructions a turn, between the CPU's slices), so a CPU waiting on a PIO
// FIFO waits for the host: CircuitPython's neopixel_write (a PIO program at
// 12.8 MHz) took over 100 ms of device time a frame. Here they step with
// the CPU instead: each enabled state machine runs an instruction every
// clock-divider system cycles, and an instruction's delay [n] takes n more.
for (const pio of mcu.pio) pio.run = () => {};
const pioBudget = new Float64Array(8);
function stepPIO(cycles) {
  for (let p = 0; p < mcu.pio.length; p++) {
    const pio = mcu.pio[p];
    if (pio.stopped) continue;
    for (let i = 0; i < 4; i++) {
      const sm = pio.machines[i];
      if (!sm.enabled) continue;
      const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
      let budget = pioBudget[p * 4 + i] + cycles / div;
      while (budget >= 1) {
        const before = sm.cycles;
        sm.step();
        budget -= Math.max(1, sm.cycles - before);
      }
      pioBudget[p * 4 + i] = budget;
    }
    pio.checkChangedPins();
  }
}

// --- ADC inputs: a fixed level on each pin named (GPIO 26-29 are channels 0-3) ----
// rp2040js's ADC holds 12-bit values; read_u16() scales them up as the chip does.
for (const [pin, u16] of Object.entries(config.adc ?? {})) mcu.adc.channelValues[Number(pin) - 26] = u16 >> 4;

// --- the buzzer: the square wave on its pin (a PWM slice), measured ----------------
// Each rising edge closes a period: its frequency and its duty (high time
// over the period, per mille). A tone is reported once two periods in a row
// agree (the period cut short where the frequency changed is no tone), from
// the first of them; silence when no edge has come for 4 periods (checked
// between slices).
const buzzerPin = config.buzzerPin != null ? mcu.gpio[config.buzzerPin] : null;
const buzzer = { rise: -1, fall: -1, hz: 0, duty: 0, period: 0, last: null };
const near = (a, b) => Math.abs(a.hz - b.hz) <= b.hz / 100 && Math.abs(a.duty - b.duty) <= 5;
if (buzzerPin) {
  buzzerPin.addListener((state) => {
    const t = mcu.clock.nanos;
    const b = buzzer;
    if (state === GPIOPinState.Low) { b.fall = t; return; }
    if (state !== GPIOPinState.High) return;
    if (b.rise >= 0) {
      const period = t - b.rise;
      const now = { t: b.rise, hz: Math.round(1e9 / period),
                    duty: b.fall > b.rise ? Math.round(1000 * (b.fall - b.rise) / period) : 0 };
      if (b.last && near(now, b.last) && !(b.hz && near(now, b))) {
        flushSerial();
        send({ ev: 'tone', t: b.last.t, hz: now.hz, duty: now.duty });
        b.hz = now.hz;
        b.duty = now.duty;
      }
      b.last = now;
      b.period = period;
    }
    b.rise = t;
  });
}
function buzzerStill() {
  const b = buzzer;
  if (b.rise >= 0 && mcu.clock.nanos - b.rise > 4 * b.period) {
    if (b.hz) send({ ev: 'tone', t: b.rise + b.period, hz: 0, duty: 0 });
    b.hz = 0;
    b.rise = -1;
    b.last = null;
  }
}

// --- watchdog -------------------------------------------------------------------
const watchdog = mcu.peripherals[0x40058];
watchdog.onWatchdogTrigger = () => {
  flushSerial();
  send({ ev: 'watchdog', t: mcu.clock.nanos });
  running = false;
};

// --- the run loop ------------------------------------------------------------------
// Slices of about 20 ms of wall time, then back to the event loop for stdin.
let running = true;
const cycleNanos = 1e9 / 125e6;
function slice() {
  const { core, clock } = mcu;
  const end = Date.now() + 20;
  while (running && Date.now() < end) {
    for (let i = 0; i < 20000 && running; i++) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        const nanos = next > 0 ? next : cycleNanos;
        clock.tick(nanos);
        stepPIO(nanos / cycleNanos);
      } else {
        const cycles = core.executeInstruction();
        clock.tick(cycles * cycleNanos);
        stepPIO(cycles);
      }
    }
  }
  flushSerial();
  if (buzzerPin) buzzerStill();
  if (running) setImmediate(slice);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.serial !== undefined) {
    for (const b of Buffer.from(msg.serial, 'latin1')) toDevice.push(b);
    feedDevice();
  }
  if (msg.tags !== undefined) {
    if (nfc) nfc.setTags(msg.tags.cell, msg.tags.mems.map((h) => Buffer.from(h, 'hex')));
    send({ ev: 'tags', t: mcu.clock.nanos });
  }
  if (msg.fault !== undefined) {
    if (nfc) nfc.fault(msg.fault);
    send({ ev: 'fault', t: mcu.clock.nanos });
  }
  if (msg.nfcstats !== undefined && nfc) {
    const s = nfc.stats;
    send({ ev: 'nfcstats', t: mcu.clock.nanos, since: s.since, wakes: s.wakes, gap: s.gap,
           overcurrent: nfc.overcurrent });
    nfc.resetStats();
  }
  if (msg.buttons !== undefined) {
    setButtons(msg.buttons);
    send({ ev: 'buttons', t: mcu.clock.nanos });
  }
  if (msg.reeds !== undefined) {
    closed = new Uint8Array(rows.length * cols.length);
    for (const c of msg.reeds) closed[c] = 1;
    updateColumns();
    send({ ev: 'reeds', t: mcu.clock.nanos });
  }
  if (msg.dump !== undefined) {
    // Between two slices: no instruction is half done, a flash write may be.
    if (msg.stop) {
      running = false;                        // the power is cut: no instruction more
      flushSerial();
    }
    writeFileSync(msg.dump, mcu.flash.subarray(0, msg.bytes ?? mcu.flash.length));
    send({ ev: 'dumped', t: mcu.clock.nanos });
  }
}).on('close', () => process.exit(0));

// Start as the boot ROM ends: at boot2, the first 256 bytes of flash, which
// sets up XIP and jumps to the firmware. (The boot ROM's own start-up waits
// for events rp2040js does not send; its flash and memory routines are used.)
mcu.core.PC = 0x10000000;
setImmediate(slice);
