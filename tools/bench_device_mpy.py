"""The MicroPython half of tools/bench_device.py: the same figures measured
on the emulated Pico and on the unix port, timed with ticks_us inside
MicroPython. Prints "key value" lines. Needs the firmware, tests/ and
host_sim/ on sys.path (tools/build_mpy.py --with-tests).

    engine POS LIFT CELLS CALLS [TRIES]  legal actions, destinations, perft 2, import heap
    step REPEATS                     board logic: lift -> frame, idle step
    game SEED                        a whole game through the virtual board
    save PATH ACTIONS_FILE N,N...    a commit (its journal record) and a whole snapshot at action N
    ai TEXT PLIES [LEVELS]           time per AI action and nodes a second, per level
    hal CALLS                        reed scan, NeoPixel frame (device only)
    protocol TEXT CALLS              the tile scheduler's work a read, a tag decoded
    scanner MS                       the tile scanner over the real front end (device only)
    pass PASSES                      the board's pass: no buzzer, buzzer idle, playing

Also on CircuitPython (the emulated Pico's, from plain sources), whose time
module has no ticks_us: there the microseconds come from monotonic_ns.
"""
import gc
import sys
import time

CIRCUITPYTHON = sys.implementation.name == "circuitpython"


def _now_us():
    return time.monotonic_ns() // 1000


ticks_us = getattr(time, "ticks_us", _now_us)


def _us(t0):
    if CIRCUITPYTHON:
        return _now_us() - t0
    return time.ticks_diff(time.ticks_us(), t0)


def _best(fn, tries):
    """The least time of tries runs of fn(), in us (the unix port shares its
    machine; the emulated Pico's clock is its own and needs one)."""
    best = None
    for _ in range(tries):
        gc.collect()
        t0 = ticks_us()
        fn()
        dt = _us(t0)
        best = dt if best is None or dt < best else best
    return best


def engine_mode(full, lift, cells, calls, tries=1):
    gc.collect()
    before = gc.mem_alloc()
    import vortex.engine
    import vortex.app.board  # noqa: F401
    gc.collect()
    print("import_heap", gc.mem_alloc() - before)
    print("free_heap", gc.mem_free())
    from vortex.engine import Position, new_buffer, MAX_DESTINATIONS, parse_cell
    from vortex.engine.perft import perft
    pos = vortex.engine.Position(full)
    buf = new_buffer()
    print("legal_n", pos.legal_into(buf))

    def legal():
        for _ in range(calls):
            pos.legal_into(buf)
    print("legal_us", _best(legal, tries) / calls)
    p = Position(lift)
    dest = new_buffer(MAX_DESTINATIONS)
    worst = 0
    for name in cells.split(","):
        c = parse_cell(name)

        def destinations():
            for _ in range(calls):
                p.destinations(c, dest)
        worst = max(worst, _best(destinations, tries) / calls)
    print("dest_us", worst)
    nodes = [0]

    def perft2():
        nodes[0] = perft(pos, 2)
    us = _best(perft2, tries)
    print("perft2_nodes", nodes[0])
    print("perft2_nps", nodes[0] * 1e6 / us)


def step_mode(repeats):
    import bench_app_mpy
    bench_app_mpy.step_mode(repeats)


def game_mode(seed):
    import bench_app_mpy
    bench_app_mpy.game_mode(seed)


def pass_mode(passes):
    import bench_app_mpy
    bench_app_mpy.pass_mode(passes)


def save_mode(path, actions_file, counts):
    """What a commit costs at action n (its save is one journal record, the
    same at any length of game), and what a whole snapshot costs there (a
    new game's or a resume's save)."""
    from vortex.app.board import Board
    from vortex.hal.store import FileStore
    with open(actions_file) as f:
        start = f.readline().strip()
        actions = f.readline().split()
    board = Board(FileStore(path))
    board.new_game(start)
    pos = board.pos
    done = 0
    for n in [int(x) for x in counts.split(",")]:
        n = min(n, len(actions))
        while done < n - 1:
            pos.push(pos.parse_action(actions[done]))
            done += 1
        board.save()  # the snapshot the journal record follows
        gc.collect()
        t0 = ticks_us()
        board.commit(pos.parse_action(actions[done]))
        print("commit_%d_us %d" % (n, _us(t0)))
        done += 1
        gc.collect()
        t0 = ticks_us()
        board.save()
        print("snapshot_%d_us %d" % (n, _us(t0)))


