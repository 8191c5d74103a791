"""The device images (tools/device_images.py) as a user's machine gets them:
from their release locations (here a local HTTP server on 127.0.0.1 laid out
as those sites are) into the user's cache, each checked by what it is and by
the hash recorded when it was first fetched. The fetching is tested with
small stand-ins (a UF2 for the RP2040 holding the runtime's banner, a boot
ROM whose hash the test sets); the real files, where a machine keeps copies
beside the checkout, are checked by the same checks."""
import hashlib
import http.server
import os
import re
import struct
import subprocess
import sys
import threading

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import device_images as di  # noqa: E402
import uf2  # noqa: E402

SHARED = di.shared_dir()
SHIPPED_ROM_SHA256 = di.BOOTROM_SHA256  # before fake_rom swaps in the stand-in's
MP_ASSET = "resources/firmware/RPI_PICO-20261130-v1.28.0.uf2"


def fake_uf2(banner):
    """A UF2 for the RP2040 whose image holds a runtime's banner (16 blocks)."""
    return uf2.write([(0x10000000, (bytes(300) + banner + b"\0").ljust(4096, b"\xff"))], uf2.RP2040)


FAKE = {"micropython": fake_uf2(b"MicroPython v1.28.0 on 2026-11-30; Raspberry Pi Pico with "
                                b"RP2040"),
        "circuitpython": fake_uf2(b"Adafruit CircuitPython 10.2.1 on 2026-12-01; Raspberry Pi "
                                  b"Pico with rp2040"),
        "bootrom": bytes(range(256)) * 64}


@pytest.fixture(autouse=True)
def fake_rom(monkeypatch):
    """The stand-in boot ROM's hash as the B1's."""
    monkeypatch.setattr(di, "BOOTROM_SHA256", hashlib.sha256(FAKE["bootrom"]).hexdigest())


def real(key):
    return FAKE[key]


def elf(rom):
    """An ELF32 file holding rom at address 0, as raspberrypi/pico-bootrom's
    releases do (b1.elf): one PT_LOAD segment at file offset 0x10000."""
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    header = ident + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 52, 0, 0, 52, 32, 1, 40, 0, 0)
    ph = struct.pack("<8I", 1, 0x10000, 0, 0, len(rom), len(rom), 5, 4)
    return (header + ph).ljust(0x10000, b"\0") + rom


class Site:
    """A local server laid out as the release sites are: files by path."""

    def __init__(self, root):
        self.root = root
        handler = type("Quiet", (http.server.SimpleHTTPRequestHandler,),
                       {"log_message": lambda *a: None})
        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), lambda *a: handler(*a, directory=str(root)))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]

    def put(self, path, data):
        full = self.root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(data)

    def release(self, micropython=None, circuitpython=None, rom=None):
        """The three releases where their sites have them (the MicroPython
        download page names its file with the build's date)."""
        self.put("download/RPI_PICO/index.html", (
            '<html><a href="/%s">v1.28.0 (2026-11-30) .uf2</a>'
            '<a href="/resources/firmware/RPI_PICO-20250101-v1.27.0.uf2">v1.27.0</a></html>'
            % MP_ASSET).encode())
        self.put(MP_ASSET, micropython or real("micropython"))
        self.put("bin/raspberry_pi_pico/en_US/adafruit-circuitpython-raspberry_pi_pico-en_US-"
                 "10.2.1.uf2", circuitpython or real("circuitpython"))
        self.put("raspberrypi/pico-bootrom/releases/download/b1/b1.elf",
                 elf(rom or real("bootrom")))


@pytest.fixture()
def site(tmp_path):
    s = Site(tmp_path / "site")
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


@pytest.fixture()
def cache(tmp_path):
    return str(tmp_path / "cache")


def get(key, site, cache, env=None, shared=None):
    return di.locate(key, cache=cache, base=site.url if site else "http://127.0.0.1:1",
                     shared=shared, env=env or {})


def recorded(cache, name):
    with open(os.path.join(cache, name + ".sha256")) as f:
        return f.read().split()[0]


