"""The hardware watchdog: reboot the board if the main loop stops feeding it.

    wd = Watchdog(5000)   # once started it cannot be stopped (RP2040)
    wd.feed()             # once per loop iteration
    wd.keep_fed()         # the loop has stopped: a timer feeds it until the next reset

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

    def keep_fed(self, timer=None):
        """Feed from a timer from now on. For when the main loop is stopped
        from a computer (Ctrl-C, mpremote): the RP2040's watchdog cannot be
        stopped, and the REPL and a deploy must outlive its timeout. A reset
        clears it all; a soft reset ends only the timer, and the watchdog then
        restarts the board (so tools use `mpremote resume`)."""
        if timer is None:
            from machine import Timer
            timer = Timer(-1)  # the rp2 port's timers are virtual: id -1
        wdt = self._wdt
        timer.init(period=self.timeout_ms // 4, mode=timer.PERIODIC,
                   callback=lambda t: wdt.feed())
        self._timer = timer
