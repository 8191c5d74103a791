"""The benchmarks' measuring code still runs: each mode that `make bench`
(tools/bench_app_mpy.py) and `make bench-device` (tools/bench_device_mpy.py)
run under the MicroPython unix port, here with the smallest counts, on the
compiled tree, prints the figures its section reads. No figure is judged
(tests never fail on a time): what this catches is a benchmark left behind
by a change to the code it measures (the pass's stub tile reader lacked
view() for a while, and `make bench` lost its pass section)."""
import os
import subprocess

import pytest

from mpy import ROOT, micropython
import bench

TOOLS = os.path.join(ROOT, "tools")
CELLS = ",".join(c for c, _ in bench.LIFTED)
# (module, call, the keys its section reads)
MODES = [
    ("bench_app_mpy", "step_mode(3)", ("lift_us", "putback_us", "idle_alloc", "idle_us")),
    ("bench_app_mpy", "pass_mode(5, 1)", ("pass_none_us", "pass_idle_us", "pass_playing_us",
                                          "pass_idle_alloc", "pass_playing_alloc",
                                          "tone_change_us")),
    ("bench_app_mpy", "save_mode(30)", ("append_10_us", "append_30_us", "snapshot_30_us")),
    ("bench_device_mpy", "engine_mode(%r, %r, %r, 2, 1)" % (bench.HEAP[0], bench.LIFT, CELLS),
     ("legal_n", "legal_us", "dest_us", "perft2_nps", "perft2_nodes", "import_heap")),
    ("bench_device_mpy", "step_mode(3)", ("lift_us", "idle_us")),
    ("bench_device_mpy", "pass_mode(5)", ("pass_none_us", "pass_playing_us", "tone_change_us")),
    ("bench_device_mpy", "save_mode('bench.bin', 'actions.txt', '2,3')",
     ("commit_2_us", "snapshot_3_us")),
    ("bench_device_mpy", "ai_mode(%r, 1, [1])" % bench.FULL[0], ("ai_1_us", "ai_1_nps")),
    ("bench_device_mpy", "protocol_mode(%r, 3)" % bench.FULL[0], ("schedule_us", "decode_us")),
]


@pytest.mark.parametrize("module, call, keys", MODES, ids=["%s.%s" % (m, c.split("(")[0])
                                                           for m, c, _ in MODES])
def test_each_benchmark_mode_runs_and_prints_its_figures(mpy_tree, tmp_path, module, call, keys):
    from vortex.engine.notation import action_text
    from vortex.engine.position import Position
    pos = Position(bench.FULL[0])
    actions = []
    for _ in range(4):
        a = next(iter(pos.legal_actions()))
        actions.append(action_text(a))
        pos.push(a)
    (tmp_path / "actions.txt").write_text(bench.FULL[0] + "\n" + " ".join(actions) + "\n")
    code = ("import sys\nsys.path[:0] = [%r, %r, %r, %r]\nimport %s as b\nb.%s\n"
            % (mpy_tree, mpy_tree + "/firmware", mpy_tree + "/tests", TOOLS, module, call))
    p = subprocess.run([micropython(), "-X", "heapsize=512K", "-c", code], cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr[-1500:]
    figures = bench.dict_of(p.stdout.splitlines())
    missing = [k for k in keys if k not in figures]
    assert not missing, (missing, p.stdout[-800:])


def test_bench_device_ships_the_test_modules_its_scripts_import_and_they_fit_circuitpy():
    """`make bench-device` puts the scripts' own modules from tests/ on the
    emulated Pico, not the whole folder: with all of tests/ (1.1 MB) the
    CircuitPython runs stopped at FatFS, CIRCUITPY being 1 MB. Every module
    a script imports from tests/ is shipped, and what is shipped from
    tests/ is a small part of the drive."""
    import re
    import bench_device
    import pico
    shipped = bench_device._test_modules()
    imported = set()
    for name in bench_device.SCRIPTS:
        with open(os.path.join(TOOLS, name)) as f:
            imported |= set(re.findall(r"^\s*(?:from|import)\s+(test_\w+)", f.read(), re.M))
    assert imported and imported <= shipped
    size = sum(os.path.getsize(os.path.join(ROOT, "tests", n + ".py")) for n in shipped)
    assert size < pico.CP_FS_BYTES // 20, size
