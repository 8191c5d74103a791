"""Command line of the simulator: python3 -m host_sim COMMAND ...

    legal "<position>"              every legal action, one a line
    perft "<position>" N [--bulk] [--divide]
    apply "<position>" ACTION...    the position after the actions
    play [--light human|random] [--dark human|random] [--seed N] [--position "<position>"]
    board [--ai light|dark] [--clock MIN+INC] [--save FILE] [--position "<position>"]
                                    the board simulator in the terminal
    web [--port N] [--ai off|light|dark] [--position "<position>"] [--no-browser]
                                    the board simulator in the browser
"""
import sys

from . import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from vortex.engine import Position, NotationError, IllegalAction, action_text, new_buffer
from vortex.engine import perft as perft_mod

USAGE = __doc__


def cmd_legal(args):
    if len(args) != 1:
        return usage()
    pos = Position(args[0])
    buf = new_buffer()
    for i in range(pos.legal_into(buf)):
        print(action_text(buf[i]))
    return 0


def cmd_apply(args):
    if not args:
        return usage()
    pos = Position(args[0])
    for i, text in enumerate(args[1:], 1):
        try:
            pos.push(pos.parse_action(text))
        except (NotationError, IllegalAction) as e:
            print("error: action %d: %s" % (i, e), file=sys.stderr)
            return 1
    print(pos.text())
    return 0


def cmd_play(args):
    from .terminal import main
    return main(args)


def cmd_board(args):
    from .board_sim import main
    return main(args)


def usage():
    print(USAGE.strip(), file=sys.stderr)
    return 2


def cmd_web(args):
    from .web.server import main
    return main(args)


COMMANDS = {"legal": cmd_legal, "perft": perft_mod.main, "apply": cmd_apply, "play": cmd_play,
            "board": cmd_board, "web": cmd_web}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        return usage()
    try:
        return COMMANDS[argv[0]](argv[1:])
    except NotationError as e:
        print("error:", e, file=sys.stderr)
        return 1
    except BrokenPipeError:  # `| head`: the reader has all it wanted
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
