"""Every command a person types, fed bad input: one line on stderr and a
non-zero exit, never a traceback; --help prints help and does nothing else;
Ctrl-C ends quietly. Run as the user runs them: subprocesses."""
import os
import re
import signal
import subprocess
import sys

import pytest

from mpy import ROOT, micropython

PY = [sys.executable]
SIM = PY + ["-m", "host_sim"]
BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
HUGE = "99999999999999999999"
NOT_A_SAVE = os.path.join(ROOT, "README.md")  # any file of someone else's

# (command, exit code, words the one line of stderr holds)
BAD = [
    (SIM, 2, "required: COMMAND"),
    (SIM + ["bogus"], 2, "invalid choice: 'bogus'"),
    (SIM + [""], 2, "invalid choice: ''"),
    (SIM + ["legal"], 2, "required: position"),
    (SIM + ["legal", ""], 2, "position"),
    (SIM + ["legal", "ñ"], 2, "position"),
    (SIM + ["legal", BATTLE, "extra"], 2, "unrecognized arguments: extra"),
    (SIM + ["perft", "x", HUGE], 2, "position"),
    (SIM + ["perft", BATTLE, HUGE], 2, "depth: %s is out of range 0..5" % HUGE),
    (SIM + ["perft", BATTLE, "-1"], 2, "depth"),
    (SIM + ["perft", BATTLE, "abc"], 2, "depth: 'abc' is not a whole number"),
    (SIM + ["perft", BATTLE, ""], 2, "depth"),
    (SIM + ["perft", BATTLE, "2", "--fast"], 2, "unrecognized arguments: --fast"),
    (SIM + ["apply", BATTLE, "Z@d4"], 1, "action 1:"),
    (SIM + ["apply", BATTLE, "e2e4", "e2e4"], 1, "action 2:"),
    (SIM + ["game", "--light", "robot"], 2, "invalid choice: 'robot'"),
    (SIM + ["game", "--seed", "-1"], 2, "seed"),
    (SIM + ["game", "--seed", HUGE], 2, "seed"),
    (SIM + ["game", "--position", ""], 2, "--position"),
    (SIM + ["game", "--colour"], 2, "unrecognized arguments: --colour"),
    (SIM + ["board", "--ai", "foo"], 2, "invalid choice: 'foo'"),
    (SIM + ["board", "--ai"], 2, "expected one argument"),
    (SIM + ["board", "--clock", "inf"], 2, "clock minutes: inf is out of range"),
    (SIM + ["board", "--clock", "nan"], 2, "clock minutes"),
    (SIM + ["board", "--clock", "-5"], 2, "clock minutes"),
    (SIM + ["board", "--clock", "99999999999999"], 2, "clock minutes"),
    (SIM + ["board", "--clock", "5+inf"], 2, "clock increment"),
    (SIM + ["board", "--clock", ""], 2, "clock minutes"),
    (SIM + ["board", "--clock", "ñ"], 2, "clock minutes"),
    (SIM + ["board", "--position", "ñ"], 2, "--position"),
    (SIM + ["board", "--save", ""], 2, "save file: empty"),
    (SIM + ["board", "--save", "/no/such/folder/game.bin"], 2, "no folder /no/such/folder"),
    (SIM + ["board", "--save", ROOT], 2, "is a folder"),
    (SIM + ["board", "--save", NOT_A_SAVE], 2, "is not a save of this board"),
    (SIM + ["board", "--unknown"], 2, "unrecognized arguments: --unknown"),
    (SIM + ["board", "--supply", "5a"], 2, "argument --supply: invalid choice: '5a'"),
    (PY + ["tools/deploy.py", "--port"], 2, "--port: expected one argument"),
    (PY + ["tools/deploy.py", "--port", ""], 2, "not a serial port name"),
    (PY + ["tools/deploy.py", "--port", "/dev/ttyÄCM0"], 2, "not a serial port name"),
    (PY + ["tools/deploy.py", "--port", "a b"], 2, "not a serial port name"),
    (PY + ["tools/deploy.py", "--dryrun"], 2, "unrecognized arguments: --dryrun"),
    (PY + ["tools/deploy.py", "--runtime", "java"], 2, "invalid choice: 'java'"),
    (PY + ["tools/deploy.py", "--drive", "/media/CIRCUITPY"], 2, "--drive is for --runtime circuitpython"),
    (PY + ["tools/deploy.py", "--runtime", "circuitpython", "--drive", "/no/such"], 1,
     "no folder /no/such"),
    (SIM + ["write-tag"], 2, "required: terrain"),
    (SIM + ["write-tag", "--serial", "-1", "F"], 2, "serial: -1 is out of range"),
    (SIM + ["write-tag", "--serial", HUGE, "F"], 2, "serial"),
    (SIM + ["write-tag", "--serial", "", "F"], 2, "serial"),
    (SIM + ["write-tag", "lava"], 2, "terrain: water, fire, earth, air"),
    (SIM + ["write-tag", ""], 2, "terrain"),
    (SIM + ["write-tag", "ñ"], 2, "terrain"),
    (SIM + ["write-tag", "F", "--cell", "z9"], 2, "cell: a1 .. h8"),
    (SIM + ["write-tag", "F", "--port", "ñ"], 2, "not a serial port name"),
    (SIM + ["write-tag", "A", "--write", "--port", "/dev/no-such-port"], 1,
     "failed to access /dev/no-such-port"),
    (PY + ["tools/probe_rank.py", "--ranks", "0"], 2, "ranks: numbers 1-8 separated by commas"),
    (PY + ["tools/probe_rank.py", "--ranks", "1,1"], 2, "each once"),
    (PY + ["tools/probe_rank.py", "--reads", "x"], 2, "reads: 'x' is not a whole number"),
    (PY + ["tools/probe_rank.py", "--port", "ñ"], 2, "not a serial port name"),
    (PY + ["tools/probe_rank.py", "--port", "/dev/no-such-port"], 1, "probe_rank:"),
    (SIM + ["play", "--version"], 2, "unrecognized arguments: --version"),
    (SIM + ["play", "--device", "--no-browser", "--save", os.path.join(ROOT, "no-such-save.bin")],
     1, "--save is the simulator's: the emulated Pico saves in its own flash"),
    (SIM + ["write-tag", "F", "--write", "--cell"], 2, "--cell: expected one argument"),
    (PY + ["tools/build_uf2.py", "--micropython", ""], 2, "micropython: empty"),
    (PY + ["tools/build_uf2.py", "--micropython", "/no/such.uf2"], 1,
     "no MicroPython UF2 at /no/such.uf2: download RPI_PICO-v1.28.0.uf2"),
    (PY + ["tools/build_uf2.py", "--micropython", "README.md"], 1, "not a UF2"),
    (PY + ["tools/build_uf2.py", "--out"], 2, "--out: expected one argument"),
    (PY + ["tools/build_uf2.py", "--uf2", "x"], 2, "unrecognized arguments: --uf2 x"),
    (PY + ["tools/gen_tables.py", "--write"], 2, "unrecognized arguments: --write"),
    (PY + ["tools/build_mpy.py", ""], 2, "out: empty"),
    (PY + ["tools/build_mpy.py", "--tests"], 2, "unrecognized arguments: --tests"),
    (PY + ["tools/bench.py", "--quick"], 2, "unrecognized arguments: --quick"),
    ([micropython(), "-m", "vortex.engine.perft", BATTLE, HUGE], 2, "perft: usage:"),
    ([micropython(), "-m", "vortex.engine.perft", "x", "2"], 1, "perft: error: position"),
    ([micropython(), "tools/bench_mpy.py", "nonsense"], 2, "usage: bench_mpy.py"),
    ([micropython(), "tools/bench_mpy.py", "perft", "x", "y", "1", "2", "3"], 2, "bench_mpy.py: error"),
    ([micropython(), "tools/bench_link_mpy.py", "nonsense", "3"], 2, "usage: bench_link_mpy.py"),
    ([micropython(), "tools/bench_link_mpy.py", "idle", "x"], 2, "bench_link_mpy.py: error"),
    ([micropython(), "tools/bench_app_mpy.py", "nonsense"], 2, "usage: bench_app_mpy"),
    ([micropython(), "tools/bench_ai.py", "9"], 2, "usage: bench_ai.py"),
    (PY + ["tools/bench_ai.py", "x"], 2, "usage: bench_ai.py"),
    (PY + ["tools/match.py", "--games", "0"], 2, "games: 0 is out of range"),
    (PY + ["tools/match.py", "--seed", HUGE], 2, "seed:"),
    (PY + ["tools/match.py", "--pairs", "x:y"], 2, "unknown player 'x'"),
    (PY + ["tools/match.py", "--engine", "pypy"], 2, "invalid choice: 'pypy'"),
    ([micropython(), "tools/match_players.py", "L1"], 2, "usage: match_players.py"),
    ([micropython(), "tools/match_players.py", "L1", "L2", "x", "1"], 2, "match_players.py: error"),
    (PY + ["tools/match_players.py", "L1", "L9", "1", "1"], 2, "unknown player 'L9'"),
    (PY + ["tools/bench_device.py", "--only", "foo"], 2, "invalid choice: 'foo'"),
    (PY + ["tools/pico"], 2, "give a script or -c CODE"),
    (PY + ["tools/pico", "--runtime", "cpython", "-c", "1"], 2, "invalid choice: 'cpython'"),
    (PY + ["tools/pico", "--timeout", "-1", "-c", "1"], 2, "timeout: -1 is out of range"),
    (PY + ["tools/pico", "/no/such/script.py"], 2, "cannot read /no/such/script.py"),
    (PY + ["tools/hardware.py"], 2, "required: COMMAND"),
    (PY + ["tools/hardware.py", "bogus"], 2, "invalid choice: 'bogus'"),
    (PY + ["tools/hardware.py", "sweep", "--mcu-ms", "x"], 2, "mcu ms: 'x' is not a number"),
    (PY + ["tools/hardware.py", "sweep", "--mcu-ms", "-1"], 2, "mcu ms: -1 is out of range"),
    (PY + ["tools/hardware.py", "build", "--out", ""], 2, "out: empty"),
    (PY + ["tools/hardware.py", "build", "--out", "/no/such/folder/x"], 2, "out: no folder /no/such/folder"),
        (SIM + ["play", "--port", "99999"], 2, "port: 99999 is out of range"),
    (SIM + ["play", "--ai", "purple"], 2, "invalid choice: 'purple'"),
    (SIM + ["play", "--supply", ""], 2, "argument --supply: invalid choice: ''"),
    (SIM + ["link"], 2, "required: --port"),
    (SIM + ["link", "--port", "x", "--listen", "abc"], 2, "is not [HOST:]PORT"),
]


