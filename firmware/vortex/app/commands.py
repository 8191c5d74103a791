"""The board's commands, one set for every way in: the settings menu on the
LEDs, the host link (docs/protocol.md), the simulator's page and the
terminal. Each command checks its words and either does it through the
Board or raises CommandError with a one-line reason; none changes the game
any other way.

    new_game(board, text=None)        a new game (from a position in notation)
    take_game(board, start, actions)  a game given whole: its start and its actions (a room's)
    take_played(board, start, pos)    the same, already played on a Position (the link's `game`)
    takeback(board)                   take back the last action (the AI's too)
    request(board, text)              a remote opponent's action to carry out
    hint(board)                       ask the AI for a hint
    set_setting(board, name, value)   one setting, by name and value text
    settings_text(settings)           every setting: "ai=off level=3 clock=0+0 ..."

The settings, by name (the menu's rows, from rank 8 down, in this order):

    ai          off, light, dark      the side the board's AI plays
    clock       MIN+INC               off is 0+0; the menu offers 5 of them
    brightness  0-3                   the LEDs' brightness
    budget      auto, 300-1500        the LEDs' current budget, mA: auto is what the
                                      power source allows; a number caps it lower
    hearts      fixed, free           the Hearts' setup option
    level       1-5                   the AI's strength (1 gentle, 5 strongest)
    volume      off, soft, loud       the board's sounds (vortex.app.sounds)
"""
from vortex.engine.defs import LIGHT, DARK, const
from vortex.engine.position import Position, START
from vortex.app.session import NO_AI
from vortex.app import leds

# The settings, in the menu's order, with the values the menu steps through.
NAMES = ("ai", "clock", "brightness", "budget", "hearts", "level", "volume")
AI_VALUES = ("off", "light", "dark")
_CLOCK_VALUES = const(("0+0", "5+3", "10+5", "15+10", "30+0"))  # the menu's; the link takes any
_BRIGHTNESS_VALUES = const(("0", "1", "2", "3"))
# The budget caps what the LEDs draw below what the power source allows
# (leds.budget): default USB, a 1.5 A and a 3 A source leave them 178, 1078
# and 1853 mA above their idle draw (hardware/power.py's LED_BUDGET_MA; the
# 3 A source's is held under the polyfuse), so the caps step between them:
# 300, 500 and 900 for a weak cable or a power bank, 1500 for a 3 A source
# on a cable that drops too much (tests/test_hardware.py checks they do).
BUDGET_VALUES = ("auto", "300", "500", "900", "1500")
_HEARTS_VALUES = const(("fixed", "free"))
_LEVEL_VALUES = const(("1", "2", "3", "4", "5"))  # the device's levels (vortex/ai/levels.py)
VOLUME_VALUES = ("off", "soft", "loud")  # settings.volume: vortex.hal.buzzer.VOLUME_DUTY's index
MENU_VALUES = (AI_VALUES, _CLOCK_VALUES, _BRIGHTNESS_VALUES, BUDGET_VALUES, _HEARTS_VALUES,
               _LEVEL_VALUES, VOLUME_VALUES)
MAX_CLOCK_MIN = const(180)
MAX_INCREMENT_S = const(60)


class CommandError(ValueError):
    """A command refused: str(e) is the one-line reason to show."""


def _open(board):
    # The settings menu on the board holds the game still.
    if board.menu is not None:
        raise CommandError("the settings menu is open on the board")


# --- the game -------------------------------------------------------------------
def new_game(board, text=None):
    """A new game, from the start or from a position in notation."""
    _open(board)
    text = text or START
    Position(text)  # NotationError (a ValueError) if it is not a position
    board.new_game(text)


def take_game(board, start, actions):
    """A game given whole, its start position and its actions in notation
    (an online room's, for a board that was off or elsewhere): the board's
    game becomes it, its record and takebacks as if played here, and the
    LEDs show what to put right on the board. NotationError or
    IllegalAction, the board's game untouched, if it is not a game."""
    _open(board)
    pos = Position(start)
    for text in actions:
        pos.push(pos.parse_action(text))
    take_played(board, start, pos)


def take_played(board, start, pos):
    """A game given whole and already checked: pos, a Position played from
    start (the link's `game`, which checks each action as its line comes).
    The board's game becomes it, one save for the whole game."""
    _open(board)
    board.new_game(start, pos.stack)


