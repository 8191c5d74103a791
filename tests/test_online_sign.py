"""The board's HMAC-SHA256 (vortex.online.sign, written over hashlib.sha256
because MicroPython has no hmac module) against CPython's hmac on random
keys and messages of every length around SHA-256's 64-byte block."""
import hmac

from hypothesis import given, settings, strategies as st

from vortex.online import sign


@settings(max_examples=120, deadline=None)
@given(st.binary(max_size=200), st.binary(max_size=300))
def test_hmac_equals_cpython(key, msg):
    assert sign.hmac_sha256(key, msg) == hmac.new(key, msg, "sha256").digest()


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=80), st.text(max_size=80))
def test_text_is_utf8(key, msg):
    assert sign.hmac_sha256(key, msg) == hmac.new(key.encode(), msg.encode(), "sha256").digest()


def test_block_edges():
    for n in (0, 1, 63, 64, 65, 127, 128, 129):
        key, msg = bytes(range(n)), bytes(255 - i % 256 for i in range(n * 2))
        assert sign.hmac_sha256(key, msg) == hmac.new(key, msg, "sha256").digest()
        assert sign.mac(key, msg) == hmac.new(key, msg, "sha256").hexdigest()[:sign.MAC_HEX]
