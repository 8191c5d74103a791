"""A slow, obviously-correct reference for the rules, written from the
rulings (docs/rules.md#rulings) and docs/notation.md alone (CPython only).

No engine code and no engine tables: cells are (file, rank) pairs with
0 <= file, rank < 8 (a1 = (0, 0)), the board is dicts, actions are notation
text. The only contact with the engine is State.of(position), which reads a
Position's public fields as its docstring documents them.
"""

FILES = "abcdefgh"
ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAG = ((1, 1), (1, -1), (-1, -1), (-1, 1))
AIR_LEAPS = tuple((2 * df, 2 * dr) for df, dr in ORTHO + DIAG)
QUIET_LIMIT = 80
POOL_EACH = 16


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def name(cell):
    return FILES[cell[0]] + str(cell[1] + 1)


def cell_of(text):
    return (FILES.index(text[0]), int(text[1]) - 1)


def index(cell):
    # docs/notation.md: a cell's index is rank*8 + file; swaps name the lower first.
    return cell[1] * 8 + cell[0]


class State:
    """tiles: {cell: 'W'|'F'|'E'|'A'} (a missing cell has no tile);
    pieces: {cell: (side, kind)} with side 'l'/'d', kind 'T'/'S'/'H';
    side 'l'/'d'; vortexes {'l': n, 'd': n}; ban: frozenset of the two cells
    of the swap the previous action made, or None; quiet; ply."""

    def __init__(self, tiles, pieces, side, vortexes, ban=None, quiet=0, ply=0):
        self.tiles = dict(tiles)
        self.pieces = dict(pieces)
        self.side = side
        self.vortexes = dict(vortexes)
        self.ban = ban
        self.quiet = quiet
        self.ply = ply

    # --- reading and writing -------------------------------------------------
    @classmethod
    def of(cls, pos):
        """Read an engine Position through its documented public fields:
        tiles[i] 0 none, 1 Water, 2 Fire, 3 Earth, 4 Air; pieces[i] 0 or
        side << 2 | kind (kind 1 Traveller, 2 Awakened, 3 Heart; side 0
        Light, 1 Dark); ban a swap code cell*2 + (0 east, 1 north) or 255."""
        tiles, pieces = {}, {}
        for i in range(64):
            cell = (i % 8, i // 8)
            if pos.tiles[i]:
                tiles[cell] = "WFEA"[pos.tiles[i] - 1]
            if pos.pieces[i]:
                pieces[cell] = ("ld"[pos.pieces[i] >> 2], " TSH"[pos.pieces[i] & 3])
        ban = None
        if pos.ban != 255:
            a = pos.ban // 2
            b = a + (8 if pos.ban % 2 else 1)
            ban = frozenset(((a % 8, a // 8), (b % 8, b // 8)))
        return cls(tiles, pieces, "ld"[pos.side],
                   {"l": pos.vortexes[0], "d": pos.vortexes[1]}, ban, pos.quiet, pos.ply)

    def text(self):
        """The position in notation (all seven fields)."""
        def board(get):
            ranks = []
            for r in range(7, -1, -1):
                out, run = "", 0
                for f in range(8):
                    ch = get((f, r))
                    if ch:
                        out += (str(run) if run else "") + ch
                        run = 0
                    else:
                        run += 1
                ranks.append(out + (str(run) if run else ""))
            return "/".join(ranks)

        def piece_letter(cell):
            if cell not in self.pieces:
                return ""
            side, kind = self.pieces[cell]
            return kind if side == "l" else kind.lower()

        ban = "-"
        if self.ban:
            ban = "".join(name(c) for c in sorted(self.ban, key=index))
        return "%s %s %s %d,%d %s %d %d" % (
            board(lambda c: self.tiles.get(c, "")), board(piece_letter), self.side,
            self.vortexes["l"], self.vortexes["d"], ban, self.quiet, self.ply)

    def key(self):
        return (self.tiles, self.pieces, self.side, self.vortexes, self.ban,
                self.quiet, self.ply)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self):
        return "State(%r)" % self.text()

    # --- rules ---------------------------------------------------------------
    def enemy(self):
        return "d" if self.side == "l" else "l"

    def heart_taken(self):
        return {s for s in "ld" if (s, "H") not in self.pieces.values()}

    def is_over(self):
        return bool(self.heart_taken()) or self.quiet >= QUIET_LIMIT

    def building(self):
        return len(self.tiles) < 64

    def pool(self, terrain):
        return POOL_EACH - sum(1 for t in self.tiles.values() if t == terrain)

    def may_end_on(self, cell, side):
        """A move of `side` may end on an empty cell, or on an enemy piece
        unless it is a Traveller or Awakened piece standing on Earth."""
        if cell not in self.pieces:
            return True
        owner, kind = self.pieces[cell]
        if owner == side:
            return False
        return kind == "H" or self.tiles[cell] != "E"

    def destinations(self, cell):
        """Every cell the piece on `cell` may move to, as a set."""
        side, kind = self.pieces[cell]
        patterns = "WFEA" if kind == "S" else self.tiles[cell]
        f, r = cell
        out = set()
        if "W" in patterns:  # orthogonal slide through empty cells
            for df, dr in ORTHO:
                k = 1
                while on_board(f + k * df, r + k * dr):
                    c = (f + k * df, r + k * dr)
                    if c in self.pieces:
                        if self.may_end_on(c, side):
                            out.add(c)
                        break
                    out.add(c)
                    k += 1
        if "F" in patterns:  # 1 or 2 diagonally, the 2nd over an empty cell
            for df, dr in DIAG:
                c1, c2 = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
                if on_board(*c1) and self.may_end_on(c1, side):
                    out.add(c1)
                if on_board(*c2) and c1 not in self.pieces and self.may_end_on(c2, side):
                    out.add(c2)
        if "E" in patterns:  # 1 in any of 8 directions
            for df, dr in ORTHO + DIAG:
                c = (f + df, r + dr)
                if on_board(*c) and self.may_end_on(c, side):
                    out.add(c)
        if "A" in patterns:  # exactly 2 orthogonally or diagonally, over anything
            for df, dr in AIR_LEAPS:
                c = (f + df, r + dr)
                if on_board(*c) and self.may_end_on(c, side):
                    out.add(c)
        return out

    def legal(self):
        """Every legal action, as a set of notation texts."""
        if self.is_over():
            return set()
        out = set()
        if self.building():
            for t in "WFEA":
                if self.pool(t) > 0:
                    for f in range(8):
                        for r in range(8):
                            if (f, r) not in self.tiles:
                                out.add("%s@%s" % (t, name((f, r))))
            return out
        for cell, (side, _) in self.pieces.items():
            if side == self.side:
                for to in self.destinations(cell):
                    out.add(name(cell) + name(to))
        for f in range(8):
            for r in range(8):
                for other in ((f + 1, r), (f, r + 1)):
                    if (on_board(*other) and self.tiles[(f, r)] != self.tiles[other]
                            and self.ban != frozenset(((f, r), other))):
                        out.add(name((f, r)) + "~" + name(other))
        if self.vortexes[self.side] > 0:
            for f in range(7):
                for r in range(7):
                    four = {self.tiles[(f + i, r + j)] for i in (0, 1) for j in (0, 1)}
                    if len(four) > 1:
                        out.add("V+" + name((f, r)))
                        out.add("V-" + name((f, r)))
        return out

    def play(self, action):
        """The state after `action` (text, assumed legal)."""
        s = State(self.tiles, self.pieces, self.enemy(), self.vortexes, None,
                  self.quiet, self.ply + 1)
        if action[1] == "@":
            s.tiles[cell_of(action[2:])] = action[0]
            return s
        s.quiet += 1
        if action[0] == "V":
            f, r = cell_of(action[2:])
            ll, ul, ur, lr = (f, r), (f, r + 1), (f + 1, r + 1), (f + 1, r)
            t = self.tiles
            if action[1] == "+":  # clockwise, rank 8 at the top: ul->ur->lr->ll->ul
                s.tiles[ur], s.tiles[lr], s.tiles[ll], s.tiles[ul] = t[ul], t[ur], t[lr], t[ll]
            else:
                s.tiles[ul], s.tiles[ur], s.tiles[lr], s.tiles[ll] = t[ur], t[lr], t[ll], t[ul]
            s.vortexes[self.side] -= 1
            return s
        if action[2] == "~":
            a, b = cell_of(action[:2]), cell_of(action[3:])
            s.tiles[a], s.tiles[b] = self.tiles[b], self.tiles[a]
            s.ban = frozenset((a, b))
            return s
        frm, to = cell_of(action[:2]), cell_of(action[2:])
        side, kind = s.pieces.pop(frm)
        if to in s.pieces:
            s.quiet = 0
        if kind == "T" and to[1] == (7 if side == "l" else 0):
            kind = "S"
        s.pieces[to] = (side, kind)
        return s

    def outcome(self):
        """None while the game goes on, else (winner 'l'/'d'/None, reason)
        with reason 'heart', 'quiet' or 'no action'."""
        taken = self.heart_taken()
        if taken:
            return ("d" if "l" in taken else "l", "heart")
        if self.quiet >= QUIET_LIMIT:
            count = {"l": 0, "d": 0}
            for side, kind in self.pieces.values():
                if kind != "H":
                    count[side] += 1
            if count["l"] == count["d"]:
                return (None, "quiet")
            return ("l" if count["l"] > count["d"] else "d", "quiet")
        if not self.legal():
            return (self.enemy(), "no action")
        return None


def perft(state, depth):
    """The number of action sequences of length depth from state."""
    if depth == 0:
        return 1
    actions = state.legal()
    if depth == 1:
        return len(actions)
    return sum(perft(state.play(a), depth - 1) for a in actions)
