"""The whole board on the emulated Pico (tools/pico): the real MicroPython
firmware, its real drivers and main.py, the NFC front end modelled at its
registers; hands on a physical truth (a VirtualBoard) whose pieces close the
modelled reed switches and whose tiles lie as NTAG213s under the modelled
coils. The board is seen as a player and a host see it: its LED frames and
its host link (docs/protocol.md) on the USB serial port.

    rig = DeviceRig(position)              # boots, waits until the board agrees
    rig.play(rig.board.pos.parse_action("e2e4"))   # hands carry it out, as on Rig
    rig.run("lift e2, place e4, press a")  # Rig's commands
    rig.ask("status")                      # ['side', 'dark', 'actions', '65', ...]
    flash = rig.power_cut()                # the emulator stopped dead...
    rig = DeviceRig(position, flash=flash, truth=rig.virtual)   # ...and booted again

DeviceRig is a scenario.Rig whose board is the device: every hand of Rig
(lift, place, lay, take-tile, press, play, tidy, ...) works the same; time
is the device's (rig.now, ms), advanced by running the emulator; rig.board
is a DeviceBoard, the game as the link's events tell it. Needs what
tools/pico needs (pico.missing() says what is missing).
"""
import os
import re
import sys

from vortex.engine.position import Position
from vortex.engine.notation import parse_cell
from vortex.app import session
from vortex.app.buttons import A, B
from vortex.hal.store import pack
from host_sim.scenario import Rig, TICK_MS, SETTLE_MS
from host_sim.virtual import VirtualBoard, FOREIGN

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
import pico  # noqa: E402
import pins  # noqa: E402  (on sys.path through pico)

BOOT_S = 240          # wall seconds for the first agreement after power-on
ANSWER_S = 120        # wall seconds for a link answer
_LINE = re.compile(r"^(\d+) (\S+)(?: (.*))?$")


class DeviceBoard:
    """The game on the device, as its host link tells it: .pos (the start
    and the actions since, mirrored from the `action`, `takeback` and `new`
    events), .pending (the action the board asks for, or -1), .verdict,
    result(), .judged (the board agrees, or waits on a piece in hand)."""

    def __init__(self, start, actions=()):
        self.new(start)
        for a in actions:
            self.pos.push(self.pos.parse_action(a))
        self.pending = -1
        self.verdict = "agree"
        self.outcome = "*"

    def new(self, start):
        self.start = start
        self.pos = Position(start)

    @property
    def judged(self):
        return self.verdict in ("agree", "hand")

    def event(self, kind, rest):
        if kind == "action":
            n, text = rest.split()
            if int(n) == len(self.pos.stack) + 1:
                self.pos.push(self.pos.parse_action(text))
        elif kind == "takeback":
            while len(self.pos.stack) > int(rest):
                self.pos.pop()
        elif kind == "new":
            self.new(rest)
        elif kind == "asks":
            self.pending = -1 if rest == "-" else self.pos.parse_action(rest)
        elif kind == "verdict":
            self.verdict = rest
        elif kind == "result":
            self.outcome = rest.split()[0]

    def result(self):
        """The game's result (1-0, 0-1, 1/2-1/2), or None while it goes on."""
        return None if self.outcome == "*" else self.outcome


