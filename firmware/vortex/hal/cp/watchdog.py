"""The hardware watchdog through microcontroller.watchdog: the board restarts
if the main loop stops feeding it (the same calls as vortex/hal/watchdog.py).

    wd = Watchdog(5000)   # armed
    wd.feed()             # once per loop iteration
    wd.keep_fed()         # the loop was stopped from a computer: disarm it

CircuitPython's RP2040 watchdog takes whole seconds up to 8; on this port
it can be stopped, which is what keep_fed() does (CircuitPython also stops
it itself when code.py ends by Ctrl-C or a reload, and leaves it running
when code.py dies of an error: the board then restarts into the game).
"""
MAX_MS = 8000


class Watchdog:
    """Watchdog(timeout_ms=5000, wdt=None, mode=None): feed(), keep_fed().
    wdt, mode: a WatchDogTimer-like object (timeout, mode, feed()) and the
    mode that arms it, for tests; by default microcontroller.watchdog and
    WatchDogMode.RESET."""

    def __init__(self, timeout_ms=5000, wdt=None, mode=None):
        self.timeout_ms = min(max(timeout_ms, 1000), MAX_MS)
        if wdt is None:
            from microcontroller import watchdog as wdt
            from watchdog import WatchDogMode
            mode = WatchDogMode.RESET
        wdt.timeout = self.timeout_ms / 1000
        wdt.mode = mode
        self._wdt = wdt

    def feed(self):
        self._wdt.feed()

    def keep_fed(self):
        """Stop it: the loop is stopped from a computer, and the REPL and a
        deploy must outlive its timeout."""
        self._wdt.mode = None
