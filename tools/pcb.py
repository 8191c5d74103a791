"""Lay out, route and check the boards; write their fab files.

    /usr/bin/python3 tools/pcb.py build [--out DIR] [--board NAME]
                                  hardware/generated/*.kicad_pcb, vortex.pretty/, feeds.csv
                                  (or into DIR); --board rank|controller: that board alone
    /usr/bin/python3 tools/pcb.py check               exit 1 if a generated layout file is stale
    /usr/bin/python3 tools/pcb.py drc BOARD.kicad_pcb KiCad's DRC: errors and unconnected pads
    .venv-kicad/bin/python tools/pcb.py fab [--out DIR]
                                  build/fab/<board>.zip, rank-panel.zip (KiKit) and
                                  hardware/generated/<board>-<side>.png (PcbDraw)

Needs KiCad 6's pcbnew (Debian: apt-get install kicad kicad-footprints), which
only the system python3 can import; fab needs KiKit and PcbDraw too, which
`make fab` installs into .venv-kicad, a venv of that python3.
"""
import argparse
import filecmp
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATED = os.path.join(ROOT, "hardware", "generated")
sys.path[:0] = [os.path.join(ROOT, "hardware", "boardgen", "pcb"), os.path.join(ROOT, "hardware", "boardgen")]


class Failure(Exception):
    pass


def _pcbnew():
    try:
        import pcbnew  # noqa: F401
    except ImportError:
        raise Failure("no KiCad pcbnew module: run with Debian's /usr/bin/python3 after "
                      "`apt-get install kicad kicad-footprints`")


def build(out, boards=None):
    _pcbnew()
    import generate
    os.makedirs(out, exist_ok=True)
    unrouted = generate.generate(GENERATED, out, boards=boards or generate.BOARDS)
    bad = {k: v for k, v in unrouted.items() if v}
    if bad:
        raise Failure("unconnected: " + "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in bad.items()))
    return 0


def generated_files(folder):
    import generate
    names = [b + ext for b in generate.BOARDS for ext in (".kicad_pcb", ".kicad_pro")]
    if os.path.exists(os.path.join(folder, "feeds.csv")):
        names.append("feeds.csv")
    lib = os.path.join(folder, "vortex.pretty")
    if os.path.isdir(lib):
        names += ["vortex.pretty/" + n for n in sorted(os.listdir(lib))]
    return names


def check():
    _pcbnew()
    import generate
    with tempfile.TemporaryDirectory() as tmp:
        generate.generate(GENERATED, tmp, log=lambda *_: None)
        fresh, committed = set(generated_files(tmp)), set(generated_files(GENERATED))
        stale = sorted((fresh ^ committed) | {
            n for n in fresh & committed
            if not filecmp.cmp(os.path.join(tmp, n), os.path.join(GENERATED, n), shallow=False)})
    if stale:
        raise Failure("stale: %s (run `make pcb`)" % ", ".join("hardware/generated/" + n for n in stale))
    print("the layout files are up to date")
    return 0


def drc(path):
    _pcbnew()
    import drc as drc_mod
    errors, unconnected, report = drc_mod.run(path)
    print("%s: %d DRC errors, %d unconnected pads" % (path, errors, unconnected))
    return 0 if errors == unconnected == 0 else 1


def fab(out):
    _pcbnew()
    try:
        import kikit  # noqa: F401
        import pcbdraw  # noqa: F401
    except ImportError:
        raise Failure("no KiKit or PcbDraw: run `make fab` (it installs them into .venv-kicad)")
    import fab as fab_mod
    import generate
    import pictures
    for z, missing in fab_mod.build_all(GENERATED, out):
        print("wrote", os.path.relpath(z, ROOT))
        refs = sorted({r.rsplit("_", 1)[0] for r in missing}, key=lambda r: (r.rstrip("0123456789"), len(r), r))
        if refs:
            print("  placed without an LCSC number (searched by part number at the assembler, or "
                  "consigned): " + " ".join(refs))
    for name in pictures.draw_all(GENERATED, generate.BOARDS):
        print("wrote", os.path.relpath(name, ROOT))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", default=GENERATED)
    b.add_argument("--board", help="build this board alone (rank or controller)")
    sub.add_parser("check")
    d = sub.add_parser("drc")
    d.add_argument("board")
    f = sub.add_parser("fab")
    f.add_argument("--out", default=os.path.join(ROOT, "build", "fab"))
    args = ap.parse_args(argv)
    try:
        if args.cmd == "build":
            return build(args.out, [args.board] if args.board else None)
        if args.cmd == "check":
            return check()
        if args.cmd == "drc":
            if not os.path.isfile(args.board):
                raise Failure("no such board file: %s" % args.board)
            return drc(args.board)
        return fab(args.out)
    except (Failure, ValueError, OSError) as e:
        print("pcb: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
