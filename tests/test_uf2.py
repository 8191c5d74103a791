"""make uf2: the UF2 writer against the format's fields (github.com/microsoft/uf2),
the checks of the MicroPython UF2 it starts from, and the file it builds,
read back: MicroPython's blocks unchanged, then a littlefs2 filesystem holding
what `make flash` sends. (tests/test_device.py boots it on the emulated Pico.)"""
import hashlib
import os
import struct
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_uf2  # noqa: E402
import deploy  # noqa: E402
import flash_layout  # noqa: E402
import uf2  # noqa: E402
from host_sim.cli import Failure  # noqa: E402

FIELDS = struct.Struct("<8I")


def test_every_block_has_the_specified_fields():
    data = uf2.write([(0x10000000, bytes(range(256)) * 2 + b"tail"), (0x10100000, b"\x01" * 256)],
                     uf2.RP2040)
    assert len(data) == 4 * 512
    for n in range(4):
        block = data[n * 512:(n + 1) * 512]
        start0, start1, flags, address, size, number, count, family = FIELDS.unpack_from(block)
        assert (start0, start1) == (0x0A324655, 0x9E5D5157)
        assert struct.unpack_from("<I", block, 508)[0] == 0x0AB16F30
        assert flags == 0x00002000 and family == 0xE48BFF56  # a family id, the RP2040's
        assert (size, number, count) == (256, n, 4)
        assert address == [0x10000000, 0x10000100, 0x10000200, 0x10100000][n]
        assert block[32 + 256:508] == bytes(508 - 288)  # zeros after the payload
    assert data[32:32 + 256] == bytes(range(256))
    assert data[3 * 512 - 480:3 * 512 - 480 + 256] == b"tail" + b"\xff" * 252  # erased flash


def test_what_is_written_reads_back():
    chunks = [(0x10000000, os.urandom(1000)), (0x10080000, os.urandom(512))]
    blocks = uf2.read(uf2.write(chunks, uf2.RP2040))
    assert [b.address for b in blocks] == [0x10000000 + 256 * i for i in range(4)] + [0x10080000,
                                                                                   0x10080100]
    assert all(b.family == uf2.RP2040 and b.flags == uf2.FAMILY_ID_PRESENT for b in blocks)
    assert b"".join(b.payload for b in blocks[:4])[:1000] == chunks[0][1]
    with pytest.raises(ValueError, match="not on a 256-byte page"):
        uf2.write([(0x10000010, b"x")], uf2.RP2040)


def damaged(data, at, value):
    out = bytearray(data)
    struct.pack_into("<I", out, at, value)
    return bytes(out)


@pytest.mark.parametrize("change, why", [
    (lambda d: d[:-1], "not a whole number of 512-byte blocks"),
    (lambda d: b"", "not a whole number"),
    (lambda d: damaged(d, 0, 0), "block 0: not a UF2 block"),
    (lambda d: damaged(d, 512 + 508, 0), "block 1: not a UF2 block"),
    (lambda d: damaged(d, 16, 477), "block 0: payload of 477 bytes"),
    (lambda d: damaged(d, 512 + 20, 0), "block 1 says it is block 0 of 2"),
    (lambda d: damaged(d, 24, 3), "block 0 says it is block 0 of 3, in a file of 2"),
])
def test_a_damaged_file_is_refused_saying_where(change, why):
    data = uf2.write([(0x10000000, bytes(512))], uf2.RP2040)
    with pytest.raises(uf2.Uf2Error, match=why):
        uf2.read(change(data))


BANNER = b"MicroPython v1.28.0 on 2026-11-30\0; Raspberry Pi Pico with RP2040\0"


def firmware(payload=BANNER, address=0x10000000, family=uf2.RP2040):
    return uf2.write([(address, payload.ljust(1024, b"\0"))], family)


def test_micropython_for_the_pico_is_taken():
    blocks, what = build_uf2.check_micropython(firmware())
    assert what == "MicroPython v1.28.0 for Raspberry Pi Pico with RP2040" and len(blocks) == 4


@pytest.mark.parametrize("data, why", [
    (b"not a uf2", "not a whole number of 512-byte blocks"),
    (firmware(family=0xE48BFF59), "family id 0xe48bff59, not the RP2040's 0xe48bff56"),
    (firmware(address=0x10000000 + flash_layout.FS_OFFSET - 512),
     "a block at 0x100a0000, outside the firmware's flash"),
    (firmware(address=0x20000000), "outside the firmware's flash"),
    (firmware(b"CircuitPython 10.2.1"), "no MicroPython version inside"),
    (firmware(BANNER.replace(b"v1.28.0", b"v1.27.2")), "v1.27.2 inside; the firmware needs v1.28"),
    (firmware(BANNER.replace(b"Pico with", b"Pico W with")),
     "built for Raspberry Pi Pico W with RP2040, not RPI_PICO"),
    (firmware(BANNER.replace(b"RP2040", b"RP2350")), "not RPI_PICO"),
    (damaged(firmware(), 8, 0), "family id none, not the RP2040's 0xe48bff56: a UF2 for another chip"),
    (damaged(firmware(), 16, 128), "a block of 128 bytes at 0x10000000; the RP2040 takes 256"),
])
def test_another_firmware_is_refused_saying_why(data, why):
    with pytest.raises(Failure, match=why):
        build_uf2.check_micropython(data)


def test_the_built_file_is_micropython_then_the_flash_tree(uf2_file):
    path, micropython = uf2_file
    with open(micropython, "rb") as f:
        original = [b for b in uf2.read(f.read())]
    with open(path, "rb") as f:
        blocks = uf2.read(f.read())
    assert all(b.family == uf2.RP2040 and len(b.payload) == 256 for b in blocks)
    n = len(original)
    assert [(b.address, b.payload) for b in blocks[:n]] == [(b.address, b.payload) for b in original]
    fs = b"".join(b.payload for b in blocks[n:])
    start = flash_layout.XIP_BASE + flash_layout.FS_OFFSET
    assert blocks[n].address == start and len(fs) == flash_layout.FS_BYTES  # all of it: replaced
    assert blocks[-1].address + 256 == flash_layout.XIP_BASE + flash_layout.FLASH_BYTES

    import littlefs
    lfs = littlefs.LittleFS(block_size=flash_layout.BLOCK, block_count=len(fs) // flash_layout.BLOCK,
                            mount=False)
    lfs.context.buffer[:] = fs
    lfs.mount()
    found = {}
    for folder, _, names in lfs.walk("/"):
        for name in names:
            p = (folder.rstrip("/") + "/" + name).lstrip("/")
            with lfs.open(p, "rb") as f:
                found[p] = f.read()
    tree = os.path.join(os.path.dirname(path), "uf2")
    sent = {dest: local for local, dest in deploy.files(tree)}
    assert sorted(found) == sorted(list(sent) + [deploy.HASHES])
    for dest, local in sent.items():
        with open(local, "rb") as f:
            assert found[dest] == f.read(), dest
    hashes = deploy.parse_hashes(found[deploy.HASHES].decode().splitlines())
    assert hashes == {p: hashlib.sha256(found[p]).hexdigest() for p in sent}
    # Named for the version the build compiled into the tree it sent, which
    # the board prints (taken at build time: a commit made while the tests
    # run changes the checkout's).
    name = os.path.basename(path)
    assert name.startswith("vortex-pico-") and name.endswith(".uf2")
    assert name[len("vortex-pico-"):-len(".uf2")].encode() in found["vortex/version.mpy"]
