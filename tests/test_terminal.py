"""The terminal game, driven as a user drives it: `python3 -m host_sim game`
in a subprocess from the repository root, commands on stdin."""
import os
import subprocess
import sys

from vortex.engine import Position, new_buffer, cell_name, WATER
from vortex.engine.defs import PLACE, VORTEX

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0"
# A built board, all pieces home but an Awakened piece on d4 and a
# Traveller on the Water of c3 (11 moves, one a capture on c7).
BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/3S4/2T5/TTTTTT2/4H3 l 3,4 - 0 70")
# Light's Water Heart on e1 sees Dark's Heart on e8 up an empty file.
HEARTS = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/8/8/8/8/8/8/4H3 l 3,4 - 0 70")


def play(*args, stdin="", color=False):
    """Run the game; return (exit code, stdout, stderr)."""
    argv = [sys.executable, "-m", "host_sim", "game"] + list(args)
    if not color:
        argv.append("--no-color")
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    r = subprocess.run(argv, cwd=ROOT, input=stdin, capture_output=True, text=True,
                       timeout=120, env=env)
    return r.returncode, r.stdout, r.stderr


def positions(out):
    """Every position the `position` command printed, in order."""
    found = []
    for line in out.splitlines():
        text = line.split("> ", 1)[-1].strip()
        if text.count("/") == 14:
            found.append(Position(text))
    return found


def test_random_vs_random_reaches_an_outcome():
    code, out, err = play("--light", "random", "--dark", "random", "--seed", "1")
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[-1].startswith("Game over: ")
    assert "wins" in lines[-1] or "draw" in lines[-1]
    # Every action is printed: the 64 placements first.
    assert "   1. Light W@" in out or "   1. Light F@" in out or "   1. Light E@" in out \
        or "   1. Light A@" in out
    assert "  64. Dark " in out
    # The same seed plays the same game.
    assert play("--light", "random", "--dark", "random", "--seed", "1")[1] == out


def test_other_seeds_also_end():
    for seed in (2, 7):
        code, out, _ = play("--light", "random", "--dark", "random", "--seed", str(seed))
        assert code == 0
        assert out.splitlines()[-1].startswith("Game over: ")


def test_a_legal_placement_is_applied():
    code, out, err = play("--seed", "3", stdin="W@d4\nposition\nquit\n")
    assert code == 0, err
    pos = positions(out)[-1]
    assert pos.tiles[27] == WATER  # d4
    assert pos.ply == 2  # and the random mover answered
    assert "Dark (random) plays " in out


def test_a_bad_action_prints_the_error_and_keeps_the_game():
    code, out, err = play("--seed", "3", stdin="Z@d4\nd2d4\nhello\nW@d4\nposition\n")
    assert code == 0, err
    assert "error: action: 'Z@d4': 'Z' is not a terrain W, F, E or A" in out
    assert "error: illegal action d2d4: the building phase allows only placements" in out
    assert "error: action: 'hello'" in out
    # Nothing was lost: the next good action is played from the same position.
    pos = positions(out)[-1]
    assert pos.tiles[27] == WATER and pos.ply == 2


def test_undo_takes_back_the_pair_against_the_random_mover():
    code, out, _ = play("--seed", "3", stdin="W@d4\nundo\nposition\nundo\n")
    assert code == 0
    assert "undone: W@d4, " in out
    assert positions(out)[-1].text() == START
    assert "error: nothing to undo" in out


def test_undo_takes_back_one_action_between_humans():
    code, out, _ = play("--dark", "human", stdin="W@d4\nF@e5\nundo\nposition\n")
    assert code == 0
    assert "undone: F@e5" in out
    pos = positions(out)[-1]
    assert pos.tiles[27] == WATER and pos.ply == 1 and pos.side == 1


def test_moves_lists_the_destinations_of_a_piece():
    code, out, _ = play("--position", BATTLE, stdin="moves c3\nmoves d4\nmoves e7\nmoves e5\n")
    assert code == 0
    pos = Position(BATTLE)
    buf = new_buffer()
    for cell, name in ((18, "Traveller on c3 (moves by Water)"),
                       (27, "Awakened on d4 (moves by every terrain)")):
        n = pos.destinations(cell, buf)
        assert "%s: %d moves" % (name, n) in out
        listed = next(line.split() for line in out.splitlines()
                      if line.startswith("  ") and cell_name(buf[0] & 63) in line.split()[:1])
        assert sorted(c.rstrip("x") for c in listed) == sorted(cell_name(buf[i] & 63)
                                                               for i in range(n))
    assert "c7x" in out  # the capture is marked
    assert "error: the piece on e7 is Dark's; Light is to act" in out
    assert "error: no piece on e5" in out


def test_legal_lists_every_action():
    code, out, _ = play("--position", BATTLE, stdin="legal\n")
    acts = list(Position(BATTLE).legal_actions())
    assert code == 0
    assert "%d legal actions" % len(acts) in out
    moves = [a for a in acts if a < PLACE]
    vortexes = [a for a in acts if a >= VORTEX]
    swaps = len(acts) - len(moves) - len(vortexes)
    assert "moves (%d):" % len(moves) in out
    assert "swaps (%d):" % swaps in out
    assert "Vortexes (%d):" % len(vortexes) in out


def test_quit_and_end_of_input_leave_cleanly():
    for stdin in ("quit\n", "", "help\n"):
        code, out, err = play(stdin=stdin)
        assert code == 0
        assert err == ""
    assert "moves d2" in play(stdin="help\n")[1]


def test_no_color_has_no_escape_codes_and_color_has_them():
    out = play("--light", "random", "--dark", "random", "--seed", "5")[1]
    assert "\x1b" not in out
    out = play("--seed", "5", stdin="W@d4\n", color=True)[1]
    assert "\x1b[" in out


def test_a_battle_position_to_start_from():
    code, out, err = play("--position", BATTLE, "--seed", "4", stdin="c3c7\nposition\nquit\n")
    assert code == 0, err
    assert "Battle | ply 70 | Light to act" in out
    assert "Light plays c3c7 (takes Dark's Traveller)" in out
    pos = positions(out)[-1]
    assert pos.pieces[50] == 1 and pos.ply == 72  # c7: Light's Traveller; Dark replied


def test_the_end_of_a_game_and_taking_it_back():
    code, out, _ = play("--position", HEARTS, stdin="e1e8\nd1d2\nundo\nposition\n")
    assert code == 0
    assert "Game over: Light wins (Dark's Heart is taken)." in out
    assert "error: illegal action d1d2: the game is over" in out
    assert positions(out)[-1].text() == Position(HEARTS).text()


def test_bad_options_are_refused():
    code, _, err = play("--position", "nonsense")
    assert code == 2 and "argument --position: position: expected 7 fields" in err
    code, _, err = play("--light", "robot")
    assert code == 2 and "invalid choice" in err
