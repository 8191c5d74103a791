"""LED frames: colours, brightness and the current budget.

A frame is a bytearray(192): R, G, B for each cell index (a1 = 0). The pixel
driver maps cells to the LED chain; everything here is wiring-agnostic.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]
        return x

FRAME_BYTES = const(192)

# Colours, at full scale; put() scales them by the brightness level.
OFF = (0, 0, 0)
WHITE = (200, 200, 200)
DEST = (0, 200, 0)          # a lifted piece may go here
CAPTURE = (255, 60, 0)      # ... and take the piece there
AWAKEN = (170, 0, 255)      # ... and awaken there
LIFTED = (255, 255, 255)    # the cell a piece was lifted from
LAST = (160, 120, 0)        # the last action's cells
TODO = (0, 220, 220)        # the action to carry out (opponent or AI): from steady, to blinking
HINT = (255, 80, 160)       # a hint: the action the AI would play for you, the same way
THINKING = (0, 220, 220)    # the AI thinks: a light turning round the four centre cells
MISSING = (0, 0, 255)       # a tile should be here and is not (a missing piece: its side's colour)
# Red, a little towards crimson: pure red through the window of a Fire tile
# (orange-red) could hardly be told from the tile; this one stands apart
# from it, from capture orange and the Fire tile asked for (issue 14;
# tests/test_app_palette.py measures each pair).
EXTRA = (255, 0, 40)        # something is here that should not be
ERROR = (255, 0, 40)        # an illegal action, flashing
PLACE = (40, 40, 40)        # building phase: a tile may be laid here
# Light's and Dark's turn / win / missing piece colours. Light's is a warm
# peach rather than a warm white: white is the lifted cell's and an Air
# tile's, amber the last action's, and a whitish light is lost in an Air
# tile's window (issue 14).
SIDE = ((255, 160, 90), (60, 0, 200))
PULSE = const(4)            # a missing Heart pulses between full and 1/PULSE of its level
LOW_CLOCK = (255, 0, 40)
# A tile to lay, by terrain. Earth is green, as in the classic four
# elements: an LED cannot show brown (a dim orange), and Earth's amber was
# all but the last action's (issue 14).
TERRAINS = (OFF, (0, 90, 255), (255, 50, 0), (0, 255, 40), (220, 220, 220))
# The settings menu (menu.py): each item's chosen value, the others, the item being set.
MENU_ITEMS = ((0, 200, 200), (200, 120, 0), (200, 200, 200), (200, 0, 120), (120, 200, 0),
              (255, 80, 160), (60, 60, 255))
MENU_DIM = (25, 25, 25)
MENU_CURSOR = (255, 255, 255)

# The current model: a WS2812 draws about 20 mA per channel at 255 and about
# 1 mA idle. Until the board is told what its power source allows (main.py
# reads the USB-C CC line at boot: hardware/power.py), it budgets what a USB
# 2.0 port leaves the LEDs once the Pico, the logic, the readers and a rank of piece sensors are fed:
# power.LED_BUDGET_MA[SOURCE_NONE] (178 mA) and the 64 LEDs' idle draw
# (tests/test_hardware.py checks the two agree).
_MA_PER_CHANNEL = const(20)
MA_IDLE = const(1)
DEFAULT_BUDGET_MA = const(242)
AUTO = const(0)  # the budget setting that takes what the source allows
# hardware/power.py's sources (SOURCE_NONE ...) by name: the link's `power`,
# the simulator's choice of source.
SUPPLY_NAMES = ("none", "usb", "1.5a", "3a")
LEVELS = (32, 80, 160, 255)  # brightness levels, as a scale out of 255


_DARK = bytes(FRAME_BYTES)


def clear(frame):
    frame[:] = _DARK  # a C copy; no Python loop over 192 bytes


def put(frame, cell, colour, level=255):
    """Light a cell with a palette colour at a brightness level (0-255)."""
    i = cell * 3
    frame[i] = colour[0] * level // 255
    frame[i + 1] = colour[1] * level // 255
    frame[i + 2] = colour[2] * level // 255


def budget(setting_ma, supply_ma):
    """The LEDs' budget, mA, their idle draw included: what the source
    allows (supply_ma), lowered by the budget setting where that is lower.
    The setting is a cap in mA (the player's: a weak cable, a power bank),
    not a share of the source, so a value means the same on any supply and
    none ever raises the draw over what the source offers; AUTO is no cap."""
    if setting_ma == AUTO or setting_ma > supply_ma:
        return supply_ma
    return setting_ma


def current_ma(frame):
    """Estimated LED current of a frame, in mA."""
    return sum(frame) * _MA_PER_CHANNEL // 255 + MA_IDLE * (FRAME_BYTES // 3)


def finish(frame, budget_ma):
    """Scale a frame down, in place, if it would draw more than budget_ma.
    Allocates nothing; loops over the bytes only when it must scale."""
    idle = MA_IDLE * (FRAME_BYTES // 3)
    # sum * _MA_PER_CHANNEL / 255 + idle <= budget, else scale by the ratio.
    room = (budget_ma - idle) * 255
    need = sum(frame) * _MA_PER_CHANNEL
    if need > room:
        if room <= 0:
            clear(frame)
            return
        # Scale in fixed point (x/1024) and floor, so the result never exceeds the budget.
        k = room * 1024 // need
        for i in range(FRAME_BYTES):
            frame[i] = frame[i] * k >> 10
