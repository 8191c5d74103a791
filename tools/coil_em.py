"""Solve one reader coil in its GND pour with openEMS; cache the result.

    /usr/bin/python3 tools/coil_em.py build [--force]  solve every case (hardware/boardgen/pcb/coil_em.py)
                                            into hardware/generated/coil_em.csv, unless its digest
                                            says it is fresh (minutes of CPU)
    /usr/bin/python3 tools/coil_em.py check exit 1 if hardware/generated/coil_em.csv is stale

build needs Debian's openEMS (apt-get install openems python3-openems), which
only the system python3 can import; check needs only python3.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV = os.path.join(ROOT, "hardware", "generated", "coil_em.csv")
sys.path[:0] = [os.path.join(ROOT, "hardware", "boardgen", "pcb"), os.path.join(ROOT, "hardware", "boardgen")]


class Failure(Exception):
    pass


def stored_digest(path=CSV):
    """The digest a cached coil_em.csv was made from ('' when there is none)."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("# source digest "):
                    return line.split()[3]
    except FileNotFoundError:
        pass
    return ""


def check():
    import coil_em
    if stored_digest() != coil_em.digest():
        raise Failure("stale: hardware/generated/coil_em.csv (run `make em`)")
    print("coil_em: hardware/generated/coil_em.csv is fresh")
    return 0


def build(force=False, threads=1, jobs=1):
    import coil_em
    if not force and stored_digest() == coil_em.digest():
        print("coil_em: hardware/generated/coil_em.csv is fresh (--force solves again)")
        return 0
    try:
        import openEMS  # noqa: F401
    except ImportError:
        raise Failure("no openEMS module: run with Debian's /usr/bin/python3 after "
                      "`apt-get install openems python3-openems`")
    text = coil_em.run(threads=threads, jobs=jobs)
    with open(CSV, "w") as f:
        f.write(text)
    print("wrote hardware/generated/coil_em.csv")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 tools/coil_em.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", required=True)
    b = sub.add_parser("build", help="solve every case unless the cached results are fresh")
    b.add_argument("--force", action="store_true", help="solve even when fresh")
    b.add_argument("--threads", type=int, choices=range(1, 9), default=1, metavar="N",
                   help="openEMS threads (1-8, default 1)")
    b.add_argument("--jobs", type=int, choices=range(1, 9), default=2, metavar="N",
                   help="cases solved at once, each in its own process (1-8, default 2)")
    sub.add_parser("check", help="fail if the cached results are stale")
    args = ap.parse_args(argv)
    if args.command == "build":
        return build(args.force, args.threads, args.jobs)
    return check()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        print("error: %s" % e, file=sys.stderr)
        sys.exit(1)
