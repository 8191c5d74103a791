"""A stand-in for mpremote over a folder that plays a Pico's filesystem:
`exec` runs the script with the MicroPython unix port in that folder (the
board-side code really runs), answering "rp2" and the .mpy format as a Pico's MicroPython does;
`fs cp` copies into it; `reset` is noted. Every session is appended to
FOLDER/../sessions.log, one line of commands each.

    python3 tests/fake_mpremote.py connect PORT resume exec SCRIPT + fs cp A :B + reset
"""
import os
import re
import shutil
import subprocess
import sys

from mpy import micropython

BOARD = os.environ["FAKE_BOARD"]
# sys.implementation._mpy of MicroPython v1.28.0 on a Pico (read off the
# emulated one): .mpy v6, sub-version 3, native code for armv6m (4 << 10).
RP2_MPY = 4870


def main(argv):
    if argv[:3] != ["connect", argv[1], "resume"] or argv[1] == "":
        print("fake mpremote: expected connect PORT resume, got %s" % argv[:3], file=sys.stderr)
        return 1
    groups, group = [], []
    for word in argv[3:] + ["+"]:
        if word == "+":
            groups.append(group)
            group = []
        else:
            group.append(word)
    done = []
    for g in groups:
        if g[0] == "exec":
            r = subprocess.run([micropython(), "-c", g[1]], cwd=BOARD, capture_output=True, text=True)
            out = r.stdout.replace("platform linux", "platform rp2")
            out = re.sub(r"^mpy \d+$", "mpy %d" % RP2_MPY, out, flags=re.M)
            sys.stdout.write(out)
            if r.returncode:
                sys.stderr.write(r.stderr)
                return 1
            done.append("exec")
        elif g[:2] == ["fs", "cp"]:
            shutil.copyfile(g[2], os.path.join(BOARD, g[3][1:]))  # no folder made: as mpremote
            done.append("cp " + g[3][1:])
        elif g == ["reset"]:
            done.append("reset")
        else:
            print("fake mpremote: unknown command %s" % g, file=sys.stderr)
            return 1
    with open(os.path.join(BOARD, "..", "sessions.log"), "a") as f:
        f.write(" | ".join(done) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
