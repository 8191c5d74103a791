"""A fresh machine without the network (issue 38): no device image in the
user's cache, no copies beside the checkout, nothing to fetch. Every test
of the emulated Pico then skips, saying what to download and where; none
errors. And where an image is there but refused (a damaged file, a check
that refuses the real one), they fail instead: "no device here" must never
hide a refusal.

The device tests' files run in a pytest of their own with the cache and
the copies pointed at empty folders and every fetch sent to a proxy that
refuses the connection (urllib takes its proxy from the environment)."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from mpy import ROOT

TESTS = os.path.join(ROOT, "tests")
# A device test carries needs_pico's marks (or its module's, imported) or
# builds on the uf2_file fixture.
DEVICE = re.compile(r"\bneeds_pico\b|\buf2_file\b|import .*\bpytestmark\b")
PLUGIN = """
import sys
sys.path.insert(0, %r)
import device_images
device_images.shared_dir = lambda: %r   # the copies beside the checkout: none
"""


def device_test_files():
    out = []
    for name in sorted(os.listdir(TESTS)):
        if name.startswith("test_") and name.endswith(".py") and name != "test_offline.py":
            with open(os.path.join(TESTS, name)) as f:
                if DEVICE.search(f.read()):
                    out.append(os.path.join("tests", name))
    return out


def run_device_tests(tmp_path, env=None):
    """The device tests' files in a pytest of their own, offline, the cache
    and the copies empty: {test id: (outcome, message)}, outcome passed,
    skipped, failed or error."""
    empty = tmp_path / "empty"
    (empty / "cache").mkdir(parents=True)
    (empty / "copies").mkdir()
    (tmp_path / "offline_plugin.py").write_text(PLUGIN % (os.path.join(ROOT, "tools"),
                                                          str(empty / "copies")))
    refuse = "http://127.0.0.1:9"   # the discard port: nothing listens, the connection is refused
    run_env = {k: v for k, v in os.environ.items()
               if not k.startswith(("VORTEX_PICO", "PYTEST_", "XDG_CACHE")) and k.lower() not in (
                   "http_proxy", "https_proxy", "all_proxy", "no_proxy")}
    run_env.update(XDG_CACHE_HOME=str(empty / "cache"), http_proxy=refuse, https_proxy=refuse,
                   HTTP_PROXY=refuse, HTTPS_PROXY=refuse,
                   PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    run_env.update(env or {})
    report = tmp_path / "report.xml"
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "offline_plugin", "-p", "no:xdist",
                        "-p", "no:cacheprovider", "--junitxml", str(report)] + device_test_files(),
                       cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=600)
    assert report.exists(), p.stdout[-3000:] + p.stderr[-3000:]
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = "%s::%s" % (case.get("classname"), case.get("name"))
        outcome, message = "passed", ""
        for kind in ("skipped", "failure", "error"):
            found = case.find(kind)
            if found is not None:
                outcome = {"failure": "failed"}.get(kind, kind)
                message = found.get("message") or ""
        out[name] = (outcome, message)
    assert out, p.stdout[-3000:]
    return out


def test_the_device_tests_are_found():
    files = device_test_files()
    for name in ("test_device.py", "test_device_build.py", "test_device_circuitpython.py",
                 "test_uf2.py", "test_web_device.py"):
        assert os.path.join("tests", name) in files, files


def test_with_no_image_and_no_network_every_device_test_skips_saying_what_to_download(tmp_path):
    results = run_device_tests(tmp_path)
    bad = {k: v for k, v in results.items() if v[0] not in ("passed", "skipped")}
    assert not bad, bad
    skipped = {k: v[1] for k, v in results.items() if v[0] == "skipped"}
    if not shutil.which("node"):
        pytest.skip("no Node here: the device tests skip for that first (%d skipped)" % len(skipped))
    # Every device file has tests that skip, each for the image it lacks:
    # the one line says where to get it and where to save it.
    files = {k.rpartition("::")[0].rpartition(".")[2] for k in skipped}
    assert {"test_device", "test_device_build", "test_device_circuitpython", "test_uf2",
            "test_device_game", "test_device_buzzer"} <= files, sorted(files)
    for name, why in skipped.items():
        if "Playwright" in why or "chromium" in why:
            continue
        assert "none could be fetched" in why and "download" in why and "\n" not in why, (name, why)
        assert os.path.join(str(tmp_path), "empty", "cache", "vortex") in why, (name, why)


def test_with_an_image_here_but_refused_every_device_test_fails_saying_why(tmp_path):
    if not shutil.which("node") or not os.path.isdir(os.path.join(ROOT, "tools", "pico", "node_modules",
                                                                   "rp2040js")):
        pytest.skip("no Node or rp2040js here: the device tests skip for that before any image")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "rom.bin").write_bytes(bytes(16384))       # the boot ROM's size, not its hash
    (bad / "mp.uf2").write_bytes(b"not a uf2")
    (bad / "cp.uf2").write_bytes(b"not a uf2")
    results = run_device_tests(tmp_path, {"VORTEX_PICO_BOOTROM": str(bad / "rom.bin"),
                                          "VORTEX_PICO_UF2": str(bad / "mp.uf2"),
                                          "VORTEX_PICO_CP_UF2": str(bad / "cp.uf2")})
    # (a test failed in its setup is an "error" in pytest's report)
    failed = {k: v[1] for k, v in results.items() if v[0] in ("failed", "error")}
    skipped = {k: v[1] for k, v in results.items() if v[0] == "skipped"}
    # Whatever boots the Pico or builds on its image fails, saying which
    # file and why, in a line; nothing skips for want of an image.
    files = {k.rpartition("::")[0].rpartition(".")[2] for k in failed}
    assert {"test_device", "test_device_build", "test_device_circuitpython", "test_uf2",
            "test_device_game", "test_device_buzzer"} <= files, sorted(files)
    for name, why in failed.items():
        assert "VORTEX_PICO_" in why and str(bad) in why, (name, why)
    for name, why in skipped.items():
        assert "Playwright" in why or "chromium" in why, (name, why)
