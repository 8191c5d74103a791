"""Buttons and the settings menu. Table-driven timed sequences, QMK style;
plain asserts (dual-run)."""
from vortex.app.buttons import (Buttons, A, B, NONE, SHORT_A, SHORT_B, HOLD_A, HOLD_B,
                                HOLD_AB, HOLD_MS)
from vortex.app.menu import Menu
from vortex.app import commands
from vortex.app.session import Settings, NO_AI
from vortex.ticks import ticks_add
from host_sim.scenario import Rig
from vortex.engine.defs import DARK

# (time ms, raw state) steps, and the events expected, in order.
CASES = (
    ("short A", ((0, A), (80, A), (120, 0)), [SHORT_A]),
    ("short B", ((0, B), (120, 0)), [SHORT_B]),
    ("hold B fires once, while held", ((0, B), (HOLD_MS - 1, B), (HOLD_MS, B), (HOLD_MS + 500, B),
                                       (HOLD_MS + 600, 0)), [HOLD_B]),
    ("hold A+B, pressed a moment apart", ((0, A), (40, A | B), (HOLD_MS + 10, A | B),
                                          (HOLD_MS + 60, B), (HOLD_MS + 90, 0)), [HOLD_AB]),
    ("A and B tapped together is no short press", ((0, A | B), (100, 0)), []),
    ("hold A (a hint) fires once", ((0, A), (HOLD_MS * 3, A), (HOLD_MS * 3 + 1, 0)), [HOLD_A]),
    ("two shorts", ((0, A), (50, 0), (200, B), (260, 0)), [SHORT_A, SHORT_B]),
    ("across the ticks wrap", ((ticks_add(0, -500), B), (ticks_add(0, HOLD_MS - 500), B)),
     [HOLD_B]),
)


def test_button_sequences():
    for name, steps, want in CASES:
        b = Buttons()
        got = []
        for t, state in steps:
            e = b.update(state, t)
            if e != NONE:
                got.append(e)
        assert got == want, (name, got)


def test_menu_cycles_values_and_items():
    s = Settings()
    m = Menu(s)
    m.next_value()  # AI: off -> plays Light
    m.next_value()  # -> plays Dark
    assert s.ai_side == DARK
    m.next_value()
    assert s.ai_side == NO_AI
    m.next_item()
    m.next_value()
    assert (s.clock_ms, s.increment_ms) == (300000, 3000)  # off -> 5+3
    m.next_item()
    m.next_item()
    m.next_value()
    assert s.budget_ma == 300  # auto (what the power source allows) -> a 300 mA cap
    for _ in range(4):
        m.next_value()
    assert s.budget_ma == 0  # 500, 900, 1500, and round to auto again
    for _ in range(3):
        m.next_item()
    assert commands.NAMES[m.item] == "volume"
    m.next_value()
    m.next_value()
    assert s.volume == 0  # soft -> loud -> off


def test_menu_on_the_board():
    rig = Rig()
    rig.run("hold b")  # the menu opens: rank 8 shows the AI choices
    assert rig.board.menu is not None
    lit = rig.lit()
    assert 56 in lit and 63 in lit  # AI "off" chosen, and the cursor on that row
    rig.run("press a, press a")  # AI plays Dark
    rig.run("hold b, settle")  # closed: the game goes on with the AI
    assert rig.board.menu is None and rig.board.settings.ai_side == DARK
    rig.run("play E@e4")
    assert rig.board.pending >= 0  # the AI asks for its placement


def test_clock_stops_while_the_menu_is_open():
    rig = Rig(settings=Settings(clock_ms=60000))
    rig.wait(1000)
    left = rig.board.clock.left[0]
    rig.run("hold b, wait 5000")
    assert rig.board.clock.left[0] >= left - 1100  # only the hold itself, before the menu opened
    rig.run("hold b, wait 1000")
    assert rig.board.clock.left[0] < left - 1100  # running again


def test_the_menu_lights_each_row_s_chosen_value_and_the_row_being_set():
    from vortex.app.leds import MENU_ITEMS, MENU_DIM, MENU_CURSOR
    s = Settings(ai_side=DARK, brightness=1)
    m = Menu(s)
    m.next_item()  # the clock's row is being set
    lit = {}
    m.draw(lambda c, colour: lit.__setitem__(c, colour))
    for item, name in enumerate(commands.NAMES):
        row = (7 - item) * 8
        values = commands.MENU_VALUES[item]
        chosen = values.index(commands.value(s, name)) if name != "clock" else 0
        for i in range(len(values)):
            assert lit[row + i] == (MENU_ITEMS[item] if i == chosen else MENU_DIM), (name, i)
        assert (lit.get(row + 7) == MENU_CURSOR) == (item == 1), name
    assert not [c for c in lit if c < 8]  # rank 1: nothing