class DeviceRig(Rig):
    """DeviceRig(position, settings=None, actions=(), seed=0, flash=None,
    truth=None): see the module's docstring. flash: boot the flash a
    power_cut() left; truth: the physical board as it stands (a
    VirtualBoard; by default laid out as the position after the actions)."""

    def __init__(self, position, settings=None, actions=(), seed=0, flash=None, truth=None):
        why = pico.missing()
        if why:
            raise pico.Unavailable(why)
        self.board = DeviceBoard(position, actions)
        self.virtual = truth or VirtualBoard.from_position(Position(self.board.pos.text()),
                                                           seed=seed)
        self.buttons = 0
        self.frames = 0
        self.on_frame = None
        self.node_us = 0
        self._reeds = None
        self._tags = [None] * 64
        self._buttons_sent = 0
        self._out = 0               # how far the serial output has been read
        self._answers = []
        self._wakes = [0] * 64
        self._mems = {}             # each tile's tag memory, by terrain and serial
        files = {}
        if flash is None:
            files["game.bin"] = pack(self._save(settings or session.Settings(), position, actions))
        reeds, tiles = self._truth()
        self.dev = pico.Pico(files, autorun=True, reeds=reeds, tiles=tiles, flash=flash)
        self.dev.__enter__()
        self._reeds = reeds
        for c, mem in tiles.items():
            self._tags[c] = mem
        self.now = 0
        if not self.dev.wait(lambda: self.dev.usb, pico.BOOT_SECONDS):
            self.close()
            raise pico.Unavailable("no USB port from the emulated Pico")
        self.dev.write("\nping rig\nsubscribe\n")
        if not self._until_answer("subscribe", BOOT_S):
            out = self.dev.output[-1500:]
            self.close()
            raise RuntimeError("the board did not answer: %r" % out)
        self.until_read()
        self.settle()

    def until_read(self, times=2, max_ms=10000):
        """Until every cell has been read `times` times since power-on (the
        model's count of wake-ups): the first sweeps are in."""
        end = self.now + max_ms
        while self.now < end:
            self.wait(100)
            st = self.dev.reader_stats()
            self._wakes = [a + b for a, b in zip(self._wakes, st["wakes"])]
            if min(self._wakes) >= times:
                return True
        return False

    def until_agree(self, max_ms=5000):
        """Until the board's verdict is agree (asked on the link), max_ms at most."""
        end = self.now + max_ms
        while self.now < end:
            if self.status()["verdict"] == "agree":
                return True
            self.wait(100)
        return False

    @staticmethod
    def _save(settings, position, actions):
        pos = Position(position)
        done = []
        for a in actions:
            done.append(pos.parse_action(a))
            pos.push(done[-1])
        return session.dump(settings, position, done, (0, 0))

    def close(self):
        if self.dev is not None:
            self.dev.close()
            self.dev = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- the physical truth, to the emulator -----------------------------------
    def _truth(self):
        """The closed reeds and the tags on the cells, as the truth has them."""
        v = self.virtual
        reeds = [c for c in range(64) if v.pieces[c]]
        tiles = {}
        for c in range(64):
            t = v.tiles[c]
            if t:
                key = (t, v.serials[c])
                mem = self._mems.get(key)
                if mem is None:
                    if t == FOREIGN:       # a tag that answers but holds no tile of ours
                        mem = pico.ntag213(bytes((0x04, 0xF0, 0x0F, 0, 0, v.serials[c], 0x80)))
                    else:
                        mem = pico.tile(t, v.serials[c])
                    self._mems[key] = mem
                tiles[c] = mem
        return reeds, tiles

    def _sync(self):
        reeds, tiles = self._truth()
        if reeds != self._reeds:
            self.dev.set_reeds(reeds)
            self._reeds = reeds
        for c in range(64):
            mem = tiles.get(c)
            if mem != self._tags[c]:
                self.dev.set_tags(c, *([mem] if mem else []))
                self._tags[c] = mem
        if self.buttons != self._buttons_sent:
            held = []
            if self.buttons & A:
                held.append(pins.BUTTON_A)
            if self.buttons & B:
                held.append(pins.BUTTON_B)
            self.dev.press(*held)
            self._buttons_sent = self.buttons

    # --- the host link ---------------------------------------------------------
    def _read_link(self):
        """Take the board's new lines: events for the DeviceBoard, answers kept."""
        out = self.dev.output
        end = out.rfind("\n") + 1
        if end <= self._out:
            return
        for raw in out[self._out:end].splitlines():
            m = _LINE.match(raw.strip())
            if not m:
                continue           # the console's own lines (main.py's messages)
            kind, rest = m.group(2), m.group(3) or ""
            if kind in ("ok", "error"):
                self._answers.append((kind, rest))
            else:
                self.board.event(kind, rest)
        self._out = end

    def _until_answer(self, command, timeout):
        def answered():
            self._read_link()
            return any(k == "error" or r.split()[:1] == [command] for k, r in self._answers)
        return self.dev.wait(answered, timeout)

    def ask(self, command):
        """A command on the host link; its answer's words after the command
        word (an error: RuntimeError)."""
        del self._answers[:]
        self.dev.write(command + "\n")
        word = command.split()[0]
        if not self._until_answer(word, ANSWER_S):
            raise RuntimeError("no answer to %r: %r" % (command, self.dev.output[-300:]))
        kind, rest = next((k, r) for k, r in self._answers if k == "error" or r.split()[:1] == [word])
        if kind == "error":
            raise RuntimeError("%s: %s" % (command, rest))
        return rest.split()[1:]

    def status(self):
        """The link's `status` as {name: value}."""
        words = self.ask("status")
        return dict(zip(words[::2], words[1::2]))

    def position(self):
        return " ".join(self.ask("position"))

    # --- time: the device's ------------------------------------------------------
    def tick(self, n=1):
        """n passes' worth of the device's time (TICK_MS each), the truth
        pushed to the emulator first."""
        self._sync()
        target = self.now + n * TICK_MS
        if not self.dev.wait(lambda: self.dev.now >= target * 1_000_000, ANSWER_S):
            raise RuntimeError("the emulated Pico stopped: %s" % (
                "its watchdog fired" if self.dev.watchdog is not None else "out of time"))
        self.now = self.dev.now // 1_000_000
        self._read_link()

    def until(self, done, max_ms=5000):
        end = self.now + max_ms
        while self.now < end:
            if done():
                return True
            self.tick()
        return done()

    def play(self, a, capture_first=True, settle=True):
        """Rig.play: carried out by hand, then until the board has taken it
        (and with settle, until it agrees)."""
        Rig.play(self, a, capture_first, settle=False)
        if settle:
            self.settle()

    def settle(self):
        """Until the board has judged what the hands did (its settle time,
        SETTLE_MS, and the tiles' reads) and agrees, 5 s at most."""
        self.wait(SETTLE_MS + 100)
        self.until_agree()

    # --- what the player sees -------------------------------------------------
    @property
    def frame(self):
        """The LEDs now (R, G, B per cell), black before the first frame."""
        return self.dev.frames[-1][1] if self.dev.frames else bytes(192)

    def colour(self, cell):
        c = parse_cell(cell) if isinstance(cell, str) else cell
        f = self.frame
        return (f[3 * c], f[3 * c + 1], f[3 * c + 2])

    def agrees(self):
        b, v = self.board, self.virtual
        return bytes(b.pos.pieces) == bytes(v.pieces) and bytes(b.pos.tiles) == bytes(v.tiles)

    def power_cut(self):
        """The power cut now: the emulator stops dead; the flash as it was."""
        flash = self.dev.power_cut()
        self.dev = None
        return flash
