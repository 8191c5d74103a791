"""The tile tag format (vortex.tag). Runs under pytest and MicroPython."""
import gc

from vortex import tag
from vortex.tag import (NO_TILE, WATER, FIRE, EARTH, AIR, UNKNOWN, NOT_READ,
                        encode, decode, crc8, serial)


def _crc8_bitwise(data):
    c = 0
    for b in data:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


def test_codes():
    assert (NO_TILE, WATER, FIRE, EARTH, AIR, UNKNOWN, NOT_READ) == tuple(
        range(7))


def test_crc8_table_and_check_value():
    for i in range(256):
        assert tag.CRC8_TABLE[i] == _crc8_bitwise(bytes((i,)))
    assert crc8(b"123456789", 9) == 0xF4      # CRC-8/SMBUS check value


def test_layout_byte_by_byte():
    b = encode(EARTH, serial=0x1234)
    assert len(b) == 16 and isinstance(b, bytes)
    assert b[0:2] == b"\xfd\x0c"        # proprietary TLV, 12 bytes
    assert b[2:4] == b"VX"
    assert b[4] == tag.VERSION == 1
    assert b[5] == EARTH
    assert b[6] == 0x34 and b[7] == 0x12
    assert b[8:13] == bytes(5)
    assert b[13] == _crc8_bitwise(b[0:13])
    assert b[14:16] == b"\xfe\x00"      # terminator TLV


def test_round_trip_every_terrain_and_serials():
    for t in (WATER, FIRE, EARTH, AIR):
        for s in (0, 1, 255, 256, 65535):
            b = encode(t, s)
            assert decode(b) == t
            assert decode(bytearray(b)) == t
            assert serial(b) == s


def test_encode_rejects_bad_input():
    for bad in (0, 5, -1, 255):
        try:
            encode(bad)
        except ValueError as e:
            assert str(e) == "terrain must be 1-4", str(e)
            continue
        raise AssertionError("encoded terrain %d" % bad)
    for s in (-1, 65536):
        try:
            encode(FIRE, s)
        except ValueError:
            continue
        raise AssertionError("encoded serial %d" % s)


def test_every_single_bit_flip_is_unknown_or_harmless():
    # A flip in bytes 0-13 is caught (magic, version, CRC); 14-15 are not
    # covered by the check and do not matter.
    good = encode(FIRE, 42)
    for i in range(16):
        for bit in range(8):
            b = bytearray(good)
            b[i] ^= 1 << bit
            if i < 14:
                assert decode(b) == UNKNOWN, (i, bit)
            else:
                assert decode(b) == FIRE


def test_two_bit_flips_in_the_checked_bytes_are_caught():
    good = encode(WATER, 7)
    for i in range(14 * 8):
        for j in range(i + 1, 14 * 8):
            b = bytearray(good)
            b[i >> 3] ^= 1 << (i & 7)
            b[j >> 3] ^= 1 << (j & 7)
            assert decode(b) == UNKNOWN


def test_blank_and_foreign_tags_are_unknown():
    assert decode(bytes(16)) == UNKNOWN
    assert decode(b"\xff" * 16) == UNKNOWN
    # A factory-fresh NTAG213: empty NDEF TLV at page 4.
    assert decode(b"\x03\x00\xfe\x00" + bytes(12)) == UNKNOWN
    assert decode(encode(AIR)[:15]) == UNKNOWN           # short read
    b = bytearray(encode(AIR))
    b[4] = 2                                           # a future version
    b[13] = crc8(b, 13)
    assert decode(b) == UNKNOWN
    b = bytearray(encode(AIR))
    b[5] = 9                                           # not a terrain
    b[13] = crc8(b, 13)
    assert decode(b) == UNKNOWN
    assert serial(b) == -1


def test_decode_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    good = bytearray(encode(EARTH, 3))
    bad = bytearray(16)
    decode(good)
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for _ in range(50):
            decode(good)
            decode(bad)
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used
