"""make web: the board's page as static files, in build/web/ (or OUT).

    python3 tools/build_web.py [OUT]

Any web host serves them as they are (no server logic; a page opened from
https:// or localhost may use Web Serial). `vortex play` serves the same
files under /board/. The list is host_sim/web/board/files.py's; the
libraries (MQTT.js, MicroPython's WebAssembly port) come from
tools/web/node_modules, which make web installs with npm.
"""
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from host_sim.web.board import files  # noqa: E402


def build(out):
    """Write the page into out (emptied first); (files, bytes)."""
    why = files.missing()
    if why:
        raise SystemExit("make web: " + why)
    if os.path.isdir(out):
        shutil.rmtree(out)
    total = 0
    page = files.files()
    for name, data in sorted(page.items()):
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        total += len(data)
    return len(page), total


def main(argv):
    out = argv[0] if argv else os.path.join(ROOT, "build", "web")
    n, size = build(out)
    print("the board's page: %d files, %d KB, in %s (open index.html from a web host, "
          "or run vortex play: http://localhost:PORT/board/)" % (n, size // 1024, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
