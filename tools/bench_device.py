"""Device figures: the firmware on an emulated Pico (the real MicroPython rp2
firmware in rp2040js, tools/pico), beside the MicroPython unix port's and
their ratio. Figures, never a pass/fail on a time.

    make bench-device     (or: .venv/bin/python tools/bench_device.py [--only SECTION ...])

Sections: engine (legal actions, a lifted piece's destinations, perft 2,
heap of the imports), board (lift to frame, idle step), sound (the board's
whole pass with no buzzer, the buzzer idle and playing, on the real PWM
pin on the device; a tone change), save (after 10 and
300 actions), ai (time per action, per level), hal (the reed scan and a
NeoPixel frame on the real pins), nfc (the NFC front end's eight readers:
an exchange's protocol step, the scanner alone, main.py's sweep, reed scans
and lift latency while it reads, a laid tile's latency), loop (main.py
with its real pins and the position's tiles: reed scans per second idle,
with a piece lifted, while the AI thinks and while the LEDs blink;
lift-to-LED latency),
game (a whole game through the virtual board, the slowest: minutes),
formats (CircuitPython: the firmware as .mpy or as source, the heap after
main.py's imports and after its boot, the bytes a maker copies),
heap (whole games as a player plays them: main.py on each runtime, a
seeded random Light carried out by hand against the board's AI at
--levels, --games each; the heap before each of the AI's searches, its
low-water mark over the games, the largest free block, from the host
link's `memory`; hours on a shared machine).
Device time is the emulated 125 MHz clock's; the emulator itself runs
several times slower than a real Pico, so this takes a while.

Each section but game also runs on CircuitPython 10.2.1 (the emulated
Pico's other image, from the CircuitPython build: plain sources, keypad,
the neopixel library), in a column of its own; --runtime micropython
leaves it out.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
import bench  # noqa: E402  (its reference positions; it puts firmware/ on sys.path)
import build_mpy  # noqa: E402
import deploy  # noqa: E402
import pico  # noqa: E402
from host_sim import cli  # noqa: E402  (on sys.path through build_mpy)
from vortex.engine import Position, parse_cell, new_buffer, MAX_DESTINATIONS  # noqa: E402
from vortex.engine.defs import DARK  # noqa: E402
from vortex.engine.codes import move_to  # noqa: E402
from vortex.engine.position import START  # noqa: E402
from vortex.engine.notation import action_text  # noqa: E402
from vortex.app import session  # noqa: E402
from vortex.hal.store import pack  # noqa: E402
from vortex.app.sensing import SETTLE_MS  # noqa: E402

SCRIPTS = ("bench_app_mpy.py", "bench_device_mpy.py")
SAVES = (10, 300)
LIFT_CELL = "e2"
HEAP_LEVELS = (1, 3, 5)  # the heap section's AI levels (--levels) ...
HEAP_GAMES = 2           # ... and games each, seeds 1, 2, ... (--games)
HEAP_MOST = 160          # actions at most a game (80 quiet actions end one anyway)


def _test_modules():
    """The names of the tests/ modules the device scripts import, following
    those modules' own imports."""
    tests = os.path.join(os.path.dirname(TOOLS), "tests")
    todo, found = [os.path.join(TOOLS, n) for n in SCRIPTS], set()
    while todo:
        with open(todo.pop()) as f:
            names = re.findall(r"^\s*(?:from|import)\s+(\w+)", f.read(), re.M)
        for name in names:
            path = os.path.join(tests, name + ".py")
            if name not in found and os.path.exists(path):
                found.add(name)
                todo.append(path)
    return found


