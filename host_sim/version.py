"""The project's version: one string everywhere, from git at build time.

The firmware has it (main.py prints it at boot, the link's `hello` answers
with it), and so do `make uf2`'s file name, `make flash`, the simulator's
page, `python3 -m host_sim --version` and the installed `vortex` command.

    git describe --tags --always --dirty --match 'v[0-9]*'   the version
    v0.2.0                        0.2.0                a release: its tag's commit
    v0.2.0-3-g1a2b3c4             0.2.0+3.g1a2b3c4     3 commits after that release
    1a2b3c4 (no release tag yet)  0.1.0+g1a2b3c4       pyproject.toml's version, then the commit
    ...-dirty                     ....dirty            the checkout had uncommitted changes
    no git (a source archive)     0.1.0+unknown

Whatever follows a "+" says the build is not the release itself (PEP 440's
local version). A release is a commit that sets pyproject.toml's version and
CHANGELOG.md's heading, tagged vX.Y.Z.

A build writes the version into the firmware package as vortex/version.py
(module_text): tools/build_mpy.py for `make flash` and `make uf2`, setup.py
for `pip install .`. The committed vortex/version.py says "dev": firmware run
from source. Standard library only: `make play` needs nothing else.
"""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESCRIBE = ["git", "describe", "--tags", "--always", "--dirty", "--match", "v[0-9]*"]
_RELEASE = re.compile(r"v(\d+(?:\.\d+)*\S*?)(?:-(\d+)-g([0-9a-f]+))?(-dirty)?")
_COMMIT = re.compile(r"([0-9a-f]{4,})(-dirty)?")


def from_description(described, project_version):
    """The version for `git describe`'s answer (None: no git there)."""
    if described is None:
        return project_version + "+unknown"
    m = _RELEASE.fullmatch(described)
    if m:
        base, n, commit, dirty = m.groups()
        local = ([n, "g" + commit] if n else []) + (["dirty"] if dirty else [])
    else:
        m = _COMMIT.fullmatch(described)
        if not m:
            raise ValueError("git describe said %r" % described)
        base, local = project_version, ["g" + m.group(1)] + (["dirty"] if m.group(2) else [])
    return base + ("+" + ".".join(local) if local else "")


def describe(root):
    """git describe's answer for the checkout at root; None without git or a repository."""
    try:
        r = subprocess.run(DESCRIBE, cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def project_version(root):
    """[project] version of root/pyproject.toml."""
    import tomllib
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["version"]


def of_checkout(root=ROOT):
    return from_description(describe(root), project_version(root))


def current():
    """This program's version: a checkout's from git, an installed one's as its build wrote it."""
    if os.path.isfile(os.path.join(ROOT, "pyproject.toml")):
        return of_checkout(ROOT)
    from vortex.version import VERSION
    return VERSION


def module_text(version):
    """vortex/version.py as a build writes it."""
    return ('"""The firmware\'s version, written by the build from git (host_sim/version.py)."""\n'
            "VERSION = %r\n" % version)
