"""`pip install .` (and so `pipx install .`): a fresh virtual environment gets
the `vortex` command, the firmware package it runs and the page's files,
working from another folder with nothing of the checkout on its path.

The environment is made without a pip of its own (that alone takes seconds);
the project's pip installs into it (`pip --python`), from the checkout, as
`pip install .` does: an isolated build through setup.py, then the
dependencies."""
import os
import re
import subprocess
import sys
import time
import urllib.request

from mpy import ROOT
from host_sim import version

START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"


def test_pip_install_gives_the_vortex_command(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    p = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q",
                        "--disable-pip-version-check", ROOT],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    vortex = str(venv / "bin" / "vortex")

    def run(*args):
        return subprocess.run([vortex] + list(args), cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, env=env)

    h = run("--help")
    assert h.returncode == 0 and h.stdout.startswith("usage: vortex ") and not h.stderr, h.stderr
    for command in ("play", "board", "game", "legal", "perft", "apply", "link", "write-tag"):
        assert re.search(r"\n    %s\s" % command, h.stdout), command
    legal = run("legal", START)
    assert legal.returncode == 0 and len(legal.stdout.split()) == 256, legal.stderr
    bad = run("legal", "nonsense")
    assert bad.returncode == 2 and bad.stderr.startswith("vortex legal: error: ")
    assert bad.stderr.count("\n") == 1, bad.stderr
    assert run("--version").stdout == version.current() + "\n"  # the build's, from git
    where = subprocess.run([python, "-c", "import vortex.engine, host_sim; print(vortex.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert str(venv) in where.stdout, where.stdout + where.stderr  # not the checkout's

    # The page and its files are served from the installed package.
    server = subprocess.Popen([vortex, "play", "--no-browser"], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stdout.readline()
        url = re.search(r"http://\S+/", line).group(0)
        assert version.current() in line
        for path in ("", "static/app.js", "static/style.css"):
            with urllib.request.urlopen(url + path, timeout=10) as r:
                assert r.status == 200 and r.read()
        with urllib.request.urlopen(url + "api/version", timeout=10) as r:
            assert version.current() in r.read().decode()
    finally:
        server.terminate()
        end = time.monotonic() + 30
        while server.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        server.kill()
        server.wait()
