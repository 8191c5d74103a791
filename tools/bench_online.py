"""Many games online at once through one mosquitto on loopback: figures,
never a pass/fail.

    make bench-online     (or: .venv/bin/python tools/bench_online.py [--games N] ...)

Each game is two players and, for some games, a spectator: the host's own
client code (host_sim/online: Player over paho-mqtt, the room's protocol
and the engine checking every message), in a few worker processes, each
client with its own connection and persistent session, as on a player's
computer. A player answers the opponent's action after a think time (a
person takes seconds; --think-ms 0 plays as fast as the broker carries),
with a legal action drawn at random, until the game has --actions actions.

Printed: the actions a second through the broker, the time from one
player's action (published) to the opponent's receipt (applied by its
room), p50 and p99, the same for spectators, and the losses: an action
sent that a player or spectator never applied, or one applied twice (the
room applies each number once, and the games are compared at the end).
Bounded: at most --seconds of play, 127.0.0.1 only, the broker and every
client stopped at the end.
"""
import argparse
import json
import multiprocessing
import os
import random
import resource
import selectors
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)
from host_sim import cli  # noqa: E402

MAX_GAMES = 5000
SETTLE_S = 1.5
CONNECTING = 50  # connections being made at once, a worker
CLIENTS_A_WORKER = 500
PING_S = 2.0  # how often the clients' keep-alives are seen to
DRAIN_S = 15.0  # after the play: the most to wait for messages on their way


def loop_connection():
    """host_sim's Connection with paho driven by the worker's own loop:
    one thread for hundreds of clients, where a player's computer runs
    paho's network thread for its one (a thread a client would measure the
    threads, not the broker)."""
    from host_sim.online.client import Connection, KEEPALIVE_S

    class LoopConnection(Connection):
        def start(self):
            self.client.connect(self.address.host, self.address.port, KEEPALIVE_S)
            self.flush()
            return self

        def fileno(self):
            return self.client.socket().fileno()

        def flush(self):
            while self.client.want_write():
                self.client.loop_write()

        def publish(self, topic, payload, retain=False):
            super().publish(topic, payload, retain)
            self.flush()

    return LoopConnection


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))]