class Bench:
    """The built tree, the rows of the table, and how to run a mode on each side."""

    def __init__(self, tmp, circuitpython=True, levels=HEAP_LEVELS, games=HEAP_GAMES):
        self.tmp = tmp
        self.cp_tree = None
        self.levels = levels
        self.games = games
        if circuitpython:
            # Plain sources, the scripts too: CircuitPython compiles them itself.
            self.cp_tree = os.path.join(tmp, "cp")
            build_mpy.build(self.cp_tree, with_tests=True, runtime="circuitpython")
            for name in SCRIPTS:
                shutil.copyfile(os.path.join(TOOLS, name), os.path.join(self.cp_tree, name))
        # Native code for each side: armv6m for the Pico, this machine's for
        # the unix port (neither loads the other's).
        self.tree = os.path.join(tmp, "tree")
        self.host_tree = os.path.join(tmp, "host")
        for tree, arch in ((self.tree, "armv6m"), (self.host_tree, "host")):
            build_mpy.build(tree, with_tests=True, arch=arch)
            for name in SCRIPTS:
                subprocess.run([build_mpy.mpy_cross(), "-o",
                                os.path.join(tree, name[:-3] + ".mpy"),
                                os.path.join(TOOLS, name)], check=True)
        self.actions = os.path.join(tmp, "actions.txt")
        with open(self.actions, "w") as f:
            f.write(long_game(max(SAVES)))
        self.rows = []  # (section, figure, unix, device, unit, circuitpython)

    def device_files(self, runtime="micropython"):
        """The test-side tree under /t, beside the deploy tree that pico adds:
        host_sim's device modules and, of tests/, only the modules the scripts
        import (the whole of tests/ no longer fits CIRCUITPY's 1 MB)."""
        files = {"actions.txt": self.actions}
        tree = self.cp_tree if runtime == "circuitpython" else self.tree
        for folder, _, names in os.walk(os.path.join(tree, "host_sim")):
            for name in names:
                local = os.path.join(folder, name)
                files["t/" + os.path.relpath(local, tree)] = local
        ext = ".py" if runtime == "circuitpython" else ".mpy"
        for name in sorted(_test_modules()):
            files["t/tests/" + name + ext] = os.path.join(tree, "tests", name + ext)
        for name in SCRIPTS:
            name = name if runtime == "circuitpython" else name[:-3] + ".mpy"
            files["t/" + name] = os.path.join(tree, name)
        return files

    def unix(self, call):
        code = ("import sys\nsys.path[:0] = [%r, %r, %r]\nimport bench_device_mpy as b\nb.%s\n"
                % (self.host_tree, self.host_tree + "/firmware", self.host_tree + "/tests", call))
        lines, rc, err = bench.mpy("-c", code, heap=512, cwd=self.tmp, timeout=600)
        if rc:
            raise RuntimeError("unix port: %s" % err.strip().splitlines()[-1:])
        return {k: float(v[0]) for k, v in bench.dict_of(lines).items() if _number(v[0])}

    def device(self, call, timeout, runtime="micropython", tiles=None):
        code = ("import sys\nsys.path[:0] = ['/t', '/t/tests']\nimport bench_device_mpy as b\n"
                "b.%s\n" % call)
        r = pico.run(code, files=self.device_files(runtime), timeout=timeout, runtime=runtime,
                     tiles=tiles)
        if r.status:
            why = {pico.TIMEOUT: "out of time after %d s" % timeout,
                   pico.WATCHDOG: "the watchdog reset the chip"}.get(r.status, r.error.strip())
            raise RuntimeError("emulated Pico: %s" % why.splitlines()[-1:])
        return {k: float(v[0]) for k, v in bench.dict_of(r.output.splitlines()).items()
                if _number(v[0])}

    def both(self, call, unix_call=None, timeout=600):
        """(unix port's, emulated Pico's, CircuitPython's or {}) figures."""
        u = self.unix(unix_call or call)
        d = self.device(call, timeout)
        return u, d, self.cp(call, timeout)

    def cp(self, call, timeout):
        """The figures on the emulated CircuitPython Pico, {} if left out."""
        if self.cp_tree is None:
            return {}
        return self.device(call, timeout, runtime="circuitpython")

    def row(self, section, figure, unix, device, unit, cp=None):
        self.rows.append((section, figure, unix, device, unit, cp))
        print("  %-44s %12s %12s %12s %s" % (figure, _fmt(unix), _fmt(device), _fmt(cp), unit))
        sys.stdout.flush()


def _number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, int):
        return "{:,}".format(v)  # a count or bytes: as it is
    return "{:,.0f}".format(v) if abs(v) >= 100 else "%.2f" % v


def long_game(plies, seed=7):
    """The start and `plies` random legal actions that do not end the game
    (text lines), for the saves: a long game's save is the big one."""
    rng = random.Random(seed)
    pos = Position(START)
    texts = []
    while len(texts) < plies:
        actions = list(pos.legal_actions())
        rng.shuffle(actions)
        for a in actions:
            pos.push(a)
            if pos.outcome() is None:
                break
            pos.pop()
        else:
            break  # every action ends it: a shorter game
        texts.append(action_text(pos.stack[-1]))
    return START + "\n" + " ".join(texts) + "\n"


