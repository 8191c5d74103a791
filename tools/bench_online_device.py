"""The online protocol's cost on the emulated Pico (tools/pico: the real
MicroPython rp2 firmware on rp2040js, 125 MHz), beside the unix port's:
heap, signing, reading and writing states, a late join. Prints figures;
never a pass or a fail (docs/online.md quotes them).

    python3 tools/bench_online_device.py [--unix-only]
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

# Run on the device (and the unix port): "name value unit" lines.
CODE = r'''
import gc, time
import vortex.app.board, vortex.app.commands, vortex.link.link
gc.collect(); a0 = gc.mem_alloc()
from vortex.online import protocol, sign, room, settings, client
gc.collect(); a1 = gc.mem_alloc()
print("heap of the vortex.online modules", a1 - a0, "B")
from vortex.online.room import Room
from vortex.engine.position import START, Position
from vortex.engine import new_buffer
pos = Position(); buf = new_buffer(); seed = 7; codes = []
for _ in range(120):
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    a = buf[seed % pos.legal_into(buf)]
    codes.append(a); pos.push(a)
def us(t):
    return time.ticks_diff(time.ticks_us(), t)
l = Room("friday-7", None, "oak tree 7", 0, "l"); l.begin(START, codes[:119])
d = Room("friday-7", None, "oak tree 7", 1, "d"); d.begin(START, codes[:119])
gc.collect(); print("heap of two rooms with a 119-action game", gc.mem_alloc() - a1, "B")
A, T = "vortex/v1/friday-7/action", "vortex/v1/friday-7/state"
t = time.ticks_us(); msg = d.act(d.pos.action_text(codes[119])) if d.pos.side == 1 else None
if msg is None:
    msg = l.act(l.pos.action_text(codes[119])); rx = d
else:
    rx = l
print("our action signed and applied", us(t), "us")
t = time.ticks_us(); rx.receive(A, msg); print("an action received and applied", us(t), "us")
e = Room("friday-7", None, "oak tree 7", 1, "e"); e.begin(START, codes[:119])
t = time.ticks_us(); st = e.state(); print("a 119-action state written", us(t), "us")
f = Room("friday-7", None, "oak tree 7", 0, "f"); f.begin(START, codes[:119])
t = time.ticks_us(); f.receive(T, st); print("a 119-action state received, nothing new", us(t), "us")
g = Room("friday-7", None, "oak tree 7", 0, "g"); g.begin(START, codes[:118])
t = time.ticks_us(); g.receive(T, st); print("a 119-action state received, one new", us(t), "us")
late = Room("friday-7", None, "oak tree 7", 0, "late")
t = time.ticks_us(); late.receive(T, st); print("a late joiner replaying 119 actions", us(t), "us")
w = bytearray(b" d4~e4" * 1500)
t = time.ticks_us(); big = protocol.state_message("friday-7", START, w, 0, "x", l.keys[0])
print("the longest state written", us(t), "us")
t = time.ticks_us(); protocol.read_state(big); print("the longest state read", us(t), "us")
'''


def main(argv):
    import argparse
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    tree = os.path.join(ROOT, "build", "bench-online")
    import build_mpy
    build_mpy.build(tree, arch="host")
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    p = subprocess.run([exe, "-X", "heapsize=512K", "-c",
                        "import sys\nsys.path[:0] = [%r]\n" % (tree + "/firmware") + CODE],
                       capture_output=True, text=True, timeout=300)
    print("unix port (64-bit: heap figures are upper bounds):")
    print(p.stdout + p.stderr)
    if "--unix-only" in argv:
        return 0
    import pico
    why = pico.missing()
    if why:
        print("no emulated Pico: %s" % why)
        return 0
    r = pico.run(CODE, timeout=900)
    print("emulated Pico (MicroPython rp2, 125 MHz):")
    print(r.output.replace("\r\n", "\n"), r.error)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
