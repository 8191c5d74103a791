"""The Python the project claims to need is the one it needs: pyproject's
requires-python, the README's words, the pinned tools' own needs, and every
host-side file's grammar agree (only one CPython is installed here, so the
grammar is checked with ast's feature_version rather than by running it)."""
import ast
import importlib.metadata
import os
import re
import tomllib

import pytest
from packaging.specifiers import SpecifierSet

from mpy import ROOT

with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
    REQUIRES = tomllib.load(f)["project"]["requires-python"]
MINIMUM = tuple(int(n) for n in re.fullmatch(r">=(\d+)\.(\d+)", REQUIRES).groups())
HOST_SIDE = ["host_sim", "tools", "tests", "firmware"]  # firmware runs on CPython too


def host_files():
    for top in HOST_SIDE:
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(folder, name), ROOT)


def test_the_readme_claims_what_pyproject_requires():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    claims = set(re.findall(r"Python (\d+\.\d+) or later", readme))
    assert claims == {"%d.%d" % MINIMUM}, claims


def test_every_pinned_requirement_runs_on_the_minimum():
    with open(os.path.join(ROOT, "requirements-dev.txt")) as f:
        pins = [line.split("==")[0] for line in f if "==" in line and not line.startswith("#")]
    assert pins
    version = "%d.%d" % MINIMUM
    for name in pins:
        needs = importlib.metadata.metadata(name).get("Requires-Python") or ""
        assert version in SpecifierSet(needs), "%s needs Python %s" % (name, needs)


@pytest.mark.parametrize("path", list(host_files()))
def test_every_host_side_file_parses_with_the_minimums_grammar(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        ast.parse(f.read(), filename=path, feature_version=MINIMUM)
