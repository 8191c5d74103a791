"""Fixtures shared by the test modules."""
import os
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

# The emulated Pico's files, longest first (docs/device.md has their times):
# collected first, so that `make test`'s workers (pytest-xdist, a file each
# at a time) start on them and the short files fill in around them.
LONGEST_FIRST = ("test_device_cp_game.py", "test_device_build.py", "test_device_game.py",
                 "test_device_circuitpython.py", "test_device_buzzer.py", "test_device.py",
                 "test_web_device.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        name = os.path.basename(str(item.path))
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)  # stable: each file's own order kept


@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """The firmware, the virtual board and the dual-run tests compiled by
    mpy-cross, with native code for this machine: as the board runs them,
    for the unix port. Built once a session."""
    out = str(tmp_path_factory.mktemp("mpy"))
    build_mpy.build(out, with_tests=True, arch="host")
    return out


@pytest.fixture(scope="session")
def uf2_file(tmp_path_factory):
    """make uf2's file, built once a session from the MicroPython UF2 the
    emulated Pico boots: (its path, MicroPython's UF2)."""
    import build_uf2
    micropython = build_uf2.default_micropython()
    if not os.path.isfile(micropython):
        pytest.skip("no MicroPython UF2 at %s" % micropython)
    return build_uf2.build(micropython, str(tmp_path_factory.mktemp("uf2"))), micropython


@pytest.fixture
def mosquitto(tmp_path):
    """Debian's mosquitto on a free loopback port with the project's
    configuration (tools/mosquitto/local.conf), its persistence in a
    temporary folder; skips, saying why, where there is none."""
    from host_sim.online.broker import Mosquitto, mosquitto_missing
    why = mosquitto_missing()
    if why:
        pytest.skip(why)
    with Mosquitto(str(tmp_path / "broker")) as broker:
        yield broker
