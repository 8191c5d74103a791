"""Settings and the saved game.

A save is text, so a maker can read it off the board with mpremote:

    vortex-game 1
    settings <ai side> <clock ms> <increment ms> <brightness> <budget mA> <free hearts> <ai level> <volume>
    <the position the game started from>
    <the actions played, in notation, space-separated>
    clock <Light's ms left> <Dark's ms left>

The store (hal/store.py) writes it atomically with a checksum, at a new
game and on resuming. Between, each change is one short record appended to
the store's journal, so that a save costs the same at action 300 as at
action 10:

    a <action> <Light's ms left> <Dark's ms left>    an action committed
    u <count> <Light's ms left> <Dark's ms left>     actions taken back
    c <Light's ms left> <Dark's ms left>             the clock (a time-out)

Older saves load too: a settings line without the volume (the default's)
or without the AI level. A budget of 0 is the power source's (auto).
"""
from vortex.engine.position import Position
from vortex.engine.notation import action_text, parse_action

MAGIC = "vortex-game 1"
NO_AI = -1


class Settings:
    """ai_side: LIGHT, DARK or NO_AI. clock_ms 0 plays without a clock.
    brightness: the LEDs' level, an index into leds.LEVELS. free_hearts:
    before the first tile, a Heart may be set on any file of its back rank
    (the setup option of docs/rules.md#board-and-setup). ai_level: the AI's
    strength. budget_ma: the most the LEDs may draw, 0 (auto) for what the
    power source allows (vortex.app.leds.budget). volume: the sounds', 0
    off, 1 soft, 2 loud (vortex.app.commands.VOLUME_VALUES). Set them by name
    through vortex.app.commands."""

    def __init__(self, ai_side=NO_AI, clock_ms=0, increment_ms=0, brightness=2, budget_ma=0,
                 free_hearts=0, ai_level=3, volume=1):
        self.ai_side = ai_side
        self.clock_ms = clock_ms
        self.increment_ms = increment_ms
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.free_hearts = free_hearts
        self.ai_level = ai_level  # 1 (gentle) to 5 (the strongest the board runs)
        self.volume = volume

    def fields(self):
        return (self.ai_side, self.clock_ms, self.increment_ms, self.brightness, self.budget_ma,
                self.free_hearts, self.ai_level, self.volume)


def dump(settings, start, actions, clock_left):
    """The save text of a game, as bytes."""
    return ("%s\nsettings %d %d %d %d %d %d %d %d\n%s\n%s\nclock %d %d\n" % (
        (MAGIC,) + settings.fields() + (start, " ".join(action_text(a) for a in actions))
        + tuple(clock_left))).encode()


def action_record(action, clock_left):
    return ("a %s %d %d" % (action_text(action), clock_left[0], clock_left[1])).encode()


def undo_record(count, clock_left):
    return ("u %d %d %d" % (count, clock_left[0], clock_left[1])).encode()


def clock_record(clock_left):
    return ("c %d %d" % (clock_left[0], clock_left[1])).encode()


def load(data, records=()):
    """(settings, start text, Position with the actions replayed, clock_left)
    from a save and the records after it; ValueError if it is not a valid one."""
    lines = bytes(data).decode().split("\n")
    if len(lines) < 5 or lines[0] != MAGIC:
        raise ValueError("save: not a vortex game")
    f = lines[1].split()
    c = lines[4].split()
    if len(f) not in (7, 8, 9) or f[0] != "settings" or len(c) != 3 or c[0] != "clock":
        raise ValueError("save: bad settings or clock line")
    settings = Settings(*[int(x) for x in f[1:]])
    pos = Position(lines[2])
    for text in lines[3].split():
        a = parse_action(text)
        if not pos.is_legal(a):
            raise ValueError("save: illegal action " + text)
        pos.push(a)
    left = [int(c[1]), int(c[2])]
    for r in records:
        f = bytes(r).decode().split()
        if len(f) < 3 or f[0] not in ("a", "u", "c") or len(f) != (3 if f[0] == "c" else 4):
            raise ValueError("save: bad record " + repr(bytes(r)))
        if f[0] == "a":
            a = parse_action(f[1])
            if not pos.is_legal(a):
                raise ValueError("save: illegal action " + f[1])
            pos.push(a)
        elif f[0] == "u":
            if int(f[1]) > len(pos.stack):
                raise ValueError("save: takeback past the start")
            for _ in range(int(f[1])):
                pos.pop()
        left = [int(f[-2]), int(f[-1])]
    return settings, lines[2], pos, left
