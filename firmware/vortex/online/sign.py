"""Signatures: HMAC-SHA256 (RFC 2104) written over hashlib.sha256, since
MicroPython has sha256 but no hmac module; seat keys and their public proofs.

    key = seat_key("our secret", "friday", LIGHT)   # 32 bytes, kept by the seat
    proof(key)                                      # public: published in seat/<side>
    mac(key, text)                                  # 32 hex digits, in each action

A seat's key is derived from the room's secret, the room and the side, so
a signature binds its room and its side: light's key cannot sign for dark,
nor one room's for another. The proof is a hash of the key: it shows that
two clients hold the same secret (a mistyped one is caught before play)
and reveals nothing of it.
"""
import hashlib
from binascii import hexlify

BLOCK = 64  # SHA-256's block size, bytes
MAC_HEX = 32  # a signature's hex digits: HMAC-SHA256 cut to 128 bits (RFC 2104 section 5)
PROOF_HEX = 32
_IPAD = bytes(0x36 for _ in range(BLOCK))
_OPAD = bytes(0x5C for _ in range(BLOCK))


def _bytes(x):
    return x.encode() if isinstance(x, str) else bytes(x)


def hmac_sha256(key, msg):
    """HMAC-SHA256 of msg under key (bytes or str), the 32-byte digest, as
    CPython's hmac.new(key, msg, "sha256").digest()."""
    return hmac_parts(key, (msg,))


def hmac_parts(key, parts):
    """HMAC-SHA256 of the parts (str, bytes or memoryview) one after the
    other, without joining them: a 10 KB state is signed and checked in place."""
    key = _bytes(key)
    if len(key) > BLOCK:
        key = hashlib.sha256(key).digest()
    key = key + bytes(BLOCK - len(key))
    inner = hashlib.sha256(bytes(k ^ p for k, p in zip(key, _IPAD)))
    for part in parts:
        inner.update(part.encode() if isinstance(part, str) else part)
    outer = hashlib.sha256(bytes(k ^ p for k, p in zip(key, _OPAD)))
    outer.update(inner.digest())
    return outer.digest()


def seat_key(secret, room, side):
    """The key that signs side's actions in room: from the room's secret."""
    return hmac_sha256(secret, "vortex/v1 seat %s %d" % (room, side))


def proof(key):
    """A seat key's public proof (hex): its hash, which reveals nothing of it."""
    return hexlify(hashlib.sha256(b"vortex/v1 proof " + key).digest()).decode()[:PROOF_HEX]


def mac(key, *parts):
    """The signature of the parts (one after the other) under key: hex, MAC_HEX digits."""
    return hexlify(hmac_parts(key, parts)).decode()[:MAC_HEX]


def same(a, b):
    """a == b for two str, in a time that does not tell where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= ord(a[i]) ^ ord(b[i])
    return d == 0
