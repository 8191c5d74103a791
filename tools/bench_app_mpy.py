"""The board logic's figures, measured inside the MicroPython unix port. Run
from a tree made by tools/build_mpy.py --with-tests (as the board runs .mpy).
Prints "key value" lines.

    micropython bench_app_mpy.mpy step REPEATS     lift -> frame ready, idle tick, in us
    micropython bench_app_mpy.mpy game SEED        a whole game through the virtual board
    micropython bench_app_mpy.mpy save N           a commit's save at action 10 and N, real files
    micropython bench_app_mpy.mpy pass N           the board's pass: no buzzer, buzzer idle, playing
"""
import gc
import sys
import time

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CircuitPython: no ticks_* in time
    def ticks_us():
        return time.monotonic_ns() // 1000

    def ticks_diff(a, b):
        return a - b

START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"


def step_mode(repeats):
    from test_app_idle import idle_board  # a board in battle, agreeing with its sensors
    from vortex.app.session import Settings
    board, occ, tiles, ids, now = idle_board(Settings())
    lift = put = 0
    e2 = 12
    for _ in range(repeats):
        now += 5
        occ[e2] = 0
        t0 = ticks_us()
        drawn = board.step(now, occ, tiles, ids, 0)  # the lift: destinations drawn
        lift += ticks_diff(ticks_us(), t0)
        assert drawn
        now += 5
        occ[e2] = 1
        t0 = ticks_us()
        board.step(now, occ, tiles, ids, 0)  # put back: agreement drawn
        put += ticks_diff(ticks_us(), t0)
    print("lift_us", lift / repeats)
    print("putback_us", put / repeats)
    now += 5
    gc.collect()
    before = gc.mem_alloc()
    t0 = ticks_us()
    for _ in range(1000):
        now += 5
        board.step(now, occ, tiles, ids, 0)
    idle = ticks_diff(ticks_us(), t0)
    print("idle_alloc", gc.mem_alloc() - before)
    print("idle_us", idle / 1000)


def game_mode(seed):
    from host_sim.scenario import Rig
    from vortex.app.ai import Ai
    gc.collect()
    imported = gc.mem_alloc()
    rig = Rig(START, seed=seed)
    players = (Ai(level=0, seed=seed * 2 + 1), Ai(level=0, seed=seed * 2 + 2))
    pos = rig.board.pos
    peak = 0
    t0 = time.ticks_ms()
    while rig.board.result() is None and len(pos.stack) < 400:
        rig.play(players[pos.side].choose(pos), settle=False)
        gc.collect()
        peak = max(peak, gc.mem_alloc())
    print("actions", len(pos.stack))
    print("result", rig.board.result())
    print("live_peak", peak)
    print("imported", imported)
    print("seconds", time.ticks_diff(time.ticks_ms(), t0) / 1000)


def long_game(n, seed=1):
    """n actions of a game that does not end: random, never taking a Heart,
    taking a Traveller when the quiet count nears its limit."""
    from vortex.engine.position import Position
    from vortex.engine.defs import HEART
    from vortex.engine.codes import is_move, move_to, piece_kind
    from vortex.app.ai import Rng
    pos = Position(START)
    rng = Rng(seed)
    while len(pos.stack) < n:
        acts = [a for a in pos.legal_actions()
                if not (is_move(a) and piece_kind(pos.pieces[move_to(a)]) == HEART)]
        takes = [a for a in acts if is_move(a) and pos.pieces[move_to(a)]]
        quiet = [a for a in acts if not (is_move(a) and pos.pieces[move_to(a)])]
        pool = takes if takes and pos.quiet > 60 else quiet or acts
        pos.push(pool[rng.below(len(pool))])
    return pos.stack


def save_mode(n):
    """The time the store takes to save a commit, on real files (FileStore
    on the unix port's os), around action 10 and around action n; and what
    a whole snapshot (a new game's or a resume's save) costs there."""
    import os
    from vortex.app.board import Board
    from vortex.hal.store import FileStore, RealFS

    class HostFS(RealFS):
        def sync(self):
            pass  # the host's os.sync flushes every disk of the machine: noise, not this code

    class Timed(FileStore):
        def append(self, record):
            t0 = ticks_us()
            FileStore.append(self, record)
            self.us = ticks_diff(ticks_us(), t0)

        def save(self, data):
            t0 = ticks_us()
            FileStore.save(self, data)
            self.us = ticks_diff(ticks_us(), t0)

    def clean():
        for name in ("", ".tmp", ".bak", ".log", ".log.tmp"):
            try:
                os.remove(path + name)
            except OSError:
                pass

    actions = long_game(n + 5)
    path = "bench-save.bin"
    clean()
    gc.collect()
    store = Timed(path, HostFS())
    board = Board(store)
    at = {}
    for i in range(len(actions)):
        board.commit(actions[i])
        k = 10 if i < 20 else n
        if abs(i + 1 - k) < 5:  # a mean over the ten commits around action k
            at[k] = at.get(k, 0) + store.us
        if i + 1 == 10 or i + 1 == n:
            gc.collect()
            total = 0
            for _ in range(5):
                board.save()
                total += store.us
            print("snapshot_%d_us" % (i + 1), total / 5)
    print("append_10_us", at[10] / 9)
    print("append_%d_us" % n, at[n] / 9)
    clean()