def run(argv, input=""):
    env = dict(os.environ, NO_COLOR="1", MICROPYPATH="firmware")  # for micropython -m vortex...
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          input=input, env=env)


@pytest.mark.parametrize("argv, code, words", BAD, ids=[" ".join(a[1:])[:60] for a, _, _ in BAD])
def test_a_bad_argument_is_one_line_and_an_exit_code(argv, code, words):
    before = os.path.getmtime(NOT_A_SAVE)
    p = run(argv)
    assert p.returncode == code, (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0], p.stderr
    assert "Traceback" not in p.stdout + p.stderr
    assert os.path.getmtime(NOT_A_SAVE) == before  # nothing written over


HELP = [SIM + [c] for c in ("legal", "perft", "apply", "game", "board", "link", "play",
                             "write-tag")] + [SIM] + [
    PY + ["tools/" + name] for name in ("deploy.py", "build_uf2.py", "gen_tables.py", "build_mpy.py",
                                        "bench.py", "bench_ai.py", "bench_device.py", "match.py",
                                        "match_players.py", "pico", "hardware.py", "probe_rank.py")]


@pytest.mark.parametrize("argv", HELP, ids=[" ".join(a[1:]) for a in HELP])
def test_help_only_prints_help(argv):
    tables = os.path.join(ROOT, "firmware", "vortex", "engine", "tables.py")
    before = os.path.getmtime(tables)
    p = run(argv + ["--help"])
    assert p.returncode == 0 and p.stdout.startswith("usage: ") and not p.stderr, p.stderr
    assert not re.search(r"compiled \d+ |Benchmark of", p.stdout)  # nothing built, nothing run
    assert os.path.getmtime(tables) == before  # gen_tables wrote nothing


