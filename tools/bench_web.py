"""The board's page, measured (make bench-web; figures, never a pass/fail):

- a piece lifted on the board to the page drawing it lifted, median and
  p99: the virtual board on its pseudo-terminal (vortex board --serial),
  its hands told `lift e2` on stdin, the page in chromium following it over
  the Web Serial stand-in of the tests (tests/web_serial_standin.js, a
  WebSocket to the pseudo-terminal: one hop more than a USB port);
- the page's start: its first draw, MicroPython up with the firmware's
  modules imported, the board connected (hello, subscribe, settings,
  power, record), from the navigation's start;
- the size of what the page downloads (make web's files), and the part of
  it that is MicroPython.

    python3 tools/bench_web.py [--lifts N]
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests")]
import build_web  # noqa: E402
from web_serial_bridge import PtyBridge  # noqa: E402
from test_web_board import _Static, STANDIN  # noqa: E402
from test_web_browser import ARGS  # noqa: E402

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lifts", type=int, default=40, help="pieces lifted and put back (default 40)")
    opts = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    out = os.path.join(ROOT, "build", "bench-web")
    n, size = build_web.build(out)
    wasm = os.path.getsize(os.path.join(out, "vendor", "micropython.wasm")) + \
        os.path.getsize(os.path.join(out, "vendor", "micropython.mjs"))
    mqtt = os.path.getsize(os.path.join(out, "vendor", "mqtt.min.js"))
    py = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(os.path.join(out, "py"))
             for f in fs)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(_Static, directory=out))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    site = "http://127.0.0.1:%d/" % httpd.server_address[1]
    board = subprocess.Popen([sys.executable, "-m", "host_sim", "board", "--serial", "--no-color",
                              "--ai", "off", "--position", BATTLE], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        pty = next(l for l in board.stdout if l.startswith("serial: ")).split(": ", 1)[1].strip()
        threading.Thread(target=lambda: [None for _ in board.stdout], daemon=True).start()
        chromium = os.environ.get("VORTEX_CHROMIUM") or shutil.which("chromium")
        with PtyBridge(pty) as bridge, sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, args=ARGS)
            ctx = b.new_context()
            ctx.add_init_script("window.VORTEX_SERIAL_URL = %r;" % bridge.url)
            ctx.add_init_script(path=STANDIN)
            pg = ctx.new_page()
            pg.set_default_timeout(30000)
            pg.goto(site)
            pg.wait_for_function("window.vortex.drawn > 0 && window.vortex.py")
            clicked = pg.evaluate("performance.now()")
            pg.click("#connect")
            pg.wait_for_function("window.vortex.status.link === 'connected' && window.vortex.view")
            start = pg.evaluate("({first: vortex.firstDrawMs, python: vortex.pythonMs, "
                                "connected: vortex.connectedMs})")
            lifts, page = [], []
            for i in range(opts.lifts):
                cell = "abcdefgh"[i % 8] + "2"
                before = pg.evaluate("vortex.lifts.length")
                sent = time.time() * 1000
                board.stdin.write("lift %s\n" % cell)
                board.stdin.flush()
                pg.wait_for_function("vortex.lifts.length > %d && vortex.lifts[%d].drawn"
                                     % (before, before))
                got = pg.evaluate("vortex.lifts[%d]" % before)
                lifts.append(pg.evaluate("performance.timeOrigin") + got["drawn"] - sent)
                page.append(got["drawn"] - got["at"])
                board.stdin.write("place %s\n" % cell)
                board.stdin.flush()
                pg.wait_for_function("document.querySelector('#hand').textContent === ''")
            b.close()
    finally:
        board.terminate()
        board.wait(10)
        httpd.shutdown()
    figures = {
        "lift_to_drawn_ms": {"median": round(statistics.median(lifts), 1),
                             "p99": round(pct(lifts, 99), 1), "n": len(lifts)},
        "lift_event_to_drawn_ms (the page's share)": {"median": round(statistics.median(page), 1),
                                                      "p99": round(pct(page, 99), 1)},
        "first_draw_ms": round(start["first"], 1),
        "python_ready_ms": round(start["python"], 1),
        "connected_ms (from the click)": round(start["connected"] - clicked, 1),
        "download_kb": {"all": size // 1024, "files": n, "micropython": wasm // 1024,
                        "mqtt_js": mqtt // 1024, "python_mpy": py // 1024},
    }
    print("the board's page:", json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
