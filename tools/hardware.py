"""Regenerate the board's generated files, check them, or print the sweep model.

    python3 tools/hardware.py build [--out DIR]   write hardware/generated/*,
                                                  hardware/power.py and sensing.py
                                                  (or into DIR)
    python3 tools/hardware.py check               exit 1 if a generated file is stale
    python3 tools/hardware.py sweep --mcu-ms MS   sweep times with MicroPython's
                                                  measured cost per read

build and check need SKiDL (.venv: `make test` or `make hardware` sets it up)
and ngspice (the bus simulation; `make system` installs it);
sweep needs only python3. The ERC must pass: build fails on an ERC error.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "hardware")]

from host_sim import cli  # noqa: E402


def _generate():
    import io
    import contextlib
    import logging
    logging.disable(logging.WARNING)   # SKiDL's notes on missing KiCad libraries
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            from boardgen import spice
            from boardgen.build import generate
            if not spice.available():
                raise cli.Failure("ngspice is not installed: run `make system` (Debian package ngspice); "
                                  "figures.md carries the RF chain's and the bus's simulations")
            files, (errors, _warnings) = generate()
    except ImportError as e:
        raise cli.Failure("%s: run `make hardware` (it sets up .venv with SKiDL)" % e)
    except (ValueError, RuntimeError) as e:   # a malformed generated/feeds.csv; ngspice failing (SimError)
        raise cli.Failure(str(e))
    if errors:
        raise cli.Failure("the schematic's ERC found %d error(s)" % errors)
    return files


def build(out):
    files = _generate()
    for rel, text in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    print("wrote %d files under %s (ERC clean)" % (len(files), out))
    return 0


def check():
    stale = []
    for rel, text in _generate().items():
        path = os.path.join(ROOT, "hardware", rel)
        try:
            with open(path) as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if not same:
            stale.append("hardware/" + rel)
    if stale:
        raise cli.Failure("stale: %s (run `make hardware`)" % ", ".join(stale))
    print("hardware: every generated file is fresh")
    return 0


def sweep(mcu_ms):
    from boardgen import sweep as sw
    print("| front end | mcu_ms | 64 tiles (ms) | empty board (ms) |")
    for name, mcu, full, empty in sw.table([0.0, mcu_ms]):
        print("| %s | %g | %.0f | %.0f |" % (name, mcu, full, empty))
    return 0


def main(argv):
    ap = cli.parser("python3 tools/hardware.py", __doc__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    b = sub.add_parser("build", help="write every generated file")
    b.add_argument("--out", type=cli.text("out"), default=os.path.join(ROOT, "hardware"),
                   help="folder that stands for hardware/ (default: hardware/ itself)")
    sub.add_parser("check", help="fail if a generated file is stale")
    s = sub.add_parser("sweep", help="sweep times for a measured MicroPython cost per read")
    s.add_argument("--mcu-ms", type=cli.float_in(0, 1000, "mcu ms"), default=0.0,
                   help="milliseconds of CPU and SPI per read (default 0: the RF floor)")
    args = ap.parse_args(argv)
    if args.command == "build":
        if not os.path.isdir(os.path.dirname(os.path.abspath(args.out)) or "."):
            ap.error("out: no folder %s" % os.path.dirname(args.out))
        return build(args.out)
    if args.command == "check":
        return check()
    return sweep(args.mcu_ms)


if __name__ == "__main__":
    cli.run(main)
