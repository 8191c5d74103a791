"""Match runner: the AI's strength ladder, with 95% intervals.

    python3 tools/match.py [--games N] [--seed S] [--pairs A:B,...] [--out docs] [--resume]

Each pairing plays N games with fixed seeds, sides alternated (game i: A is
Light when i is even). A score counts a win 1 and a draw 1/2; its 95%
interval is Wilson's. Writes OUT/ai-results.json, the table (markdown, to
stdout) and OUT/ai-strength.png: strength (score against the two-ply
material searcher) against nodes per action. The results file is written
after every pairing; --resume keeps the pairings it already holds.

Players: random, greedy (the old one-ply mover, Ai level 0), material2 (a
two-ply alpha-beta that counts material), L1..L6 (Ai levels).
"""
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)
from host_sim import cli  # noqa: E402

from vortex.engine.defs import HEART, AWAKENED  # noqa: E402
from vortex.engine.codes import piece_kind, piece_side  # noqa: E402
from vortex.engine.position import Position, new_buffer  # noqa: E402
from vortex.engine.tables import OFF  # noqa: E402
from vortex.ai.rng import Rng  # noqa: E402
from vortex.app.ai import Ai  # noqa: E402

LADDER = ("random:L1,L1:L2,L2:L3,L3:L4,L4:L5,L5:material2,L5:greedy,"
          "L1:material2,L2:material2,L3:material2,L4:material2,"
          "greedy:material2,random:material2,L5:L6,L6:material2")
REFERENCE = "material2"  # the plot's yardstick


class RandomPlayer:
    def __init__(self, seed):
        self.rng = Rng(seed)
        self.buf = new_buffer()
        self.nodes = 0

    def choose(self, pos):
        n = pos.legal_into(self.buf)
        return self.buf[self.rng.below(n)] if n else -1


class Material2(RandomPlayer):
    """Two plies of alpha-beta over material (Awakened 3, Traveller 1, a
    Heart taken wins); places tiles at random."""

    def __init__(self, seed):
        super().__init__(seed)
        self.bufs = (new_buffer(), new_buffer())

    def choose(self, pos):
        if pos.is_building():
            return super().choose(pos)
        buf = self.bufs[0]
        n = pos.legal_into(buf)
        order = [buf[i] for i in range(n)]
        for i in range(n - 1, 0, -1):  # equal actions chosen by the seed
            j = self.rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        best, alpha = (order[0] if order else -1), -10 ** 6
        for a in order:
            pos.push(a)
            self.nodes += 1
            score = -self._search(pos, 1, -10 ** 6, -alpha)
            pos.pop()
            if score > alpha:
                best, alpha = a, score
        return best

    def _search(self, pos, depth, alpha, beta):
        if pos.hearts[pos.side] == OFF:
            return -1000
        if depth == 0 or pos.is_over():
            return self._material(pos)
        buf = self.bufs[1]
        n = pos.legal_into(buf)
        if not n:
            return -1000
        for a in [buf[i] for i in range(n)]:
            pos.push(a)
            self.nodes += 1
            score = -self._search(pos, depth - 1, -beta, -alpha)
            pos.pop()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    @staticmethod
    def _material(pos):
        if pos.hearts[pos.side ^ 1] == OFF:
            return 1000
        s = 0
        for p in pos.pieces:
            if p and piece_kind(p) != HEART:
                v = 3 if piece_kind(p) == AWAKENED else 1
                s += v if piece_side(p) == pos.side else -v
        return s


class AiPlayer:
    def __init__(self, level, seed):
        self.ai = Ai(level=level, seed=seed)
        self.nodes = 0

    def choose(self, pos):
        a = self.ai.choose(pos)
        if self.ai.search is not None and not pos.is_building():
            self.nodes += self.ai.search.nodes
        return a


def player(name, seed):
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return AiPlayer(0, seed)
    if name == "material2":
        return Material2(seed)
    if name[:1] == "L" and name[1:].isdigit() and 1 <= int(name[1:]) <= 6:
        return AiPlayer(int(name[1:]), seed)
    raise ValueError("unknown player %r (random, greedy, material2, L1..L6)" % name)


def play(a, b, seed, a_light):
    """One game; returns (A's score 0/0.5/1, A's battle actions, A's nodes)."""
    pa, pb = player(a, seed), player(b, seed + 7919)
    sides = (pa, pb) if a_light else (pb, pa)
    pos = Position()
    acts = 0
    while True:
        outcome = pos.outcome()
        if outcome is not None:
            break
        p = sides[pos.side]
        if p is pa and not pos.is_building():
            acts += 1
        pos.push(p.choose(pos))
    a_side = 0 if a_light else 1
    score = 0.5 if outcome.winner is None else (1.0 if outcome.winner == a_side else 0.0)
    return score, acts, pa.nodes, pb.nodes, pos.ply


def wilson(score, n, z=1.96):
    """95% Wilson interval of a proportion (draws count 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def run(pairs, games, seed, progress=True, done=(), save=None):
    """Play the pairings not in `done` (earlier results, kept); call
    save(results) after each pairing."""
    from tqdm import tqdm
    results = list(done)
    have = set((r["a"], r["b"]) for r in results)
    pairs = [p for p in pairs if p not in have]
    bar = tqdm(total=len(pairs) * games, unit="game", disable=not progress)
    for a, b in pairs:
        score = 0.0
        acts = nodes = bacts = bnodes = plies = 0
        t0 = time.time()
        for i in range(games):
            bar.set_description("%s-%s" % (a, b))
            s, n_acts, na, nb, ply = play(a, b, seed + i, i % 2 == 0)
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
                        "seed": seed})
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
    err = [[y[i] - 100 * rows[i]["low"] for i in range(len(rows))],
           [100 * rows[i]["high"] - y[i] for i in range(len(rows))]]
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
    args = ap.parse_args(argv)
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
    results = run(pairs, args.games, args.seed, not args.no_progress, done, save)
    print(table(results))
    png = os.path.join(args.out, "ai-strength.png")
    if plot(results, png):
        print("plot: %s" % png)
    return 0


if __name__ == "__main__":
    cli.run(main)
