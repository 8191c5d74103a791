"""The hardware watchdog: reboot the board if the main loop stops feeding it.

    wd = Watchdog(5000)   # once started it cannot be stopped (RP2040)
    wd.feed()             # once per loop iteration

The RP2040's watchdog counts at most 8388 ms; longer timeouts are clamped.
`wdt` lets a test pass a fake instead of machine.WDT.
"""
MAX_MS = 8388


class Watchdog:
    """Watchdog(timeout_ms=5000, wdt=None): feed()."""

    def __init__(self, timeout_ms=5000, wdt=None):
        self.timeout_ms = min(max(timeout_ms, 1), MAX_MS)
        if wdt is None:
            from machine import WDT
            wdt = WDT(timeout=self.timeout_ms)
        self._wdt = wdt

    def feed(self):
        self._wdt.feed()
