"""The project's version (host_sim/version.py): git describe's answers made
into versions, the checkout's own, and the firmware module a build writes."""
import os
import re
import subprocess
import sys

import pytest

from mpy import ROOT, micropython
from host_sim import version

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


@pytest.mark.parametrize("described, want", [
    ("v0.2.0", "0.2.0"),                                  # a release
    ("v0.2.0-dirty", "0.2.0+dirty"),
    ("v0.2.0-3-g1a2b3c4", "0.2.0+3.g1a2b3c4"),            # commits after it
    ("v0.2.0-3-g1a2b3c4-dirty", "0.2.0+3.g1a2b3c4.dirty"),
    ("v1.0.0rc1-12-gdeadbeef", "1.0.0rc1+12.gdeadbeef"),
    ("1a2b3c4", "0.1.0+g1a2b3c4"),                        # no release tag: pyproject's version
    ("1a2b3c4-dirty", "0.1.0+g1a2b3c4.dirty"),
    (None, "0.1.0+unknown"),                              # no git
])
def test_git_descriptions_become_versions(described, want):
    assert version.from_description(described, "0.1.0") == want


def test_an_answer_that_is_not_a_description_is_refused():
    with pytest.raises(ValueError, match="git describe said"):
        version.from_description("fatal: something", "0.1.0")


def test_the_checkout_is_versioned_from_git_and_pyproject():
    def git(*args):
        r = subprocess.run(["git"] + list(args), cwd=ROOT, capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    v = version.current()
    tag = git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*")
    if tag:
        assert v.startswith(tag[1:]), (v, tag)
    else:  # no release yet: pyproject.toml's version and the commit
        head = git("rev-parse", "--short", "HEAD")
        assert re.fullmatch(r"%s\+g%s(\.dirty)?" % (re.escape(version.project_version(ROOT)), head),
                            v), (v, head)
    assert " " not in v and v.isprintable()  # one word: the link's hello carries it


def test_a_build_writes_the_version_into_the_firmware(tmp_path):
    build_mpy.build(str(tmp_path), release="0.3.0+g1a2b3c4")
    firmware = tmp_path / "firmware"
    assert not (firmware / "vortex" / "version.py").exists()  # it would shadow the .mpy
    out = subprocess.run([micropython(), "-c", "from vortex.version import VERSION; print(VERSION)"],
                         cwd=firmware, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["0.3.0+g1a2b3c4"], out.stderr


def test_source_says_dev_and_the_generated_module_reads_back():
    from vortex.version import VERSION
    assert VERSION == "dev"
    space = {}
    exec(version.module_text("0.2.0+3.g1a2b3c4"), space)
    assert space["VERSION"] == "0.2.0+3.g1a2b3c4"


def test_the_command_line_prints_it():
    p = subprocess.run([sys.executable, "-m", "host_sim", "--version"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (0, version.current() + "\n", "")
