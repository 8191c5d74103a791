"""The NFC tile tag format and the tile reading codes (pure, no I/O).

A tile carries an NTAG213 (NFC Forum Type 2 tag). We write 16 bytes, user
pages 4-7, wrapped in a Type 2 "proprietary" TLV so that a phone sees a
well-formed tag with no NDEF message (hardware/tag-format.md has the table):

    byte 0   0xFD  proprietary TLV        byte 6-7  tile serial, little-endian
    byte 1   0x0C  TLV length (bytes 2-13) byte 8-12 reserved, zero
    byte 2-3 'V' 'X'  magic               byte 13   CRC-8 of bytes 0-12
    byte 4   format version (1)           byte 14   0xFE terminator TLV
    byte 5   terrain 1-4                  byte 15   0x00

CRC-8/SMBUS: poly 0x07, init 0x00, no reflection, no final xor; its check
value (CRC of b"123456789") is 0xF4.

Reading codes, one per cell, shared by the hal, the app and the simulator:
NO_TILE (no tag answers), WATER..AIR (the engine's terrain codes), UNKNOWN
(a tag answers but does not decode) and NOT_READ (not read since boot).

    >>> decode(encode(FIRE, serial=7))
    2
"""
try:
    from micropython import const
except ImportError:  # CPython; the stub's signature cannot be matched
    def const(x):  # type: ignore[misc]
        return x

from .native import micropython, ptr8

# Reading codes. 0-4 equal the engine's NO_TILE, WATER, FIRE, EARTH, AIR.
NO_TILE = const(0)
WATER = const(1)
FIRE = const(2)
EARTH = const(3)
AIR = const(4)
UNKNOWN = const(5)
NOT_READ = const(6)

# What a reader's read answers (hal/mfrc522.py, the virtual board): a tag
# read, no tag in the field, a failed exchange, or no reader chip answering
# on its bus at all (unplugged, unpowered, a broken wire); BUSY while a
# non-blocking read goes on (step()).
OK = const(0)
NOTAG = const(1)
ERR = const(2)
NOREADER = const(3)
BUSY = const(4)

SIZE = const(16)         # bytes we write and read: pages 4-7
FIRST_PAGE = const(4)    # NTAG213 user memory is pages 4-39
VERSION = const(1)
_TLV = const(0xFD)
_LEN = const(12)
_M0 = const(0x56)        # 'V'
_M1 = const(0x58)        # 'X'
_CRC_AT = const(13)

# CRC-8/SMBUS table, kept as bytes (flash when frozen); a test rebuilds it.
CRC8_TABLE = (
    b"\x00\x07\x0e\x09\x1c\x1b\x12\x15\x38\x3f\x36\x31\x24\x23\x2a\x2d"
    b"\x70\x77\x7e\x79\x6c\x6b\x62\x65\x48\x4f\x46\x41\x54\x53\x5a\x5d"
    b"\xe0\xe7\xee\xe9\xfc\xfb\xf2\xf5\xd8\xdf\xd6\xd1\xc4\xc3\xca\xcd"
    b"\x90\x97\x9e\x99\x8c\x8b\x82\x85\xa8\xaf\xa6\xa1\xb4\xb3\xba\xbd"
    b"\xc7\xc0\xc9\xce\xdb\xdc\xd5\xd2\xff\xf8\xf1\xf6\xe3\xe4\xed\xea"
    b"\xb7\xb0\xb9\xbe\xab\xac\xa5\xa2\x8f\x88\x81\x86\x93\x94\x9d\x9a"
    b"\x27\x20\x29\x2e\x3b\x3c\x35\x32\x1f\x18\x11\x16\x03\x04\x0d\x0a"
    b"\x57\x50\x59\x5e\x4b\x4c\x45\x42\x6f\x68\x61\x66\x73\x74\x7d\x7a"
    b"\x89\x8e\x87\x80\x95\x92\x9b\x9c\xb1\xb6\xbf\xb8\xad\xaa\xa3\xa4"
    b"\xf9\xfe\xf7\xf0\xe5\xe2\xeb\xec\xc1\xc6\xcf\xc8\xdd\xda\xd3\xd4"
    b"\x69\x6e\x67\x60\x75\x72\x7b\x7c\x51\x56\x5f\x58\x4d\x4a\x43\x44"
    b"\x19\x1e\x17\x10\x05\x02\x0b\x0c\x21\x26\x2f\x28\x3d\x3a\x33\x34"
    b"\x4e\x49\x40\x47\x52\x55\x5c\x5b\x76\x71\x78\x7f\x6a\x6d\x64\x63"
    b"\x3e\x39\x30\x37\x22\x25\x2c\x2b\x06\x01\x08\x0f\x1a\x1d\x14\x13"
    b"\xae\xa9\xa0\xa7\xb2\xb5\xbc\xbb\x96\x91\x98\x9f\x8a\x8d\x84\x83"
    b"\xde\xd9\xd0\xd7\xc2\xc5\xcc\xcb\xe6\xe1\xe8\xef\xfa\xfd\xf4\xf3"
)


@micropython.viper
def crc8(buf, n: int) -> int:
    """CRC-8/SMBUS of buf[0:n], without slicing (so without allocating);
    machine code on MicroPython (every tile read checks one)."""
    t = ptr8(CRC8_TABLE)
    b = ptr8(buf)
    c = 0
    for i in range(n):
        c = t[c ^ b[i]]
    return c


def encode(terrain, serial=0):
    """The 16 bytes (pages 4-7) to write on a tile of `terrain`."""
    b = bytearray(SIZE)
    encode_into(b, terrain, serial)
    return bytes(b)


def encode_into(b, terrain, serial=0):
    """encode() into the 16 bytes of b, allocating nothing (the virtual
    board's readers fill each read's buffer so)."""
    if not WATER <= terrain <= AIR:
        raise ValueError("terrain must be 1-4")
    if not 0 <= serial <= 0xFFFF:
        raise ValueError("serial must be 0-65535")
    b[0] = _TLV
    b[1] = _LEN
    b[2] = _M0
    b[3] = _M1
    b[4] = VERSION
    b[5] = terrain
    b[6] = serial & 0xFF
    b[7] = serial >> 8
    for i in range(8, SIZE):
        b[i] = 0
    b[_CRC_AT] = crc8(b, _CRC_AT)
    b[14] = 0xFE


@micropython.viper
def decode(buf) -> int:
    """The terrain code (1-4) of 16 bytes read from pages 4-7, else UNKNOWN.

    Allocation-free: returns a small int whatever the bytes; machine code on
    MicroPython (every tile read is decoded)."""
    if int(len(buf)) < SIZE:
        return UNKNOWN
    b = ptr8(buf)
    if b[0] != _TLV or b[1] != _LEN or b[2] != _M0 or b[3] != _M1 or b[4] != VERSION:
        return UNKNOWN
    t = ptr8(CRC8_TABLE)
    c = 0
    for i in range(_CRC_AT):
        c = t[c ^ b[i]]
    if c != b[_CRC_AT]:
        return UNKNOWN
    v = int(b[5])
    if v < WATER or v > AIR:
        return UNKNOWN
    return v


def serial(buf):
    """The tile serial of a tag that decodes, else -1."""
    if decode(buf) == UNKNOWN:
        return -1
    return buf[6] | buf[7] << 8
