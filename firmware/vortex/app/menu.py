"""The settings menu, on the LEDs: one item a row from rank 8 down, its
choices from the a-file on; the chosen one lit in the item's colour, the
others dim, and the h-file cell of the item being set in white.

    rank 8  AI          off, plays Light, plays Dark
    rank 7  clock       off, 5+3, 10+5, 15+10, 30+0 (minutes + seconds)
    rank 6  brightness  4 levels
    rank 5  LED budget  300, 500, 900 mA
    rank 4  Hearts      fixed on the e-file, free on the back rank (before the first tile)
    rank 3  AI level    1 (gentle) to 5 (strongest)
"""
from vortex.app.session import NO_AI
from vortex.app.leds import MENU_ITEMS, MENU_DIM, MENU_CURSOR

AI_CHOICES = (NO_AI, 0, 1)
CLOCK_CHOICES = ((0, 0), (300000, 3000), (600000, 5000), (900000, 10000), (1800000, 0))
BUDGET_CHOICES = (300, 500, 900)
AI_LEVELS = 5
ITEMS = 6


def _index(choices, value, default=0):
    for i in range(len(choices)):
        if choices[i] == value:
            return i
    return default


class Menu:
    """Edits a Settings object in place; item is the row being set."""

    def __init__(self, settings):
        self.settings = settings
        self.item = 0

    def choices(self, item):
        s = self.settings
        if item == 0:
            return len(AI_CHOICES), _index(AI_CHOICES, s.ai_side)
        if item == 1:
            return len(CLOCK_CHOICES), _index(CLOCK_CHOICES, (s.clock_ms, s.increment_ms))
        if item == 2:
            return 4, s.level
        if item == 3:
            return len(BUDGET_CHOICES), _index(BUDGET_CHOICES, s.budget_ma, 1)
        if item == 4:
            return 2, 1 if s.free_hearts else 0
        return AI_LEVELS, s.ai_level - 1

    def next_item(self):
        self.item = (self.item + 1) % ITEMS

    def next_value(self):
        s = self.settings
        n, i = self.choices(self.item)
        i = (i + 1) % n
        if self.item == 0:
            s.ai_side = AI_CHOICES[i]
        elif self.item == 1:
            s.clock_ms, s.increment_ms = CLOCK_CHOICES[i]
        elif self.item == 2:
            s.level = i
        elif self.item == 3:
            s.budget_ma = BUDGET_CHOICES[i]
        elif self.item == 4:
            s.free_hearts = i
        else:
            s.ai_level = i + 1

    def draw(self, put):
        """Draw with put(cell, colour)."""
        for item in range(ITEMS):
            row = (7 - item) * 8
            n, chosen = self.choices(item)
            for i in range(n):
                put(row + i, MENU_ITEMS[item] if i == chosen else MENU_DIM)
            if item == self.item:
                put(row + 7, MENU_CURSOR)
