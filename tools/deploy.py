"""Flash the firmware onto a board with mpremote: modules compiled to .mpy
(the RP2040 then loads bytecode instead of compiling at boot), main.py and
the pin map as source.

    pip install mpremote                       # once
    python3 tools/deploy.py [--port /dev/ttyACM0] [--dry-run]

Needs MicroPython already on the Pico (drag the rp2 UF2 onto it first).
"""
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


def files(tree):
    """(local file, path on the board) of everything the board gets from a
    build tree: the compiled firmware and main.py, then the pin map."""
    out = []
    base = os.path.join(tree, "firmware")
    for folder, _, names in sorted(os.walk(base)):
        rel = os.path.relpath(folder, base)
        for name in sorted(names):
            dest = name if rel == "." else rel.replace(os.sep, "/") + "/" + name
            out.append((os.path.join(folder, name), dest))
    out.append((os.path.join(ROOT, "hardware", "pins.py"), "pins.py"))
    return out


def commands(tree, port):
    """The mpremote command lines that copy a build tree to the board."""
    base = ["mpremote"] + (["connect", port] if port else [])
    out = []
    folders = set()
    for src, dest in files(tree):
        parts = dest.split("/")[:-1]
        for i in range(1, len(parts) + 1):  # parents first
            folder = "/".join(parts[:i])
            if folder not in folders:
                folders.add(folder)
                out.append(base + ["fs", "mkdir", ":" + folder])
        out.append(base + ["fs", "cp", src, ":" + dest])
    out.append(base + ["reset"])
    return out


def main(argv):
    port = argv[argv.index("--port") + 1] if "--port" in argv else None
    dry = "--dry-run" in argv
    with tempfile.TemporaryDirectory() as tree:
        n = build_mpy.build(tree)
        print("compiled %d modules" % n)
        for cmd in commands(tree, port):
            print(" ".join(shlex.quote(c) for c in cmd))
            if not dry:
                # mkdir fails harmlessly when the folder is already there
                r = subprocess.run(cmd)
                if r.returncode and "mkdir" not in cmd:
                    return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
