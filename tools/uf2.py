"""UF2, the file a microcontroller's boot drive takes (github.com/microsoft/uf2):
512-byte blocks, each a 32-byte header, its payload, zero padding and a
closing magic number.

    offset  field
    0       magic 0x0A324655 ("UF2\\n")
    4       magic 0x9E5D5157
    8       flags (0x2000: the word at 28 is a family id)
    12      the payload's flash address
    16      payload size (at most 476; the RP2040's boot ROM takes 256)
    20      block number, from 0
    24      the number of blocks in the file
    28      family id (0xE48BFF56: RP2040) or file size
    32      payload, then zeros
    508     magic 0x0AB16F30

    for b in uf2.read(data): b.address, b.payload, b.flags, b.family
    data = uf2.write([(0x10000000, image), (address, more)], uf2.RP2040)
"""
import struct
from collections import namedtuple

MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
NOT_MAIN_FLASH = 0x00000001
FAMILY_ID_PRESENT = 0x00002000
RP2040 = 0xE48BFF56
BLOCK = 512
PAYLOAD = 256  # what the RP2040's boot ROM programs: one flash page a block
MAX_PAYLOAD = 476
HEADER = struct.Struct("<8I")

Block = namedtuple("Block", "address payload flags family")


class Uf2Error(ValueError):
    """Not a UF2 file, or a damaged one: str(e) says where."""


def read(data):
    """The blocks of a UF2 file, in order; Uf2Error if it is not a whole,
    consistent one."""
    if not data or len(data) % BLOCK:
        raise Uf2Error("not a UF2 file: %d bytes is not a whole number of %d-byte blocks"
                       % (len(data), BLOCK))
    total = len(data) // BLOCK
    out = []
    for i in range(total):
        at = i * BLOCK
        start0, start1, flags, address, size, number, count, family = HEADER.unpack_from(data, at)
        end, = struct.unpack_from("<I", data, at + BLOCK - 4)
        if (start0, start1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error("block %d: not a UF2 block (magic numbers)" % i)
        if size > MAX_PAYLOAD:
            raise Uf2Error("block %d: payload of %d bytes (at most %d)" % (i, size, MAX_PAYLOAD))
        if (number, count) != (i, total):
            raise Uf2Error("block %d says it is block %d of %d, in a file of %d"
                           % (i, number, count, total))
        out.append(Block(address, bytes(data[at + 32:at + 32 + size]), flags,
                         family if flags & FAMILY_ID_PRESENT else None))
    return out


def write(chunks, family):
    """A UF2 file writing chunks [(flash address, bytes)], in 256-byte pages
    (addresses page-aligned; a short last page is filled with 0xFF, as erased
    flash reads), every block marked with family."""
    pages = []
    for address, data in chunks:
        if address % PAYLOAD:
            raise ValueError("address 0x%08x is not on a %d-byte page" % (address, PAYLOAD))
        for at in range(0, len(data), PAYLOAD):
            pages.append((address + at, bytes(data[at:at + PAYLOAD]).ljust(PAYLOAD, b"\xff")))
    out = bytearray()
    for number, (address, payload) in enumerate(pages):
        out += HEADER.pack(MAGIC_START0, MAGIC_START1, FAMILY_ID_PRESENT, address, PAYLOAD,
                           number, len(pages), family)
        out += payload.ljust(BLOCK - 32 - 4, b"\0")
        out += struct.pack("<I", MAGIC_END)
    return bytes(out)