# --- sections -----------------------------------------------------------------
def engine(b):
    """Engine"""
    # bench.HEAP: a late battle with 129 legal actions, the design's reference.
    call = "engine_mode(%r, %r, %r, %d, %%d)" % (bench.HEAP[0], bench.LIFT,
                                                ",".join(c for c, _ in bench.LIFTED), 20)
    u, d, c = b.both(call % 1, unix_call=call % 5, timeout=900)
    b.row("engine", "legal actions, battle position (%d)" % d["legal_n"], u["legal_us"],
          d["legal_us"], "us", c.get("legal_us"))
    b.row("engine", "a lifted piece's destinations, worst", u["dest_us"], d["dest_us"], "us",
          c.get("dest_us"))
    b.row("engine", "perft 2 (%d nodes)" % d["perft2_nodes"], u["perft2_nps"], d["perft2_nps"],
          "nodes/s", c.get("perft2_nps"))
    b.row("engine", "heap used by importing engine + board", u["import_heap"],
          d["import_heap"], "bytes", c.get("import_heap"))
    b.row("engine", "heap free after those imports", None, d["free_heap"], "bytes",
          c.get("free_heap"))


def board(b):
    """Board logic"""
    u, d, c = b.both("step_mode(30)", timeout=600)
    b.row("board", "lift -> frame ready", u["lift_us"], d["lift_us"], "us", c.get("lift_us"))
    b.row("board", "idle step", u["idle_us"], d["idle_us"], "us", c.get("idle_us"))


def sound(b):
    """The board's pass and its buzzer (sensors and LEDs stubbed)"""
    # MicroPython's: the pass drives machine.PWM on the buzzer pin (CircuitPython's pwmio: not here).
    u, d = b.unix("pass_mode(2000)"), b.device("pass_mode(200)", timeout=600)
    for name, label in (("none", "pass, no buzzer"), ("idle", "pass, buzzer idle"),
                        ("playing", "pass, buzzer playing")):
        b.row("sound", label, u["pass_%s_us" % name], d["pass_%s_us" % name], "us")
    for name in ("idle", "playing"):
        b.row("sound", "heap allocated by the passes, buzzer %s" % name,
              u["pass_%s_alloc" % name], d["pass_%s_alloc" % name], "bytes")
    b.row("sound", "a tick that changes the tone (PWM freq + duty)", u["tone_change_us"],
          d["tone_change_us"], "us")


def save(b):
    """Saves"""
    counts = ",".join(str(n) for n in SAVES)
    u = b.unix("save_mode(%r, %r, %r)" % (os.path.join(b.tmp, "bench.bin"), b.actions, counts))
    call = "save_mode('/bench.bin', '/actions.txt', %r)" % counts
    d = b.device(call, timeout=600)
    c = b.cp(call, timeout=600)
    for what, label in (("commit", "a commit and its journal record, action %d"),
                        ("snapshot", "a whole snapshot (new game, resume), action %d")):
        for n in SAVES:
            key = "%s_%d_us" % (what, n)
            if key in d:
                b.row("save", label % n, u.get(key), d[key], "us", c.get(key))


def ai(b):
    """AI"""
    # The board just built (every piece home) and a middle game, each side
    # acting in turn: 6 actions a level, then level 5's nodes a second; the
    # CircuitPython column where it runs (plain Python: no machine code).
    u, d, c = b.both("ai_mode(%r, 6)" % bench.FULL[0], timeout=1800)

    def ms(fig, key):
        return None if fig.get(key) is None else fig[key] / 1000
    for level in range(1, 6):
        key = "ai_%d_us" % level
        if key in d:
            b.row("ai", "time per action, level %d (mean of 6)" % level,
                  ms(u, key), ms(d, key), "ms", ms(c, key))
            nps = "ai_%d_nps" % level
            b.row("ai", "  nodes searched a second, level %d" % level, u.get(nps), d.get(nps),
                  "nodes/s", c.get(nps))
    b.row("ai", "  level 5, worst of the 6", ms(u, "ai_5_worst_us"), ms(d, "ai_5_worst_us"),
          "ms", ms(c, "ai_5_worst_us"))
    b.row("ai", "  level 5, nodes an action", u.get("ai_5_nodes"), d.get("ai_5_nodes"), "",
          c.get("ai_5_nodes"))
    u, d, c = b.both("ai_mode(%r, 4, [5])" % bench.BULK[0], timeout=1800)
    b.row("ai", "level 5 search, a middle game", u.get("ai_5_nps"), d.get("ai_5_nps"),
          "nodes/s", c.get("ai_5_nps"))
    b.row("ai", "  its time per action (mean of 4)", ms(u, "ai_5_us"), ms(d, "ai_5_us"), "ms",
          ms(c, "ai_5_us"))


