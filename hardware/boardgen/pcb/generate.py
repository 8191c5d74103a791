"""Every generated layout file, from the two netlists: the vortex footprint
library, one routed board per board type and the coil feeds measured on the
rank board. Runs under Debian's python3 (KiCad 6's pcbnew)."""
import os
import time

import board
import feeds
import footprints
import netlist

BOARDS = ("rank", "controller")


def generate(generated, out, log=print, boards=BOARDS):
    """Read generated/<board>.net, write into out: vortex.pretty/,
    <board>.kicad_pcb for each of boards, and feeds.csv when every pad of the
    rank board is connected (a feed measured on a half-routed board would
    mislead the matching; without the file physics uses its estimate; a
    build without the rank board leaves feeds.csv as it is). Returns
    {board: what KiCad finds unconnected, named where the router knows}."""
    unknown = [b for b in boards if b not in BOARDS]
    if unknown:
        raise ValueError("no such board: %s (the boards: %s)" % (", ".join(unknown), ", ".join(BOARDS)))
    lib = os.path.join(out, footprints.LIB + ".pretty")
    footprints.write(lib)
    unrouted = {}
    rows = []
    for kind in boards:
        t = time.time()
        path = os.path.join(generated, kind + ".net")
        net = netlist.read(path)
        pcb, routes, layout = board.build(net, kind, lib, log=log, digest=board.source_digest(path))
        path = os.path.join(out, kind + ".kicad_pcb")
        loaded = board.save(pcb, path, layout, log)
        # KiCad 6 keeps the net classes (the clearance the DRC checks) in the
        # project file <board>.kicad_pro: it is part of the board. The .kicad_prl
        # holds the editor's local view settings: not ours to commit.
        prl = path[:-len(".kicad_pcb")] + ".kicad_prl"
        if os.path.exists(prl):
            os.remove(prl)
        count, unrouted[kind] = _unconnected(loaded, routes)
        log("%s: %d parts, %d nets routed, %d unconnected in KiCad (%.0f s)"
            % (kind, len(net.parts), len({r.net for r in routes}), count, time.time() - t))
        if kind == "rank" and not unrouted[kind]:
            rows = feeds.measure(loaded, net)
    path = os.path.join(out, "feeds.csv")
    if "rank" not in boards:
        return unrouted
    if rows:
        with open(path, "w") as f:
            f.write(feeds.csv_text(rows))
    else:
        log("feeds.csv not written: the rank board has unconnected items")
        if os.path.exists(path):
            os.remove(path)
    return unrouted


def _unconnected(loaded, routes):
    """KiCad's count of unconnected items on the filled board, and them as
    names: the pads the router left, then one entry for the rest KiCad
    counts (mostly what the pour leaves unjoined: its islands and the pads
    its tree did not reach)."""
    conn = loaded.GetConnectivity()
    conn.RecalculateRatsnest()
    count = conn.GetUnconnectedCount()
    names = sorted(p for r in routes if r.net != board.POUR for p in r.failed)
    if count > len(names):
        names.append("%d more items (KiCad's count beyond the router's)" % (count - len(names)))
    return count, (names if count else [])
