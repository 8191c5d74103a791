"""The settings menu, on the LEDs: one setting a row from rank 8 down, its
values from the a-file on; the chosen one lit in the row's colour, the
others dim, and the h-file cell of the row being set in white.

    rank 8  ai          off, plays Light, plays Dark
    rank 7  clock       off, 5+3, 10+5, 15+10, 30+0 (minutes + seconds)
    rank 6  brightness  4 levels
    rank 5  budget      auto (what the power source allows), 300, 500, 900, 1500 mA
    rank 4  hearts      fixed on the e-file, free on the back rank (before the first tile)
    rank 3  level       the AI's strength, 1 (gentle) to 5 (strongest)
    rank 2  volume      the sounds: off, soft, loud

The rows and their values are vortex.app.commands' settings: the menu sets
them through commands.change(), as the host link and the page do.
"""
from vortex.app import commands
from vortex.app.leds import MENU_ITEMS, MENU_DIM, MENU_CURSOR

ITEMS = len(commands.NAMES)


class Menu:
    """Edits a Settings object in place; item is the row being set."""

    def __init__(self, settings):
        self.settings = settings
        self.item = 0

    def choices(self, item):
        """(how many values the row offers, the index of the one chosen;
        -1 when the setting holds a value the menu does not offer, as a
        clock set from the host link may)."""
        values = commands.MENU_VALUES[item]
        now = commands.value(self.settings, commands.NAMES[item])
        for i in range(len(values)):
            if values[i] == now:
                return len(values), i
        return len(values), -1

    def next_item(self):
        self.item = (self.item + 1) % ITEMS

    def next_value(self):
        n, i = self.choices(self.item)
        commands.change(self.settings, commands.NAMES[self.item],
                        commands.MENU_VALUES[self.item][(i + 1) % n])

    def draw(self, put):
        """Draw with put(cell, colour)."""
        for item in range(ITEMS):
            row = (7 - item) * 8
            n, chosen = self.choices(item)
            for i in range(n):
                put(row + i, MENU_ITEMS[item] if i == chosen else MENU_DIM)
            if item == self.item:
                put(row + 7, MENU_CURSOR)
