"""The board's mechanical parts (hardware/boardgen/mech): make them, check them.

    python3 tools/mech.py build [--out DIR]   build/mech/*.step, *.stl, *.dxf (or into DIR) and
                                              hardware/generated/mech/ (fit.md, parts.svg, assembly.svg)
    python3 tools/mech.py check               exit 1 if a fit check fails or hardware/generated/mech is stale

Needs build123d (.venv: `make mech` sets it up) and the generated boards
(hardware/generated/*.kicad_pcb, `make pcb`).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "hardware")]

from host_sim import cli  # noqa: E402


def _model():
    try:
        import logging
        logging.disable(logging.WARNING)
        from boardgen.mech import build
    except ImportError as e:
        raise cli.Failure("%s: run `make mech` (it sets up .venv with build123d)" % e)
    try:
        return build, build.Model()
    except (OSError, KeyError) as e:
        raise cli.Failure(str(e).strip("'\""))


def build_all(out):
    build, model = _model()
    generated = os.path.join(ROOT, "hardware", "generated")
    report = model.report()
    os.makedirs(os.path.join(generated, "mech"), exist_ok=True)
    with open(os.path.join(generated, build.REPORT), "w") as f:
        f.write(report)
    for path in build.drawings(model, generated) + build.outputs(model, out):
        print("wrote", os.path.relpath(path, ROOT))
    failed = [line for line in report.splitlines() if "**NO**" in line]
    if failed:
        raise cli.Failure("fit checks failed:\n" + "\n".join(failed))
    return 0


def check():
    build, model = _model()
    generated = os.path.join(ROOT, "hardware", "generated")
    stale = []
    try:
        with open(os.path.join(generated, build.REPORT)) as f:
            if f.read() != model.report():
                stale.append(build.REPORT)
    except FileNotFoundError:
        stale.append(build.REPORT)
    digest = build.source_digest()
    for rel in build.DRAWINGS:
        path = os.path.join(generated, rel)
        if not os.path.exists(path) or build.stored_digest(path) != digest:
            stale.append(rel)
    if stale:
        raise cli.Failure("stale: %s (run `make mech`)" % ", ".join("hardware/generated/" + s for s in stale))
    print("mech: the fit checks pass and hardware/generated/mech is fresh")
    return 0


def main(argv):
    ap = cli.parser("python3 tools/mech.py", __doc__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    b = sub.add_parser("build", help="write every part and hardware/generated/mech")
    b.add_argument("--out", type=cli.text("out"), default=os.path.join(ROOT, "build", "mech"),
                   help="folder for STEP, STL and DXF (default build/mech)")
    sub.add_parser("check", help="fail if a fit check fails or a generated file is stale")
    args = ap.parse_args(argv)
    if args.command == "build":
        return build_all(args.out)
    return check()


if __name__ == "__main__":
    cli.run(main)
