"""The desktop side of the board: the rules engine's command line, a game in
the terminal, and the board simulator (the firmware on a virtual board).

    python3 -m host_sim legal "<position>"
    python3 -m host_sim perft "<position>" N [--bulk] [--divide]
    python3 -m host_sim apply "<position>" ACTION...
    python3 -m host_sim play [--light human|random] [--dark human|random] ...
    python3 -m host_sim board [--ai light|dark] [--clock MIN+INC] [--save FILE] ...
    python3 -m host_sim link --port PORT [--record FILE] [--listen|--connect [HOST:]PORT]
    python3 -m host_sim web [--port N] [--ai off|light|dark] [--no-browser] ...

`python3 -m host_sim COMMAND --help` tells more of each command.
"""
import argparse

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from . import cli
from vortex.engine import NotationError, IllegalAction, action_text, new_buffer
from vortex.engine.perft import perft, divide, MAX_DEPTH


def cmd_legal(opts):
    buf = new_buffer()
    for i in range(opts.position.legal_into(buf)):
        print(action_text(buf[i]))
    return 0


def cmd_perft(opts):
    if opts.divide and opts.depth > 0:
        total = 0
        for a, n in divide(opts.position, opts.depth, opts.bulk):
            print(action_text(a), n)
            total += n
        print(total)
    else:
        print(perft(opts.position, opts.depth, opts.bulk))
    return 0


def cmd_apply(opts):
    pos = opts.position
    for i, text in enumerate(opts.actions, 1):
        try:
            pos.push(pos.parse_action(text))
        except (NotationError, IllegalAction) as e:
            raise cli.Failure("action %d: %s" % (i, e))
    print(pos.text())
    return 0


def cmd_play(opts):
    from .terminal import run
    return run(opts)


def cmd_board(opts):
    from .board_sim import run
    return run(opts)


def cmd_link(opts):
    from .link_host import run
    return run(opts)


def cmd_web(opts):
    from .web.server import run
    return run(opts)


def build_parser():
    ap = cli.parser("python3 -m host_sim", __doc__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name, run, summary, epilog=None):
        p = sub.add_parser(name, help=summary, description=summary, epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           allow_abbrev=False)
        p.set_defaults(run=run)
        return p

    p = command("legal", cmd_legal, "every legal action of a position, one a line")
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")
    p = command("perft", cmd_perft, "count the action sequences of a given depth (a move "
                "generator test)")
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")
    p.add_argument("depth", type=cli.int_in(0, MAX_DEPTH, "depth"),
                   help="plies, 0..%d" % MAX_DEPTH)
    p.add_argument("--bulk", action="store_true", help="count the last ply without playing it")
    p.add_argument("--divide", action="store_true", help="the count under each first action")
    p = command("apply", cmd_apply, "the position after some actions")
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")
    p.add_argument("actions", nargs="*", metavar="ACTION", help="in notation: W@d4 e2e4 c3~d3 V+c3")
    from .terminal import add_arguments as play_arguments
    play_arguments(command("play", cmd_play, "the terrain game in this terminal, without the "
                           "board logic", "Then type actions (W@d4, d2d4, d4~e4, V+d4) or help."))
    from .board_sim import add_arguments as board_arguments
    board_arguments(command("board", cmd_board, "the board simulator: the firmware's board "
                            "logic on a virtual board, in this terminal",
                            "Then type actions (W@d4, e2e4) or what hands do (lift e2, place e4,\n"
                            "from-tray t c7, tidy, carry); help lists them all."))
    from .link_host import add_arguments as link_arguments, DESCRIPTION as LINK
    link_arguments(command("link", cmd_link, LINK))
    from .web.server import add_arguments as web_arguments
    web_arguments(command("web", cmd_web, "the board simulator in the browser: the firmware's "
                          "board logic on a virtual board, served on localhost"))
    return ap


def main(argv):
    opts = build_parser().parse_args(argv)
    return opts.run(opts)


if __name__ == "__main__":
    cli.run(main)