def worker(index, games, opts, address, out):
    """Play games[...] in this process; put its figures on out."""
    from vortex.engine import LIGHT, DARK
    from vortex.online.protocol import WATCH
    from host_sim.online.client import Address
    from host_sim.online.player import Player
    Player.connection = loop_connection()
    addr = Address.parse(address)
    sel = selectors.DefaultSelector()
    rng = random.Random(opts.seed * 1000 + index)
    sent = {}  # (game, number) -> time published
    lat_player, lat_watch = [], []
    refused = [0]
    rooms = {}  # game -> {"light": Player, "dark": Player, "watch": [Player]}
    clients = []
    t_connect = time.monotonic()
    for g in games:
        name = "bench-%d" % g
        seats = {}
        for side in (LIGHT, DARK):
            seats[side] = Player(addr, name, "bench secret %d" % g, side, log=lambda line: None,
                                 device="b%07d" % g, settle_s=SETTLE_S, cache=False)
        watchers = [Player(addr, name, None, WATCH, settle_s=SETTLE_S)
                    for _ in range(1 if opts.spectators and g % opts.spectators == 0 else 0)]
        rooms[g] = (seats, watchers)
        for pl in list(seats.values()) + watchers:
            pl.game = g
            pl.seen = 0
            clients.append(pl)
    due = []  # (time, game, player) of the actions to play
    waiting = list(reversed(clients))  # not started yet

    def connect_some():
        # A broker's listen backlog holds some hundred connections being
        # made: more at once and the kernel drops them (retried seconds
        # later). Players do not all connect in the same millisecond.
        connecting = sum(1 for pl in clients if pl.conn is not None and not pl.up)
        while waiting and connecting < CONNECTING:
            pl = waiting.pop()
            pl.start()
            sel.register(pl.fileno(), selectors.EVENT_READ, pl)
            connecting += 1

    def take(pl, now, read=True):
        if read:
            pl.conn.client.loop_read()
            pl.conn.flush()
        before = len(pl.room.actions) if pl.room.start else 0
        pl.poll()
        refused[0] += pl.refused
        pl.refused = 0
        actions = pl.room.actions
        for n in range(max(before, pl.seen) + 1, len(actions) + 1):
            t = sent.get((pl.game, n))
            if t is not None and (pl.side == WATCH or n % 2 != (0 if pl.side == DARK else 1)):
                (lat_watch if pl.side == WATCH else lat_player).append(now - t)
        pl.seen = max(pl.seen, len(actions))
        if pl.side in (LIGHT, DARK) and pl.ready() and len(actions) < opts.actions \
                and pl.room.pos.side == pl.side and pl.room.outcome() is None \
                and getattr(pl, "asked", -1) != len(actions):
            pl.asked = len(actions)
            due.append((now + opts.think_ms / 1000 * (0.5 + rng.random()), pl))

    deadline = time.monotonic() + opts.seconds  # for the seating; the play has as long again
    pinged = time.monotonic()

    def ping(now):
        nonlocal pinged
        if now - pinged > PING_S:
            pinged = now
            for pl in clients:
                if pl.conn is not None:
                    pl.conn.client.loop_misc()
                    pl.conn.flush()

    unsettled = list(clients)
    while unsettled and time.monotonic() < deadline:
        connect_some()
        for key, _ in sel.select(0.05):
            take(key.data, time.monotonic())
        unsettled = [pl for pl in unsettled if pl.conn is None or not pl.ready()]
        for pl in unsettled:
            if pl.conn is not None:
                pl.poll()  # (the settling is timed)
        ping(time.monotonic())
    t_start = time.monotonic()
    connect_s = t_start - t_connect
    cpu0 = cpu_s()
    for seats, _ in rooms.values():
        take(seats[LIGHT], t_start, read=False)  # light begins every game
    published = {}  # (game, number) -> the action its player published
    end = t_start + opts.seconds
    while time.monotonic() < end and (due or len(published) < len(rooms) * opts.actions):
        now = time.monotonic()
        due.sort(key=lambda d: d[0])
        while due and due[0][0] <= now:
            _, pl = due.pop(0)
            pos = pl.room.pos
            acts = list(pos.legal_actions())
            text = pos.action_text(acts[rng.randrange(len(acts))])
            key = (pl.game, len(pl.room.actions) + 1)
            sent[key] = time.monotonic()
            published[key] = text
            pl.act(text)
        for key, _ in sel.select(min(0.05, max(0.0, due[0][0] - now)) if due else 0.05):
            take(key.data, time.monotonic())
        ping(now)
    t_end = time.monotonic()
    cpu = cpu_s() - cpu0

    # What every client's room holds against what was published: an action
    # missing (lost), or another in its place (applied wrongly). Those still
    # on their way when the play stopped are waited for, DRAIN_S at most.
    def tally():
        lost = wrong = 0
        for pl in clients:
            have = pl.room.actions
            for n in range(1, len(have) + 1):
                if published.get((pl.game, n), have[n - 1]) != have[n - 1]:
                    wrong += 1
            lost += sum(1 for (g, n) in published if g == pl.game and n > len(have))
        return lost, wrong

    drain_end = time.monotonic() + DRAIN_S
    due.clear()
    lost, wrong = tally()
    while lost and time.monotonic() < drain_end:
        for key, _ in sel.select(0.05):
            take(key.data, time.monotonic())
        due.clear()  # (the play is over: nothing more is sent)
        lost, wrong = tally()
    unfinished = sum(1 for s, _ in rooms.values() if len(s[LIGHT].room.actions) < opts.actions
                     and s[LIGHT].room.outcome() is None)
    for pl in clients:
        if pl.conn is not None:
            pl.conn.client.disconnect()
            pl.conn.flush()
            pl.conn.client.socket() and pl.conn.client.socket().close()
    out.put({"published": len(published), "play_s": t_end - t_start, "connect_s": connect_s,
             "lat_player": lat_player, "lat_watch": lat_watch, "lost": lost,
             "wrong": wrong, "refused": refused[0], "unfinished": unfinished,
             "clients": len(clients), "cpu_s": cpu})


