"""Mutation testing of the firmware and the simulator with mutmut
(requirements-dev.txt pins it): small bugs put into the code one at a time,
each run against the tests that reach it; a bug no test notices survives.

    make mutate                        every package, a sample of each
    make mutate PKG=engine SAMPLE=1    one package, every mutant
    .venv/bin/python tools/mutate.py engine link --sample 10 --jobs 2

mutmut names a module by its path from where it runs (less a leading
"src/"), and tests here import the firmware as `vortex` (firmware/ on
sys.path): so each package is tested in a scratch tree of its own,
build/mutate/PKG, laid out as mutmut expects: src/vortex (firmware/vortex),
src/host_sim, and the tests, hardware/, docs/ and tools/ they read. There
the firmware's @micropython.native and @micropython.viper lines are left
out: on CPython they return the function unchanged (vortex/native.py), and
mutmut leaves any decorated function alone. A function named *_viper, the
twin of a plain one that only MicroPython runs (engine/play.py's make and
unmake: test_engine_native compares them there), keeps its decorator and
is not mutated.

A sample: mutants whose number ends in the chosen digits (SAMPLE=10: one in
ten, every function's 7th, 17th...; SAMPLE=1: all), so that each function is
sampled. The score is killed / (killed + survived), mutants no test reaches
counted as survived; the survivors are listed, and build/mutate/PKG/score.json
keeps the figures. docs/testing.md has the scores and what survives.
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "mutate")

# Each package: the sources mutated (paths in the scratch tree's src/), the
# ones left alone (glob patterns, mutmut's do_not_mutate), and the tests that
# matter for it: the CPython ones that reach it quickly (the MicroPython,
# emulated Pico and browser runs test the same source more slowly; the
# tests that run the MicroPython port on firmware/ are left out, as the
# scratch tree has no firmware/). Tests that start `python -m host_sim`
# run the mutant there too (PYTHONPATH), but mutmut counts only the tests
# that reach a function in its own process.
PACKAGES = {
    # (the app's and the AI's tests: what reaches shapes.py and setup.py;
    # test_engine_properties takes minutes a mutant)
    "engine": (["vortex/engine"], [], [
        "test_engine_rules.py", "test_engine_bounds.py", "test_engine_bounds_strict.py",
        "test_engine_perft.py", "test_notation.py", "test_record.py", "test_app_tiles.py",
        "test_app_order.py", "test_app_scenarios.py", "test_ai_evaluate.py",
        "test_engine_watch.py", "test_engine_perft_cli.py", "test_engine_texts.py"]),
    # (test_app_ai, _games and _stateful play whole games and searches: minutes a mutant;
    # test_app_ai's two that check the board's own choice of level are quick)
    "app": (["vortex/app"], [], [
        "test_app_ai.py::test_hint_shows_the_best_action_for_the_human",
        "test_app_ai.py::test_after_a_hint_the_ai_plays_at_its_own_level_not_the_hint_s",
        "test_app_ai.py::test_a_board_with_no_room_for_the_search_plays_on_with_the_quick_mover",
        "test_app_advice.py", "test_app_buttons.py", "test_app_clock.py", "test_app_commands.py",
        "test_app_due.py", "test_app_greedy.py", "test_app_idle.py", "test_app_noise.py",
        "test_app_order.py", "test_app_palette.py", "test_app_power.py", "test_app_powercut.py",
        "test_app_read_first.py", "test_app_remote.py", "test_app_render.py", "test_app_scenarios.py",
        "test_app_service.py", "test_app_session.py", "test_app_sounds.py", "test_app_thinking.py",
        "test_app_tiles.py", "test_link.py", "test_app_memory.py"]),
    # port.py: the board's stdio, polled with MicroPython's ipoll (test_link_main).
    "link": (["vortex/link"], ["src/vortex/link/port.py"], [
        "test_link.py", "test_link_edges.py", "test_link_properties.py", "test_link_fuzz.py",
        "test_link_docs.py"]),
    # cp/: CircuitPython's backend, tested against its own fakes; rp2nfc: the
    # RP2040's registers, which only the emulated Pico has.
    "hal": (["vortex/hal"], ["src/vortex/hal/rp2nfc.py"], [
        "test_hal_buzzer.py", "test_hal_cp.py", "test_hal_debounce.py", "test_hal_mfrc522.py",
        "test_hal_nfc_front.py", "test_hal_pixels.py", "test_hal_reed.py", "test_hal_store.py",
        "test_hal_store_lfs.py", "test_hal_tag.py", "test_hal_tiles.py", "test_probe_rank.py",
        "test_hal_cp_parts.py", "test_hal_nfc_edges.py", "test_hal_edges.py",
        "test_hal_tiles_clock.py"]),
    "record": (["vortex/record.py"], [], ["test_record.py", "test_record_properties.py"]),
    "tag": (["vortex/tag.py"], [], ["test_hal_tag.py", "test_hal_mfrc522.py", "test_hal_tiles.py"]),
    # (most of host_sim's own tests run its commands as processes, out of mutmut's sight:
    # test_host_* test the command line and the online bridge in this process)
    "host_sim": (["host_sim"], [], [
        "test_board_sim.py", "test_terminal.py", "test_virtual_tray.py", "test_web_api.py",
        "test_link_serial.py", "test_app_scenarios.py", "test_host_cli.py", "test_host_bridge.py",
        "test_host_web.py"]),
}
# What a sample of 1 in N runs: the mutants whose number ends in these digits.
SAMPLES = {1: "", 2: "[13579]", 5: "[27]", 10: "7"}
# mutmut's exit codes (its stats.py): a bug caught, or not.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 2: "interrupted",
          33: "no tests", 34: "skipped", 35: "suspicious", 36: "timeout", 37: "killed",
          -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", -11: "segfault",
          -9: "segfault"}
CAUGHT = ("killed", "timeout", "segfault")
MISSED = ("survived", "no tests", "suspicious")
DECORATOR = re.compile(r"^\s*@micropython\.(native|viper)\s*$")


def _copy_tree(src, dst, strip=False):
    for path in glob.glob(os.path.join(src, "**", "*.py"), recursive=True):
        out = os.path.join(dst, os.path.relpath(path, src))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(path) as f:
            text = f.read()
        if strip:  # (a *_viper twin of a plain function runs on MicroPython only: kept)
            lines = text.splitlines(True)
            text = "".join("\n" if DECORATOR.match(line) and not
                           re.match(r"def \w+_viper\(", lines[i + 1]) else line
                           for i, line in enumerate(lines))
        with open(out, "w") as f:
            f.write(text)


def scratch(pkg, build=BUILD):
    """build/mutate/PKG afresh: the tree mutmut runs in; its path."""
    sources, skip, tests = PACKAGES[pkg]
    where = os.path.join(build, pkg)
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    _copy_tree(os.path.join(ROOT, "firmware", "vortex"), os.path.join(where, "src", "vortex"), True)
    _copy_tree(os.path.join(ROOT, "host_sim"), os.path.join(where, "src", "host_sim"))
    shutil.copytree(os.path.join(ROOT, "host_sim", "web", "static"),
                    os.path.join(where, "src", "host_sim", "web", "static"))
    _copy_tree(os.path.join(ROOT, "tools"), os.path.join(where, "tools"))
    for name in ("tests", "hardware", "docs", "seeds"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(where, name),
                        ignore=shutil.ignore_patterns("__pycache__", "node_modules", "generated"))
    for name in ("README.md", "CHANGELOG.md"):
        shutil.copy2(os.path.join(ROOT, name), where)

    # mutmut copies the tree into mutants/ bit by bit as it starts: there
    # first, so that its test run that maps tests to functions finds all of
    # it (a path on sys.path that was no directory yet is never looked at
    # again, and a directory read before host_sim/ came is cached without it).
    for name in os.listdir(where):
        src = os.path.join(where, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(where, "mutants", name))
        else:
            os.makedirs(os.path.join(where, "mutants"), exist_ok=True)
            shutil.copy2(src, os.path.join(where, "mutants", name))

    def toml_list(items):
        return "[" + ", ".join('"%s"' % i for i in items) + "]"

    with open(os.path.join(where, "pyproject.toml"), "w") as f:
        f.write("# written by tools/mutate.py\n[tool.mutmut]\n")
        f.write("source_paths = %s\n" % toml_list("src/" + s for s in sources))
        f.write("also_copy = %s\n" % toml_list(["src", "hardware", "docs", "tools", "seeds",
                                                "README.md", "CHANGELOG.md"]))
        f.write("do_not_mutate = %s\n" % toml_list(skip))
        f.write("pytest_add_cli_args = %s\n" % toml_list(["-p", "no:cacheprovider", "-p", "no:xdist",
                                                         "-q", "-x"]))
        f.write("pytest_add_cli_args_test_selection = %s\n" % toml_list("tests/" + t for t in tests))
        f.write("use_git_change_detection = false\n")
        f.write('\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src", "hardware"]\n')
    return where


def mutants(where):
    """{mutant name: mutmut's exit code, None if not run} (its .meta files)."""
    out = {}
    for meta in glob.glob(os.path.join(where, "mutants", "**", "*.meta"), recursive=True):
        with open(meta) as f:
            out.update(json.load(f).get("exit_code_by_key", {}))
    return out


def results(where, pattern):
    """{mutant name: status} of the mutants run whose name matches pattern
    (an fnmatch pattern, as mutmut's; "" for all)."""
    out = {}
    for name, code in mutants(where).items():
        if pattern and not fnmatch.fnmatchcase(name, pattern):
            continue
        if code is None or code == 2 or code == 34:
            continue  # not run (yet), or skipped
        out[name] = STATUS.get(code, "suspicious")
    return out


def run(pkg, sample, jobs):
    where = scratch(pkg)
    pattern = "*__mutmut_*" + SAMPLES[sample] if SAMPLES[sample] else ""
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    if pattern:
        cmd.append(pattern)
    print("== %s: mutmut in %s%s" % (pkg, os.path.relpath(where, ROOT),
                                      ", sample 1 in %d" % sample if sample > 1 else ""), flush=True)
    t0 = time.time()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join(os.path.join(where, "mutants", d) for d in ("src", "hardware")))
    p = subprocess.run(cmd, cwd=where, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    took = time.time() - t0
    found = results(where, pattern)
    if p.returncode != 0 or not found:
        tail = "\n".join(l for l in p.stdout.replace("\r", "\n").splitlines()[-60:] if l.strip())
        print(tail)
        print("mutate: mutmut failed on %s (exit %d)" % (pkg, p.returncode))
        return None
    killed = sum(1 for s in found.values() if s in CAUGHT)
    survivors = sorted(n for n, s in found.items() if s in MISSED)
    total = killed + len(survivors)
    everything = len(mutants(where))
    score = {"package": pkg, "sample": sample, "ran": len(found), "killed": killed,
             "survived": len(survivors), "score": round(100.0 * killed / total, 1) if total else 0.0,
             "seconds": round(took), "survivors": survivors, "generated": everything}
    with open(os.path.join(where, "score.json"), "w") as f:
        json.dump(score, f, indent=1)
    for name in survivors:
        print("  survived: %s (%s)" % (name, found[name]))
    print("%s: %d of %d killed, %.1f %% (%d mutants run, %d s)"
          % (pkg, killed, total, score["score"], len(found), took), flush=True)
    return score


def main(argv=None):
    ap = argparse.ArgumentParser(description="mutation testing with mutmut, a package at a time")
    ap.add_argument("packages", nargs="*", metavar="PKG",
                    help="of: %s (default: all)" % ", ".join(PACKAGES))
    ap.add_argument("--sample", type=int, default=10, choices=sorted(SAMPLES),
                    help="run 1 mutant in N (default 10; 1: all)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants at once (default 2)")
    args = ap.parse_args(argv)
    for pkg in args.packages:
        if pkg not in PACKAGES:
            ap.error("no package %s: %s" % (pkg, ", ".join(PACKAGES)))
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutate: mutmut is not installed: .venv/bin/python -m pip install -r requirements-dev.txt")
        return 2
    scores = [run(p, args.sample, max(1, args.jobs)) for p in args.packages or list(PACKAGES)]
    print()
    print("%-9s %7s %7s %9s %7s %6s" % ("package", "score", "killed", "survived", "run", "time"))
    for s in scores:
        if s is not None:
            print("%-9s %6.1f%% %7d %9d %7d %5ds" % (s["package"], s["score"], s["killed"],
                                                     s["survived"], s["ran"], s["seconds"]))
    return 1 if None in scores else 0


if __name__ == "__main__":
    sys.exit(main())
