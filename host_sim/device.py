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

from vortex.engine.defs import LIGHT, DARK
from vortex.engine.position import Position, Outcome, START
from vortex.engine.notation import parse_cell, action_text
from vortex.app import session, commands, sounds
from vortex.app.recognise import AGREE, HAND, NOT_ASKED, VERDICT_NAMES
from vortex.app.buttons import A, B
from vortex.hal.buzzer import VOLUME_DUTY
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
ANSWER_WORD = {"set": "settings", "unsubscribe": "subscribe"}  # answers named otherwise


class Ear:
    """The buzzer pin's tones (tools/pico's: ns, Hz, duty per mille; 0 Hz
    silent) told back into the board's sounds (vortex.app.sounds), each
    played on `buzzer` (the truth's VirtualBuzzer: the page sounds it). A
    sound is known by its first tone, which no other starts with, and
    followed note by note (a rest is silence); a tone that follows no sound
    and starts none is heard as nothing."""

    def __init__(self, buzzer):
        self.buzzer = buzzer
        self._notes = ()    # the sound heard playing
        self._next = 0      # the index in it of the note expected next

    def hear(self, t, hz, duty):
        notes, i = self._notes, self._next
        if i < len(notes) and (_near(hz, notes[i]) if notes[i] else not hz):
            self._next = i + 2
            return
        self._notes, self._next = (), 0
        for sound in range(1, len(sounds.NOTES)):
            if hz and _near(hz, sounds.NOTES[sound][0]):
                # The volume whose duty is the nearest the pin's.
                volume = min((1, 2), key=lambda v: abs(VOLUME_DUTY[v] * 1000 // 65536 - duty))
                self.buzzer.play(sound, volume, t // 1_000_000)
                self._notes, self._next = sounds.NOTES[sound], 2
                return


def _near(hz, want):
    """A tone measured on the buzzer pin is the note: the PWM's divider
    makes it within 0.5 % (tests/test_device_buzzer.py), 1 % allowed."""
    return abs(hz - want) * 100 <= want


class _Seen:
    """What Board.sense offers the page: the action the board saw (a
    legal one not asked for), or -1."""

    def __init__(self):
        self.action = -1


class _Clock:
    """What Board.clock offers the page: each side's time left, ms."""

    def __init__(self, light, dark):
        self.left = [light, dark]


class DeviceBoard:
    """The game on the device, as its host link tells it, with what the
    page and the rig read of a Board: .pos (the start and the actions
    since, from the `action`, `takeback` and `new` events), .start,
    .pending (the action the board asks for, or -1), .verdict (a
    vortex.app.recognise verdict), .judged, result(), .clock, .settings,
    .messages (main.py's console lines), .frame (the LEDs, as the device
    sent them), .sense.action; and the commands vortex.app.commands gives a
    Board (new_game, takeback, ask_hint, request, settings_changed), each
    sent over the link (ask: the rig's). .menu is None: the link does not
    say when the settings menu is open on the board (it refuses commands
    then, which is what a host sees)."""

    def __init__(self, start, actions=(), ask=None, frame=None):
        self.new(start)
        for a in actions:
            self.pos.push(self.pos.parse_action(a))
        self.pending = -1
        self.verdict = AGREE
        self.outcome = None
        self.clock = None
        self.settings = session.Settings()
        self.messages = []
        self.menu = None
        self.sense = _Seen()
        self._ask = ask
        self._frame = frame
        self._told = commands.settings_text(self.settings)   # the settings the device has

    supply = "usb"   # the source the device read at boot (the emulator's CC line: nothing)
    supply_ma = 0
    led_budget_ma = 0

    def learn_power(self, words):
        """The link's `power` answer: source S leds MA budget MA."""
        got = dict(zip(words[::2], words[1::2]))
        self.supply = got.get("source", self.supply)
        self.supply_ma = int(got.get("leds", 0))
        self.led_budget_ma = int(got.get("budget", 0))

    def budget_ma(self):
        return self.led_budget_ma

    def new(self, start):
        self.start = start
        self.pos = Position(start)
        self.outcome = None

    @property
    def judged(self):
        return self.verdict in (AGREE, HAND)

    @property
    def frame(self):
        return self._frame() if self._frame else bytes(192)

    def result(self):
        """The game's Outcome, or None while it goes on."""
        return self.outcome

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
            self.clock = None
        elif kind == "asks":
            self.pending = -1 if rest == "-" else self.pos.parse_action(rest)
        elif kind == "verdict":
            self.verdict = VERDICT_NAMES.index(rest.encode())
        elif kind == "clock":
            light, dark = rest.split()
            self.clock = _Clock(int(light), int(dark))
        elif kind == "result":
            word, _, reason = rest.partition(" ")
            self.outcome = None if word == "*" else Outcome(
                {"1-0": LIGHT, "0-1": DARK}.get(word), reason)

    def learn_settings(self, words):
        """The link's `settings` answer (name=value words) into .settings."""
        for word in words:
            name, _, value = word.partition("=")
            commands.change(self.settings, name, value)
        self._told = commands.settings_text(self.settings)

    # --- vortex.app.commands' calls, over the link ------------------------------
    def _command(self, line, refused=None):
        try:
            return self._ask(line)
        except RuntimeError as e:
            why = str(e).split(": ", 1)[-1]
            if refused and why.startswith(refused):
                return None
            raise commands.CommandError(why)

    def new_game(self, text):
        self._command("new " + text)
        self.new(text)
        self.pending = -1

    def takeback(self):
        words = self._command("takeback", refused="nothing")
        if words is None:
            return False
        while len(self.pos.stack) > int(words[0]):
            self.pos.pop()
        return True

    def ask_hint(self):
        return self._command("hint", refused="no hint") is not None

    def request(self, a):
        self._command("request " + action_text(a))

    def settings_changed(self):
        told = dict(w.split("=") for w in self._told.split())
        for name in commands.NAMES:
            value = commands.value(self.settings, name)
            if value != told[name]:
                try:
                    self.learn_settings(self._command("set %s %s" % (name, value)))
                except commands.CommandError:
                    self.learn_settings(self._command("settings"))  # as the device has them
                    raise


class DeviceRig(Rig):
    """DeviceRig(position=None, settings=None, actions=(), seed=0,
    flash=None, truth=None, store=None, runtime="micropython"): see the
    module's docstring.
    position: the game's start (None: the rules' START), actions played
    since (notation); store: a saved game to resume instead (a store's
    load() and records(), as scenario.Rig takes); flash: boot the flash a
    power_cut() left; truth: the physical board as it stands (a
    VirtualBoard; by default laid out as the game has it); runtime: the
    firmware the emulated Pico boots, "micropython" or "circuitpython"
    (tools/pico's CircuitPython tree: code.py, CIRCUITPY)."""

    # The page's hand steps, held this long: a reed must stay put for the
    # debounce (5 ms) counted from the first scan that sees it, and the pass
    # that draws a lifted piece's destinations scans nothing for about 10 ms
    # on the RP2040. (A hand takes a tenth of a second or more.)
    hand_ms = 40

    def __init__(self, position=None, settings=None, actions=(), seed=0, flash=None, truth=None,
                 store=None, runtime="micropython"):
        why = pico.missing(runtime)
        if why:
            raise pico.Unavailable(why)
        saved = store.load() if store is not None else None
        if saved is not None:
            records = list(store.records())
            settings, position, pos, _ = session.load(saved, records)
            actions = [action_text(a) for a in pos.stack]
            saved = pack(saved) if not records else None
        position = position or START
        self.board = DeviceBoard(position, actions, ask=self.ask, frame=lambda: self.frame)
        self.virtual = truth or VirtualBoard.from_position(Position(self.board.pos.text()),
                                                           seed=seed)
        self._ear = Ear(self.virtual.buzzer)
        self.buttons = 0
        self.frames = 0
        self.on_frame = None
        self.node_us = 0
        self._reeds = None
        self._tags = [None] * 64
        self._buttons_sent = 0
        self._heard = 0             # the buzzer pin's tones heard so far
        self._out = 0               # how far the serial output has been read
        self._answers = []
        self._wakes = [0] * 64
        self._mems = {}             # each tile's tag memory, by terrain and serial
        files = {}
        if flash is None:
            files["game.bin"] = saved or pack(self._save(settings or session.Settings(), position,
                                                         actions))
        self._changed = 0           # when the truth last changed (device ms)
        reeds, tiles = self._truth()
        self.runtime = runtime
        self.dev = pico.Pico(files, autorun=True, reeds=reeds, tiles=tiles, flash=flash,
                             runtime=runtime)
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
        self.board.learn_settings(self.ask("settings"))
        self.board.learn_power(self.ask("power"))
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

    def still(self):
        """The board has seen the hands' last change (SETTLE_MS and a sweep
        since) and judged the board (the page's tidy hands wait for it)."""
        return self.board.judged and self.now - self._changed >= SETTLE_MS + 200

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
        """The truth pushed to the emulator; the names of the device's
        acknowledgements ('reeds_at', ...) to wait for."""
        sent = []
        reeds, tiles = self._truth()
        if reeds != self._reeds:
            self.dev.set_reeds(reeds)
            self._reeds = reeds
            self._changed = self.now
            sent.append("reeds_at")
        for c in range(64):
            mem = tiles.get(c)
            if mem != self._tags[c]:
                self.dev.set_tags(c, *([mem] if mem else []))
                self._tags[c] = mem
                self._changed = self.now
                sent.append("tags_at")
        if self.buttons != self._buttons_sent:
            held = []
            if self.buttons & A:
                held.append(pins.BUTTON_A)
            if self.buttons & B:
                held.append(pins.BUTTON_B)
            self.dev.press(*held)
            self._buttons_sent = self.buttons
            sent.append("buttons_at")
        return sent

    # --- the host link ---------------------------------------------------------
    def _read_link(self):
        """Take the board's new lines: events for the DeviceBoard, answers kept."""
        out = self.dev.output
        end = out.rfind("\n") + 1
        if end <= self._out:
            return
        for raw in out[self._out:end].splitlines():
            line = raw.strip()
            m = _LINE.match(line)
            if not m:
                if line:           # the console's own lines (main.py's messages)
                    self.board.messages.append(line)
                    del self.board.messages[:-8]
                continue
            kind, rest = m.group(2), m.group(3) or ""
            if kind in ("ok", "error"):
                self._answers.append((kind, rest))
            else:
                self.board.event(kind, rest)
                if kind == "verdict":
                    self.board.sense.action = self._seen() if self.board.verdict == NOT_ASKED else -1
        self._out = end

    def _hear(self):
        """The buzzer pin's new tones, to the ear."""
        tones = self.dev.tones
        for tone in tones[self._heard:]:
            self._ear.hear(*tone)
        self._heard = len(tones)

    def _seen(self):
        """The legal action whose result the hands' board shows (the board
        said not-asked: it saw one), or -1."""
        pos, v = Position(self.board.pos.text()), self.virtual
        for a in pos.legal_actions():
            pos.push(a)
            same = bytes(pos.pieces) == bytes(v.pieces) and bytes(pos.tiles) == bytes(v.tiles)
            pos.pop()
            if same:
                return a
        return -1

    def _until_answer(self, command, timeout):
        command = ANSWER_WORD.get(command, command)

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
        word = ANSWER_WORD.get(word, word)
        kind, rest = next((k, r) for k, r in self._answers if k == "error" or r.split()[:1] == [word])
        if kind == "error":
            raise RuntimeError("%s: %s" % (command.split()[0], rest))
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
        sent = self._sync()
        dev = self.dev
        # The emulator runs on while the truth is sent: count the passes from
        # when the change took effect, or a hand's short step (hand_ms) may
        # pass before the device has seen it (a capture's lifted piece missed).
        if not dev.wait(lambda: all(getattr(dev, k) is not None for k in sent), ANSWER_S):
            raise RuntimeError("the emulated Pico stopped: the hands' change never took effect")
        took = max([getattr(dev, k) for k in sent] + [0])
        target = max(self.now, took // 1_000_000) + n * TICK_MS
        if not dev.wait(lambda: dev.now >= target * 1_000_000, ANSWER_S):
            raise RuntimeError("the emulated Pico stopped: %s" % (
                "its watchdog fired" if self.dev.watchdog is not None else "out of time"))
        self.now = self.dev.now // 1_000_000
        self._read_link()
        self._hear()

    def follow(self):
        """The truth pushed to the emulator and what it said since taken,
        without waiting: the device runs at its own pace (the page's rig)."""
        self._sync()
        self.dev.drain()
        if self.dev.watchdog is not None:
            raise RuntimeError("the emulated Pico stopped: its watchdog fired")
        self.now = max(self.now, self.dev.now // 1_000_000)
        self._read_link()
        self._hear()

    def until(self, done, max_ms=5000, step=1):
        """Until done() (True) or max_ms of device time (done() then); it
        is asked every `step` passes' worth of time (TICK_MS each)."""
        end = self.now + max_ms
        while self.now < end:
            if done():
                return True
            self.tick(step)
        return done()

    def play_out(self, choose, most=400, answered=None, think_ms=60000):
        """A whole game: the side the board's AI does not play acts by
        choose(pos) -> action, the AI's actions as the board asks for them,
        each carried out by hand, until the game ends or `most` actions
        are played; answered() is called each time the AI has answered,
        before its action is carried out (the link is free then). Returns
        the number of actions played. RuntimeError, with the board's last
        output, when the board stops answering (a crash: its watchdog)."""
        board, pos = self.board, self.board.pos
        side = board.settings.ai_side  # as the board said it at boot
        while board.result() is None and len(pos.stack) < most:
            n = len(pos.stack)
            if pos.side == side:
                # 10 passes' time a look: the search's seconds need no finer watch.
                if not self.until(lambda: board.pending >= 0 or board.result() is not None,
                                  think_ms, step=10):
                    raise RuntimeError("the AI did not answer action %d: %r" % (
                        n, self.dev.output[-600:]))
                if board.result() is not None:
                    break
                if answered is not None:
                    answered()
                a = board.pending
            else:
                a = choose(Position(pos.text()))
            self.play(a, settle=False)
            if not self.until(lambda: len(pos.stack) > n, 20000, step=4):
                raise RuntimeError("action %d (%s) was not taken: %r" % (
                    n + 1, action_text(a), self.dev.output[-600:]))
        return len(pos.stack)

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

    def arrange(self):
        """The page's "tidy the board": tidy hands (Rig.tidy), not the virtual
        board's change at once. A piece swapped for another at once keeps its
        reed closed, and the board, which after a takeback of a capture
        waits to see the taker lifted, would never see it; the virtual
        board's reeds bounce at such a change, the modelled ones do not."""
        if not self.tidy():
            self.wait(self.hand_ms)

    def power_cut(self):
        """The power cut now: the emulator stops dead; the flash as it was."""
        flash = self.dev.power_cut()
        self.dev = None
        return flash
