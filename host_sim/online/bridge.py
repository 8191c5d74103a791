"""A board on USB in a room (vortex link --online ROOM): the room stands
where the other link would (link_host.Follower's peer), so the board's
own actions go to the room as our seat's, and the room's come back as
"action N ACTION" lines, which the follower requests on the board (it lights
the opponent's action and accepts only it: docs/protocol.md's `request`).

An action of the board's that the room refuses (not our seat's turn: the
opponent's piece moved on our board; or the room already has another
action of that number) is taken back on the board, and said in one line.
"""
from .follow import presence_line


class RoomPeer:
    """link_host.Follower's peer: send() takes the board's "action N ACTION",
    lines() gives the room's actions not given yet (never None: a room does
    not leave), fileno() waits on the broker."""

    def __init__(self, player, board, say):
        self.player = player
        self.board = board  # link_host.BoardPort: for a takeback
        self.say = say
        self.given = 0  # the room's actions given to the follower
        self.offered = {}  # the board's actions by number, not yet in the room
        self.shown = None

    def fileno(self):
        return self.player.fileno()

    def send(self, line):
        words = line.split()
        if len(words) == 3 and words[0] == "action" and words[1].isdigit():
            self.offered[int(words[1])] = words[2]
        self._offer()

    def _offer(self):
        pl = self.player
        if not pl.ready():
            return  # offered once the room is read
        room = pl.room
        for n in sorted(self.offered):
            text = self.offered.pop(n)
            have = room.number()
            if n <= have:
                if room.actions[n - 1] != text:
                    self._refused(text, "the room's action %d is %s" % (n, room.actions[n - 1]))
                continue
            if n > have + 1:
                self.offered[n] = text  # (a gap: the earlier one comes first)
                continue
            try:
                pl.act(text)
            except ValueError as e:  # the room (the engine) says no
                self._refused(text, str(e))

    def _refused(self, text, why):
        self.say("refused the board's %s: %s; taking it back on the board" % (text, why))
        self.board.send("takeback")

    def lines(self):
        pl = self.player
        pl.poll()
        for line in pl.news:
            self.say("room: " + line)
        del pl.news[:]
        words = presence_line(pl)
        if words != self.shown:
            self.shown = words
            self.say(words)
        self._offer()
        if not pl.ready():
            return []
        actions = pl.room.actions
        out = ["action %d %s" % (n + 1, actions[n]) for n in range(self.given, len(actions))]
        self.given = len(actions)
        return out
