"""The perft command line (`make bench` and people timing the engine run it):
perft.main(argv) with its output, its exit codes and its one-line errors."""
from vortex.engine.perft import main, MAX_DEPTH

START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"
# The Hearts on striped tiles (test_engine_perft's HAND): Light has 71 actions.
STRIPES = ("WWWWWWWW/WWWWWWWW/FFFFFFFF/FFFFFFFF/EEEEEEEE/EEEEEEEE/AAAAAAAA/AAAAAAAA "
           "4h3/8/8/8/8/8/8/4H3 l 3,4 - 0 64")
USAGE = 'usage: perft "<position>" N [--bulk] [--divide]   (N: 0..%d)' % MAX_DEPTH


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_counts(capsys):
    assert run(capsys, START, "1") == (0, "256\n", "")
    assert run(capsys, STRIPES, "2") == (0, "6422\n", "")
    assert run(capsys, STRIPES, "2", "--bulk") == (0, "6422\n", "")
    assert run(capsys, START, "0") == (0, "1\n", "")


def test_divide_lists_each_action_then_the_total(capsys):
    code, out, err = run(capsys, STRIPES, "2", "--divide")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert len(lines) == 71 + 1 and lines[-1] == "6422"
    assert lines[0] == "e1e3 78"  # the Heart's leap north first (the engine's order), then Dark's 78
    assert sum(int(line.split()[1]) for line in lines[:-1]) == 6422
    bulk = run(capsys, "--bulk", STRIPES, "--divide", "2")
    assert bulk == (0, out, "")  # flags anywhere; counting without playing changes nothing
    assert run(capsys, START, "0", "--divide") == (0, "1\n", "")  # depth 0: no action to list


def test_help(capsys):
    assert run(capsys, "--help") == (0, USAGE + "\n", "")
    assert run(capsys, "-h") == (0, USAGE + "\n", "")


def test_bad_command_lines_get_the_usage(capsys):
    for argv in ([], [START], [START, "1", "2"], [START, "x"], [START, "-1"],
                 [START, str(MAX_DEPTH + 1)], [START, "1", "--fast"]):
        assert run(capsys, *argv) == (2, "", "perft: " + USAGE + "\n"), argv
    assert run(capsys, START, str(MAX_DEPTH), "--nope") == (2, "", "perft: " + USAGE + "\n")


def test_a_bad_position_gets_one_line(capsys):
    code, out, err = run(capsys, "8/8 4h3 l", "1")
    assert (code, out) == (1, "")
    assert err.startswith("perft: error: position: ") and err.count("\n") == 1, err