def game(b):
    """A whole game through the virtual board"""
    u = b.unix("game_mode(1)")
    d = b.device("game_mode(1)", timeout=3600)
    b.row("game", "actions played (%d), seconds" % d["actions"], u["seconds"], d["seconds"], "s")
    b.row("game", "peak live heap", u["live_peak"], d["live_peak"], "bytes")


FORMATS_SCRIPT = """
import gc
stage = 'imports'
gc.collect()
print('formats start', gc.mem_free())
try:
    import main
    gc.collect()
    print('formats imports', gc.mem_free())
    stage = 'boot'
    board = main.run(ticks=5)
    from vortex import heap
    print('formats boot', heap.free(), heap.largest(16384), board.table_bytes())
except MemoryError as e:
    print('formats short', stage, e)
"""


def formats(b):
    """CircuitPython: the firmware as .mpy (what make flash copies) or as source (compiled on the board)"""
    if b.cp_tree is None:
        raise RuntimeError("CircuitPython left out")
    tree = os.path.join(b.tmp, "formats")
    build_mpy.build(tree, runtime="circuitpython", keep_sources=True)
    for name in ("mpy", "py"):
        files, size = {}, 0
        for local, dest in deploy.files(tree, "circuitpython"):
            twin = local[:-4] + ".py" if local.endswith(".mpy") else local[:-3] + ".mpy"
            if os.path.exists(twin) and not local.endswith("." + name):
                continue  # the module in the other format
            files["lib/main.py" if dest == "code.py" else dest] = local
            size += os.path.getsize(local)
        r = pico.run(FORMATS_SCRIPT, files=files, deploy=False, runtime="circuitpython",
                     timeout=900)
        got = {}
        for line in r.output.splitlines():
            words = line.split()
            if words[:1] == ["formats"]:
                got[words[1]] = words[2:]
        label = ".mpy" if name == "mpy" else "source"
        b.row("formats", "%s: bytes copied to CIRCUITPY" % label, None, None, "bytes", size)
        b.row("formats", "  free before main.py's imports", None, None, "bytes",
              _int(got, "start", 0))
        b.row("formats", "  free after its imports", None, None, "bytes", _int(got, "imports", 0))
        b.row("formats", "  free after its boot (the AI's table made)", None, None, "bytes",
              _int(got, "boot", 0))
        b.row("formats", "  largest free block after its boot", None, None, "bytes",
              _int(got, "boot", 1))
        b.row("formats", "  the AI's tables", None, None, "bytes", _int(got, "boot", 2))
        if "short" in got or r.status:
            print("  %s: %s" % (label, " ".join(got.get("short", [])) or r.error.strip()[-300:]
                                or r.output[-300:]))


def _int(got, key, i):
    words = got.get(key) or []
    return int(words[i]) if i < len(words) and words[i].lstrip("-").isdigit() else None


