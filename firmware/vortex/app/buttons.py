"""Two buttons, A and B: short presses and holds, told apart by time.

    short A        take back                 (menu: the item's next value)
    short B        next brightness level     (menu: the next item)
    hold B 1 s     open the settings menu    (menu: close it)
    hold A+B 1 s   new game                  (menu: close it, new game with the settings)
    hold A 1 s     a hint: the best action for the side to act, as the AI sees it

A short press acts when released; a hold acts once, as soon as it is long
enough, and the release after it does nothing more.
"""
from vortex.ticks import ticks_diff

A = 1  # bits of the raw button state given to Board.step()
B = 2

# Events.
NONE = 0
SHORT_A = 1
SHORT_B = 2
HOLD_B = 3
HOLD_AB = 4
HOLD_A = 5

HOLD_MS = 1000


class Buttons:
    def __init__(self):
        self._down = 0      # buttons held now
        self._seen = 0      # every button pressed since all were up
        self._since = 0     # when the first of them went down
        self._spent = False  # a hold already fired for this press

    def update(self, state, now):
        """Feed the raw state (bits A, B); return the event it completes."""
        event = NONE
        if state and not self._down:
            self._since = now
            self._seen = 0
            self._spent = False
        self._seen |= state
        if state and not self._spent and ticks_diff(now, self._since) >= HOLD_MS:
            if self._seen == A | B:
                event = HOLD_AB
                self._spent = True
            elif self._seen == B:
                event = HOLD_B
                self._spent = True
            elif self._seen == A:
                event = HOLD_A
                self._spent = True
        elif (not state and self._down and not self._spent
              and ticks_diff(now, self._since) < HOLD_MS):
            if self._seen == A:
                event = SHORT_A
            elif self._seen == B:
                event = SHORT_B
        self._down = state
        return event
