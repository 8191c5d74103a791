"""The `>>>` examples of the docs and of the firmware and host_sim docstrings
run as tests, so that every example a reader copies works.

Modules are found by their text, not imported blindly: only a file that
holds an example is imported, so the MicroPython-only files (firmware/main.py,
vortex/hal/*, which import `machine`) are never collected here.
"""
import doctest
import importlib
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules_with_examples():
    out = []
    for top, package in (("firmware", ""), (".", "host_sim")):
        for folder, _, files in os.walk(os.path.join(ROOT, top, package)):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(".py"):
                    with open(path) as f:
                        if ">>>" in f.read():
                            rel = os.path.relpath(path, os.path.join(ROOT, top))
                            out.append(rel[:-3].replace(os.sep, ".").replace(".__init__", ""))
    return sorted(out)


MODULES = modules_with_examples()
DOCS = sorted(n for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))


def test_the_engine_api_has_examples():
    for module in ("vortex.engine", "vortex.engine.position", "vortex.engine.notation",
                   "vortex.engine.play", "vortex.engine.movegen", "vortex.engine.perft"):
        assert module in MODULES, module


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted and not result.failed


@pytest.mark.parametrize("name", DOCS)
def test_doc_examples(name):
    result = doctest.testfile(os.path.join(ROOT, "docs", name), module_relative=False,
                              optionflags=FLAGS)
    assert not result.failed
