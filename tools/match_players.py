"""The match runner's players and one game, for CPython and the MicroPython
unix port alike (tools/match.py plays its games in either; the AI's viper
code runs there as machine code, about ten times the speed, with the same
results: every player is deterministic for its seed).

    micropython tools/match_players.py A B SEED GAMES

plays GAMES games of A against B (game i: seed SEED + i, A Light when i is
even) and prints one line a game: "i score a_actions a_nodes b_nodes plies".

Players: random, greedy (the old one-ply mover, Ai level 0), material2 (a
two-ply alpha-beta that counts material), L1..L6 (Ai levels), and fixed
configurations by name (FIXED: "L6-4000" is level 6 as it was before the
board's search got fast: 4,000 nodes, the awakening term as it was).
"""
import sys

if __name__ == "__main__":  # as a script: the firmware beside tools/
    HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    sys.path.insert(0, HERE + "/../firmware")

from vortex.native import micropython, ptr8  # noqa: E402
from vortex.engine.defs import const  # noqa: E402
from vortex.engine.position import Position, new_buffer  # noqa: E402
from vortex.engine.play import make, unmake  # noqa: E402
from vortex.engine.tables import OFF  # noqa: E402
from vortex.ai.rng import Rng  # noqa: E402
from vortex.ai.levels import LEVELS  # noqa: E402
from vortex.app.ai import Ai  # noqa: E402

# Named configurations: (level whose table and plies it uses, its bounds:
# max depth, nodes, ms, root noise, building noise, advance).
FIXED = {
    "L6-4000": (6, (8, 4000, 0, 0, 4, 1)),  # level 6 as it was: its evaluation too
}
NAMES = "random, greedy, material2, L1..L%d, %s" % (len(LEVELS) - 1, ", ".join(sorted(FIXED)))


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
            undo = make(pos, a)
            self.nodes += 1
            score = -self._search(pos, 1, -10 ** 6, -alpha)
            unmake(pos, a, undo)
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
            undo = make(pos, a)
            self.nodes += 1
            score = -self._search(pos, depth - 1, -beta, -alpha)
            unmake(pos, a, undo)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    @staticmethod
    def _material(pos):
        if pos.hearts[pos.side ^ 1] == OFF:
            return 1000
        return _material(pos.pieces, pos.side)


_AWAKENED = const(2)
_HEART = const(3)


@micropython.viper
def _material(pieces, side: int) -> int:
    # Awakened 3, Traveller 1, own minus enemy (machine code on the unix port).
    pc = ptr8(pieces)
    s = 0
    for c in range(64):
        p = pc[c]
        if p and (p & 3) != _HEART:
            v = 1
            if (p & 3) == _AWAKENED:
                v = 3
            if (p >> 2) == side:
                s += v
            else:
                s -= v
    return s


class AiPlayer:
    def __init__(self, level, seed, bounds=None):
        self.ai = Ai(level=level, seed=seed)
        if bounds is not None:
            self.ai._bounds = bounds  # a fixed configuration of the level's search
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
    if name in FIXED:
        level, bounds = FIXED[name]
        return AiPlayer(level, seed, bounds)
    if name[:1] == "L" and name[1:].isdigit() and 1 <= int(name[1:]) < len(LEVELS):
        return AiPlayer(int(name[1:]), seed)
    raise ValueError("unknown player %r (%s)" % (name, NAMES))


def play(a, b, seed, a_light):
    """One game; returns (A's score 0/0.5/1, A's battle actions, A's nodes,
    B's nodes, plies)."""
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


def games(a, b, seed, n):
    """Play n games (game i: seed + i, A Light when i is even), printing a
    line for each as it ends."""
    for i in range(n):
        score, acts, na, nb, plies = play(a, b, seed + i, i % 2 == 0)
        print("%d %s %d %d %d %d" % (i, score, acts, na, nb, plies))


USAGE = "usage: match_players.py A B SEED GAMES   (players: %s)" % NAMES

if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or "-h" in args:
        print(USAGE)
        sys.exit(0)
    try:
        if len(args) != 4:
            raise ValueError(USAGE)
        player(args[0], 1), player(args[1], 1)  # unknown names fail here
        games(args[0], args[1], int(args[2]), int(args[3]))
    except ValueError as e:
        sys.stderr.write("match_players.py: error: %s\n" % e)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