@pytest.mark.parametrize("key", ["micropython", "circuitpython", "bootrom"])
def test_a_good_release_is_fetched_checked_cached_and_its_hash_recorded(site, cache, key):
    site.release()
    path = get(key, site, cache)
    assert os.path.dirname(path) == cache
    with open(path, "rb") as f:
        data = f.read()
    assert data == real(key)
    assert recorded(cache, os.path.basename(path)) == hashlib.sha256(data).hexdigest()
    site.httpd.shutdown()  # from now on the cache answers
    assert get(key, None, cache) == path


def _corrupt_family(data):
    out = bytearray(data)
    struct.pack_into("<I", out, 5 * uf2.BLOCK + 28, 0x68ED2B88)  # another chip's family id
    return bytes(out)


@pytest.mark.parametrize("key, bad, why", [
    ("micropython", lambda d: _corrupt_family(d), "family"),
    ("micropython", lambda d: d.replace(b"MicroPython v1.28.0", b"MicroPython v1.27.0"),
     "MicroPython v1.28.0"),
    ("micropython", lambda d: d[:-100], "UF2"),
    ("circuitpython", lambda d: d.replace(b"CircuitPython 10.2.1", b"CircuitPython 10.2.0"),
     "CircuitPython 10.2.1"),
    ("bootrom", lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "sha256"),
    ("bootrom", lambda d: d + b"\0" * 16, "16384"),
])
def test_a_corrupt_release_is_refused_and_nothing_cached(site, cache, key, bad, why):
    site.release(**{{"bootrom": "rom"}.get(key, key): bad(real(key))})
    with pytest.raises(di.Refused) as e:
        get(key, site, cache)
    line = str(e.value)
    assert "\n" not in line and why in line, line
    assert not os.path.isdir(cache) or os.listdir(cache) == []


@pytest.mark.parametrize("reachable", [True, False], ids=["404", "refused"])
@pytest.mark.parametrize("key", ["micropython", "circuitpython", "bootrom"])
def test_no_release_to_be_had_says_in_one_line_what_to_download_and_where(site, cache, key,
                                                                           reachable):
    with pytest.raises(di.Missing) as e:
        get(key, site if reachable else None, cache)
    assert not isinstance(e.value, di.Refused)  # nothing here: the device tests skip
    line = str(e.value)
    image = di.IMAGES[key]
    assert "\n" not in line and image.source in line and os.path.join(cache, image.asset) in line \
        and image.env in line, line
    assert "shared" not in line  # the team's copies are no user's business


def test_a_cached_file_that_changed_is_refused(site, cache):
    site.release()
    path = get("micropython", site, cache)
    data = bytearray(real("micropython"))
    data[-600] ^= 1  # a byte of the last block's payload: still a whole UF2
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(di.Refused) as e:
        get("micropython", site, cache)
    assert "changed since it was fetched" in str(e.value) and path in str(e.value)


def test_a_file_put_in_the_cache_by_hand_is_checked_and_its_hash_recorded(cache):
    os.makedirs(cache)
    elf_path = os.path.join(cache, di.IMAGES["bootrom"].asset)
    with open(elf_path, "wb") as f:
        f.write(elf(real("bootrom")))  # the release's b1.elf, as the one line says
    path = get("bootrom", None, cache)
    assert open(path, "rb").read() == real("bootrom") and recorded(cache, "rp2040-bootrom-b1.bin")
    with open(os.path.join(cache, di.IMAGES["micropython"].asset), "wb") as f:
        f.write(real("circuitpython"))  # the wrong file saved under the right name
    with pytest.raises(di.Refused) as e:
        get("micropython", None, cache)
    assert "MicroPython v1.28.0" in str(e.value)


