"""The device images the emulated Pico and `make uf2` start from, fetched
where they are released into the user's cache and checked before each use.

    import device_images
    path = device_images.locate("micropython")   # or "circuitpython", "bootrom"
    # device_images.Missing: one line saying why, and what to download where;
    # device_images.Refused (a Missing) when a file is there but not the image

    micropython    MicroPython v1.28.0 for RPI_PICO, the .uf2 of its download
                   page (micropython.org/download/RPI_PICO/)
    circuitpython  CircuitPython 10.2.1 for the Raspberry Pi Pico, en_US
                   (downloads.circuitpython.org)
    bootrom        the RP2040's B1 boot ROM, the 16 KiB at address 0 of b1.elf
                   in raspberrypi/pico-bootrom's releases (rp2040js needs it
                   and does not ship it)

Where each is looked for, in order: the environment (VORTEX_PICO_UF2,
VORTEX_PICO_CP_UF2, VORTEX_PICO_BOOTROM: a file of one's own); the cache
($XDG_CACHE_HOME/vortex, else ~/.cache/vortex), which also takes a file a
person downloaded and saved there; the release itself, fetched (urllib,
with a timeout); last, copies kept beside the checkout (../shared/device,
on machines that have them). Every file is checked for what it is before
it is used: a UF2 for the RP2040 (its family id on every block) holding
the runtime and version it should; the boot ROM by its size and sha256.
A file that enters the cache has its sha256 recorded beside it
(NAME.sha256), and a cached file whose hash has changed since is refused.
An image that is nowhere to be had is Missing (the device tests skip,
saying why); a file that is there but refused is Refused, a Missing that
the tests never skip over: a damaged cache or a wrong check fails them.
Writes into the cache are atomic: a file appears whole or not at all.
Standard library only.
"""
import hashlib
import os
import re
import struct
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import uf2  # noqa: E402

TIMEOUT_S = 20  # a request's, connecting or reading
MAX_BYTES = 8 << 20  # the largest image is 1.9 MB: anything far bigger is not one
BOOTROM_BYTES = 16384
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"  # B1
ROM_END = 0x10000000  # the boot ROM's segments lie below the flash (XIP) window


class Missing(Exception):
    """An image that cannot be had, or is not what it should be: str(e) is one line."""


class Refused(Missing):
    """A file that is there (named, cached, fetched or a copy) but is not the
    image: a damaged or changed file, or a check that is wrong. Unlike an
    image that is simply absent, this is never a reason to skip a test."""


class Unavailable(Exception):
    """A fetch that got nothing (no network, no such file): its reason."""


def cache_dir(env=os.environ):
    """$XDG_CACHE_HOME/vortex, else ~/.cache/vortex."""
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "vortex")


def shared_dir():
    """../shared/device beside the checkout (for a git worktree, whose .git
    is a file naming the main checkout's, beside that one where it is not
    beside this): the copies some machines keep."""
    here = os.path.join(os.path.dirname(ROOT), "shared", "device")
    try:
        with open(os.path.join(ROOT, ".git")) as f:
            gitdir = f.read().split("gitdir:", 1)[1].strip()
    except (OSError, IndexError):
        return here
    main = gitdir.split(os.sep + ".git" + os.sep)[0]
    there = os.path.join(os.path.dirname(main), "shared", "device")
    return here if os.path.isdir(here) or not os.path.isdir(there) else there


# --- what each file must be -------------------------------------------------------
BANNER_BOARD = re.compile(rb"; ([ -~]{1,60}?) with (\w+)\0")  # the banner's "; BOARD with MCU"


def check_uf2(data, version, board):
    """Why data is not a UF2 for the RP2040 whose firmware holds the version
    string and whose banner names the board ("Raspberry Pi Pico with
    RP2040", bytes, whole: the Pico W's build is refused), or None if it is."""
    try:
        blocks = [b for b in uf2.read(data) if not b.flags & uf2.NOT_MAIN_FLASH]
    except uf2.Uf2Error as e:
        return str(e)
    for b in blocks:
        if b.family != uf2.RP2040:
            return "a block for family id %s, not the RP2040's 0x%08x" % (
                "none" if b.family is None else "0x%08x" % b.family, uf2.RP2040)
    image = b"".join(b.payload for b in sorted(blocks))
    if version not in image:
        return "no %r inside: it is not %s" % (version.decode(), version.decode())
    built = [m.group(1) + b" with " + m.group(2) for m in BANNER_BOARD.finditer(image)]
    if board not in built:
        return "not built for %s but for %s" % (
            board.decode(), " or ".join(b.decode() for b in built) or "no board its banner names")
    return None


