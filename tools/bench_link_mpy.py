"""The host link's figures, measured inside the MicroPython unix port, with
the firmware as .mpy (a tree made by tools/build_mpy.py --with-tests on
sys.path). Prints "key value" lines.

    idle TICKS    the link's cost per tick with no host traffic, on the real
                  stdio port (stdin must be open and silent): us and bytes
    events N      a game of N actions through the virtual board: the ticks
                  from a commit to its event in the port
    burst N       N commands at once: ticks to answer all, in order, none
                  lost or repeated
"""
import gc
import sys
import time


def idle_mode(ticks):
    from test_app_idle import idle_board
    from vortex.app.session import Settings
    from vortex.link.link import Link
    from vortex.link.port import StdioPort
    board, occ, tiles, ids, now = idle_board(Settings())
    link = Link(board)
    port = StdioPort()
    link.serve(port)
    link.serve(port)
    best_step = best_link = best_both = None
    for _ in range(7):  # best of 7: the machine may be busy
        t0 = time.ticks_us()
        for _ in range(ticks):
            now += 5
            board.step(now, occ, tiles, ids, 0)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best_step = dt if best_step is None or dt < best_step else best_step
        t0 = time.ticks_us()
        for _ in range(ticks):
            link.serve(port)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best_link = dt if best_link is None or dt < best_link else best_link
        t0 = time.ticks_us()
        for _ in range(ticks):
            now += 5
            board.step(now, occ, tiles, ids, 0)
            link.serve(port)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best_both = dt if best_both is None or dt < best_both else best_both
    print("step_us", best_step / ticks)
    print("link_us", best_link / ticks)
    print("both_us", best_both / ticks)
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(ticks):
        now += 5
        board.step(now, occ, tiles, ids, 0)
        link.serve(port)
    print("idle_alloc", gc.mem_alloc() - before)


def _host():
    from host_sim.scenario import Rig
    from vortex.link.link import Link
    from link_pipe import Pipe
    rig = Rig(None)
    link = Link(rig.board)
    pipe = Pipe()
    rig.service.link, rig.service.port = link, pipe
    return rig, link, pipe


def events_mode(n):
    from vortex.app.ai import Ai
    rig, link, pipe = _host()
    pipe.send("subscribe action\n")
    rig.tick()
    pipe.lines()
    board = rig.board
    ai = Ai(3)
    state = {"seen": 0, "tick": 0, "worst": 0, "count": 0}
    commits = {}

    class Timed:
        # The link as the pass serves it, timing each commit's event.
        def serve(self, port):
            state["tick"] += 1
            k = len(board.pos.stack)
            if k > state["seen"]:  # a commit in this pass
                commits[k] = state["tick"]
                state["seen"] = k
            link.serve(port)
            for line in pipe.lines():
                w = line.split()
                if w[1] == "action":
                    lag = state["tick"] - commits[int(w[2])]
                    state["worst"] = max(state["worst"], lag)
                    state["count"] += 1
    rig.service.link = Timed()
    while len(board.pos.stack) < n and board.result() is None:
        rig.play(ai.choose(board.pos), settle=False)
    rig.tick(5)
    print("actions", len(board.pos.stack))
    print("events", state["count"])
    print("worst_lag_ticks", state["worst"])


def burst_mode(n):
    rig, link, pipe = _host()
    words = ("hello", "position", "status", "settings")
    sent = 0
    got = 0
    seq = -1
    ticks = 0
    t0 = time.ticks_us()
    while got < n and ticks < 100000:
        # The host writes all n at once; the pipe is kept a little ahead of
        # what the link reads (64 bytes a tick) rather than holding them all,
        # which a 256K heap cannot hold in one piece beside the board.
        if pipe.at > 512:
            pipe.inbox = pipe.inbox[pipe.at:]
            pipe.at = 0
        while sent < n and len(pipe.inbox) - pipe.at < 256:
            pipe.send(words[sent % 4] + "\n")
            sent += 1
        rig.tick()
        ticks += 1
        for line in pipe.lines():
            w = line.split(" ", 3)
            assert int(w[0]) == seq + 1, line
            seq = int(w[0])
            assert w[1] == "ok" and w[2] == words[got % 4], (got, line)
            got += 1
    dt = time.ticks_diff(time.ticks_us(), t0)
    print("answered", got)
    print("ticks", ticks)
    print("us", dt)
    print("dropped", link.out.dropped)


MODES = {"idle": idle_mode, "events": events_mode, "burst": burst_mode}


def main(argv):
    # Run by tools/bench.py under MicroPython: checked by hand, no argparse.
    usage = "usage: bench_link_mpy.py idle|events|burst N"
    if argv[:1] in (["-h"], ["--help"]):
        print(usage)  # MicroPython keeps no __doc__
        return 0
    try:
        if len(argv) != 2 or argv[0] not in MODES:
            raise ValueError(usage)
        n = int(argv[1])
    except ValueError as e:
        sys.stderr.write("bench_link_mpy.py: error: %s\n" % e)
        return 2
    MODES[argv[0]](n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
