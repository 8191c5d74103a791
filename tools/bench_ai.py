"""The AI's figures, per level: nodes per second, milliseconds per battle
action (median and worst over a whole game, the level against itself),
the depth it completes, and the heap its tables take. Runs on CPython and
under the MicroPython unix port (the device proxy: x100-135 on the RP2040).

    python3 tools/bench_ai.py [LEVEL ...]
    micropython tools/bench_ai.py [LEVEL ...]

Figures only: nothing here passes or fails.
"""
import gc
import sys
import time

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE + "/../firmware")

from vortex.engine.position import Position  # noqa: E402
from vortex.app.ai import Ai, searcher  # noqa: E402
from vortex.ai.levels import LEVELS  # noqa: E402
from vortex.ai import zobrist  # noqa: E402

if hasattr(time, "ticks_us"):
    def now_us():
        return time.ticks_us()

    def since_us(t):
        return time.ticks_diff(time.ticks_us(), t)
else:
    def now_us():
        return time.perf_counter()

    def since_us(t):
        return int((time.perf_counter() - t) * 1e6)


def heap_of(level):
    """Bytes the level's search tables and keys take (MicroPython only)."""
    if not hasattr(gc, "mem_alloc"):
        return -1
    searcher(1)  # modules loaded
    zobrist._shared = None
    gc.collect()
    before = gc.mem_alloc()
    s = searcher(level)
    gc.collect()
    used = gc.mem_alloc() - before
    del s
    return used


def game(level, seed=1):
    search = searcher(level)
    players = (Ai(level=level, seed=seed, search=search),
               Ai(level=level, seed=seed + 1, search=search))
    pos = Position()
    times = []
    nodes = 0
    depths = []
    while pos.outcome() is None:
        building = pos.is_building()
        t = now_us()
        a = players[pos.side].choose(pos)
        dt = since_us(t)
        if not building:
            times.append(dt)
            nodes += search.nodes
            depths.append(search.depth)
        pos.push(a)
    return times, nodes, depths


def main(levels):
    impl = sys.implementation.name
    print("%s: level, battle actions, nodes/s, ms per action (median / worst), "
          "depth completed (median / max), table heap bytes" % impl)
    for level in levels:
        times, nodes, depths = game(level)
        total = sum(times)
        times.sort()
        depths.sort()
        n = len(times)
        print("L%d  %3d  %6d  %7.1f / %7.1f  %d / %d  %s" % (
            level, n, nodes * 1000000 // max(1, total), times[n // 2] / 1000,
            times[-1] / 1000, depths[n // 2], depths[-1], heap_of(level)))


USAGE = "usage: bench_ai.py [LEVEL ...]   (levels 1 to %d; default 1 to 5)"


def levels_of(args):
    """The levels asked for; ValueError with the usage line if any is not one.
    Checked by hand: this also runs under MicroPython, which has no argparse."""
    top = len(LEVELS) - 1
    try:
        levels = [int(a) for a in args]
    except ValueError:
        levels = [0]
    for level in levels:
        if not 1 <= level <= top:
            raise ValueError(USAGE % top)
    return levels or [1, 2, 3, 4, 5]


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or "-h" in args:
        print(USAGE % (len(LEVELS) - 1))
        sys.exit(0)
    try:
        chosen = levels_of(args)
    except ValueError as e:
        sys.stderr.write("bench_ai.py: error: %s\n" % e)
        sys.exit(2)
    try:
        main(chosen)
    except KeyboardInterrupt:
        sys.exit(130)
