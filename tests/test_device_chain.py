"""The front end's chain check on the emulated Pico (issue 37): main.py's
Rp2FrontEnd (viper, on the SPI and SIO registers) reads the 595 chain back
after every latch through tools/pico/nfc.mjs's model, whose farthest 595
comes back on MISO while the strobe is high. A chain fault (the return line
open, an output stuck) is said on the console, shown on the LEDs (the
centre flashing the error colour) and in the link's status, with every
reader held in reset; its end is said too and the tiles are read again.
Skipped, with the reason, where node, rp2040js or the firmware image is
missing."""
import os
import sys

from mpy import ROOT
from needs_pico import needs_pico
from test_app_idle import BATTLE
from test_device import tiles_of, ask

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.app.render import CENTRE  # noqa: E402
from vortex.app.service import FRONT_SAYS  # noqa: E402
from vortex.engine import Position  # noqa: E402
from vortex.hal.store import pack  # noqa: E402

pytestmark = needs_pico()


def centre_red(frame):
    return all(frame[3 * c] and not frame[3 * c + 1] for c in CENTRE)


def test_a_chain_fault_is_said_shown_and_cleared_on_the_device():
    pos = Position(BATTLE)
    occupied = [c for c in range(64) if pos.pieces[c]]
    game = pack(session.dump(session.Settings(), BATTLE, [], (0, 0)))
    with pico.Pico({"game.bin": game}, autorun=True, reeds=occupied, tiles=tiles_of(pos),
                   chain_return=True) as dev:
        assert dev.wait(lambda: len(dev.scans) >= 100, 120), dev.output[-500:]
        assert dev.wait(lambda: dev.frames and dev.now - dev.frames[-1][0] > 500_000_000, 120), \
            dev.output[-500:]
        assert "NFC" not in dev.output and ask(dev, "status").endswith(" nfc ok")
        for fault, clear in (({"broken": True}, {"broken": False}),
                             ({"stuck": [7 - 5, 0x40, 1]}, {"stuck": None})):
            said = dev.output.count(FRONT_SAYS[1])
            shown = len(dev.frames)
            dev.fault(chain=fault)
            assert dev.wait(lambda: dev.output.count(FRONT_SAYS[1]) > said, 60), dev.output[-800:]
            assert ask(dev, "status").endswith(" nfc fault")
            assert dev.wait(lambda: any(centre_red(f) for _, f in dev.frames[shown:]), 60)
            back = dev.output.count(FRONT_SAYS[0])
            dev.fault(chain=clear)
            assert dev.wait(lambda: dev.output.count(FRONT_SAYS[0]) > back, 60), dev.output[-800:]
            assert ask(dev, "status").endswith(" nfc ok")
        assert dev.watchdog is None
        stats = dev.reader_stats()
    assert "Traceback" not in dev.output, dev.output[-800:]
    assert stats["overcurrent"] == [0] * 8, stats
