"""The board on a Pico W: hardware/pins.py leaves alone the GPIOs that the
Pico W's radio (the CYW43439) takes, so one pin map serves the Pico and the
Pico W (the Pico W datasheet, section 2.1: GP23 WL_ON, GP24 WL_D, GP25
WL_CS, GP29 WL_CLK and, through the radio's switch, ADC3's VSYS/3)."""
import ast
import os
import sys

from mpy import ROOT

sys.path.insert(0, os.path.join(ROOT, "hardware"))
import pins  # noqa: E402

RADIO = {23: "WL_ON", 24: "WL_D", 25: "WL_CS", 29: "WL_CLK"}


def roles():
    """The names of pins.py's GPIO constants, as the schematic wires them
    (boardgen/schematic.py's ROLE_NETS keys), read from its source: importing
    it would import SKiDL, seconds for a list of names."""
    with open(os.path.join(ROOT, "hardware", "boardgen", "schematic.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "ROLE_NETS":
            return [k.value for k in node.value.keys]
    raise AssertionError("no ROLE_NETS in boardgen/schematic.py")


def gpios():
    """{GPIO: the pins.py constant using it}."""
    used = {}
    for const in roles():
        value = getattr(pins, const)
        for g in value if isinstance(value, tuple) else (value,):
            used[g] = const
    return used


def test_no_pin_is_the_radios():
    used = gpios()
    assert len(used) >= 20  # every role: reeds, NFC, LEDs, buttons, CC sense, buzzer
    clash = {g: (used[g], RADIO[g]) for g in used if g in RADIO}
    assert not clash, "pins.py takes the Pico W radio's GPIOs: %r" % clash
    assert all(0 <= g <= 28 for g in used)


def test_the_pin_map_says_so():
    assert "Pico W" in pins.__doc__ and "radio" in pins.__doc__