def test_every_make_target_is_listed_by_make_help():
    p = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    with open(os.path.join(ROOT, "Makefile")) as f:
        phony = next(line for line in f if line.startswith(".PHONY:")).split()[1:]
    listed = [line.split()[1] for line in p.stdout.splitlines()]
    assert sorted(listed) == sorted(phony) and "deploy" not in listed


def _interruptible():
    # Ctrl-C as at a terminal, even when the tests run in a background job
    # (whose children inherit SIGINT ignored, and would wait for ever).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("command", [["board"], ["game", "--light", "human"]])
def test_ctrl_c_ends_quietly(command):
    p = subprocess.Popen(SIM + command + ["--no-color"], cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=_interruptible)
    p.stdout.readline()  # started: waiting for a command
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err, err


# Typed into the board simulator: (line, the answer it gets)
TYPED = [
    ("lay Q a1", "? lay: the terrain is W, F, E or A (or ? for a tag not ours), not 'Q'"),
    ("lay W", "? usage: lay TERRAIN CELL"),
    ("lay W z9", "? cell: 'z9' is not a cell a1..h8"),
    ("lay W e1", "? e1 already has a tile"),
    ("wait abc", "? wait: milliseconds, 0..60000, not 'abc'"),
    ("wait 99999999999999", "? wait: milliseconds, 0..60000, not '99999999999999'"),
    ("wait -5", "? wait: milliseconds, 0..60000, not '-5'"),
    ("carry", "? nothing to carry: the board agrees with the game and asks for no action"),
    ("lift", "? usage: lift CELL"),
    ("lift e4", "? no piece on e4 to lift"),
    ("drop", "? no piece in hand"),
    ("from-tray T e4", "? no Light Traveller in the tray (it is empty)"),
    ("from-tray ñ e4", "? 'ñ' is not a piece: T S H (Light) or t s h (Dark)"),
    ("press x", "? press: a, b or ab, not 'x'"),
    ("slide e2", "? usage: slide CELL CELL [CELL...]"),
    ("fly e2 e4", "? unknown command 'fly' (type help)"),
    ("ñ", "? action: 'ñ' is not a placement"),
    ("W@z9", "? action:"),
]


