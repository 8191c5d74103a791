"""KiCad 6's pcbnew in the test process itself, where it can be.

Debian ships pcbnew as a module of its python3 (/usr/lib/python3/dist-
packages: pcbnew.py and _pcbnew, built for that Python's version). .venv's
Python takes it when it is the same version, as when `make test` makes .venv
from Debian's python3: only those two modules are loaded from there, not the
rest of Debian's packages. Where it cannot be, the tests that need it skip,
saying why; tests/test_pcb.py runs its checks under Debian's python3 instead.
Checks run in this process are seen by `make mutate` (mutmut counts only the
tests that reach a function in its own process)."""
import glob
import importlib.machinery
import importlib.util
import os
import sys

import pytest

from mpy import ROOT

DIST = "/usr/lib/python3/dist-packages"
PCB_CODE = os.path.join(ROOT, "hardware", "boardgen", "pcb")
FOOTPRINTS = "/usr/share/kicad/footprints"


def _load():
    """pcbnew, or why not (a line)."""
    if "pcbnew" in sys.modules:
        return sys.modules["pcbnew"], None
    so = glob.glob(os.path.join(DIST, "_pcbnew*.so"))
    if not so or not os.path.isfile(os.path.join(DIST, "pcbnew.py")):
        return None, "no KiCad pcbnew (apt-get install kicad kicad-footprints; make test does as root)"
    if not any(so[0].endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        return None, "KiCad's pcbnew is built for another Python than this one (%s): %s" % (
            sys.version.split()[0], os.path.basename(so[0]))
    if not os.path.isdir(FOOTPRINTS):
        return None, "KiCad's footprints are not installed (apt-get install kicad-footprints)"
    for name, path in (("_pcbnew", so[0]), ("pcbnew", os.path.join(DIST, "pcbnew.py"))):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except ImportError as e:
            del sys.modules[name]
            return None, "KiCad's pcbnew does not load here: %s" % e
    return sys.modules["pcbnew"], None


pcbnew, MISSING = _load()
if pcbnew is not None:  # the PCB code's own imports, as tools/pcb.py sets them (after the rest)
    for folder in (PCB_CODE, os.path.dirname(PCB_CODE)):
        if folder not in sys.path:
            sys.path.append(folder)
needs_kicad = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