def test_the_environment_names_a_file_that_is_checked_the_same_way(tmp_path, cache):
    mine, other = tmp_path / "mine.uf2", tmp_path / "other.uf2"
    mine.write_bytes(FAKE["micropython"])
    other.write_bytes(FAKE["circuitpython"])
    assert get("micropython", None, cache, {"VORTEX_PICO_UF2": str(mine)}) == str(mine)
    with pytest.raises(di.Refused) as e:
        get("micropython", None, cache, {"VORTEX_PICO_UF2": str(other)})
    assert "VORTEX_PICO_UF2" in str(e.value) and "MicroPython v1.28.0" in str(e.value)
    with pytest.raises(di.Refused) as e:  # named by the user: never a reason to skip
        get("bootrom", None, cache, {"VORTEX_PICO_BOOTROM": "/nowhere/rom.bin"})
    assert "VORTEX_PICO_BOOTROM" in str(e.value) and "/nowhere/rom.bin" in str(e.value)
    assert not os.path.exists(cache)  # nothing fetched, nothing cached


def test_copies_beside_the_checkout_are_the_last_place_looked_and_go_into_the_cache(tmp_path,
                                                                                     cache):
    copies = tmp_path / "copies"
    copies.mkdir()
    (copies / "circuitpython-raspberry_pi_pico-10.2.1.uf2").write_bytes(FAKE["circuitpython"])
    (copies / "rp2040-bootrom-b1.bin").write_bytes(bytes(16384))
    path = get("circuitpython", None, cache, shared=str(copies))
    assert os.path.dirname(path) == cache and open(path, "rb").read() == FAKE["circuitpython"]
    with pytest.raises(di.Refused):
        get("bootrom", None, cache, shared=str(copies))
    assert not os.path.exists(os.path.join(cache, "rp2040-bootrom-b1.bin"))


def real_copies():
    """{image key: [paths]} of the real images on this machine: the user's
    cache, the copies beside the checkout."""
    out = {}
    for key, image in di.IMAGES.items():
        for path in (os.path.join(di.cache_dir(), image.name), os.path.join(SHARED, image.shared)):
            if os.path.isfile(path):
                out.setdefault(key, []).append(path)
    return out


REAL = real_copies()


@pytest.mark.skipif(not REAL, reason="no real image on this machine, cached or beside the "
                    "checkout (the fetching is tested with stand-ins)")
def test_the_real_images_pass_their_checks_as_shipped_and_only_their_own(monkeypatch):
    # The checks as the module has them: the boot ROM's own hash included.
    # (A wrong one refuses every real ROM; the device tests then fail, never
    # skip: test_offline.)
    monkeypatch.setattr(di, "BOOTROM_SHA256", SHIPPED_ROM_SHA256)
    for key, paths in REAL.items():
        image = di.IMAGES[key]
        for path in paths:
            with open(path, "rb") as f:
                data = f.read()
            assert image.check(data) is None, (path, image.check(data))
            for other in di.IMAGES.values():
                if other is not image:
                    assert other.check(data), (path, other.name)


# Banners of v1.28.0 and 10.2.1 builds for other RP2040 boards (their board
# names as the ports' mpconfigboard.h give them), and for the RP2350.
OTHER_BOARDS = ["Raspberry Pi Pico W", "Pimoroni Pico LiPo 16MB", "Arduino Nano RP2040 Connect",
                "SparkFun Pro Micro RP2040", "Raspberry Pi Pico2", "Raspberry Pi Pico 2"]


@pytest.mark.parametrize("board", OTHER_BOARDS)
def test_the_same_release_for_another_board_is_refused(site, cache, board):
    mp = fake_uf2(b"MicroPython v1.28.0 on 2026-11-30; %s with RP2040" % board.encode())
    cp = fake_uf2(b"Adafruit CircuitPython 10.2.1 on 2026-12-01; %s with rp2040" % board.encode())
    site.release(micropython=mp, circuitpython=cp)
    for key in ("micropython", "circuitpython"):
        with pytest.raises(di.Refused) as e:
            get(key, site, cache)
        assert ("not built for raspberry pi pico with rp2040 but for %s with rp2040" % board).lower() \
            in str(e.value).lower(), str(e.value)
        assert not os.path.isdir(cache) or os.listdir(cache) == []
    chip = fake_uf2(b"MicroPython v1.28.0 on 2026-11-30; Raspberry Pi Pico with RP2350")
    assert di.IMAGES["micropython"].check(chip).endswith("but for Raspberry Pi Pico with RP2350")
    nameless = fake_uf2(b"MicroPython v1.28.0 on 2026-11-30")
    assert di.IMAGES["micropython"].check(nameless).endswith("but for no board its banner names")