def cpu_s(pid=None):
    """CPU seconds used by this process (or pid's), user and system."""
    if pid is None:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv):
    ap = cli.parser("python3 tools/bench_online.py", __doc__)
    ap.add_argument("--games", type=cli.int_in(1, MAX_GAMES, "games"), default=1000,
                    help="games at once (default 1000: 2,000 players)")
    ap.add_argument("--actions", type=cli.int_in(1, 200, "actions"), default=8,
                    help="actions a game (default 8)")
    ap.add_argument("--spectators", type=cli.int_in(0, MAX_GAMES, "spectators"), default=10,
                    help="a spectator for one game in N (default 10; 0: none)")
    ap.add_argument("--think-ms", type=cli.int_in(0, 60000, "think"), default=10000,
                    help="a player's time to answer, on average (default 10000, a person's; "
                         "0: at once)")
    ap.add_argument("--workers", type=cli.int_in(0, 64, "workers"), default=0,
                    help="client processes (default 0: one per %d clients)" % CLIENTS_A_WORKER)
    ap.add_argument("--seconds", type=cli.int_in(5, 3600, "seconds"), default=120,
                    help="the most the play may take (default 120)")
    ap.add_argument("--seed", type=cli.int_in(0, 1 << 30, "seed"), default=1)
    ap.add_argument("--json", metavar="FILE", help="also write the figures here")
    opts = ap.parse_args(argv)
    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError:
        raise cli.Failure("paho-mqtt is not installed: make bench-online sets up .venv with it")
    from host_sim.online.broker import Mosquitto, mosquitto_missing
    why = mosquitto_missing()
    if why:
        raise cli.Failure(why)
    clients = opts.games * 2 + (opts.games + opts.spectators - 1) // opts.spectators \
        if opts.spectators else opts.games * 2
    workers = opts.workers or -(-clients // CLIENTS_A_WORKER)
    if -(-clients // workers) > CLIENTS_A_WORKER:
        raise cli.Failure("%d clients need %d workers or more (paho's select() takes %d clients a "
                          "process)" % (clients, -(-clients // CLIENTS_A_WORKER), CLIENTS_A_WORKER))
    # Each client: a socket here and one at the broker, and paho's wake-up pipe.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = clients * 4 + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
        if min(need, hard) < need:
            raise cli.Failure("%d clients need %d open files; the limit is %d" % (clients, need, hard))
    folder = tempfile.mkdtemp(prefix="bench-online-")
    try:
        with Mosquitto(folder, extra="max_connections -1\n") as broker:
            print("mosquitto on %s: %d games, %d clients (%d players, %d spectators) in %d "
                  "processes; %d actions a game, think %d ms" % (
                      broker.address, opts.games, clients, opts.games * 2, clients - opts.games * 2,
                      workers, opts.actions, opts.think_ms), flush=True)
            ctx = multiprocessing.get_context("fork")
            out = ctx.Queue()
            shares = [list(range(i, opts.games, workers)) for i in range(workers)]
            procs = [ctx.Process(target=worker, args=(i, shares[i], opts, broker.address, out))
                     for i in range(workers) if shares[i]]
            broker_cpu0 = cpu_s(broker.proc.pid)
            for p in procs:
                p.start()
            results = [out.get(timeout=2 * opts.seconds + DRAIN_S + 60) for _ in procs]
            broker_cpu = cpu_s(broker.proc.pid) - broker_cpu0
            for p in procs:
                p.join(30)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    lat_p = [x for r in results for x in r["lat_player"]]
    lat_w = [x for r in results for x in r["lat_watch"]]
    play_s = max(r["play_s"] for r in results)
    published = sum(r["published"] for r in results)
    figures = {
        "games": opts.games, "clients": sum(r["clients"] for r in results),
        "actions_published": published, "play_s": round(play_s, 2),
        "actions_per_s": round(published / play_s, 1) if play_s else 0,
        "connect_s": round(max(r["connect_s"] for r in results), 2),
        "player_ms": {"n": len(lat_p), "p50": round(percentile(lat_p, 50) * 1000, 2),
                      "p99": round(percentile(lat_p, 99) * 1000, 2)},
        "spectator_ms": {"n": len(lat_w), "p50": round(percentile(lat_w, 50) * 1000, 2),
                         "p99": round(percentile(lat_w, 99) * 1000, 2)},
        "lost": sum(r["lost"] for r in results), "applied_wrongly": sum(r["wrong"] for r in results),
        "refused": sum(r["refused"] for r in results),
        "unfinished_games": sum(r["unfinished"] for r in results),
        "broker_cpu_s": round(broker_cpu, 2),
        "clients_cpu_s": round(sum(r["cpu_s"] for r in results), 2),
    }
    print("connected and seated in %.1f s" % figures["connect_s"])
    print("%d actions in %.1f s: %.0f actions a second (each one an action and a state message)"
          % (published, play_s, figures["actions_per_s"]))
    print("player's action to the opponent's room: p50 %.1f ms, p99 %.1f ms (%d)"
          % (figures["player_ms"]["p50"], figures["player_ms"]["p99"], len(lat_p)))
    print("player's action to a spectator's room:  p50 %.1f ms, p99 %.1f ms (%d)"
          % (figures["spectator_ms"]["p50"], figures["spectator_ms"]["p99"], len(lat_w)))
    print("lost %d, applied twice or wrongly %d, refused %d, games unfinished %d"
          % (figures["lost"], figures["applied_wrongly"], figures["refused"],
             figures["unfinished_games"]))
    print("CPU: mosquitto %.1f s for the whole run (%.2f ms an action); the clients %.1f s "
          "for the play" % (broker_cpu, broker_cpu * 1000 / max(1, published),
                            figures["clients_cpu_s"]))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0


if __name__ == "__main__":
    cli.run(main)
