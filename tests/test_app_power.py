"""The LEDs' budget from the USB-C source, on the virtual board: the source
read at boot as main.py reads it (hardware/power.py), every frame within
what it allows, the budget setting lowering it and never raising it. Plain
asserts: pytest runs them on CPython and tests/mpy_runner.py under the
MicroPython unix port."""
import host_sim  # noqa: F401  (hardware/ on sys.path: power.py)
import power
from host_sim.scenario import Rig
from host_sim.usb import VirtualCC, cc_u16
from vortex.ai.rng import Rng
from vortex.app import leds, commands
from vortex.app.session import Settings
from vortex.hal.supply import CCSense
from test_app_scenarios import BATTLE, AWAKE, START

SOURCES = (("none", power.SOURCE_NONE), ("usb", power.SOURCE_USB), ("1.5a", power.SOURCE_1A5),
           ("3a", power.SOURCE_3A0))


def allowed(source):
    """What a source lets the LEDs draw, their idle draw included."""
    return power.LED_BUDGET_MA[source] + leds.MA_IDLE * 64


def test_each_source_reads_as_itself_through_the_noise():
    rng = Rng(5)
    for name, source in SOURCES:
        assert leds.SUPPLY_NAMES[source] == name
        cc = CCSense(VirtualCC(name, rng))
        for _ in range(50):
            assert power.source(cc.read_u16()) == source, name
    # Well inside its band: the nearest threshold at least 20 % away.
    for lo, hi, name in ((power.CC_ATTACHED_U16, power.CC_1A5_U16, "usb"),
                         (power.CC_1A5_U16, power.CC_3A0_U16, "1.5a")):
        u = cc_u16(name)
        assert lo * 1.2 < u < hi / 1.2, (name, u)
    assert cc_u16("3a") > power.CC_3A0_U16 * 1.2


def test_the_budget_is_the_source_s_lowered_by_the_setting():
    assert leds.budget(leds.AUTO, 1180) == 1180
    assert leds.budget(500, 1180) == 500
    assert leds.budget(1500, 1180) == 1180  # a setting never raises it
    assert leds.budget(300, 280) == 280


def frames_within(supply, settings, script, position=BATTLE):
    """The most any frame drew while the script ran, on a board plugged into supply."""
    worst = [0]

    def check(frame):
        worst[0] = max(worst[0], leds.current_ma(frame))

    rig = Rig(position, settings=settings, supply=supply, on_frame=check)
    rig.run(script)
    return rig, worst[0]


def test_a_usb_port_dims_the_frames_a_3a_source_does_not():
    bright = Settings(brightness=3)
    # The building phase lights every free cell, the end lights the border.
    rig, worst = frames_within("usb", bright, "play W@d4, play F@e5", START)
    assert rig.board.supply == power.SOURCE_USB and rig.board.budget_ma() == allowed(1)
    assert 0 < worst <= allowed(power.SOURCE_USB)
    rig, worst_3a = frames_within("3a", bright, "play W@d4, play F@e5", START)
    assert rig.board.budget_ma() == allowed(power.SOURCE_3A0)
    assert worst_3a > allowed(power.SOURCE_USB)  # the same frames, undimmed
    rig, worst = frames_within("usb", bright, "lift h8, drop, lift h6, place h8, settle", AWAKE)
    assert rig.board.result() is not None and worst <= allowed(power.SOURCE_USB)


def test_the_budget_setting_caps_a_strong_source():
    rig, worst = frames_within("3a", Settings(brightness=3, budget_ma=500), "play W@d4, play F@e5",
                               START)
    assert rig.board.budget_ma() == 500 and 0 < worst <= 500
    commands.set_setting(rig.board, "budget", "auto")  # back to what the source allows
    assert rig.board.budget_ma() == allowed(power.SOURCE_3A0)
    assert commands.value(rig.board.settings, "budget") == "auto"


def test_plugged_elsewhere_the_board_budgets_again_and_keeps_its_game():
    rig = Rig(BATTLE, supply="3a")
    rig.run("play e2e4")
    rig.plug("usb")
    rig.tick(2)
    assert rig.played() == "e2e4" and rig.board.budget_ma() == allowed(power.SOURCE_USB)
    try:
        rig.plug("5a")
        assert False, "no such source"
    except ValueError as e:
        assert "no USB source '5a'" in str(e)


def test_plugged_into_a_weaker_source_the_frame_shown_is_dimmed_at_once():
    # Nothing moves on the board: the frame on the LEDs must still be redrawn
    # within the new budget, not left drawing what the 3 A source allowed.
    shown = []
    rig = Rig(START, settings=Settings(brightness=3), supply="3a", on_frame=shown.append)
    rig.run("play W@d4")  # the building phase lights every free cell
    rig.tick(2)
    assert leds.current_ma(shown[-1]) > allowed(power.SOURCE_USB)
    frames = rig.frames
    rig.plug("usb")
    rig.tick()
    assert rig.frames == frames + 1
    assert 0 < leds.current_ma(shown[-1]) <= allowed(power.SOURCE_USB)


def test_the_menu_s_caps_step_between_the_sources():
    # Each cap lowers at least one source: none is above the strongest.
    caps = [int(v) for v in commands.BUDGET_VALUES[1:]]
    assert caps == sorted(caps) and caps[-1] < allowed(power.SOURCE_3A0)
    assert commands.BUDGET_VALUES[0] == "auto" and Settings().budget_ma == leds.AUTO