def heap(b):
    """Whole games on each runtime: the heap before each search (the link's `memory`)"""
    runtimes = ["micropython"] + (["circuitpython"] if b.cp_tree is not None else [])
    # The qstr pool's room (tests/device_memory.py): names still to be had
    # once the board has booted, resumed a game and interned every name it
    # can make on demand (tests/test_device_qstr.py wants 32 at least).
    sys.path.insert(0, os.path.join(os.path.dirname(TOOLS), "tests"))
    import device_memory
    room = {r: device_memory.headroom(r) for r in runtimes}
    cp = room.get("circuitpython", (None, None))
    b.row("heap", "qstr pool: room for more names, after all the board can make", None,
          room["micropython"][0], "names", cp[0])
    b.row("heap", "  free heap then", None, room["micropython"][1], "bytes", cp[1])
    for level in b.levels:
        got = {}
        for runtime in runtimes:
            games = [heap_game(runtime, level, seed) for seed in range(1, b.games + 1)]
            got[runtime] = games
            for g in games:
                print("  %s level %d seed %d: %d actions, %s; free before each search %s" % (
                    runtime, level, g["seed"], g["actions"], g["end"],
                    " ".join(str(f) for f in g["before"])))
        mp, cp = got["micropython"], got.get("circuitpython")

        def col(games, f):
            return f(games) if games else None
        b.row("heap", "level %d: games played whole, of %d" % (level, b.games), None,
              col(mp, _whole), "", col(cp, _whole))
        b.row("heap", "  actions a game (mean)", None, col(mp, _mean("actions")), "",
              col(cp, _mean("actions")))
        b.row("heap", "  free before the first search", None, col(mp, _first("before")),
              "bytes", col(cp, _first("before")))
        b.row("heap", "  free before a search, lowest (low-water mark)", None,
              col(mp, _least("before")), "bytes", col(cp, _least("before")))
        b.row("heap", "  largest free block after a search, smallest", None,
              col(mp, _least("largest")), "bytes", col(cp, _least("largest")))
        b.row("heap", "  the search's tables, smallest", None, col(mp, _least("table")),
              "bytes", col(cp, _least("table")))
        b.row("heap", "  AI turns short of memory (played on with less)", None,
              col(mp, _total("short")), "", col(cp, _total("short")))


def _whole(games):
    return sum(1 for g in games if g["end"] in ("over", "most"))


def _mean(key):
    return lambda games: sum(g[key] for g in games) / len(games)


def _first(key):
    return lambda games: min((g[key][0] for g in games if g[key]), default=None)


def _least(key):
    return lambda games: min((min(g[key]) for g in games if g[key]), default=None)


def _total(key):
    return lambda games: sum(g[key] for g in games)


def heap_game(runtime, level, seed, most=HEAP_MOST):
    """One game on the emulated Pico (host_sim.device.DeviceRig: main.py, the
    NFC front end modelled, hands): from the built board, Light's actions
    chosen at random (seeded), the board's AI (Dark) at `level`. After each
    of its answers the link's `memory`: {"seed", "actions", "end" ("over",
    "most", or why it stopped), "before", "largest", "table" (one a search),
    "short"}."""
    from host_sim.device import DeviceRig
    rng = random.Random(seed)
    got = {"seed": seed, "actions": 0, "end": "?", "before": [], "largest": [], "table": [],
           "short": 0}
    rig = DeviceRig(bench.FULL[0], session.Settings(ai_side=DARK, ai_level=level),
                    runtime=runtime)

    def memory():
        words = rig.ask("memory")
        m = dict(zip(words[::2], (int(w) for w in words[1::2])))
        got["before"].append(m["before"])
        got["largest"].append(m["largest"])
        got["table"].append(m["table"])
        got["short"] = m["short"]
    try:
        got["actions"] = rig.play_out(lambda pos: rng.choice(list(pos.legal_actions())), most,
                                      answered=memory)
        got["end"] = "over" if rig.board.result() is not None else "most"
    except RuntimeError as e:
        got["actions"] = len(rig.board.pos.stack)
        got["end"] = "stopped at action %d: %s" % (got["actions"] + 1, str(e)[-300:])
    finally:
        rig.close()
    return got


def hal(b):
    """Drivers on the real pins (device only)"""
    d = b.device("hal_mode(20)", timeout=300)
    c = b.cp("hal_mode(20)", timeout=300)
    b.row("hal", "reed matrix scan (.scan: CircuitPython drains keypad)", None,
          d["scan_us"] / 1000, "ms", c["scan_us"] / 1000 if c else None)
    b.row("hal", "one NeoPixel frame (Pixels.show)", None, d["show_us"] / 1000, "ms",
          c["show_us"] / 1000 if c else None)


def tiles_of(pos):
    """The NTAG213s of a position's tiles, {cell: memory}, serials by cell."""
    return {c: pico.tile(pos.tiles[c], 1 + c) for c in range(64) if pos.tiles[c]}


