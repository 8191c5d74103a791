"""The emulated Pico: the real MicroPython rp2 firmware (or CircuitPython's)
in rp2040js, with the deploy tree in its flash filesystem, driven from Python.

    import pico                                  # with tools/ on sys.path
    r = pico.run("import vortex.engine; print(1)", timeout=120)
    r.output, r.status, r.heap                   # '1\\r\\n', 0, (alloc, free)

    with pico.Pico(autorun=True, reeds=cells, tiles={c: pico.tile(terrain, serial)}) as dev:
        dev.wait(lambda: len(dev.scans) >= 100, 60)   # main.py runs at boot
        dev.set_reeds(other_cells)               # pieces lifted or put down
        dev.set_tags(cell, pico.tile(AIR, 7))    # a tile laid (no argument: lifted)
        dev.press(pins.BUTTON_A)                 # buttons held (none: released)
        dev.fault(reader=3, dead=True)           # tools/pico/nfc.mjs FrontEnd.fault
        dev.frames[-1]                           # (device ns, 192 bytes R, G, B per LED)
        dev.save_flash("flash.bin")              # the flash as a power cut would leave it

    with pico.Pico(firmware="flash.bin", deploy=False) as dev:   # power back on

What runs: tools/pico/pico.mjs (Node, rp2040js from tools/pico/node_modules,
installed by `npm ci` in the project's set-up) boots the UF2 with the RP2040
boot ROM (both fetched from their releases into the user's cache and checked:
tools/device_images.py); the filesystem image (littlefs2, the geometry MicroPython's rp2
port mounts) holds the .mpy files and pins.py as tools/deploy.py sends them.
Device time follows the emulated 125 MHz clock; every run has a wall-clock
limit, enforced by killing the Node process however busy it is.

The NFC front end is modelled at its registers (tools/pico/nfc.mjs: the
595 chain, the decoder, eight MFRC522s, NTAG213s in the tiles) on the pins
of hardware/pins.py; tiles carry the project's tag format (tile()).

main.py runs at boot, as on a board, only with autorun=True; otherwise it
goes to /lib/main.py, where `import main` still finds it, so scripts get the
REPL first.

runtime="circuitpython" (Pico(...), run(...), --runtime) boots CircuitPython
10.2.1 instead, with tools/deploy.py's CircuitPython tree (plain sources,
boot.py, main.py as code.py, the pinned libraries in /lib) on a FAT image of
CIRCUITPY, built with fatfs-ng (ChaN's FatFs, the code CircuitPython's own
filesystem is made of).
"""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "hardware"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import build_mpy  # noqa: E402
import deploy  # noqa: E402
import device_images  # noqa: E402
import pins  # noqa: E402
from flash_layout import FLASH_BYTES, FS_OFFSET, fs_image  # noqa: E402
from vortex.hal.pixels import led_map  # noqa: E402
from vortex import tag as tagformat  # noqa: E402

LED_MAP = led_map(pins.LED_SERPENTINE)



RUNTIMES = ("micropython", "circuitpython")

# CircuitPython's raspberrypi port: CIRCUITPY is a FAT volume of 512-byte
# sectors from flash offset CIRCUITPY_FIRMWARE_SIZE (1020 KB) + the 4 KB of
# nvm (mpconfigport.h) to the end of the flash its JEDEC ID gives (2 MB:
# supervisor/internal_flash.c), with no partition table.
CP_FS_OFFSET = 1024 * 1024
CP_FS_BYTES = FLASH_BYTES - CP_FS_OFFSET
SECTOR = 512
BOOT_SECONDS = 90  # wall time for the firmware to bring up USB (about 1 s of device time)


def ntag213(uid, user=b""):
    """The 180 bytes of an NTAG213 (pages 0-44, NTAG213/215/216 data sheet
    8.5) with a 7-byte uid and `user` from page 4 on, factory values elsewhere."""
    uid = bytes(uid)
    if len(uid) != 7 or len(user) > 144:
        raise ValueError("an NTAG213 has a 7-byte UID and 144 user bytes")
    m = bytearray(180)
    m[0:3] = uid[0:3]
    m[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]       # BCC0 (with the cascade tag)
    m[4:8] = uid[3:7]
    m[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]     # BCC1
    m[9] = 0x48                                  # internal
    m[12:16] = b"\xe1\x10\x12\x00"               # capability container
    m[16:16 + len(user)] = user
    m[160:164] = b"\x00\x00\x00\xbd"               # dynamic lock bytes
    m[164:168] = b"\x04\x00\x00\xff"               # CFG0: AUTH0 beyond the memory
    return bytes(m)


