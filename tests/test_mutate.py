"""make mutate's plumbing (tools/mutate.py), without running mutmut (a
package's mutants take minutes: docs/testing.md): the scratch tree laid out
as mutmut names modules, the samples, the scores read back."""
import fnmatch
import json
import os
import re
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import mutate  # noqa: E402


def test_every_package_s_sources_and_tests_exist():
    for pkg, (sources, skip, tests) in mutate.PACKAGES.items():
        for s in sources:
            where = os.path.join(ROOT, "firmware", s) if s.startswith("vortex") else os.path.join(ROOT, s)
            assert os.path.exists(where), (pkg, s)
        for t in tests:  # a file, or one test of it (file.py::test_name)
            assert os.path.isfile(os.path.join(ROOT, "tests", t.split("::")[0])), (pkg, t)
        for pattern in skip:
            assert pattern.startswith("src/") and pattern.endswith(".py"), pattern


def test_the_scratch_tree_imports_as_the_tests_do(tmp_path):
    where = mutate.scratch("engine", build=str(tmp_path))
    movegen = os.path.join(where, "src", "vortex", "engine", "movegen.py")
    with open(os.path.join(ROOT, "firmware", "vortex", "engine", "movegen.py")) as f:
        original = f.read().splitlines()
    with open(movegen) as f:
        copied = f.read().splitlines()
    # The emitters' decorators left out, line for line (mutmut skips decorated functions).
    assert len(copied) == len(original) and "@micropython" not in "\n".join(copied)
    assert sum(1 for line in original if "@micropython." in line) > 0
    for a, b in zip(original, copied):
        assert a == b or (mutate.DECORATOR.match(a) and b == "")
    for part in ("src/host_sim/web/static", "tests/conftest.py", "hardware/pins.py", "docs/protocol.md",
                 "tools/mosquitto/local.conf", "tools/mosquitto/acl"):
        assert os.path.exists(os.path.join(where, part)), part
    with open(os.path.join(where, "pyproject.toml")) as f:
        conf = f.read()
    assert 'source_paths = ["src/vortex/engine"]' in conf
    assert '"tests/test_engine_rules.py"' in conf and 'pythonpath = ["src", "hardware"]' in conf


def test_a_sample_takes_about_one_mutant_in_n_of_every_function():
    names = ["vortex.engine.movegen.x_f__mutmut_%d" % i for i in range(1, 201)]
    for n, digits in mutate.SAMPLES.items():
        pattern = "*__mutmut_*" + digits if digits else "*"
        picked = [m for m in names if fnmatch.fnmatchcase(m, pattern)]
        assert len(picked) == 200 // n, (n, len(picked))


def test_scores_are_read_from_mutmut_s_files(tmp_path):
    meta = tmp_path / "mutants" / "src" / "vortex" / "tag.py.meta"
    meta.parent.mkdir(parents=True)
    codes = {"vortex.tag.x_a__mutmut_7": 1, "vortex.tag.x_a__mutmut_17": 0,
             "vortex.tag.x_b__mutmut_7": 33, "vortex.tag.x_b__mutmut_27": 36,
             "vortex.tag.x_b__mutmut_1": None, "vortex.tag.x_b__mutmut_37": 34}
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    got = mutate.results(str(tmp_path), "*__mutmut_*7")
    assert got == {"vortex.tag.x_a__mutmut_7": "killed", "vortex.tag.x_a__mutmut_17": "survived",
                   "vortex.tag.x_b__mutmut_7": "no tests", "vortex.tag.x_b__mutmut_27": "timeout"}
    assert len(mutate.mutants(str(tmp_path))) == 6


def test_an_unknown_package_is_one_line(capsys):
    with pytest.raises(SystemExit):
        mutate.main(["enigne"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "no package enigne" in err and "engine" in err