def takeback(board):
    """Take back the last action (against the AI, back to the human's turn)."""
    _open(board)
    if not board.takeback():
        raise CommandError("nothing to take back")


def request(board, text):
    """A remote opponent's action, in notation: the board lights it and
    accepts only it. Returns the action."""
    _open(board)
    if board.result() is not None:
        raise CommandError("the game is over")
    if board.settings.ai_side == board.pos.side:
        raise CommandError("the board's AI plays %s" % AI_VALUES[board.pos.side + 1])
    a = board.pos.parse_action(text)  # NotationError or IllegalAction: the reason
    board.request(a)
    return a


def hint(board):
    """Ask the AI for the action it would play for the side to act."""
    _open(board)
    if board.result() is not None:
        raise CommandError("the game is over")
    if not board.ask_hint():
        raise CommandError("no hint now: the board waits for an action of its own")


# --- settings -------------------------------------------------------------------
def value(settings, name):
    """A setting's value, as text."""
    s = settings
    if name == "ai":
        return AI_VALUES[0 if s.ai_side == NO_AI else s.ai_side + 1]
    if name == "clock":
        return "%d+%d" % (s.clock_ms // 60000, s.increment_ms // 1000)
    if name == "brightness":
        return str(s.brightness)
    if name == "budget":
        return str(s.budget_ma) if s.budget_ma != leds.AUTO else BUDGET_VALUES[0]
    if name == "hearts":
        return _HEARTS_VALUES[1 if s.free_hearts else 0]
    if name == "level":
        return str(s.ai_level)
    if name == "volume":
        return VOLUME_VALUES[s.volume]
    raise CommandError("no setting %s: %s" % (name[:20], ", ".join(NAMES)))


def change(settings, name, text):
    """Set one setting from its value text in a Settings object (nothing
    else: set_setting() also tells the board)."""
    s = settings
    if name == "clock":
        m, plus, inc = text.partition("+")
        if not (_digits(m) and _digits(inc) and int(m) <= MAX_CLOCK_MIN
                and int(inc) <= MAX_INCREMENT_S):
            raise CommandError("clock is MINUTES+SECONDS, as 10+5 (0+0: none; from the next game)")
        s.clock_ms, s.increment_ms = int(m) * 60000, int(inc) * 1000
        return
    values = _values(name)
    if text not in values:
        raise CommandError("%s is %s" % (name, _either(values)))
    i = values.index(text)
    if name == "ai":
        s.ai_side = (NO_AI, LIGHT, DARK)[i]
    elif name == "brightness":
        s.brightness = i
    elif name == "budget":
        s.budget_ma = int(text) if i else leds.AUTO
    elif name == "hearts":
        s.free_hearts = i
    elif name == "level":
        s.ai_level = i + 1
    else:
        s.volume = i


def set_setting(board, name, text):
    """Set one setting by name and value text (the link's and the page's
    `set ai dark`); the board takes it at once (the AI may now play)."""
    _open(board)
    change(board.settings, name.lower(), text.lower())
    board.settings_changed()


def settings_text(settings):
    """Every setting as name=value, in the menu's order."""
    return " ".join("%s=%s" % (n, value(settings, n)) for n in NAMES)


def _values(name):
    for i in range(len(NAMES)):
        if NAMES[i] == name:
            return MENU_VALUES[i]
    raise CommandError("no setting %s: %s" % (name[:20], ", ".join(NAMES)))


def _either(values):
    return ", ".join(values[:-1]) + " or " + values[-1]


def _digits(text):
    if not text or len(text) > 6:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return True


def brightness_step(settings):
    """The next brightness level (the B button's short press)."""
    settings.brightness = (settings.brightness + 1) % len(leds.LEVELS)


# --- records ------------------------------------------------------------------------
def record_tags(board, date=None):
    """The tags of the game's record (docs/record.md): where, who played,
    the settings, the result; the date where the caller knows it (the
    board has no calendar)."""
    from vortex import record  # on demand: the board holds it only while a record is made
    s = board.settings
    names = ["player", "player"]
    if s.ai_side != NO_AI:
        names[s.ai_side] = "board AI"
    tags = {"Site": "Vortex board", "Light": names[0], "Dark": names[1],
            "Settings": settings_text(s), "Result": record.result_text(board.result())}
    if date:
        tags["Date"] = date
    return tags