def test_make_uf2_without_an_image_says_what_to_download_in_one_line(tmp_path):
    p = subprocess.run([sys.executable, "tools/build_uf2.py", "--out", str(tmp_path)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, VORTEX_PICO_UF2=str(tmp_path / "none.uf2")))
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert "VORTEX_PICO_UF2" in p.stderr and "none.uf2" in p.stderr, p.stderr


def test_no_user_document_sends_a_person_to_the_teams_copies():
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            with open(os.path.join(docs, name)) as f:
                assert "shared/device" not in f.read(), name


def test_a_site_given_with_a_trailing_slash_serves_the_same(site, cache):
    with pytest.raises(di.Missing) as e:          # (the URL asked for: one slash)
        di.locate("circuitpython", cache=cache, base=site.url + "/", shared=None, env={})
    assert "(%s/bin/raspberry_pi_pico/" % site.url in str(e.value), str(e.value)
    site.release()
    path = di.locate("circuitpython", cache=cache, base=site.url + "/", shared=None, env={})
    assert open(path, "rb").read() == real("circuitpython")


def test_a_page_without_the_release_s_link_is_no_image_and_nothing_is_cached(site, cache):
    site.put("download/RPI_PICO/index.html", b'<a href="/resources/firmware/RPI_PICO-20250101-v1.27.0.uf2">')
    with pytest.raises(di.Missing) as e:
        get("micropython", site, cache)
    assert not isinstance(e.value, di.Refused)
    assert "https://micropython.org/download/RPI_PICO/ lists no v1.28.0 .uf2" in str(e.value)
    assert not os.path.exists(cache)


def test_a_write_that_fails_leaves_neither_the_file_nor_a_part_of_it(tmp_path, monkeypatch):
    def full(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(di.os, "replace", full)
    with pytest.raises(OSError):
        di._write(str(tmp_path / "cache" / "x.bin"), b"data")
    assert os.listdir(tmp_path / "cache") == []


def test_the_cache_is_xdg_cache_home_s_vortex_else_the_home_s():
    assert di.cache_dir({"XDG_CACHE_HOME": "/c"}) == "/c/vortex"
    assert di.cache_dir({"XDG_CACHE_HOME": ""}) == os.path.join(os.path.expanduser("~"), ".cache", "vortex")
    assert di.cache_dir({}) == os.path.join(os.path.expanduser("~"), ".cache", "vortex")


@pytest.mark.parametrize("layout", ["beside", "worktree", "none", "worktree and beside"])
def test_the_copies_are_looked_for_beside_the_checkout_or_beside_its_main_checkout(tmp_path, monkeypatch,
                                                                                    layout):
    main = tmp_path / "work" / "main"
    (main / ".git" / "worktrees" / "wt").mkdir(parents=True)
    tree = tmp_path / "work" / "wt" / "mine" if "worktree" in layout else main
    tree.mkdir(parents=True, exist_ok=True)
    if "worktree" in layout:
        (tree / ".git").write_text("gitdir: %s\n" % (main / ".git" / "worktrees" / "wt"))
    beside = tree.parent / "shared" / "device"
    theirs = main.parent / "shared" / "device"
    if layout == "worktree":
        theirs.mkdir(parents=True)
    elif layout != "none":
        beside.mkdir(parents=True)
    monkeypatch.setattr(di, "ROOT", str(tree))
    want = theirs if layout == "worktree" else beside
    assert di.shared_dir() == str(want)


def test_an_image_s_asset_is_its_own_name_unless_its_release_names_it_otherwise():
    plain = di.Image("a.uf2", "A", "VORTEX_A", "https://x/a.uf2", "a.uf2", lambda d: None)
    assert plain.asset == "a.uf2" and plain.from_asset(b"x") == b"x"
    rom = di.BootRom("rom.bin", "ROM", "VORTEX_R", "https://x/b1.elf", "rom.bin", di.check_bootrom,
                     asset="b1.elf")
    assert rom.asset == "b1.elf" and rom.name == "rom.bin" and rom.shared == "rom.bin"
    assert (rom.env, rom.source, rom.what) == ("VORTEX_R", "https://x/b1.elf", "ROM")
    with pytest.raises(di.Refused, match="^b1.elf: not a 32-bit little-endian ELF file$"):
        rom.from_asset(b"MZ not an ELF")


@pytest.mark.parametrize("family, why", [
    (0x68ED2B88, "a block for family id 0x68ed2b88, not the RP2040's 0xe48bff56"),
    (None, "a block for family id none, not the RP2040's 0xe48bff56"),
])
def test_a_uf2_for_another_chip_is_refused_naming_its_family(family, why):
    data = bytearray(FAKE["micropython"])
    if family is None:   # no family id: the flag off
        struct.pack_into("<I", data, 3 * uf2.BLOCK + 8, 0)
    else:
        struct.pack_into("<I", data, 3 * uf2.BLOCK + 28, family)
    assert di.IMAGES["micropython"].check(bytes(data)) == why


def _elf(segments):
    """An ELF32 file with PT_LOAD segments [(address, bytes)]."""
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    header = ident + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 52, 0, 0, 52, 32, len(segments), 40, 0, 0)
    at = 0x1000
    table, body = b"", b""
    for address, data in segments:
        table += struct.pack("<8I", 1, at + len(body), address, address, len(data), len(data), 5, 4)
        body += data
    return (header + table).ljust(at, b"\0") + body


