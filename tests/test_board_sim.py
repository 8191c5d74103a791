"""The board simulator (python3 -m host_sim board) as a user drives it."""
import os
import subprocess
import sys

from mpy import ROOT

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def sim(lines, *args):
    p = subprocess.run([sys.executable, "-m", "host_sim", "board", "--no-color"] + list(args),
                       input="".join(line + "\n" for line in lines), capture_output=True,
                       text=True, cwd=ROOT, timeout=120)
    return p.returncode, p.stdout + p.stderr


def test_hands_play_and_the_board_recognises():
    code, out = sim(["lift e2", "place e4", "b7c6", "quit"], "--position", BATTLE)
    assert code == 0, out
    assert "board: played e2e4" in out and "board: played b7c6" in out
    assert "\x1b[" not in out  # --no-color


def test_ai_asks_and_carry_does_it():
    code, out = sim(["e2e4", "carry"], "--ai", "dark", "--position", BATTLE)
    assert code == 0, out  # end of input ends the session
    asked = out.split("the board asks: ")[1].split()[0]
    assert "board: played %s" % asked in out


def test_illegal_move_is_refused_and_bad_input_explained():
    code, out = sim(["e2d4", "lift h5", "Z@d4", "undo"], "--position", BATTLE)
    assert code == 0, out
    assert "done anyway" in out and "board: illegal action" in out
    assert "? no piece on h5 to lift" in out
    assert "? action:" in out


def test_save_and_resume(tmp_path):
    save = str(tmp_path / "game.bin")
    code, out = sim(["W@d4", "F@e5", "quit"], "--save", save)
    assert code == 0 and "board: played F@e5" in out, out
    code, out = sim(["quit"], "--save", save)
    assert "board: resumed after 2 actions" in out, out


def test_bad_option():
    code, out = sim([], "--ai", "purple")
    assert code == 2 and "argument --ai: invalid choice: 'purple'" in out


def test_the_message_line_says_what_to_put_right():
    code, out = sim(["new", "W@d4", "tidy", "W@d4"], "--position", BATTLE)
    assert code == 0, out
    assert "to do: take the tiles off the board" in out
    assert "board: played W@d4" in out  # once tidy hands cleared the board


def test_a_takeback_of_a_capture_is_put_right_from_the_tray():
    code, out = sim(["e1f1", "a7b8", "c2c7", "undo", "lift c7", "place c2", "from-tray t c7",
                     "c2c3"], "--position", BATTLE)
    assert code == 0, out
    assert "tray: Dark t" in out and "to do: put a Dark Traveller on c7" in out
    assert "board: played c2c3" in out


def test_without_colour_the_leds_read_as_symbols():
    code, out = sim(["lift e2", "help"], "--position", BATTLE)
    assert code == 0, out
    grid = out.split("> lift e2")[1].split("   a b c")[0]
    rows = {line[0]: line[22:] for line in grid.splitlines() if line[:1].isdigit()}
    assert rows["2"].split()[4] == "o"  # the lifted piece's cell, e2
    assert rows["4"].split()[4] == "+"  # e2 stands on Water: it may slide to e4
    assert "LEDs: o lifted" in out


def test_only_a_save_of_this_board_is_written_over(tmp_path):
    from vortex.hal.store import MAGIC
    save = tmp_path / "game.bin"
    code, out = sim(["W@d4", "quit"], "--save", str(save))
    assert code == 0, out
    # The save, its journal and its fallback, written beside it; no temporary file left.
    assert set(os.listdir(tmp_path)) - {"game.bin.bak"} == {"game.bin", "game.bin.log"}
    assert save.read_bytes().startswith(MAGIC)
    for name in ("game.bin.bak", "game.bin.tmp", "game.bin.log.tmp"):  # someone else's file where the store writes
        (tmp_path / name).write_text("my notes")
        code, out = sim(["quit"], "--save", str(save))
        assert code == 2 and "%s is not a save of this board" % (tmp_path / name) in out, out
        assert (tmp_path / name).read_text() == "my notes"
        os.remove(tmp_path / name)
    code, out = sim(["quit"], "--save", str(save))
    assert code == 0 and "board: resumed after 1 actions" in out, out


def test_the_board_s_sounds_ring_the_bell_or_are_said_in_plain_text():
    script = ["lift e2", "place d4", "wait 3000", "lift d4", "place e2", "quit"]
    code, out = sim(script, "--position", BATTLE)  # --no-color: in words, no control character
    assert code == 0, out
    assert out.count("sound: illegal") == 1 and "\a" not in out
    code, out = sim(script, "--position", BATTLE, "--quiet")
    assert "sound:" not in out and "\a" not in out
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    p = subprocess.run([sys.executable, "-m", "host_sim", "board", "--position", BATTLE],
                       input="".join(line + "\n" for line in script), capture_output=True,
                       text=True, cwd=ROOT, timeout=120, env=env)
    assert p.returncode == 0 and p.stdout.count("\a") == 1, p.stdout[-500:]
    assert "sound:" not in p.stdout


def test_the_leds_budget_follows_the_usb_source():
    # hardware/power.py's budgets, the 64 LEDs' idle draw on top.
    sys.path.insert(0, os.path.join(ROOT, "hardware"))
    import power
    usb, a15, a3 = (power.LED_BUDGET_MA[s] + 64 for s in (power.SOURCE_USB, power.SOURCE_1A5,
                                                         power.SOURCE_3A0))
    code, out = sim(["quit"], "--position", BATTLE, "--supply", "usb")
    assert code == 0 and " mA of %d (default USB)" % usb in out, out
    code, out = sim(["set budget 900", "quit"], "--position", BATTLE, "--supply", "1.5a")
    assert " mA of %d (USB-C 1.5 A)" % a15 in out and " mA of 900 (USB-C 1.5 A)" in out, out
    code, out = sim(["quit"], "--position", BATTLE)
    assert " mA of %d (USB-C 3 A)" % a3 in out, out  # the default