def tile(terrain, serial=1, uid=None):
    """A tile's tag: the project's format (vortex.tag, hardware/tag-format.md)
    in pages 4-7 of an NTAG213 whose UID (NXP's 0x04 first) follows the serial."""
    if uid is None:
        uid = bytes((0x04, 0x56, 0x58, serial >> 8, serial & 0xFF, terrain, 0x80))
    return ntag213(uid, tagformat.encode(terrain, serial))


class Unavailable(Exception):
    """Something the emulated Pico needs is missing: str(e) says what, in a line."""


class Result:
    """A script's output (text), status (0 ok, 1 an exception, 2 the wall
    clock ran out, 3 the watchdog reset the chip) and the heap afterwards
    (bytes allocated, bytes free, after gc.collect()), or None."""

    def __init__(self, output, status, heap=None, error=""):
        self.output = output
        self.status = status
        self.heap = heap
        self.error = error

    def __repr__(self):
        return "Result(status=%d, heap=%r, output=%r, error=%r)" % (
            self.status, self.heap, self.output[-200:], self.error[-300:])


OK, FAILED, TIMEOUT, WATCHDOG = 0, 1, 2, 3


def image(runtime="micropython"):
    """The firmware image a runtime boots, checked (tools/device_images.py:
    fetched into the user's cache if need be, or VORTEX_PICO_UF2 /
    VORTEX_PICO_CP_UF2); device_images.Missing says why not in a line."""
    return device_images.locate(runtime)


def missing(runtime="micropython", strict=False):
    """Why the emulated Pico cannot run here (one line), or None if it can.
    The images are fetched (once, into the user's cache) if need be.
    strict: an image that is there but refused (device_images.Refused: a
    damaged cache, a wrong check) is raised, not given as a reason."""
    if not shutil.which("node"):
        return "node is not installed (the emulated Pico runs in Node.js)"
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        return "rp2040js is not installed: run `npm ci` in tools/pico (make test does it)"
    try:
        image(runtime)
        device_images.locate("bootrom")
    except device_images.Missing as e:
        if strict and isinstance(e, device_images.Refused):
            raise
        return str(e)
    module, package = ("littlefs", "littlefs-python") if runtime == "micropython" else \
        ("fatfs", "fatfs-ng")
    try:
        __import__(module)
    except ImportError:
        return "%s is not installed (it is in requirements-dev.txt)" % package
    if runtime == "circuitpython" and not os.path.isdir(deploy.CP_LIBS):
        return "the CircuitPython libraries are not in %s (make test fetches them)" % deploy.CP_LIBS
    return None


def deploy_files(tree, runtime="micropython"):
    """{device path: local file}: what tools/deploy.py sends, built into tree."""
    build_mpy.build(tree, runtime=runtime)
    return {dest: local for local, dest in deploy.files(tree, runtime)}


def fat_image(files, size=CP_FS_BYTES):
    """CIRCUITPY's bytes holding files ({device path: local path or bytes}):
    FAT as FatFs's f_mkfs makes it for that size (FAT12, as CircuitPython's
    own first boot formats it)."""
    from fatfs import RamDisk, create_extended_partition
    storage = bytearray(size)
    fs = create_extended_partition(RamDisk(storage, sector_size=SECTOR))
    fs.mkfs()
    fs.mount()
    for path in sorted(files):
        folder = "/" + path.strip("/").rpartition("/")[0]
        if folder != "/":
            fs.makedirs(folder, exist_ok=True)
        data = files[path]
        if isinstance(data, str):
            with open(data, "rb") as f:
                data = f.read()
        fs.write_file("/" + path.strip("/"), data)
    fs.unmount()
    return bytes(storage)


