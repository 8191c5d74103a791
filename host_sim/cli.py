"""The one style of every command a person types (host_sim and tools/).

    ap = cli.parser("python3 tools/x.py", __doc__)
    ap.add_argument("--depth", type=cli.int_in(0, 6, "depth"))
    ...
    if __name__ == "__main__":
        cli.run(main)          # main(argv) -> exit code

`--help` prints help and exits 0, doing nothing else. A bad argument is one
line on stderr ("prog: error: why (see --help)") and exit 2. A Failure raised
by a command, or an OSError (a file that cannot be written...), is one line
and exit 1; Ctrl-C ends quietly with 130; a closed pipe (`| head`) quietly.
Standard library only: `make play` and the tools need no .venv.
"""
import argparse
import math
import os
import signal
import sys


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Failure(Exception):
    """What a command could not do, said in one line to the user."""


class Parser(argparse.ArgumentParser):
    """argparse, with errors in one line and help from the module's docstring."""

    def error(self, message):
        self.exit(2, "%s: error: %s (see --help)\n" % (self.prog, _one_line(message)))


def parser(prog, doc=None, **kw):
    """A parser named prog, described by the docstring doc (kept as written)."""
    return Parser(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter,
                  allow_abbrev=False, **kw)


def _one_line(text):
    return " ".join(str(text).split())


def int_in(lo, hi, what):
    """An argparse type: an integer lo..hi."""
    def parse(text):
        try:
            v = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError("%s: %r is not a whole number" % (what, text[:40]))
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError("%s: %s is out of range %d..%d" % (what, text[:40], lo, hi))
        return v
    parse.__name__ = what  # argparse names the type in its messages
    return parse


def float_in(lo, hi, what):
    """An argparse type: a finite number lo..hi."""
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s: %r is not a number" % (what, text[:40]))
        if not math.isfinite(v) or not lo <= v <= hi:
            raise argparse.ArgumentTypeError("%s: %s is out of range %g..%g" % (what, text[:40], lo, hi))
        return v
    parse.__name__ = what
    return parse


def text(what):
    """An argparse type: a non-empty, printable string."""
    def parse(value):
        if not value or not value.isprintable():
            raise argparse.ArgumentTypeError("%s: empty or not printable" % what)
        return value
    parse.__name__ = what
    return parse


def position(value):
    """An argparse type: a position in notation (docs/notation.md), as a Position."""
    from vortex.engine import Position, NotationError  # host_sim has put firmware/ on sys.path
    try:
        return Position(value)
    except NotationError as e:
        raise argparse.ArgumentTypeError(str(e))


PORT_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@+-")


def port(value):
    """An argparse type: an mpremote device (/dev/ttyACM0, COM3, auto, a0, id:...)."""
    if not value or not set(value) <= PORT_CHARS or len(value) > 200:
        raise argparse.ArgumentTypeError(
            "port: %r is not a serial port name (as /dev/ttyACM0, COM3 or auto)" % value[:40])
    return value


def program(name, path=True):
    """A program of the project's .venv (pinned in requirements-dev.txt),
    else beside this Python, else (if path) on PATH; Failure if none."""
    import shutil
    for folder in (os.path.join(ROOT, ".venv", "bin"), os.path.dirname(sys.executable)):
        exe = os.path.join(folder, name)
        if os.access(exe, os.X_OK):
            return exe
    exe = shutil.which(name) if path else None
    if not exe:
        raise Failure("%s not found: `make flash` (or `make test`) sets up .venv with it" % name)
    return exe


def run(main, argv=None):
    """Run main(argv) as a program: exit with its code, errors in one line."""
    argv = sys.argv[1:] if argv is None else argv
    prog = os.path.basename(sys.argv[0])
    if prog == "__main__.py":
        prog = "python3 -m host_sim"
    try:
        code = main(argv)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C: still quiet
        sys.stderr.write("\n")
        code = 130
    except BrokenPipeError:
        # The reader left (e.g. `| head`): stop quietly, and let no flush at exit complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    except Failure as e:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(e)))
        code = 1
    except OSError as e:
        where = " (%s)" % e.filename if getattr(e, "filename", None) else ""
        sys.stderr.write("%s: error: %s%s\n" % (prog, _one_line(e.strerror or e), where))
        code = 1
    sys.exit(code)
