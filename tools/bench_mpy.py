"""The MicroPython half of tools/bench.py: timings and RAM measured inside
the unix port, with time.ticks_us and gc. Prints "key value" lines.

    micropython tools/bench_mpy.py perft "<position>" DEPTH BULK(0|1) REPEATS TRIES
    micropython tools/bench_mpy.py ram "<position>"
    micropython tools/bench_mpy.py dest "<position>" CELL... CALLS TRIES
    micropython tools/bench_mpy.py legal CALLS TRIES "<position>"...

Each mode runs in a fresh process: `ram` must see the heap before the engine
is imported, so nothing here imports vortex at the top.
"""
import gc
import sys
import time

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE + "/../firmware")


def perft_mode(text, depth, bulk, repeats, tries):
    from vortex.engine import Position
    from vortex.engine.perft import perft
    pos = Position(text)
    for _ in range(tries):
        gc.collect()
        t0 = time.ticks_us()
        for _ in range(repeats):
            n = perft(pos, depth, bulk)
        print("us", time.ticks_diff(time.ticks_us(), t0))
    print("nodes", n * repeats)


def ram_mode(text):
    gc.collect()
    before = gc.mem_alloc()
    import vortex.engine
    gc.collect()
    imported = gc.mem_alloc()
    pos = vortex.engine.Position(text)
    gc.collect()
    parsed = gc.mem_alloc()
    from vortex.engine import tables
    size = 0
    for name in dir(tables):
        value = getattr(tables, name)
        if isinstance(value, bytes):
            size += len(value)
    print("import", imported - before)
    print("position", parsed - imported)
    print("tables", size)
    print("ok", 1 if pos.ply >= 0 else 0)  # keeps pos alive until measured


def dest_mode(text, cells, calls, tries):
    from vortex.engine import Position, new_buffer, MAX_DESTINATIONS, parse_cell
    pos = Position(text)
    buf = new_buffer(MAX_DESTINATIONS)  # preallocated, as the scan loop does
    for name in cells:
        c = parse_cell(name)
        n = pos.destinations(c, buf)
        best = None
        for _ in range(tries):
            gc.collect()
            t0 = time.ticks_us()
            for _ in range(calls):
                pos.destinations(c, buf)
            dt = time.ticks_diff(time.ticks_us(), t0)
            best = dt if best is None or dt < best else best
        # Heap bytes one call allocates (the loop must allocate nothing).
        gc.collect()
        gc.disable()
        m0 = gc.mem_alloc()
        for _ in range(100):
            pos.destinations(c, buf)
        per_call = (gc.mem_alloc() - m0) // 100
        gc.enable()
        print("dest %s %d %.2f %d" % (name, n, best / calls, per_call))


def legal_mode(calls, tries, texts):
    from vortex.engine import Position, new_buffer
    buf = new_buffer()  # preallocated, as the AI and perft do
    for text in texts:
        pos = Position(text)
        n = pos.legal_into(buf)
        best = None
        for _ in range(tries):
            gc.collect()
            t0 = time.ticks_us()
            for _ in range(calls):
                pos.legal_into(buf)
            dt = time.ticks_diff(time.ticks_us(), t0)
            best = dt if best is None or dt < best else best
        print("legal %d %.2f" % (n, best / calls))


def main(argv):
    # Run by tools/bench.py, under MicroPython (no argparse needed): the
    # words are checked all the same, and --help only prints help.
    mode = argv[0] if argv else ""
    usage = "usage: bench_mpy.py perft|ram|dest|legal ... (see its docstring)"
    if mode in ("-h", "--help"):
        print(usage)  # MicroPython keeps no __doc__
        return 0
    try:
        if mode == "perft" and len(argv) == 6:
            perft_mode(argv[1], int(argv[2]), argv[3] == "1", int(argv[4]), int(argv[5]))
        elif mode == "ram" and len(argv) == 2:
            ram_mode(argv[1])
        elif mode == "dest" and len(argv) >= 5:
            dest_mode(argv[1], argv[2:-2], int(argv[-2]), int(argv[-1]))
        elif mode == "legal" and len(argv) >= 4:
            legal_mode(int(argv[1]), int(argv[2]), argv[3:])
        else:
            raise ValueError(usage)
    except ValueError as e:
        sys.stderr.write("bench_mpy.py: error: %s\n" % e)
        return 2
    return 0


sys.exit(main(sys.argv[1:]))
