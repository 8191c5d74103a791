"""vortex watch ROOM: follow a room's game as a spectator, who reads the
room and cannot act (no secret: the room's signatures are not checked here,
and nothing is published but a spectator's presence).

    vortex watch ROOM [--broker ADDRESS] [--until-over] [--quiet] [--no-color]

The board is drawn after each action, with who is in the room; a late
spectator starts from the room's retained state.
"""
import os
import sys

from host_sim.terminal import Screen, status
from vortex.engine.position import Position
from vortex.online.protocol import SIDES
from .follow import presence_line

DESCRIPTION = ("watch a game online as a spectator: the room's board after each action, and "
               "who is in the room (docs/online.md)")


def add_arguments(p):
    from .options import room_name, add_broker
    p.add_argument("room", type=room_name, metavar="ROOM", help="the room's name")
    add_broker(p)
    p.add_argument("--until-over", action="store_true", help="exit once the game is over")
    p.add_argument("--quiet", action="store_true", help="actions and presence only, no board")
    p.add_argument("--no-color", dest="color", action="store_false",
                   help="no ANSI colours (also when NO_COLOR is set)")


def run(opts, out=None):
    out = out or sys.stdout
    from .options import player as join
    screen = Screen(color=opts.color and out.isatty() and not os.environ.get("NO_COLOR"))

    def say(line):
        out.write(line + "\n")
        out.flush()

    pl, embedded = join(opts, opts.room, log=lambda line: say("online: " + line), watch=True)
    said = None
    shown = None  # (start, actions) of the game drawn last
    over = False
    try:
        while not (over and opts.until_over):
            pl.poll(0.25)
            for line in pl.news:
                say("room: " + line)
            del pl.news[:]
            line = presence_line(pl)
            if line != said:
                said = line
                say(line)
            if not pl.ready():
                continue
            room = pl.room
            if shown is not None and shown[0] == room.start and shown[1] == len(room.actions):
                continue
            first = 0 if shown is None or shown[0] != room.start else shown[1]
            pos = Position(room.start)
            for i, text in enumerate(room.actions):
                if i >= first:
                    say("%d %s %s" % (i + 1, SIDES[pos.side], text))
                pos.push(pos.parse_action(text))
            shown = (room.start, len(room.actions))
            if not opts.quiet:
                say(screen.board(pos))
                say(status(pos))
            result = pos.outcome()
            if result is not None:
                say("game over: %s" % result.name())
                over = True
        return 0
    finally:
        pl.close()
        if embedded is not None:
            embedded.stop()
