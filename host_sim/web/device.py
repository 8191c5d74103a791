"""The browser simulator with the emulated Pico under it (`make
play-device`, `vortex play --device`): the same page and the same
requests, but the board is the real firmware on tools/pico's emulated
RP2040 (host_sim.device.DeviceRig). The page's hands move the physical
truth, whose pieces close the modelled reed switches and whose tiles lie
as NTAG213s under the modelled coils; its buttons hold the button pins
down; the LEDs it draws are the frames the firmware sends; the game and
its commands go over the host link on the USB serial (docs/protocol.md).

What differs from `make play`: the emulator runs about 5 times slower
than a real Pico, so the board answers slower than the page's hands; the
board boots (about half a minute of wall time) at start and when a game
record is loaded; sensor noise is the virtual board's and has no meaning
here (the emulator's faults are tools/pico's); the link does not say
when the settings menu is open on the board (the page cannot show its
legend; the board refuses commands meanwhile, and the page says so).
"""
import time

from host_sim.device import DeviceRig
from host_sim.web.game import Game

POLL_S = 0.02   # how often the page's view of the device is brought up to date


class DeviceGame(Game):
    """Game(settings=None, position=None, seed=0), on the emulated Pico."""

    def _rig(self, settings, position, store=None):
        old = getattr(self, "rig", None)
        if old is not None:
            old.close()
        self.rig = DeviceRig(position, settings=settings, store=store, seed=self.seed)
        del self.rig.board.messages[:]
        # The emulated Pico's CC line reads what tools/pico gives it (nothing:
        # a plain USB port): the page shows the source the board read.
        self.supply = self.rig.board.supply
        self.log = []
        self._anchor = (time.monotonic(), self.rig.now)
        with self.lock:
            self._bump()

    def run(self):
        """Follow the device (it runs at its own pace): the hands' board pushed
        to it, its link's events and frames taken, pages told of changes."""
        self.running = True
        while self.running:
            with self.lock:
                t0 = time.perf_counter()
                before = self.rig.now
                self.rig.follow()
                self.ticks += (self.rig.now - before) // 5
                self.tick_s += time.perf_counter() - t0
                if self.rig.board.frame != self._shown or self._news():
                    self._bump()
            time.sleep(POLL_S)

    def stop(self):
        Game.stop(self)
        with self.lock:
            self.rig.close()

    def _still(self):
        return self.rig.still()

    def op_sensors(self, a):
        """Sensor noise is the virtual board's: not on the emulated Pico."""
        return {"error": "sensor noise is the virtual board's; the emulated Pico's readers "
                         "and reeds are modelled (faults: tools/pico)"}

    def state(self):
        """Game.state(), the sensors being the hands' board as the emulator has it
        (the firmware's own readings stay in the device)."""
        st = Game.state(self)
        v = self.rig.virtual
        occupied = [1 if p else 0 for p in v.pieces]
        st["sensors"] = {"raw": occupied, "occupancy": occupied, "readings": list(v.tiles),
                         "ids": list(v.serials), "bounce_ms": 0, "misread": 0}
        return st
