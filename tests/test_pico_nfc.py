"""The NFC front end's model of the emulated Pico (tools/pico/nfc.mjs: the
595 chain and decoder, the MFRC522's registers, timer and CRC, NTAG213s)
against the data sheets' sequences: its own node:test file, run here."""
import os
import shutil
import subprocess

import pytest

from mpy import ROOT


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_nfc_model_against_the_data_sheets():
    p = subprocess.run(["node", "--test", "nfc.test.mjs"], cwd=os.path.join(ROOT, "tools", "pico"),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert "# fail 0" in p.stdout and "# pass 0" not in p.stdout, p.stdout[-500:]