def nfc(b):
    """NFC front end, eight readers (targets: a sweep <= 150 ms, a laid tile on the LEDs <= 300 ms, >= 100 reed scans/s, lift -> LEDs <= 20 ms)"""
    call = "protocol_mode(%r, 200)" % bench.FULL[0]  # MicroPython's (CircuitPython: no ticks_us)
    u, d = b.unix(call), b.device(call, timeout=300)
    b.row("nfc", "the scheduler's work a read (virtual readers)", u["schedule_us"],
          d["schedule_us"], "us")
    b.row("nfc", "a tag's bytes decoded (tag.decode)", u["decode_us"], d["decode_us"], "us")
    pos = Position(bench.FULL[0])
    d = b.device("scanner_mode(1000)", timeout=600, tiles=tiles_of(pos))
    b.row("nfc", "scanner alone: the first sweep (two reads a cell)", None,
          d["first_sweep_ms"], "ms")
    b.row("nfc", "scanner alone: reads a second (64 tiles)", None, d["reads_per_s"], "/s")
    b.row("nfc", "  a sweep of 64 cells at that rate", None, 64000 / d["reads_per_s"], "ms")
    b.row("nfc", "  reads answered from the UID cache", None, 100 * d["cached_share"], "%")
    b.row("nfc", "  CPU a read (the scanner's poll() time)", None, d["busy_per_read_us"] / 1000,
          "ms")
    # main.py, the battle position with its 64 tiles laid, idle: the sweep as
    # the emulated readers saw it, the reed scans, a lifted piece's destinations.
    occ = [c for c in range(64) if pos.pieces[c]]
    files = {"game.bin": pack(session.dump(session.Settings(), bench.FULL[0], [], (0, 0)))}
    lift = parse_cell(LIFT_CELL)
    buf = new_buffer(MAX_DESTINATIONS)
    dest = [move_to(buf[i]) for i in range(pos.destinations(lift, buf))]
    with pico.Pico(files, autorun=True, reeds=occ, tiles=tiles_of(pos)) as dev:
        def at(ns, limit=900):
            if not dev.wait(lambda: dev.now >= ns, limit):
                raise RuntimeError("emulated Pico: no progress")
        # From 6.5 s: the cells read first at boot (every cell, while the
        # board first compares; HOLD_MS each) are done with by then.
        at(6_500_000_000)
        dev.reader_stats()
        t0 = dev.now
        at(t0 + 2_000_000_000)
        st = dev.reader_stats()
        t1 = dev.now
        s = [t for t in dev.scans if t0 <= t < t1]
        span = (st["t"] - st["since"]) / 1e9
        b.row("nfc", "main.py: a full sweep (the longest a cell waits between reads)", None,
              max(st["gap"]) / 1e6, "ms")
        b.row("nfc", "main.py: reads a second", None, sum(st["wakes"]) / span, "/s")
        b.row("nfc", "main.py: reed scans a second while the tiles are read", None,
              len(s) / ((t1 - t0) / 1e9), "/s")
        b.row("nfc", "  longest gap between two scans", None,
              max(y - x for x, y in zip(s, s[1:])) / 1e6, "ms")
        worst = 0
        for _ in range(3):
            n = len(dev.frames)
            dev.set_reeds([c for c in occ if c != lift])
            dev.wait(lambda: dev.reeds_at is not None
                     and any(lit(f, dest) for _, f in dev.frames[n:]), 300)
            shown = [t for t, f in dev.frames[n:] if lit(f, dest)]
            if not shown:
                raise RuntimeError("emulated Pico: the destinations never lit")
            worst = max(worst, (shown[0] - dev.reeds_at) / 1e6)
            dev.set_reeds(occ)
            at(dev.now + 700_000_000)
        b.row("nfc", "main.py: lift -> destinations on the LEDs, worst of 3", None, worst, "ms")
        # A piece held up: its cell and the cells around it are read first
        # (vortex.hal.tiles: within SWEEP_MS), the other cells still swept.
        dev.set_reeds([c for c in occ if c != lift])
        at(dev.now + 300_000_000)
        dev.reader_stats()
        at(dev.now + 2_000_000_000)
        st = dev.reader_stats()
        dev.set_reeds(occ)
        b.row("nfc", "main.py: a full sweep while a piece is held up", None,
              max(st["gap"]) / 1e6, "ms")
    # The building phase: a tile laid on an empty cell, until its cell changes on the LEDs.
    empty = Position(START)
    occ = [c for c in range(64) if empty.pieces[c]]
    with pico.Pico(autorun=True, reeds=occ) as dev:
        dev.wait(lambda: dev.frames and dev.now - dev.frames[-1][0] > 800_000_000, 300)
        worst = 0
        for k, cell in enumerate(("d4", "e5", "c3")):
            c = parse_cell(cell)
            before = dev.frames[-1][1][3 * c:3 * c + 3]
            n = len(dev.frames)
            dev.set_tags(c, pico.tile(1 + k, 100 + k))
            dev.wait(lambda: dev.tags_at is not None and any(
                f[3 * c:3 * c + 3] != before for _, f in dev.frames[n:]), 300)
            shown = [t for t, f in dev.frames[n:] if f[3 * c:3 * c + 3] != before]
            if not shown:
                raise RuntimeError("emulated Pico: the laid tile never showed")
            worst = max(worst, (shown[0] - dev.tags_at) / 1e6)
            t = dev.now
            dev.wait(lambda: dev.now > t + 600_000_000, 300)
        b.row("nfc", "main.py: a tile laid -> its cell on the LEDs, worst of 3", None, worst, "ms")
        b.row("nfc", "  committed after the board's settle (SETTLE_MS, vortex.app.sensing)", None,
              SETTLE_MS, "ms")