class _Stub:
    """The pass's sensors and LEDs on an idle board (their drivers have
    figures of their own): reeds, tile reader and pixels in one."""

    def __init__(self, occ, tiles, ids):
        self.cells = occ
        self.tile_cells = tiles
        self.ids = ids
        self.missing = 0

    def scan(self, now):
        return False

    def show(self, frame):
        pass


class _Tiles:
    """vortex.hal.tiles.TileScanner's face to the pass, every reader there."""

    def __init__(self, stub):
        self.cells = stub.tile_cells
        self.ids = stub.ids
        self.missing = 0

    def poll(self, now, between=None, budget_us=None):
        pass

    def view(self, fallback):
        return self.cells

    def expect(self, cell):
        pass


class _PWM:
    """machine.PWM's two calls, where there is no machine.PWM (the unix port)."""

    def freq(self, hz):
        pass

    def duty_u16(self, duty):
        pass


def pass_mode(passes, tries=3):
    """The board's whole pass (vortex.app.service) on an idle board, 5 ms
    of board time apart: with no buzzer, with the buzzer idle, and while it
    plays (the longest sound, started again as it ends): us a pass (the
    best mean of `tries` runs) and the heap allocated; and the buzzer's
    tick that changes the tone (its PWM's frequency and duty set). The
    buzzer drives the board's PWM on pins.BUZZER where there is one."""
    from test_app_idle import idle_board
    from vortex.app.session import Settings
    from vortex.app.service import Service
    from vortex.app import sounds
    from vortex.hal.buzzer import Buzzer
    try:
        from machine import Pin, PWM
        import pins
        pwm = PWM(Pin(pins.BUZZER))
    except ImportError:
        pwm = _PWM()
    board, occ, tiles, ids, now = idle_board(Settings(volume=2))
    stub = _Stub(occ, tiles, ids)
    clock = [now]
    buzzer = Buzzer(pwm, sounds.NOTES)

    def buttons():
        return 0

    def time_of():
        return clock[0]

    def run(service, playing):
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        for _ in range(passes):
            clock[0] += 5
            if playing and not buzzer.playing:
                buzzer.play(sounds.OVER, 2, clock[0])
            service.tick()
        us = time.ticks_diff(time.ticks_us(), t0)
        alloc = gc.mem_alloc() - before
        gc.enable()
        return us / passes, alloc

    tiles_view = _Tiles(stub)
    for name, service, playing in (
            ("none", Service(board, stub, tiles_view, stub, buttons, time_of), False),
            ("idle", Service(board, stub, tiles_view, stub, buttons, time_of, buzzer=buzzer), False),
            ("playing", Service(board, stub, tiles_view, stub, buttons, time_of, buzzer=buzzer),
             True)):
        best = None
        for _ in range(tries):
            us, alloc = run(service, playing)
            best = us if best is None or us < best else best
        print("pass_%s_us" % name, best)
        print("pass_%s_alloc" % name, alloc)
    # A tick at each of the longest sound's tone changes, alone.
    notes = sounds.NOTES[sounds.OVER]
    changes = 0
    t_sum = 0
    for _ in range(20):
        at = clock[0] = clock[0] + 1000
        buzzer.play(sounds.OVER, 2, at)
        for i in range(1, len(notes), 2):
            at += notes[i]
            t0 = time.ticks_us()
            buzzer.tick(at)
            t_sum += time.ticks_diff(time.ticks_us(), t0)
            changes += 1
    print("tone_change_us", t_sum / changes)
    buzzer.stop()


def main(argv):
    # Run by tools/bench.py under MicroPython: checked by hand, no argparse.
    usage = "usage: bench_app_mpy.mpy step REPEATS | game SEED | save N | pass N"
    if argv[:1] in (["-h"], ["--help"]):
        print(usage)  # MicroPython keeps no __doc__
        return 0
    try:
        if len(argv) != 2 or argv[0] not in ("step", "game", "save", "pass"):
            raise ValueError(usage)
        n = int(argv[1])
    except ValueError as e:
        sys.stderr.write("bench_app_mpy: error: %s\n" % e)
        return 2
    if argv[0] == "step":
        step_mode(n)
    elif argv[0] == "save":
        save_mode(n)
    elif argv[0] == "pass":
        pass_mode(n)
    else:
        game_mode(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