def check_bootrom(data):
    if len(data) != BOOTROM_BYTES:
        return "%d bytes, not the boot ROM's %d" % (len(data), BOOTROM_BYTES)
    digest = hashlib.sha256(data).hexdigest()
    if digest != BOOTROM_SHA256:
        return "sha256 %s, not the B1 boot ROM's %s" % (digest, BOOTROM_SHA256)
    return None


def rom_of_elf(data):
    """The bytes an ELF32 file (little-endian) loads below the flash window:
    the boot ROM of raspberrypi/pico-bootrom's bN.elf. Raises ValueError."""
    if data[:6] != b"\x7fELF\x01\x01":
        raise ValueError("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    rom = bytearray()
    for i in range(phnum):
        at = phoff + i * phentsize
        kind, offset, _, paddr, filesz, _, _, _ = struct.unpack_from("<8I", data, at)
        if kind == 1 and paddr < ROM_END and filesz:  # PT_LOAD, in the ROM
            if offset + filesz > len(data):
                raise ValueError("a segment past the end of the file")
            rom[len(rom):] = bytes(max(0, paddr + filesz - len(rom)))
            rom[paddr:paddr + filesz] = data[offset:offset + filesz]
    if not rom:
        raise ValueError("no segment loaded at the boot ROM's addresses")
    return bytes(rom)


class Image:
    """One image: name (in the cache), asset (the file as its release page
    gives it, which a person may save in the cache), what it is (words),
    env (the variable naming a file of one's own), source (where a person
    gets it), shared (its name among the copies beside the checkout)."""

    def __init__(self, name, what, env, source, shared, check, asset=None):
        self.name = name
        self.what = what
        self.env = env
        self.source = source
        self.shared = shared
        self._check = check
        self.asset = asset or name

    def check(self, data):
        """Why data is not this image, or None."""
        return self._check(data)

    def from_asset(self, data):
        """The image from the release's own file (the same, but for the boot ROM)."""
        return data

    def fetch(self, get):
        """The release's bytes, get(url) -> bytes fetching."""
        return get(self.source)


class MicroPython(Image):
    # The download page names its file with the build date: the link is read there.
    LINK = re.compile(r'href="([^"]*/RPI_PICO-\d{8}-v1\.28\.0\.uf2)"')

    def fetch(self, get):
        page = get(self.source).decode("utf-8", "replace")
        found = self.LINK.search(page)
        if not found:
            raise Unavailable("%s lists no v1.28.0 .uf2" % self.source)
        return get(urllib.parse.urljoin(self.source, found.group(1)))


class BootRom(Image):
    def from_asset(self, data):
        try:
            return rom_of_elf(data)
        except (ValueError, struct.error) as e:
            raise Refused("%s: %s" % (self.asset, e))


IMAGES = {
    "micropython": MicroPython(
        "RPI_PICO-v1.28.0.uf2", "MicroPython v1.28.0 for the Raspberry Pi Pico (RPI_PICO)",
        "VORTEX_PICO_UF2", "https://micropython.org/download/RPI_PICO/", "RPI_PICO-v1.28.0.uf2",
        lambda d: check_uf2(d, b"MicroPython v1.28.0 on ", b"Raspberry Pi Pico with RP2040")),
    "circuitpython": Image(
        "adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2",
        "CircuitPython 10.2.1 for the Raspberry Pi Pico", "VORTEX_PICO_CP_UF2",
        "https://downloads.circuitpython.org/bin/raspberry_pi_pico/en_US/"
        "adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2",
        "circuitpython-raspberry_pi_pico-10.2.1.uf2",
        lambda d: check_uf2(d, b"CircuitPython 10.2.1 on ", b"Raspberry Pi Pico with rp2040")),
    "bootrom": BootRom(
        "rp2040-bootrom-b1.bin", "RP2040 B1 boot ROM", "VORTEX_PICO_BOOTROM",
        "https://github.com/raspberrypi/pico-bootrom/releases/download/b1/b1.elf",
        "rp2040-bootrom-b1.bin", check_bootrom, asset="b1.elf"),
}
_TEAM = object()  # locate()'s default: the copies beside the checkout, if any


# --- the cache ----------------------------------------------------------------------
def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    """Write path whole or not at all (a temporary file renamed over it)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _record(path, data):
    _write(path + ".sha256", ("%s  %s\n" % (hashlib.sha256(data).hexdigest(),
                                             os.path.basename(path))).encode())


def _store(cache, image, data):
    path = os.path.join(cache, image.name)
    _write(path, data)
    _record(path, data)
    return path


def _cached(cache, image):
    """The cached file's path, checked; None if there is none."""
    path = os.path.join(cache, image.name)
    if not os.path.isfile(path):
        asset = os.path.join(cache, image.asset)
        if image.asset == image.name or not os.path.isfile(asset):
            return None
        data = image.from_asset(_read(asset))  # saved there by hand, as the release has it
        why = image.check(data)
        if why:
            raise Refused("%s: %s (expected: %s)" % (asset, why, image.what))
        return _store(cache, image, data)
    data = _read(path)
    digest = hashlib.sha256(data).hexdigest()
    try:
        was = _read(path + ".sha256").split()[0].decode()
    except (OSError, IndexError):
        was = None
    if was is not None and was != digest:
        raise Refused("%s changed since it was fetched (sha256 %s then, %s now): delete it to "
                      "fetch it again" % (path, was, digest))
    why = image.check(data)
    if why:
        raise Refused("%s: %s (expected: %s): delete it to fetch it again" % (
            path, why, image.what))
    if was is None:  # put there by hand: its hash from now on
        _record(path, data)
    return path


# --- fetching -------------------------------------------------------------------------
def _getter(base):
    """get(url) -> bytes, from base instead of the URL's own site when base is given."""
    def get(url):
        if base:
            parts = urllib.parse.urlsplit(url)
            url = base.rstrip("/") + parts.path + ("?" + parts.query if parts.query else "")
        try:
            with urllib.request.urlopen(url, timeout=TIMEOUT_S) as r:
                data = r.read(MAX_BYTES + 1)
        except urllib.error.HTTPError as e:
            raise Unavailable("%s: HTTP %d" % (url, e.code))
        except (urllib.error.URLError, OSError) as e:  # no network, refused, timed out
            raise Unavailable("%s: %s" % (url, getattr(e, "reason", e)))
        if len(data) > MAX_BYTES:
            raise Unavailable("%s: over %d bytes" % (url, MAX_BYTES))
        return data
    return get


def locate(key, cache=None, base=None, shared=_TEAM, env=os.environ):
    """The path of a checked image (IMAGES' key), fetched into the cache if
    need be; Missing (one line) when none can be had or one is not what it
    should be. cache, base (a site standing in for the release sites),
    shared (a folder of copies, None: none) and env: for tests."""
    image = IMAGES[key]
    own = env.get(image.env)
    if own:
        if not os.path.isfile(own):
            raise Refused("no file at %s (%s)" % (own, image.env))
        why = image.check(_read(own))
        if why:
            raise Refused("%s (%s): %s (expected: %s)" % (own, image.env, why, image.what))
        return own
    cache = cache or cache_dir(env)
    path = _cached(cache, image)
    if path:
        return path
    try:
        data = image.from_asset(image.fetch(_getter(base)))
    except Unavailable as e:
        reason = str(e)
    else:
        why = image.check(data)
        if why:
            raise Refused("refused %s from %s: %s (expected: %s)" % (
                image.asset, image.source, why, image.what))
        return _store(cache, image, data)
    folder = shared_dir() if shared is _TEAM else shared
    copy = os.path.join(folder, image.shared) if folder else None
    if copy and os.path.isfile(copy):
        data = _read(copy)
        why = image.check(data)
        if why:
            raise Refused("%s: %s (expected: %s)" % (copy, why, image.what))
        return _store(cache, image, data)
    raise Missing("no %s here and none could be fetched (%s): download %s from %s and save it "
                  "as %s, or set %s to a copy" % (
                      image.what, reason, image.asset if image.asset != image.name else "the .uf2",
                      image.source, os.path.join(cache, image.asset), image.env))
