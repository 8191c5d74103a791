"""Match runner: the AI's strength ladder, with 95% intervals.

    python3 tools/match.py [--games N] [--seed S] [--pairs A:B,...] [--out docs] [--resume]
                           [--engine micropython|cpython]

Each pairing plays N games with fixed seeds, sides alternated (game i: A is
Light when i is even). A score counts a win 1 and a draw 1/2; its 95%
interval is Wilson's. Writes OUT/ai-results.json, the table (markdown, to
stdout) and OUT/ai-strength.png: strength (score against the two-ply
material searcher) against nodes per action. The results file is written
after every pairing; --resume keeps the pairings it already holds.

Players (tools/match_players.py): random, greedy (the old one-ply mover, Ai
level 0), material2 (a two-ply alpha-beta that counts material), L1..L6 (Ai
levels), L6-4000 (level 6 before the board's search got fast: 4,000 nodes).
The games are played by the MicroPython unix port of .venv when it is there
(the AI's machine code: several times faster) or by CPython, with the same
results. One process at a time: the machine is shared.
"""
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)
from host_sim import cli  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tools"))
from match_players import player, play  # noqa: E402

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
PLAYERS = os.path.join(ROOT, "tools", "match_players.py")

LADDER = ("L1:random,L2:L1,L3:L2,L4:L3,L5:L4,L5:material2,L5:L6-4000,L5:greedy,"
          "L1:material2,L2:material2,L3:material2,L4:material2,L6-4000:material2,"
          "L6:material2,L6:L5,greedy:material2,random:material2")
REFERENCE = "material2"  # the plot's yardstick


def wilson(score, n, z=1.96):
    """95% Wilson interval of a proportion (draws count 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def pairing_games(a, b, seed, games, engine):
    """Yield (score, A's actions, A's nodes, B's nodes, plies) of each game."""
    if engine == "cpython":
        for i in range(games):
            yield play(a, b, seed + i, i % 2 == 0)
        return
    proc = subprocess.Popen([MICROPYTHON, "-X", "heapsize=16M", PLAYERS, a, b, str(seed),
                             str(games)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        for line in proc.stdout:
            _, score, acts, na, nb, plies = line.split()
            yield float(score), int(acts), int(na), int(nb), int(plies)
    finally:
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
        if proc.wait() != 0:
            raise RuntimeError("micropython match_players.py %s %s: %s" % (
                a, b, (err.strip().splitlines() or ["failed"])[-1]))


def run(pairs, games, seed, progress=True, done=(), save=None, engine="cpython"):
    """Play the pairings not in `done` (earlier results, kept); call
    save(results) after each pairing."""
    from tqdm import tqdm
    results = list(done)
    have = set((r["a"], r["b"]) for r in results)
    pairs = [p for p in pairs if p not in have]
    bar = tqdm(total=len(pairs) * games, unit="game", disable=not progress)
    for a, b in pairs:
        score = 0.0
        acts = nodes = bnodes = plies = 0
        t0 = time.time()
        bar.set_description("%s-%s" % (a, b))
        for s, n_acts, na, nb, ply in pairing_games(a, b, seed, games, engine):
            score += s
            acts += n_acts
            nodes += na
            bnodes += nb
            plies += ply
            bar.update()
        lo, hi = wilson(score, games)
        results.append({"a": a, "b": b, "games": games, "score": score, "low": lo, "high": hi,
                        "a_nodes_per_action": nodes / max(1, acts),
                        "mean_plies": plies / games, "seconds": time.time() - t0,
                        "seed": seed, "engine": engine})
        if save is not None:
            save(results)
    bar.close()
    return results


def table(results):
    lines = ["| A | B | games | A's score | 95% interval | A's nodes/action | plies/game |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append("| %s | %s | %d | %.1f%% | %.0f-%.0f%% | %.0f | %.0f |" % (
            r["a"], r["b"], r["games"], 100 * r["score"] / r["games"], 100 * r["low"],
            100 * r["high"], r["a_nodes_per_action"], r["mean_plies"]))
    return "\n".join(lines)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = [r for r in results if r["b"] == REFERENCE and r["a"].startswith("L")]
    rows.sort(key=lambda r: r["a_nodes_per_action"])
    if not rows:
        return False
    x = [max(1.0, r["a_nodes_per_action"]) for r in rows]
    y = [100 * r["score"] / r["games"] for r in rows]
    # Wilson's bounds at 0% or 100% may miss the score by a rounding error:
    # matplotlib refuses a negative bar.
    err = [[max(0.0, y[i] - 100 * rows[i]["low"]) for i in range(len(rows))],
           [max(0.0, 100 * rows[i]["high"] - y[i]) for i in range(len(rows))]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(x, y, yerr=err, fmt="o-", capsize=4)
    for xi, yi, r in zip(x, y, rows):
        ax.annotate(r["a"], (xi, yi), textcoords="offset points", xytext=(6, -12))
    ax.set_xscale("log")
    ax.set_ylim(-5, 105)
    ax.set_xlabel("nodes per battle action (log)")
    ax.set_ylabel("score against %s (%%), 95%% Wilson" % REFERENCE)
    ax.set_title("Vortex AI: strength against search effort (%d games a point)" % rows[0]["games"])
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def parse_pairs(text):
    pairs = []
    for item in text.split(","):
        a, sep, b = item.partition(":")
        if not sep:
            raise ValueError("a pairing is A:B, not %r" % item)
        player(a, 1), player(b, 1)  # unknown names fail here, before any game
        pairs.append((a, b))
    return pairs


def main(argv=None):
    ap = cli.parser("python3 tools/match.py", __doc__)
    ap.add_argument("--games", type=cli.int_in(1, 100000, "games"), default=10,
                    help="games per pairing (default 10)")
    ap.add_argument("--seed", type=cli.int_in(0, 2 ** 30, "seed"), default=1,
                    help="first game's seed (default 1)")
    ap.add_argument("--pairs", default=LADDER, help="comma-separated A:B pairings "
                    "(default: the whole ladder)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"),
                    help="folder for ai-results.json and ai-strength.png (default docs/)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--resume", action="store_true", help="keep the pairings already in "
                    "OUT/ai-results.json (same games and seed) and play the rest")
    ap.add_argument("--engine", choices=("micropython", "cpython"),
                    help="what plays the games (default: the unix port of .venv if it is "
                    "there, else CPython; the results are the same)")
    args = ap.parse_args(argv)
    engine = args.engine or ("micropython" if os.access(MICROPYTHON, os.X_OK) else "cpython")
    if engine == "micropython" and not os.access(MICROPYTHON, os.X_OK):
        ap.error("--engine micropython: no %s (make test sets up .venv)" % MICROPYTHON)
    try:
        pairs = parse_pairs(args.pairs)
    except ValueError as e:
        ap.error(str(e))
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "ai-results.json")
    done = []
    if args.resume and os.path.exists(path):
        try:
            with open(path) as f:
                done = [r for r in json.load(f) if r.get("games") == args.games
                        and r.get("seed") == args.seed and (r["a"], r["b"]) in pairs]
        except (ValueError, KeyError, TypeError) as e:
            ap.error("--resume: %s is not a results file (%s)" % (path, e))

    def save(results):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(results, f, indent=1)
        os.replace(tmp, path)  # a cut run leaves the last whole file
    results = run(pairs, args.games, args.seed, not args.no_progress, done, save, engine)
    print(table(results))
    png = os.path.join(args.out, "ai-strength.png")
    if plot(results, png):
        print("plot: %s" % png)
    return 0


if __name__ == "__main__":
    cli.run(main)
