"""Fixtures shared by the test modules."""
import os
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The firmware, the virtual board and the dual-run tests compiled by
    mpy-cross, with native code for this machine: as the board runs them,
    for the unix port. Built once a session."""
    out = str(tmp_path_factory.mktemp("mpy"))
    build_mpy.build(out, with_tests=True, arch="host")
    return out
