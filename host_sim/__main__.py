"""The desktop side of the board: the board simulator (the firmware on a
virtual board), the rules engine's command line, the host link and the tag
writer. `vortex` once installed (pip install .), `python3 -m host_sim` in a
checkout: the same commands.

    vortex play [--ai off|light|dark] [--port N] [--no-browser] ...   the simulator, in the browser
    vortex board [--ai light|dark] [--clock MIN+INC] [--save FILE] ...  the same, in this terminal
    vortex play|board --online ROOM [--broker ADDRESS] [--seat light|dark] [--secret TEXT]
                                                                  either, against a friend online
    vortex game [--light human|random] [--dark human|random] ...   a plain game, no board logic
    vortex legal "<position>"
    vortex perft "<position>" N [--bulk] [--divide]
    vortex apply "<position>" ACTION...
    vortex link --port PORT [--record FILE] [--listen|--connect [HOST:]PORT|--online ROOM]
    vortex watch ROOM [--broker ADDRESS]                          a game online, as a spectator
    vortex write-tag TERRAIN [--serial N] [--write --cell CELL --port PORT]

`vortex COMMAND --help` tells more of each command; `vortex --version`
which version this is.
"""
import argparse
import os
import sys

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


def legal_arguments(p):
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")


def perft_arguments(p):
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")
    p.add_argument("depth", type=cli.int_in(0, MAX_DEPTH, "depth"),
                   help="plies, 0..%d" % MAX_DEPTH)
    p.add_argument("--bulk", action="store_true", help="count the last ply without playing it")
    p.add_argument("--divide", action="store_true", help="the count under each first action")


def apply_arguments(p):
    p.add_argument("position", type=cli.position, help="a position in notation, quoted")
    p.add_argument("actions", nargs="*", metavar="ACTION", help="in notation: W@d4 e2e4 c3~d3 V+c3")


class Module:
    """A command whose code (run, add_arguments, and its DESCRIPTION and
    EPILOG if it has them) lives in a host_sim module of its own, imported
    only when that command is given: `vortex legal` never loads the page's
    server (nor TLS), the scenario language or the simulator."""

    def __init__(self, name):
        self.name = name

    def module(self):
        import importlib
        return importlib.import_module("." + self.name, __package__)

    def run(self, opts):
        return self.module().run(opts)

    def build(self, p):
        m = self.module()
        p.description = getattr(m, "DESCRIPTION", p.description)
        p.epilog = getattr(m, "EPILOG", p.epilog)
        m.add_arguments(p)


class Local:
    """A command of this module's own: run and its arguments here."""

    def __init__(self, run, arguments):
        self.run = run
        self.build = arguments


# name: (its code, summary, epilog)
COMMANDS = {
    "play": (Module("web.server"), "the board simulator in the browser: the firmware's board "
             "logic on a virtual board, served on localhost", None),
    "board": (Module("board_sim"), "the board simulator: the firmware's board logic on a "
              "virtual board, in this terminal",
              "Then type actions (W@d4, e2e4) or what hands do (lift e2, place e4,\n"
              "from-tray t c7, tidy, carry); help lists them all."),
    "game": (Module("terminal"), "the terrain game in this terminal, without the board logic",
             "Then type actions (W@d4, d2d4, d4~e4, V+d4) or help."),
    "legal": (Local(cmd_legal, legal_arguments), "every legal action of a position, one a line",
              None),
    "perft": (Local(cmd_perft, perft_arguments), "count the action sequences of a given depth "
              "(a move generator test)", None),
    "apply": (Local(cmd_apply, apply_arguments), "the position after some actions", None),
    "link": (Module("link_host"), "follow a board over its serial link: its events live, the "
             "game record, actions from stdin or another board", None),
    "watch": (Module("online.watch"), "watch a game online as a spectator", None),
    "write-tag": (Module("write_tag"), "print a tile's tag bytes, or write them through the "
                  "board", None),
}


class Version(argparse.Action):
    """--version: asks git only when given (a checkout's version; see version.py)."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from .version import current
        print(current())
        parser.exit()


def build_parser(prog="python3 -m host_sim", command=None):
    """The parser. With command given, only that command's arguments are
    built (its module imported); the others are named with their summary."""
    ap = cli.parser(prog, __doc__)
    ap.add_argument("--version", action=Version)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (code, summary, epilog) in COMMANDS.items():
        p = sub.add_parser(name, help=summary, description=summary, epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           allow_abbrev=False)
        p.set_defaults(run=code.run)
        if command in (None, name):
            code.build(p)
    return ap


def main(argv, prog="python3 -m host_sim"):
    given = next((a for a in argv if not a.startswith("-")), "")
    opts = build_parser(prog, given).parse_args(argv)
    return opts.run(opts)


def vortex():
    """The installed `vortex` command ([project.scripts] in pyproject.toml)."""
    cli.run(lambda argv: main(argv, os.path.basename(sys.argv[0])))


if __name__ == "__main__":
    cli.run(main)
