"""tools/probe_rank.py: its board program run on the emulated Pico (the NFC
front end modelled at its registers) over a rank laid out as a prototype
would be: tiles, an empty cell a neighbour's tag reaches (cross-talk), a
tile whose reads fail now and then, pieces on some reeds; and its report.
Skipped, with the reason, where the emulated Pico cannot run."""
import os
import sys

import pytest

from mpy import ROOT
from needs_pico import needs_pico

sys.path.insert(0, os.path.join(ROOT, "tools"))
import pico  # noqa: E402
import probe_rank  # noqa: E402

RANKS = (0, 1)           # the prototype: two rank boards, ranks 1 and 2 (cells 0-15)
READS = 3


def test_the_report_reads_the_programs_lines():
    lines = ["noise", "PROBE chain 0 64", "PROBE bus 1 146 0 24 4000000",
             "PROBE cell 1 0 6 6 3900 04565800010280 1 1 - 6",
             "PROBE cell 1 1 0 6 1200 - 0 -1 0:6 0", "PROBE cell 1 2 3 6 4100 0456580003 0 -1 - 3",
             "PROBE noreader 0"]
    out = probe_rank.report(lines, (0, 1), 6)
    assert out[0] == "bus: the chain's return on MISO, no reader selected: 0 of 64 bytes wrong"
    assert out[1].startswith("rank 1: its NFC reader does not answer")
    assert out[2] == "rank 2: version 0x92, 0 errors in 24 reads at 4.0 MHz"
    assert out[3] == "a2  reads 6/6 ok  3.9 ms a read  tag 04565800010280 Water #1  " \
                     "cross-talk -  reed closed 100%"
    assert out[4].startswith("b2  reads 0/6 ok") and "tag no tag" in out[4] \
        and "cross-talk a2 6" in out[4] and out[4].endswith("reed closed 0%")
    assert "not a tile of ours" in out[5] and "reed closed 50%" in out[5]
    assert out[-1] == "rank 2: 9 of 18 reads ok (50%), 3.1 ms a read on average"
    assert "check CHAIN_RET" in probe_rank.report(["PROBE chain 3 64"], (0,), 6)[0]
    # A board without the return line: nothing may drive MISO then.
    assert probe_rank.report(["PROBE idle 0 64"], (0,), 6)[0] == "bus: MISO with no reader selected 0 of 64 bytes set"
    assert "74LVC1G125's enable" in probe_rank.report(["PROBE idle 2 64"], (0,), 6)[0]
    assert probe_rank.report(["Traceback (most recent call last):"], (0,), 6) is None


@needs_pico()
def test_the_probe_on_two_modelled_rank_boards_and_no_field_into_an_open_switch():
    tiles = {c: pico.tile(1 + c % 4, 10 + c) for c in (0, 1, 3, 4, 5, 6, 7, 8, 9, 12)}
    with pico.Pico(tiles=tiles, reeds=[4, 5, 9], chain_return=True) as dev:   # a board with CHAIN_RET
        dev.fault(cell=1, crosstalk=[2])                   # b1's tag also on c1's coil (empty)
        dev.fault(cell=6, fail={"cmd": 0x30, "count": 2})  # two READs of g1 unanswered
        dev.repl()
        r = dev.exec(probe_rank.script(RANKS, READS), 600)
        assert r.status == pico.OK, r
        # The firmware's own driver and front end, on the emulated chips:
        # never a field into an open switch (nfc.mjs counts each moment).
        assert dev.reader_stats()["overcurrent"] == [0] * 8
        # The model sees the fault when it happens: rank 2's switch open and
        # its drivers switched on behind the front end's back.
        bad = dev.exec("front.coil(1, OFF)\nfront.flush()\nfront.xfer(1, b'\\x28\\x83')", 60)
        assert bad.status == pico.OK, bad
        assert dev.reader_stats()["overcurrent"] == [0, 1, 0, 0, 0, 0, 0, 0]
    out = probe_rank.report(r.output.splitlines(), RANKS, READS)
    assert out[0] == "bus: the chain's return on MISO, no reader selected: 0 of 64 bytes wrong", out
    assert out[1] == "rank 1: version 0x92, 0 errors in 24 reads at 4.0 MHz", out
    rows = dict((line[:2], line) for line in out if line[1:2].isdigit())
    assert len(rows) == 16, out
    assert "reads 3/3 ok" in rows["a1"] and "Water #10" in rows["a1"] and "cross-talk -" in rows["a1"]
    # c1 holds no tile, but b1's tag answers there: it is b1's, seen through c1's coil.
    assert "reads 3/3 ok" in rows["c1"] and "cross-talk b1 3" in rows["c1"], rows["c1"]
    assert "Fire #11" in rows["b1"] and "cross-talk -" in rows["b1"]
    assert "reads 1/3 ok" in rows["g1"], rows["g1"]        # two of three failed
    assert "reed closed 100%" in rows["e1"] and "reed closed 100%" in rows["f1"]
    assert "reed closed 100%" in rows["b2"] and "reed closed 0%" in rows["a2"]
    assert "reads 3/3 ok" in rows["e2"] and "reads 0/3 ok" in rows["f2"] and "no tag" in rows["f2"]
    assert "rank 2: version 0x92" in out[out.index(rows["h1"]) + 2]
    assert all(float(row.split("ms a read")[0].split()[-1]) < 20 for row in rows.values())
    assert any(line.startswith("rank 1: 22 of 24 reads ok") for line in out), out
    assert any(line.startswith("rank 2: 9 of 24 reads ok") for line in out), out


def test_help_and_bad_arguments_are_one_line():
    for argv in (["--ranks", "0"], ["--ranks", "1,1"], ["--ranks", "x"], ["--reads", "x"],
                 ["--port", ""], ["--bogus"]):
        with pytest.raises(SystemExit) as e:
            probe_rank.main(argv)
        assert e.value.code == 2
