"""An optional game clock: base time plus an increment per action (e.g. 10 min + 5 s)."""
from vortex.ticks import ticks_diff

LOW_MS = 10000  # below this the side to act is warned


class Clock:
    """Time left per side in ms. The side to act's time runs between tick()s."""

    def __init__(self, base_ms, increment_ms):
        self.base_ms = base_ms
        self.increment_ms = increment_ms
        self.left = [base_ms, base_ms]
        self._last = None

    def start(self, now_ms):
        self._last = now_ms

    def tick(self, now_ms, side):
        """Charge the time since the last tick to `side`; True once it has run out."""
        if self._last is not None:
            left = self.left[side] - ticks_diff(now_ms, self._last)
            self.left[side] = left if left > 0 else 0
        self._last = now_ms
        return self.left[side] == 0

    def pause(self):
        """Stop the time: the next tick() starts it again, charging nothing."""
        self._last = None

    def pressed(self, side):
        """`side` completed an action: it earns the increment."""
        if self.left[side]:
            self.left[side] += self.increment_ms

    def is_low(self, side):
        return self.left[side] < LOW_MS
