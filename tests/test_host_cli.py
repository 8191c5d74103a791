"""host_sim/cli.py in this process (test_cli runs the commands themselves,
out of mutmut's sight): a bad argument is one line, "prog: error: why (see
--help)", exit 2; each argument type's refusal says what and why, the
value cut short; a command's Failure or OSError is one line and exit 1,
Ctrl-C 130, a closed pipe 0."""
import argparse
import os
import signal
import sys

import pytest

from host_sim import cli


def bad(ap, argv, capsys):
    with pytest.raises(SystemExit) as e:
        ap.parse_args(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def refusal(parse, text):
    with pytest.raises(argparse.ArgumentTypeError) as e:
        parse(text)
    return str(e.value)


def test_a_bad_argument_is_one_line_naming_the_program_and_help(capsys):
    ap = cli.parser("vortex x", "The x command.\n\n  indented, kept")
    ap.add_argument("--depth", type=cli.int_in(0, 6, "depth"))
    assert bad(ap, ["--depth", "seven"], capsys) == (
        "vortex x: error: argument --depth: depth: 'seven' is not a whole number (see --help)\n")
    assert bad(ap, ["--dep", "3"], capsys).startswith("vortex x: error: unrecognized arguments: --dep")
    assert "\n  indented, kept\n" in ap.format_help()  # the docstring as written


def test_whole_numbers_in_range():
    depth = cli.int_in(0, 6, "depth")
    assert (depth("0"), depth(" 6 ")) == (0, 6)
    assert refusal(depth, "7") == "depth: 7 is out of range 0..6"
    assert refusal(depth, "-1") == "depth: -1 is out of range 0..6"
    assert refusal(depth, "x" * 50) == "depth: %r is not a whole number" % ("x" * 40)
    assert refusal(depth, "9" * 50) == "depth: %s is out of range 0..6" % ("9" * 40)


def test_numbers_in_range_and_finite():
    speed = cli.float_in(0.5, 4, "speed")
    assert (speed("0.5"), speed("4")) == (0.5, 4.0)
    for text in ("0.49", "4.01", "nan", "inf", "-inf"):
        assert refusal(speed, text) == "speed: %s is out of range 0.5..4" % text
    assert refusal(speed, "fast" * 20) == "speed: %r is not a number" % ("fast" * 10)
    assert refusal(speed, "1" * 50) == "speed: %s is out of range 0.5..4" % ("1" * 40)


def test_text_printable_and_not_empty():
    name = cli.text("name")
    assert name("Ann Lee") == "Ann Lee"
    for value in ("", "a\tb", "a\x1bb"):
        assert refusal(name, value) == "name: empty or not printable"


def test_serial_port_names():
    every = "".join(sorted(cli.PORT_CHARS))  # each character a port name may have
    for value in ("/dev/ttyACM0", "COM3", "auto", "id:E6614C311B", "a" * 200, every):
        assert cli.port(value) == value
    for value in ("a" * 201, "", "/dev/tty ACM0", "COM3;rm"):
        assert refusal(cli.port, value) == (
            "port: %r is not a serial port name (as /dev/ttyACM0, COM3 or auto)" % value[:40])


def test_a_program_of_the_venv_else_beside_python_else_not_found():
    python = os.path.basename(sys.executable)
    found = cli.program(python, path=False)
    assert os.access(found, os.X_OK) and os.path.basename(found) == python
    assert os.path.dirname(found) in (os.path.join(cli.ROOT, ".venv", "bin"),
                                      os.path.dirname(sys.executable))
    with pytest.raises(cli.Failure) as e:
        cli.program("no-such-program-here", path=False)
    assert str(e.value) == ("no-such-program-here not found: `make flash` (or `make test`) "
                            "sets up .venv with it")


def test_the_project_s_own_program_first(monkeypatch, tmp_path):
    python = os.path.basename(sys.executable)
    own = tmp_path / ".venv" / "bin" / python
    own.parent.mkdir(parents=True)
    own.write_text("#!/bin/sh\n")
    own.chmod(0o755)
    monkeypatch.setattr(cli, "ROOT", str(tmp_path))
    assert cli.program(python) == str(own)


def test_a_program_only_on_the_path_unless_told_not_to_look_there(monkeypatch, tmp_path):
    tool = tmp_path / "path" / "only-on-path"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    monkeypatch.setattr(cli, "ROOT", str(tmp_path))
    monkeypatch.setenv("PATH", str(tool.parent))
    assert cli.program("only-on-path") == str(tool)
    with pytest.raises(cli.Failure):
        cli.program("only-on-path", path=False)


def test_a_position_argument_is_checked_as_notation(capsys):
    ap = cli.parser("vortex x", epilog="positions: docs/notation.md")
    ap.add_argument("--position", type=cli.position)
    start = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"
    assert ap.parse_args(["--position", start]).position.text() == start
    from vortex.engine import Position
    try:
        Position("8/8 l")
        assert False, "a position"
    except ValueError as e:
        why = str(e)
    assert bad(ap, ["--position", "8/8 l"], capsys) == (
        "vortex x: error: argument --position: %s (see --help)\n" % why)
    assert ap.format_help().rstrip().endswith("positions: docs/notation.md")


def ran(main, monkeypatch, argv0="vortex"):
    monkeypatch.setattr(sys, "argv", [argv0, "--from-argv"])
    with pytest.raises(SystemExit) as e:
        cli.run(main)
    return e.value.code


def test_a_command_s_code_and_argv(monkeypatch):
    seen = []
    assert ran(lambda argv: seen.append(argv) or 3, monkeypatch) == 3
    assert seen == [["--from-argv"]]
    with pytest.raises(SystemExit) as e:
        cli.run(lambda argv: len(argv), ["a", "b"])
    assert e.value.code == 2


def test_a_failure_or_an_os_error_is_one_line_and_exit_1(monkeypatch, capsys):
    def fails(argv):
        raise cli.Failure("no board\n  on any port")
    assert ran(fails, monkeypatch) == 1
    assert capsys.readouterr().err == "vortex: error: no board on any port\n"

    def cannot_write(argv):
        raise PermissionError(13, "Permission denied", "/etc/game.pgn")
    assert ran(cannot_write, monkeypatch, "/x/__main__.py") == 1
    assert capsys.readouterr().err == (
        "python3 -m host_sim: error: Permission denied (/etc/game.pgn)\n")

    def no_name(argv):
        raise OSError("the link closed")
    assert ran(no_name, monkeypatch) == 1
    assert capsys.readouterr().err == "vortex: error: the link closed\n"


def test_ctrl_c_ends_quietly_with_130(monkeypatch, capsys):
    handlers = []
    monkeypatch.setattr(signal, "signal", lambda sig, h: handlers.append((sig, h)))

    def interrupted(argv):
        raise KeyboardInterrupt
    assert ran(interrupted, monkeypatch) == 130
    assert capsys.readouterr().err == "\n" and handlers == [(signal.SIGINT, signal.SIG_IGN)]


def test_a_closed_pipe_ends_quietly_with_0(monkeypatch, tmp_path):
    with open(tmp_path / "out", "w") as out:
        monkeypatch.setattr(sys, "stdout", out)

        def piped(argv):
            raise BrokenPipeError
        assert ran(piped, monkeypatch) == 0
        os.write(out.fileno(), b"after the reader left")  # goes nowhere now
    assert (tmp_path / "out").read_bytes() == b""


def test_the_simulator_s_clock_option_minutes_and_increment():
    from host_sim import board_sim
    assert board_sim.clock("5") == (300000, 0)
    assert board_sim.clock("0.1+2.5") == (6000, 2500)
    assert board_sim.clock("%d+%d" % (board_sim.MAX_CLOCK_MIN, board_sim.MAX_INCREMENT_S)) == (
        board_sim.MAX_CLOCK_MIN * 60000, board_sim.MAX_INCREMENT_S * 1000)
    assert refusal(board_sim.clock, "0.05") == (
        "clock minutes: 0.05 is out of range 0.1..%g" % board_sim.MAX_CLOCK_MIN)
    assert refusal(board_sim.clock, "5+x") == "clock increment: 'x' is not a number"
    assert refusal(board_sim.clock, "5+-1") == (
        "clock increment: -1 is out of range 0..%g" % board_sim.MAX_INCREMENT_S)
