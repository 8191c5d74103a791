"""Every generated file of hardware/, from the design code: what
tools/hardware.py writes and what the staleness test compares."""
from . import bom, drawings, report, schematic
from .figures import figures

# generated file (relative to hardware/) -> its text
OUTPUTS = ("generated/vortex.net", "generated/bom.csv", "generated/figures.md",
           "generated/stackup.svg", "generated/blocks.svg", "power.py")


def generate():
    """{path relative to hardware/: text}, and the ERC's (errors, warnings)."""
    fig = figures()
    circuit = schematic.build()
    erc = schematic.run_erc()
    rows = bom.rows(circuit)
    files = {
        "generated/vortex.net": schematic.netlist(),
        "generated/bom.csv": bom.csv_text(rows),
        "generated/figures.md": report.figures_md(fig, bom.total(rows)),
        "generated/stackup.svg": drawings.stackup(fig),
        "generated/blocks.svg": drawings.blocks(),
        "power.py": report.power_py(fig),
    }
    assert tuple(files) == OUTPUTS
    return files, erc