def test_the_boot_rom_is_what_an_elf_loads_below_the_flash_window_alone():
    rom = bytes(range(256)) * 64
    data = _elf([(0, rom[:8192]), (8192, rom[8192:]), (di.ROM_END, b"flash" * 100), (0x20000000, b"ram")])
    assert di.rom_of_elf(data) == rom
    assert di.rom_of_elf(_elf([(0x100, b"\x01\x02")])) == bytes(0x100) + b"\x01\x02"   # a gap: zeros
    with pytest.raises(ValueError, match="^no segment loaded at the boot ROM's addresses$"):
        di.rom_of_elf(_elf([(di.ROM_END, b"flash")]))
    with pytest.raises(ValueError, match="^a segment past the end of the file$"):
        di.rom_of_elf(_elf([(0, rom)])[:-10])
    with pytest.raises(ValueError, match="^not a 32-bit little-endian ELF file$"):
        di.rom_of_elf(b"\x7fELF\x02\x01" + bytes(100))


@pytest.mark.parametrize("key, download", [
    ("micropython", "download the .uf2 from https://micropython.org/download/RPI_PICO/ and save it as "),
    ("circuitpython", "download the .uf2 from https://downloads.circuitpython.org/bin/raspberry_pi_pico/"
                      "en_US/adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2 and save it as "),
    ("bootrom", "download b1.elf from https://github.com/raspberrypi/pico-bootrom/releases/download/b1/"
                "b1.elf and save it as "),
])
def test_the_one_line_says_why_nothing_came_and_what_to_save_where(site, cache, key, download):
    with pytest.raises(di.Missing) as e:
        get(key, site, cache)                      # a site without the release: 404
    line = str(e.value)
    assert ": HTTP 404)" in line and download in line, line
    with pytest.raises(di.Missing) as e:
        get(key, None, cache)                      # nothing listening
    assert re.search(r"\(http://127\.0\.0\.1:1/\S+: \[Errno \d+\] Connection refused\)", str(e.value)), \
        str(e.value)                               # the reason, not the exception's repr


def test_a_site_that_never_answers_is_given_up_after_the_timeout(cache, monkeypatch):
    import socket
    import time
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)                               # accepts, never answers
    monkeypatch.setattr(di, "TIMEOUT_S", 0.5)
    t0 = time.monotonic()
    try:
        with pytest.raises(di.Missing) as e:
            di.locate("bootrom", cache=cache, base="http://127.0.0.1:%d" % silent.getsockname()[1],
                      shared=None, env={})
    finally:
        silent.close()
    assert time.monotonic() - t0 < 10 and "timed out" in str(e.value), str(e.value)
