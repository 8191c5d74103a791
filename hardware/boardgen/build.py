"""Every generated file of hardware/, from the design code: what
tools/hardware.py writes and what the staleness test compares."""
import os

from . import bom, bussim, drawings, report, rfsim, schematic, spice
from .figures import figures

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # hardware/
# generated file (relative to hardware/) -> its text
OUTPUTS = ("generated/controller.net", "generated/rank.net", "generated/bom.csv",
           "generated/figures.md", "generated/stackup.svg", "generated/blocks.svg", "power.py", "sensing.py")
# How many of each board one game takes.
BOARD_COUNT = {"controller": 1, "rank": schematic.RANK_BOARDS}


def generate():
    """{path relative to hardware/: text}, and the ERC's (errors, warnings)
    summed over the boards. figures.md carries the RF chain's simulation
    when ngspice is installed (tools/hardware.py build refuses to write
    without it)."""
    fig = figures()
    # Without ngspice the rest is still made (the tests of the other files
    # run); tools/hardware.py refuses to write figures.md so.
    sim = rfsim.simulate(fig["coil"]) if spice.available() else None
    bus = bussim.markdown(bussim.simulate()) if spice.available() else ""
    files, errors, warnings, boards = {}, 0, 0, []
    for board in schematic.BOARDS:
        circuit = schematic.build(board)
        e, w = schematic.run_erc()
        errors, warnings = errors + e, warnings + w
        files["generated/%s.net" % board] = schematic.netlist()
        boards.append((board, BOARD_COUNT[board], bom.board_parts(circuit)))
    rows = bom.rows(boards, bom.board_sizes(os.path.join(HERE, "generated")))
    files.update({
        "generated/bom.csv": bom.csv_text(rows),
        "generated/figures.md": report.figures_md(fig, bom.total(rows), sim=sim) + bus,
        "generated/stackup.svg": drawings.stackup(fig),
        "generated/blocks.svg": drawings.blocks(),
        "power.py": report.power_py(fig),
        "sensing.py": report.sensing_py(fig),
    })
    assert tuple(sorted(files)) == tuple(sorted(OUTPUTS))
    return {k: files[k] for k in OUTPUTS}, (errors, warnings)
