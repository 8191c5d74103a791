"""The board's page on the real firmware: MicroPython v1.28 and main.py on
the emulated Pico (tools/pico), its USB serial carried to the page's
Web Serial stand-in (tests/web_serial_standin.js) by
tests/web_serial_bridge.py's PicoBridge. Hands act on the emulated board's
reed switches and NFC tags; the page follows over the link: a piece lifted
(the board's verdict said), a tile laid (the action drawn), a
setting changed, the cable pulled and the board back. Skips without the
emulated Pico, chromium or the page's libraries."""
import os
import sys
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
from web_serial_bridge import PicoBridge  # noqa: E402
from test_web_board import site, browser, STANDIN, view  # noqa: E402,F401

WHY = pico.missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="no emulated Pico: %s" % WHY)
# The start's pieces: Light's Travellers on rank 2 and Heart on e1, Dark's on rank 7 and e8.
START_REEDS = [4] + list(range(8, 16)) + list(range(48, 56)) + [60]


def test_the_page_follows_the_real_firmware(site, browser):  # noqa: F811
    with pico.Pico(autorun=True, reeds=START_REEDS) as dev:
        assert dev.wait(lambda: dev.usb, pico.BOOT_SECONDS), dev.output[-500:]
        lock = threading.Lock()
        with PicoBridge(dev, lock) as bridge:
            ctx = browser.new_context()
            ctx.add_init_script("window.VORTEX_SERIAL_URL = %r;" % bridge.url)
            ctx.add_init_script(path=STANDIN)
            pg = ctx.new_page()
            pg.set_default_timeout(120000)
            errors = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(site)
            pg.wait_for_function("window.vortex.drawn > 0")
            pg.click("#connect")
            try:
                pg.wait_for_function("window.vortex.status.link === 'connected'", timeout=60000)
            except Exception:
                with lock:
                    out = dev.output[-800:]
                raise AssertionError((pg.evaluate("window.vortex.status"), pg.inner_text("#messages"),
                                      pg.inner_text("#banner"), out))
            assert pg.inner_text("#version") and "LEDs up to" in pg.inner_text("#power")
            # A piece lifted while the board is being built: the board's verdict, said.
            agree = "the board agrees with the game"
            pg.wait_for_function("document.querySelector('#verdict').textContent === %r" % agree)
            dev.set_reeds([c for c in START_REEDS if c != 12])
            pg.wait_for_function("document.querySelector('#verdict').textContent !== %r" % agree)
            dev.set_reeds(START_REEDS)
            pg.wait_for_function("document.querySelector('#verdict').textContent === %r" % agree)
            # A tile laid: the board's action, drawn.
            dev.set_tags(27, pico.tile(1, 1))
            pg.wait_for_function("window.vortex.view && window.vortex.view.actions[0] === 'W@d4'")
            assert pg.get_attribute("[data-cell=d4]", "data-tile") == "W"
            # A setting changed from the page.
            pg.select_option("[data-setting=brightness]", "3")
            pg.wait_for_function("document.querySelector('[data-setting=brightness]').value === '3'")
            # The cable pulled, and back: nothing lost.
            bridge.pull()
            pg.wait_for_function("window.vortex.status.link.startsWith('board unplugged')")
            bridge.plug()
            pg.wait_for_function("window.vortex.status.link === 'connected'")
            assert view(pg)["actions"] == ["W@d4"]
            assert not errors, errors
