"""A simulator's board kept in step with a room (the page's and the
terminal's): the room's game is the game; what the board has more is
offered to the room as our seat's action, and taken back when refused.

    f = Follow(player, board=lambda: rig.board, rebuild=fresh_rig, say=print)
    f.step()        # often (the page's tick loop, the terminal's select loop)

The opponent's next action is requested on the board (it lights it and
accepts only it, as a remote opponent's on the real board: docs/protocol.md's
`request`), to be carried out by the player's hands. A board that is
further off (a game joined late, a player back after a while, a spectator,
a position that is not the room's) is laid out again as the room's game.
No rule is decided here: the room (the engine) decides, the board shows.
"""
from vortex.engine.notation import action_text
from vortex.app import commands
from vortex.app.board import REMOTE_HERE, REMOTE_AWAY, REMOTE_WAIT
from vortex.app.commands import CommandError
from vortex.online.protocol import SIDES, WATCH


def presence_line(pl):
    """The line that says who is in the room (the page, the terminal and the link show it)."""
    w = pl.waiting
    if w is not None and not pl.ready():
        seat = "you play %s" % SIDES[pl.side] if pl.side in (0, 1) else "watching"
        return "room %s: %s; waiting for the room's game from %s (%s, %s)%s" % (
            pl.name, seat, SIDES[w[0]], w[1], "here: asked" if w[2] else "away",
            "" if pl.up else " (broker lost: reconnecting)")
    if not pl.ready():
        return "room %s: joining on %s..." % (pl.name, pl.address)
    where = "" if pl.up else " (broker lost: reconnecting)"
    if pl.side in (0, 1):
        other = SIDES[pl.side ^ 1]
        them = {"here": "your opponent (%s) is here" % other,
                "gone": "your opponent (%s) is gone" % other,
                "free": "waiting for an opponent (%s)" % other}[pl.opponent()]
        return "room %s: you play %s; %s%s" % (pl.name, SIDES[pl.side], them, where)
    return "room %s: watching (%s)%s" % (pl.name, pl.opponent(), where)


class Follow:
    def __init__(self, player, board, rebuild, say):
        self.player = player
        self.board = board  # () -> the Board now (a rebuild makes a new one)
        self.rebuild = rebuild  # (start, [codes]) -> None: the board laid out as that game
        self.say = say
        self.shown = None  # the opponent's presence as last said

    def step(self, timeout=0.0):
        """Take the room's news and bring the board in step: "board" when
        the board changed, "news" when only what is said of the room did, ""
        when nothing did."""
        changed = self.player.poll(timeout)
        for line in self.player.news:
            self.say("room: " + line)
        del self.player.news[:]
        seen = self.presence()
        if seen != self.shown:
            self.shown = seen
            self.say(seen)
            changed = True
        moved = self.sync()
        pl = self.player
        if pl.side in (0, 1):  # the board's LEDs show the opponent too, or whose game is awaited
            if pl.ready():
                here = pl.up and pl.opponent() == "here"
                self.board().set_remote(REMOTE_HERE if here else REMOTE_AWAY, pl.side ^ 1)
            elif pl.waiting is not None:
                self.board().set_remote(REMOTE_WAIT, pl.waiting[0])
        return "board" if moved else "news" if changed else ""

    def presence(self):
        return presence_line(self.player)

    def view(self):
        """What the page shows of the room (JSON-ready)."""
        pl = self.player
        side = pl.side
        w = pl.waiting
        return {"room": pl.name, "broker": str(pl.address), "connected": pl.up,
                "seat": SIDES[side] if side in (0, 1) else "watch" if side == WATCH else None,
                "opponent": pl.opponent() if pl.ready() else None, "line": self.presence(),
                "refused": pl.refused,
                "waiting": None if w is None or pl.ready() else {
                    "seat": SIDES[w[0]], "client": w[1], "online": w[2]}}

    def sync(self):
        pl = self.player
        if not pl.ready():
            return False
        room = pl.room
        b = self.board()
        local = [action_text(a) for a in b.pos.stack]
        theirs = room.actions
        n = 0
        while n < len(local) and n < len(theirs) and local[n] == theirs[n]:
            n += 1
        if b.start != room.start or (n < len(local) and n < len(theirs)):
            return self._lay_out("the room's game")
        if len(local) > n:  # the board is ahead: our seat's action, or not
            if pl.side == WATCH or len(local) > n + 1:
                return self._lay_out("the room's game")
            text = local[n]
            try:
                pl.act(text)
                return True
            except ValueError as e:  # the room (the engine) says no: take it back
                self.say("refused %s: %s" % (text, e))
                b.takeback()
                return True
        if len(theirs) > n:  # the room is ahead: the opponent's next action, or more
            # (the board has the n actions in common: its side to act plays the next)
            if len(theirs) > n + 1 or pl.side == WATCH or b.pos.side == pl.side:
                return self._lay_out("the room's game")
            a = b.pos.parse_action(theirs[n])
            if b.pending != a:
                try:
                    commands.request(b, theirs[n])
                    self.say("your opponent plays %s: carry it out on the board" % theirs[n])
                except (CommandError, ValueError) as e:
                    self.say("cannot show %s: %s" % (theirs[n], e))
                return True
        return False

    def _lay_out(self, why):
        room = self.player.room
        self.rebuild(room.start, list(room.pos.stack))  # (the room's engine holds its codes)
        n = len(room.actions)
        self.say("%s: %d action%s, laid out on the board" % (why, n, "" if n == 1 else "s"))
        return True
