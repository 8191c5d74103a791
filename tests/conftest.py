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
                 "test_device_circuitpython.py", "test_device_qstr.py", "test_device_buzzer.py",
                 "test_device.py", "test_web_device.py", "test_web_board_device.py", "test_web_board.py")


def pytest_configure(config):
    config.addinivalue_line("markers", "pico: the test boots the emulated Pico (tests/needs_pico.py)")
    config.addinivalue_line("markers", "refused(reason): the test's device image is here but refused: "
                            "it fails, saying why (tests/needs_pico.py)")


def pytest_collection_modifyitems(items):
    def rank(item):
        name = os.path.basename(str(item.path))
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)  # stable: each file's own order kept
    for item in items:
        if "uf2_file" in getattr(item, "fixturenames", ()):
            item.add_marker("pico")


def pytest_runtest_setup(item):
    refused = item.get_closest_marker("refused")
    if refused:
        pytest.fail(refused.kwargs["reason"], pytrace=False)


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
    emulated Pico boots: (its path, MicroPython's UF2). Skipped, saying why,
    where there is none to be had (tests/needs_pico.py)."""
    import build_uf2
    from needs_pico import micropython_image
    micropython = micropython_image()
    return build_uf2.build(micropython, str(tmp_path_factory.mktemp("uf2"))), micropython


# The project's broker configuration, from the tree these tests are in (make
# mutate runs them in a scratch tree of their own: tools/mutate.py).
MOSQUITTO_CONF = os.path.join(ROOT, "tools", "mosquitto", "local.conf")
_USERS = [0]


@pytest.fixture(autouse=True)
def user_folders(monkeypatch, tmp_path_factory):
    """Each test's own user folders ($XDG_CONFIG_HOME, $XDG_CACHE_HOME, made
    when first written): what the simulator keeps for its user (the player
    id, the rooms' last states) never comes from or goes to the real ones,
    nor from one test to the next; the processes a test starts inherit them."""
    _USERS[0] += 1
    base = tmp_path_factory.getbasetemp() / "users" / str(_USERS[0])
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base / "cache"))


@pytest.fixture
def mosquitto(tmp_path):
    """Debian's mosquitto on a free loopback port with the project's
    configuration (tools/mosquitto/local.conf), its persistence in a
    temporary folder; skips, saying why, where there is none."""
    from host_sim.online.broker import Mosquitto, mosquitto_missing
    why = mosquitto_missing()
    if why:
        pytest.skip(why)
    with Mosquitto(str(tmp_path / "broker"), config=MOSQUITTO_CONF) as broker:
        yield broker