def fat_files(flash):
    """{path: bytes} of every file on CIRCUITPY in a dump of the flash
    (Pico.flash()), read by FatFs as a computer would read the drive."""
    from fatfs import RamDisk, create_extended_partition
    storage = bytearray(flash[CP_FS_OFFSET:CP_FS_OFFSET + CP_FS_BYTES])
    fs = create_extended_partition(RamDisk(storage, sector_size=SECTOR))
    fs.mount()
    out = {}
    for folder, _, names in fs.walk("/"):
        for name in names:
            path = folder.rstrip("/") + "/" + name
            out[path] = fs.read_file(path)
    fs.unmount()
    return out


def pins_with_return(chain_return):
    """hardware/pins.py's text for a board with (or without) the 595
    chain's return line: NFC_CHAIN_RETURN set so."""
    with open(pins.__file__) as f:
        text = f.read()
    line = "NFC_CHAIN_RETURN = %s" % pins.NFC_CHAIN_RETURN
    if text.count(line) != 1:
        raise ValueError("hardware/pins.py: %r not found once" % line)
    return text.replace(line, "NFC_CHAIN_RETURN = %s" % bool(chain_return)).encode()


def cell_frame(wire):
    """The chain's bytes (G, R, B per LED, chain order) as the app's frame:
    R, G, B per cell (vortex.hal.pixels)."""
    out = bytearray(len(wire))
    for cell, led in enumerate(LED_MAP):
        o = led * 3
        out[cell * 3:cell * 3 + 3] = bytes((wire[o + 1], wire[o], wire[o + 2]))
    return bytes(out)