def loop(b):
    """main.py with its real pins, the position's tiles laid and read"""
    d = loop_run(b, "micropython")
    c = loop_run(b, "circuitpython") if b.cp_tree is not None else {}
    for key, label, unit in (("idle", "reed scans/s: idle", "/s"),
                             ("lifted", "reed scans/s: a piece lifted", "/s"),
                             ("think", "reed scans/s: move, save, AI thinks", "/s"),
                             ("blink", "reed scans/s: the AI's action blinking", "/s")):
        b.row("loop", label, None, d[key][0], unit, c[key][0] if c else None)
        b.row("loop", "  longest gap between two scans", None, d[key][1], "ms",
              c[key][1] if c else None)
    b.row("loop", "frames sent in the blinking second", None, d["changes"], "",
          c.get("changes"))
    b.row("loop", "lift -> destinations on the LEDs", None, d["latency"], "ms", c.get("latency"))


def loop_run(b, runtime):
    """main.py's loop on one runtime: {state: (scans a second, longest gap
    ms)}, frames in the blinking second, lift-to-LEDs ms."""
    text = bench.FULL[0]
    pos = Position(text)
    occ = [c for c in range(64) if pos.pieces[c]]
    settings = session.Settings(ai_side=DARK)
    files = {"game.bin": pack(session.dump(settings, text, [], (0, 0)))}
    lift = parse_cell(LIFT_CELL)
    buf = new_buffer(MAX_DESTINATIONS)
    n = pos.destinations(lift, buf)
    dest = [move_to(buf[i]) for i in range(n)]
    to = next(c for c in dest if not pos.pieces[c])
    window = 1_000_000_000  # ns of device time per state
    with pico.Pico(files, autorun=True, reeds=occ, runtime=runtime,
                   tiles=tiles_of(pos)) as dev:
        def at(ns, limit=900):
            if not dev.wait(lambda: dev.now >= ns, limit):
                raise RuntimeError("emulated Pico: no progress (%s)" % (
                    "watchdog reset" if dev.watchdog is not None else "out of time"))

        def rate(t0, t1):
            s = [t for t in dev.scans if t0 <= t < t1]
            gaps = [b - a for a, b in zip(s, s[1:])] or [0]
            return len(s) / ((t1 - t0) / 1e9), max(gaps) / 1e6

        dev.wait(lambda: dev.frames, 300)
        if not dev.frames:
            raise RuntimeError("emulated Pico: main.py drew nothing: %r" % dev.output[-300:])
        # Every tile read twice before anything is timed: until the board has
        # read its tiles it waits for them, and a piece lifted is only missing
        # (CircuitPython's first two sweeps take seconds: plain Python).
        read = [0] * 64
        while min(read) < 2:
            at(dev.now + 200_000_000)
            read = [a + b for a, b in zip(read, dev.reader_stats()["wakes"])]
        t = max(dev.now, dev.frames[-1][0]) + 500_000_000
        at(t + window)
        idle = rate(t, t + window)
        # A piece lifted: its destinations must reach the LEDs.
        dev.set_reeds([c for c in occ if c != lift])
        nframes = len(dev.frames)
        dev.wait(lambda: dev.reeds_at is not None, 60)
        t_lift = dev.reeds_at
        dev.wait(lambda: any(lit(f, dest) for _, f in dev.frames[nframes:]), 300)
        shown = [ft for ft, f in dev.frames[nframes:] if lit(f, dest)]
        latency = (shown[0] - t_lift) / 1e6 if shown else None
        at(t_lift + 200_000_000 + window)
        lifted = rate(t_lift + 200_000_000, t_lift + 200_000_000 + window)
        # Put it down on a destination: the action is committed and saved, the
        # AI (Dark) thinks, then its action blinks until carried out.
        dev.set_reeds([c for c in occ if c != lift] + [to])
        dev.wait(lambda: dev.reeds_at is not None, 60)
        t_put = dev.reeds_at
        at(t_put + 4 * window)
        think = rate(t_put, t_put + 2 * window)
        blink = rate(t_put + 2 * window, t_put + 3 * window)
        changes = sum(1 for ft, _ in dev.frames if t_put + 2 * window <= ft < t_put + 3 * window)
    if "NFC reader" in dev.output:
        print("  (%s: main.py reported NFC readers not answering)" % runtime)
    return {"idle": idle, "lifted": lifted, "think": think, "blink": blink, "changes": changes,
            "latency": latency}


