"""KiCad's own design-rule check, counted."""
import os
import re
import tempfile

import pcbnew


def run(path):
    """(errors, unconnected pads, report text) of KiCad's DRC on a board file."""
    board = pcbnew.LoadBoard(path)
    with tempfile.TemporaryDirectory() as tmp:
        rpt = os.path.join(tmp, "drc.rpt")
        if not pcbnew.WriteDRCReport(board, rpt, pcbnew.EDA_UNITS_MILLIMETRES, True):
            raise RuntimeError("KiCad's DRC wrote no report for %s" % path)
        with open(rpt) as f:
            text = f.read()
    errors = len(re.findall(r"Severity: error", text))
    m = re.search(r"Found (\d+) unconnected pads", text)
    return errors, int(m.group(1)) if m else -1, text