class Pico:
    """One emulated Pico from power-on (a context manager).

    files: {device path: local path or bytes} on top of the deploy tree
    (deploy=False: only these). autorun: main.py at the root, run at boot.
    firmware: the image to boot, a UF2 or a flat flash image (.bin), instead
    of MicroPython's; with deploy=False and no files, no filesystem is
    written over it (make uf2's file, a saved flash: they bring their own).
    reeds: the closed reed switches (cells, rank * 8 + file) at power-on.
    tiles: {cell: tag memory (tile(), ntag213()) or a list of them} at power-on.
    flash: the whole flash as power_cut() left it (bytes): booted as
    firmware is, with no filesystem written over it.
    cc_u16: what the ADC reads on pins.CC_SENSE (the USB-C source's CC
    level; 0 by default: nothing on CC).
    chain_return: the board has the 595 chain's return line on MISO
    (pins.NFC_CHAIN_RETURN by default); given otherwise, the deployed
    pins.py says so too, so the firmware and the model agree.
    Events gathered while it runs: .frames [(ns, bytes)], .scans [ns] (the
    first reed row driven), .tones [(ns, Hz, duty per mille)] (the square
    wave on pins.BUZZER as it changes; 0 Hz: still), .output (everything the
    USB port printed), .watchdog (ns of a watchdog reset, or None),
    .reeds_at / .tags_at / .buttons_at / .fault_at (ns when the last
    set_reeds(), set_tags(), press(), fault() took effect), .now (last
    device time seen). runtime: "micropython" (the default) or
    "circuitpython"."""

    def __init__(self, files=None, deploy=True, autorun=False, reeds=(), firmware=None,
                 runtime="micropython", tiles=None, flash=None, cc_u16=0, chain_return=None):
        why = missing(runtime)
        if why:
            raise Unavailable(why)
        self.runtime = runtime
        self.firmware = firmware or image(runtime)
        self.bootrom = device_images.locate("bootrom")
        self.files = dict(files or {})
        self.deploy = deploy
        self.chain_return = pins.NFC_CHAIN_RETURN if chain_return is None else bool(chain_return)
        self.autorun = autorun
        self.reeds = list(reeds)
        self.tiles = dict(tiles or {})
        self._whole = flash
        self.cc_u16 = cc_u16
        self.tones = []
        self.frames = []
        self.scans = []
        self.output = ""
        self.watchdog = None
        self.reeds_at = None
        self.tags_at = None
        self.buttons_at = None
        self.fault_at = None
        self.nfc_stats = None
        self.now = 0
        self.usb = False
        self._dumped = False
        self._events = queue.Queue()
        self._tmp = None
        self._proc = None

    # --- life -------------------------------------------------------------
    def __enter__(self):
        self._tmp = tempfile.mkdtemp(prefix="vortex-pico-")
        cp = self.runtime == "circuitpython"
        image = None
        if self._whole is not None:              # a power cut's flash, the power back
            self.firmware = os.path.join(self._tmp, "flash.bin")
            with open(self.firmware, "wb") as f:
                f.write(self._whole)
        else:
            files = (deploy_files(os.path.join(self._tmp, "tree"), self.runtime)
                     if self.deploy else {})
            script = "code.py" if cp else "main.py"
            if not self.autorun and script in files:
                files["lib/main.py"] = files.pop(script)
            files.update(self.files)
            if self.deploy and self.chain_return != pins.NFC_CHAIN_RETURN:
                files["pins.py"] = pins_with_return(self.chain_return)
            if self.deploy or files:
                image = os.path.join(self._tmp, "fs.img")
                with open(image, "wb") as f:
                    f.write(fat_image(files) if cp else fs_image(files))
        config = os.path.join(self._tmp, "config.json")
        with open(config, "w") as f:
            json.dump({"firmware": self.firmware, "bootrom": self.bootrom, "fsImage": image,
                       "fsOffset": CP_FS_OFFSET if cp else FS_OFFSET,
                       "ledPin": pins.LED_PIN, "ledCount": pins.LED_COUNT,
                       "reedRows": list(pins.REED_ROWS), "reedCols": list(pins.REED_COLS),
                       "nfc": {"spi": pins.NFC_SPI, "sck": pins.NFC_SCK, "mosi": pins.NFC_MOSI,
                               "miso": pins.NFC_MISO, "strobe": pins.NFC_STROBE,
                               "latch": pins.NFC_LATCH, "readers": pins.NFC_READERS,
                               "chainBytes": pins.NFC_CHAIN_BYTES, "chainReturn": self.chain_return},
                       "buzzerPin": pins.BUZZER, "adc": {pins.CC_SENSE: self.cc_u16}}, f)
        self._stderr = open(os.path.join(self._tmp, "stderr.txt"), "w+")
        self._proc = subprocess.Popen(["node", os.path.join(HERE, "pico.mjs"), config],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._stderr, text=True, encoding="latin-1")
        threading.Thread(target=self._read, daemon=True).start()
        for cell, mems in self.tiles.items():
            self.set_tags(cell, *(mems if isinstance(mems, list) else [mems]))
        if self.reeds:
            self.set_reeds(self.reeds)
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._proc is not None:
            self._proc.kill()  # however busy the emulator is
            self._proc.wait()
            self._proc = None
            self._stderr.close()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def _read(self):
        for line in self._proc.stdout:
            try:
                self._events.put(json.loads(line))
            except ValueError:
                self._events.put({"ev": "junk", "data": line})
        self._events.put({"ev": "exit"})

    def _send(self, **msg):
        self._proc.stdin.write(json.dumps(msg) + "\n")
        self._proc.stdin.flush()

    # --- events -------------------------------------------------------------
    def _take(self, timeout):
        """Handle events for up to timeout seconds; False if the emulator ended."""
        try:
            ev = self._events.get(timeout=max(timeout, 0))
        except queue.Empty:
            return True
        kind = ev["ev"]
        if "t" in ev:
            self.now = ev["t"]
        if kind == "serial":
            self.output += ev["data"]
        elif kind == "frame":
            self.frames.append((ev["t"], cell_frame(bytes.fromhex(ev["grb"]))))
        elif kind == "scan":
            self.scans.append(ev["t"])
        elif kind == "tone":
            self.tones.append((ev["t"], ev["hz"], ev["duty"]))
        elif kind == "reeds":
            self.reeds_at = ev["t"]
        elif kind == "tags":
            self.tags_at = ev["t"]
        elif kind == "buttons":
            self.buttons_at = ev["t"]
        elif kind == "fault":
            self.fault_at = ev["t"]
        elif kind == "nfcstats":
            self.nfc_stats = ev
        elif kind == "usb":
            self.usb = True
        elif kind == "watchdog":
            self.watchdog = ev["t"]
        elif kind == "dumped":
            self._dumped = True
        elif kind == "exit":
            self._stderr.seek(0)
            err = self._stderr.read()
            raise RuntimeError("the emulator stopped: %s" % (err.strip().splitlines() or ["?"])[-1])
        return True

    def wait(self, until, timeout):
        """Run until until() is true (True) or timeout wall seconds pass (False)."""
        end = time.monotonic() + timeout
        while not until():
            if self.watchdog is not None:
                return False
            left = end - time.monotonic()
            if left <= 0:
                return False
            self._take(min(left, 0.5))
        return True

    def drain(self):
        """Handle the events that have come, without waiting for more."""
        while not self._events.empty():
            self._take(0)

    def set_reeds(self, cells):
        """Close exactly these reed switches (cells), from now on (.reeds_at
        is None until they take effect)."""
        self.reeds_at = None
        self._send(reeds=sorted(cells))

    def set_tags(self, cell, *mems):
        """The NTAG213s lying on a cell from now on (tile(), ntag213(); none:
        the tile lifted; two: they collide). .tags_at is None until then."""
        self.tags_at = None
        self._send(tags={"cell": cell, "mems": [bytes(m).hex() for m in mems]})

    def press(self, *gpios):
        """Hold these buttons down (their GPIOs read low) from now on; none:
        all released. .buttons_at is None until then."""
        self.buttons_at = None
        self._send(buttons=sorted(gpios))

    def fault(self, **fault):
        """Inject an NFC fault (tools/pico/nfc.mjs FrontEnd.fault): reader=r,
        dead=bool (a reader that does not answer); cell=c with badCrc=bool,
        fail={"cmd": byte or None, "count": n} (its tags' next n frames get no
        answer), crosstalk=[cells whose coils also reach its tags]; chain=
        {"stuck": [byte, mask, value] or None, "slip": n, "broken": bool}
        (the 595 chain: outputs stuck, the next n bytes shifted with the
        strobe high each a bit too far, the return line open)."""
        self.fault_at = None
        self._send(fault=fault)

    def power_cut(self, timeout=60):
        """Cut the power now: the emulator stops where it is, and the whole
        flash as it was at that instant is returned (Pico(flash=...) boots
        it again)."""
        path = os.path.join(self._tmp, "cut.bin")
        self._dumped = False
        self._send(dump=path, bytes=FLASH_BYTES, stop=True)
        if not self.wait(lambda: self._dumped, timeout):
            raise Unavailable("the emulator did not stop in %d s" % timeout)
        with open(path, "rb") as f:
            data = f.read()
        self.close()
        return data

    def reader_stats(self, timeout=60):
        """What the NFC readers did since the last call (or power-on): {"since":
        ns, "t": ns, "wakes": [REQA/WUPA per cell], "gap": [the longest time
        between two, ns, per cell], "overcurrent": [per reader, since
        power-on: how often its field came on, or stayed on, with its rank's
        switch open (nfc.mjs: the fault hardware/README.md describes)]}, or
        None if the emulator did not say."""
        self.nfc_stats = None
        self._send(nfcstats=True)
        self.wait(lambda: self.nfc_stats is not None, timeout)
        return self.nfc_stats

    def write(self, data):
        """Bytes (str, latin-1) to the USB serial port."""
        self._send(serial=data)

    def save_flash(self, path, timeout=60):
        """Write the Pico's flash, as it is now, to path (a flat image that
        firmware=path boots: a power cut and the power back)."""
        self._dumped = False
        self._send(dump=os.path.abspath(path), bytes=FLASH_BYTES)
        if not self.wait(lambda: self._dumped, timeout):
            raise Unavailable("the emulator did not save its flash in %d s" % timeout)

    def flash(self, timeout=60):
        """The flash's bytes now (2 MB): the firmware, then the filesystem
        at FS_OFFSET (CP_FS_OFFSET for CircuitPython), as written so far."""
        path = os.path.join(self._tmp, "flash.bin")
        self.save_flash(path, timeout)
        with open(path, "rb") as f:
            return f.read()

    def repl(self, timeout=60):
        """Stop whatever runs and enter the raw REPL."""
        if not self.wait(lambda: self.usb, min(timeout, BOOT_SECONDS)):
            raise Unavailable("no USB port from the firmware in %d s: is %s a %s image?" % (
                min(timeout, BOOT_SECONDS), self.firmware,
                "CircuitPython" if self.runtime == "circuitpython" else "MicroPython rp2"))
        start = len(self.output)
        if self.runtime == "circuitpython":
            # Stopped (or done), code.py waits for a key before the REPL.
            self.write("\r\x03\x03")
            if not self.wait(lambda: self.output.endswith((">>> ", "Use CTRL-D to reload.\r\n"))
                             and len(self.output) > start, timeout):
                raise Unavailable("no REPL from the emulated Pico: %r" % self.output[-200:])
            if not self.output.endswith(">>> "):
                self.write("\r")
                if not self.wait(lambda: self.output.endswith(">>> "), timeout):
                    raise Unavailable("no REPL from the emulated Pico: %r" % self.output[-200:])
            start = len(self.output)
            self.write("\x01")
        else:
            self.write("\r\x03\x03\x01")
        if not self.wait(lambda: self.output.endswith("raw REPL; CTRL-B to exit\r\n>")
                         and len(self.output) > start, timeout):
            raise Unavailable("no raw REPL from the emulated Pico: %r" % self.output[-200:])

    def exec(self, code, timeout=120):
        """Run code in the raw REPL: Result(output, status, None, error)."""
        start = len(self.output)
        self.write(code + "\x04")

        def done():
            tail = self.output[start:]
            return tail.startswith("OK") and tail.count("\x04") >= 2 and tail.endswith(">")

        if not self.wait(done, timeout):
            status = WATCHDOG if self.watchdog is not None else TIMEOUT
            return Result(self.output[start + 2:], status)
        out, err, _ = self.output[start + 2:].split("\x04", 2)
        return Result(out, FAILED if err else OK, None, err)

    def heap(self, timeout=60):
        """(allocated, free) bytes after gc.collect()."""
        r = self.exec("import gc\ngc.collect()\nprint(gc.mem_alloc(), gc.mem_free())", timeout)
        if r.status:
            return None
        a, f = r.output.split()
        return int(a), int(f)


