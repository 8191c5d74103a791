"""tools/probe_rank.py: its board program run on the emulated Pico (the NFC
front end modelled at its registers) over a rank laid out as a prototype
would be: tiles, an empty cell a neighbour's tag reaches (cross-talk), a
tile whose reads fail now and then, pieces on some reeds; and its report.
Skipped, with the reason, where the emulated Pico cannot run."""
import os
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
import probe_rank  # noqa: E402

WHY = pico.missing()
RANK = 2                 # rank 3: cells 16-23
READS = 6


def test_the_report_reads_the_programs_lines():
    lines = ["noise", "PROBE 0 6 6 3900 04565800010280 1 1 - 6",
             "PROBE 1 0 6 1200 - 0 -1 0:6 0", "PROBE 2 3 6 4100 0456580003 0 -1 - 3"]
    out = probe_rank.report(lines, RANK, READS)
    assert out[0] == "a3  reads 6/6 ok  3.9 ms a read  tag 04565800010280 Water #1  " \
                     "cross-talk -  reed closed 100%"
    assert out[1].startswith("b3  reads 0/6 ok") and "tag no tag" in out[1] \
        and "cross-talk a3 6" in out[1] and out[1].endswith("reed closed 0%")
    assert "not a tile of ours" in out[2] and "reed closed 50%" in out[2]
    assert out[-1] == "rank 3: 9 of 18 reads ok (50%), 3.1 ms a read on average"
    assert probe_rank.report(["Traceback (most recent call last):"], RANK, READS) is None
    assert "does not answer" in probe_rank.report(["PROBE noreader 2"], RANK, READS)[0]


@pytest.mark.skipif(WHY is not None, reason="no emulated Pico: %s" % WHY)
def test_the_probe_on_a_modelled_rank():
    base = RANK * 8
    tiles = {base + f: pico.tile(1 + f % 4, 10 + f) for f in (0, 1, 3, 4, 5, 6, 7)}
    with pico.Pico(tiles=tiles, reeds=[base + 4, base + 5]) as dev:
        dev.fault(cell=base + 1, crosstalk=[base + 2])     # b3's tag also on c3's coil (empty)
        dev.fault(cell=base + 6, fail={"cmd": 0x30, "count": 2})   # two READs of g3 unanswered
        dev.repl()
        r = dev.exec(probe_rank.script(RANK, READS), 600)
    assert r.status == pico.OK, r
    out = probe_rank.report(r.output.splitlines(), RANK, READS)
    rows = dict((line[:2], line) for line in out[:-1])
    assert len(rows) == 8, out
    assert "reads 6/6 ok" in rows["a3"] and "Water #10" in rows["a3"] and "cross-talk -" in rows["a3"]
    # c3 holds no tile, but b3's tag answers there: it is b3's, seen through c3's coil.
    assert "reads 6/6 ok" in rows["c3"] and "cross-talk b3 6" in rows["c3"], rows["c3"]
    assert "Fire #11" in rows["b3"] and "cross-talk -" in rows["b3"]
    assert "reads 4/6 ok" in rows["g3"], rows["g3"]        # two of six failed
    assert "reed closed 100%" in rows["e3"] and "reed closed 100%" in rows["f3"]
    assert "reed closed 0%" in rows["a3"]
    assert all(float(row.split("ms a read")[0].split()[-1]) < 20 for row in rows.values())
    assert out[-1].startswith("rank 3: 46 of 48 reads ok")


def test_help_and_bad_arguments_are_one_line():
    for argv in (["--rank", "0"], ["--reads", "x"], ["--port", ""], ["--bogus"]):
        with pytest.raises(SystemExit) as e:
            probe_rank.main(argv)
        assert e.value.code == 2