def lit(frame, cells):
    return all(any(frame[3 * c:3 * c + 3]) for c in cells)


SECTIONS = [engine, board, sound, save, ai, hal, nfc, loop, game, formats, heap]


def table(rows):
    print("\n%-8s %-44s %12s %12s %8s %14s  %s" % ("", "figure", "unix port", "emulated Pico",
                                                   "ratio", "CircuitPython", "unit"))
    for section, figure, u, d, unit, c in rows:
        ratio = "-"  # how many times slower the Pico is; none for heap bytes
        if u and d and unit in ("us", "ms", "s"):
            ratio = "%.0fx" % (d / u)
        elif u and d and unit == "nodes/s":
            ratio = "%.0fx" % (u / d)
        print("%-8s %-44s %12s %12s %8s %14s  %s" % (section, figure, _fmt(u), _fmt(d), ratio,
                                                     _fmt(c), unit))


def main(argv):
    ap = cli.parser("python3 tools/bench_device.py", __doc__)
    ap.add_argument("--only", nargs="+", choices=[s.__name__ for s in SECTIONS],
                    help="run only these sections")
    ap.add_argument("--runtime", choices=("both", "micropython"), default="both",
                    help="both (MicroPython and CircuitPython, the default) or micropython")
    ap.add_argument("--levels", nargs="+", type=int, choices=range(1, 6), default=HEAP_LEVELS,
                    help="the heap section's AI levels (default %s)" % " ".join(
                        str(n) for n in HEAP_LEVELS))
    ap.add_argument("--games", type=cli.int_in(1, 100, "games"), default=HEAP_GAMES,
                    help="the heap section's games a level and runtime (default %d)" % HEAP_GAMES)
    args = ap.parse_args(argv)
    why = pico.missing()
    if why:
        print("bench-device: the emulated Pico is unavailable: %s" % why)
        return 2
    circuitpython = args.runtime == "both"
    if circuitpython and pico.missing("circuitpython"):
        print("bench-device: no CircuitPython column: %s" % pico.missing("circuitpython"))
        circuitpython = False
    broken = 0
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="vortex-bench-device-")
    try:
        b = Bench(tmp, circuitpython, args.levels, args.games)
        print("%-46s %12s %12s %12s" % ("", "unix port", "emulated Pico", "CircuitPython"))
        for section in SECTIONS:
            if args.only and section.__name__ not in args.only:
                continue
            print("\n" + section.__doc__)
            sys.stdout.flush()
            try:
                section(b)
            except (RuntimeError, KeyError, pico.Unavailable) as e:
                print("  broken: %s" % e)
                broken += 1
        table(b.rows)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n(%.0f s)" % (time.monotonic() - t0))
    return 1 if broken else 0


if __name__ == "__main__":
    cli.run(main)
