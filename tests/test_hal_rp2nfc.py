"""vortex.hal.rp2nfc, the RP2040's fast path, keeps its own copies of the
layout constants its viper code reads (frontend's chain image, mfrc522's
state and I/O buffers): they must be the modules' own. (CPython only: there
const() names are module globals; the fast path itself runs on the
emulated Pico, tests/test_device.py and the device games.)"""
import re

from vortex.hal import frontend, mfrc522, rp2nfc


def test_the_fast_paths_constants_are_the_drivers():
    with open(rp2nfc.__file__) as f:
        names = re.findall(r"^(_[A-Z][A-Z_0-9]*) = const\(", f.read(), re.M)
    own = {"_SIO", "_SPI0", "_LATCH_READS"}          # the RP2040's registers, the latch's width
    copies = [n for n in names if n not in own]
    assert len(copies) > 20
    for name in copies:
        if name.startswith("_F_") or name == "_MAX_SEG":
            theirs = getattr(frontend, "_" + name[3:] if name.startswith("_F_") else name)
        else:
            theirs = getattr(mfrc522, name)
        assert getattr(rp2nfc, name) == theirs, name