def run(script, files=None, timeout=300, deploy=True, runtime="micropython", tiles=None):
    """Boot a Pico with the deploy tree (and files, and tiles laid: Pico's),
    run script in its raw REPL, return Result(output, status, heap).
    timeout: wall seconds for the whole run, boot included."""
    end = time.monotonic() + timeout
    with Pico(files, deploy=deploy, runtime=runtime, tiles=tiles) as dev:
        dev.repl(timeout)
        r = dev.exec(script, end - time.monotonic())
        if r.status in (OK, FAILED):
            r.heap = dev.heap(max(end - time.monotonic(), 30))
        return r


def main(argv):
    """python3 tools/pico [--timeout S] [--runtime R] SCRIPT.py | -c CODE"""
    from host_sim import cli  # on sys.path through build_mpy
    ap = cli.parser("python3 tools/pico", (
        "Run a script on the emulated Pico (MicroPython rp2 firmware, or CircuitPython, in\n"
        "rp2040js), with the firmware deployed as tools/deploy.py sends it. Prints its output;\n"
        "the exit status is the script's (0 ok, 1 exception, 2 out of time, 3 watchdog reset)."))
    ap.add_argument("script", nargs="?", type=cli.text("script"),
                    help="a Python file to run on the device")
    ap.add_argument("-c", dest="code", help="code to run instead of a file")
    ap.add_argument("--timeout", type=cli.float_in(1, 86400, "timeout"), default=300,
                    help="wall seconds (default 300)")
    ap.add_argument("--runtime", default="micropython", choices=RUNTIMES,
                    help="the firmware to boot (default micropython)")
    args = ap.parse_args(argv)
    if not args.script and args.code is None:
        ap.error("give a script or -c CODE")
    code = args.code
    if code is None:
        try:
            with open(args.script) as f:
                code = f.read()
        except OSError as e:
            print("cannot read %s: %s" % (args.script, e.strerror), file=sys.stderr)
            return 2
    try:
        r = run(code, timeout=args.timeout, runtime=args.runtime)
    except (Unavailable, RuntimeError) as e:  # missing parts, or the emulator died
        print("emulated Pico: %s" % e, file=sys.stderr)
        return 2
    sys.stdout.write(r.output.replace("\r\n", "\n"))
    if r.error:
        sys.stderr.write(r.error.replace("\r\n", "\n"))
    if r.status == TIMEOUT:
        print("out of time after %g s" % args.timeout, file=sys.stderr)
    elif r.status == WATCHDOG:
        print("the watchdog reset the chip", file=sys.stderr)
    if r.heap:
        print("heap: %d bytes allocated, %d free" % r.heap, file=sys.stderr)
    return r.status
