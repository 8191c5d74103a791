"""The board logic's figures, measured inside the MicroPython unix port. Run
from a tree made by tools/build_mpy.py --with-tests (as the board runs .mpy).
Prints "key value" lines.

    micropython bench_app_mpy.mpy step REPEATS     lift -> frame ready, in us
    micropython bench_app_mpy.mpy game SEED        a whole game through the virtual board
"""
import gc
import sys
import time

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
        t0 = time.ticks_us()
        drawn = board.step(now, occ, tiles, ids, 0)  # the lift: destinations drawn
        lift += time.ticks_diff(time.ticks_us(), t0)
        assert drawn
        now += 5
        occ[e2] = 1
        t0 = time.ticks_us()
        board.step(now, occ, tiles, ids, 0)  # put back: agreement drawn
        put += time.ticks_diff(time.ticks_us(), t0)
    print("lift_us", lift / repeats)
    print("putback_us", put / repeats)
    now += 5
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(1000):
        now += 5
        board.step(now, occ, tiles, ids, 0)
    print("idle_alloc", gc.mem_alloc() - before)


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


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "step":
        step_mode(int(sys.argv[2]))
    else:
        game_mode(int(sys.argv[2]))