def ai_mode(text, plies, levels=None):
    """Per level: the mean and worst time of `plies` actions from `text`
    (each side in turn), and the search's nodes a second. The search is
    made once, before the clock starts, and shared by the levels, as the
    board makes it at boot."""
    from vortex.app import ai
    from vortex.engine import Position
    search = ai.searcher(ai.DEVICE_LEVELS)
    for level in levels or range(1, ai.DEVICE_LEVELS + 1):
        player = ai.Ai(level=level, seed=1, search=search)
        pos = Position(text)
        total = worst = nodes = n = 0
        for _ in range(plies):
            gc.collect()
            t0 = ticks_us()
            a = player.choose(pos)
            dt = _us(t0)
            if a < 0:
                break
            total += dt
            worst = max(worst, dt)
            nodes += search.nodes
            pos.push(a)
            n += 1
        print("ai_%d_us %d" % (level, total // max(n, 1)))
        print("ai_%d_worst_us %d" % (level, worst))
        print("ai_%d_nps %d" % (level, nodes * 1000000 // max(total, 1)))
        print("ai_%d_nodes %d" % (level, nodes // max(n, 1)))


def hal_mode(calls):
    """Device only: the reed scan and one NeoPixel frame, on the real pins."""
    if CIRCUITPYTHON:
        return hal_mode_cp(calls)
    from machine import Pin
    import pins
    from vortex.hal.reed import ReedMatrix, sio_columns
    from vortex.hal.pixels import Pixels, led_map
    # Wired as main.py wires it: a row's columns in one register read.
    reeds = ReedMatrix([Pin(n) for n in pins.REED_ROWS], [Pin(n) for n in pins.REED_COLS],
                       pins.DEBOUNCE_MS, sio_columns(pins.REED_COLS))
    t0 = ticks_us()
    for i in range(calls):
        reeds.scan(i)
    print("scan_us", _us(t0) / calls)
    px = Pixels(Pin(pins.LED_PIN), pins.LED_COUNT, led_map(pins.LED_SERPENTINE))
    frame = bytearray(3 * pins.LED_COUNT)
    t0 = ticks_us()
    for i in range(calls):
        frame[0] = i & 255 | 1  # a new frame each call (an unchanged one is not sent)
        px.show(frame)
    print("show_us", _us(t0) / calls)


def protocol_mode(text, calls):
    """The tile scheduler's bookkeeping a read (vortex.hal.tiles over the
    virtual board's readers: no SPI, the same code as on the board), and a
    tag's bytes decoded (vortex.tag.decode)."""
    from host_sim.virtual import VirtualBoard
    from vortex.engine.position import Position
    from vortex import tag
    v = VirtualBoard.from_position(Position(text))
    sc = v.scanner
    now = 0
    for _ in range(200):                     # the first sweep
        now += 5
        sc.poll(now)
    r0 = sc.reads
    t0 = time.ticks_us()
    while sc.reads - r0 < calls:
        now += 5
        sc.poll(now)
    print("schedule_us", _us(t0) / (sc.reads - r0))
    data = tag.encode(tag.FIRE, 7)
    t0 = time.ticks_us()
    for _ in range(calls):
        tag.decode(data)
    print("decode_us", _us(t0) / calls)


def scanner_mode(ms):
    """Device only: the tile scanner over the real front end (tiles laid by
    the emulator), nothing else running: its first sweep, its reads a
    second and the CPU a read takes."""
    from machine import Pin, SPI
    import pins
    from vortex.hal.rp2nfc import Rp2FrontEnd
    from vortex.hal.mfrc522 import Readers
    from vortex.hal.tiles import TileScanner
    spi = SPI(pins.NFC_SPI, baudrate=pins.NFC_BAUD, sck=Pin(pins.NFC_SCK),
              mosi=Pin(pins.NFC_MOSI), miso=Pin(pins.NFC_MISO))
    front = Rp2FrontEnd(spi, Pin(pins.NFC_STROBE, Pin.OUT), Pin(pins.NFC_LATCH, Pin.OUT),
                        pins.NFC_READERS, pins.NFC_SPI, pins.NFC_STROBE, pins.NFC_LATCH,
                        pins.NFC_CHAIN_RETURN)   # as main.py builds it: the board's chain check or none
    front.reset()
    readers = Readers(front, pins.NFC_READERS)
    sc = TileScanner(readers, front, time.ticks_ms(), clock=time.ticks_us)
    t0 = time.ticks_ms()
    while sc.unread and time.ticks_diff(time.ticks_ms(), t0) < 5000:
        sc.poll(time.ticks_ms())
    print("first_sweep_ms", time.ticks_diff(time.ticks_ms(), t0))
    r0 = sc.reads
    h0 = sum(rd.hits for rd in (readers[r] for r in range(len(readers))))
    busy = 0
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < ms:
        a = time.ticks_us()
        sc.poll(time.ticks_ms())
        busy += time.ticks_diff(time.ticks_us(), a)
    n = sc.reads - r0
    print("reads_per_s", n * 1000 / ms)
    print("cached_share", (sum(rd.hits for rd in (readers[r] for r in range(len(readers)))) - h0)
          / max(n, 1))
    print("busy_per_read_us", busy / max(n, 1))


def hal_mode_cp(calls):
    """The same on CircuitPython: draining keypad's events into .cells (the
    scanning itself is C, in the background) and a frame through the
    neopixel library."""
    import board
    import pins
    from vortex.hal.cp import keys
    from vortex.hal.cp.pixels import NeoPixelBuffer
    from vortex.hal.pixels import Pixels, led_map
    gp = lambda n: getattr(board, "GP%d" % n)  # noqa: E731
    reeds = keys.reed_matrix([gp(n) for n in pins.REED_ROWS], [gp(n) for n in pins.REED_COLS],
                             pins.DEBOUNCE_MS)
    t0 = ticks_us()
    for i in range(calls):
        reeds.scan(i)
    print("scan_us", _us(t0) / calls)
    px = Pixels(None, pins.LED_COUNT, led_map(pins.LED_SERPENTINE),
                driver=NeoPixelBuffer(gp(pins.LED_PIN), pins.LED_COUNT))
    frame = bytearray(3 * pins.LED_COUNT)
    t0 = ticks_us()
    for i in range(calls):
        frame[0] = i & 255 | 1
        px.show(frame)
    print("show_us", _us(t0) / calls)