def test_typed_commands_answer_in_words_and_lose_nothing():
    lines = [line for line, _ in TYPED] + ["e2e4"]
    p = run(SIM + ["board", "--no-color", "--position", BATTLE],
            input="".join(line + "\n" for line in lines))
    assert p.returncode == 0 and not p.stderr, p.stderr
    for line, answer in TYPED:
        after = p.stdout.split("> %s\n" % line, 1)[1]
        assert after.startswith(answer), (line, after[:200])
    assert "board: played e2e4" in p.stdout  # the game goes on


def test_a_missing_program_is_named_with_the_way_to_get_it():
    from host_sim import cli
    with pytest.raises(cli.Failure, match="mpremote-x not found: `make flash`"):
        cli.program("mpremote-x")


def _asleep(pid, timeout=30):
    # Until the child sleeps for input, as it is when a person presses a key.
    # CPython's input() loses a SIGINT that lands between writing its prompt
    # and entering select() (the flag is set, select() never wakes); a loaded
    # machine's scheduler runs the reader of the prompt in just that gap.
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "S":
                    return
        except OSError:  # no /proc: a person's pause instead
            time.sleep(1)
            return
        time.sleep(0.05)


def test_at_a_terminal_the_simulator_edits_lines_and_ctrl_c_ends_quietly():
    import pty
    import select
    import time
    pid, fd = pty.fork()
    if pid == 0:  # the child: the simulator on the pseudo-terminal
        os.chdir(ROOT)
        _interruptible()
        os.execv(sys.executable, [sys.executable, "-m", "host_sim", "board", "--no-color"])
    seen = b""

    def until(text, timeout=60):
        nonlocal seen
        end = time.monotonic() + timeout
        while text not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:  # the child has gone
                    break
        return text in seen

    assert until(b"> ")
    os.write(fd, b"W@d4\n")
    assert until(b"board: played W@d4")
    os.write(fd, b"lay Q a1\n")
    assert until(b"? lay: the terrain is W, F, E or A (or ? for a tag not ours), not 'Q'\r\n> ")
    _asleep(pid)
    os.write(fd, b"\x03")  # Ctrl-C, as the terminal sends it
    until(b"never", timeout=10)  # returns once the child has gone
    for _ in range(600):  # a child that did not end is killed, not waited for for ever
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130 and b"Traceback" not in seen, seen[-300:]


def test_make_play_needs_only_the_standard_library():
    # `make play` runs the system python3: no pyserial, Playwright or
    # matplotlib there. Each is blocked here as if not installed.
    block = ("import sys, runpy\n"
             "for m in ('serial', 'playwright', 'matplotlib', 'tqdm', 'littlefs'):\n"
             "    sys.modules[m] = None\n"
             "sys.argv = ['host_sim'] + sys.argv[1:]\n"
             "runpy.run_module('host_sim', run_name='__main__')\n")
    ok = subprocess.run([sys.executable, "-c", block, "play", "--help"], cwd=ROOT,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "--port" in ok.stdout, ok.stderr
    no = subprocess.run([sys.executable, "-c", block, "link", "--port", "/dev/none"], cwd=ROOT,
                        capture_output=True, text=True, timeout=60)
    assert no.returncode == 1 and no.stderr.count("\n") == 1, no.stderr
    assert "pyserial is not installed" in no.stderr
