"""make bench-online at a tiny size: that it works (it is a benchmark, its
figures never a pass/fail): every action published reached every client
of its game once, and the figures are there."""
import json
import subprocess
import sys

import pytest

from mpy import ROOT
from host_sim.online.broker import mosquitto_missing


def test_bench_online_runs_and_loses_nothing(tmp_path):
    pytest.importorskip("paho.mqtt.client", reason="paho-mqtt is not installed")
    if mosquitto_missing():
        pytest.skip(mosquitto_missing())
    out = tmp_path / "online.json"
    p = subprocess.run([sys.executable, "tools/bench_online.py", "--games", "4", "--actions", "4",
                        "--spectators", "2", "--think-ms", "0", "--seconds", "30",
                        "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    f = json.loads(out.read_text())
    assert f["clients"] == 10 and f["actions_published"] == 16
    assert f["lost"] == f["applied_wrongly"] == f["refused"] == f["unfinished_games"] == 0
    assert f["player_ms"]["n"] == 16 and f["spectator_ms"]["n"] == 8
    assert "actions a second" in p.stdout and "p99" in p.stdout
