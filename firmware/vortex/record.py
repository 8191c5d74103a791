"""The game record: a game as text, in the spirit of PGN (docs/record.md).

    [Date "2026.11.30"]
    [Light "Ana"]
    [Dark "board AI"]
    [Result "1-0"]

    1. W@d4 E@e5 2. A@c3 F@f6 ... 1-0

Tag lines first (a Start tag holds the position the game started from when
it is not the standard start), a blank line, then the actions in notation
(docs/notation.md) with turn numbers, and the result last. Every action is
checked by replaying it through the engine: a record that reads is a game
that was legal from its first action to its last.

    >>> text = write({"Light": "Ana"}, None, ["W@d4", "E@e5"])
    >>> read(text)
    ({'Light': 'Ana'}, '8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0', ['W@d4', 'E@e5'])
"""
from vortex.engine.position import Position, START
from vortex.engine.notation import NotationError, parse_action, action_text

# The results, as in PGN: Light's score first (an engine Outcome's result()).
LIGHT_WINS = "1-0"
DARK_WINS = "0-1"
DRAW = "1/2-1/2"
UNKNOWN = "*"  # going on, or not known
RESULTS = (LIGHT_WINS, DARK_WINS, DRAW, UNKNOWN)
# Written first, in this order; any other tags follow in name order.
ORDER = ("Event", "Site", "Date", "Light", "Dark", "Settings", "Result")
START_TAG = "Start"
WIDTH = 79  # movetext lines are wrapped to this width


def result_text(outcome):
    """The Result of an engine Outcome (None: the game goes on)."""
    return UNKNOWN if outcome is None else outcome.result()


def _check_name(name):
    ok = bool(name) and "A" <= name[0].upper() <= "Z"
    for ch in name:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch == "_"):
            ok = False
    if not ok:
        raise ValueError("tag: %r is not a name (letters, digits, _; a letter first)" % name)


def _quote(value):
    for ch in value:
        if ch < " ":
            raise ValueError("tag: %r has a control character" % value)
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag_names(tags):
    names = [n for n in ORDER if n in tags]
    return names + sorted(n for n in tags if n not in ORDER)


def lines(tags, start_text, actions):
    """The record's lines, one at a time (the board sends them as they come).
    tags: dict of name -> text; start_text: the position the game started
    from (None for the start); actions: the actions in notation."""
    result = tags.get("Result", UNKNOWN)
    if result not in RESULTS:
        raise ValueError("tag: Result %r is not one of %s" % (result, ", ".join(RESULTS)))
    for name in _tag_names(tags):
        _check_name(name)
        if name == START_TAG:
            raise ValueError("tag: Start is the start_text argument, not a tag")
        yield "[%s %s]" % (name, _quote(tags[name]))
    pos = _start(start_text)
    if pos.text() != START:
        yield "[%s %s]" % (START_TAG, _quote(pos.text()))
    yield ""
    # Turn numbers follow the start position's ply: turn n is plies 2n-2 and 2n-1.
    ply = pos.ply
    words = []  # type: list[str]
    width = 0
    for i in range(len(actions) + 1):
        if i == len(actions):
            word = result
        else:
            word = action_text(parse_action(actions[i]))
            if ply % 2 == 0:
                word = "%d. %s" % (ply // 2 + 1, word)
            elif i == 0:
                word = "%d... %s" % (ply // 2 + 1, word)
            ply += 1
        if words and width + 1 + len(word) > WIDTH:
            yield " ".join(words)
            words = []
            width = 0
        width += len(word) + (1 if words else 0)
        words.append(word)
    yield " ".join(words)


def write(tags, start_text, actions):
    """The record as text (lines ending in newlines)."""
    return "\n".join(lines(tags, start_text, actions)) + "\n"


def _start(text):
    try:
        return Position(START if text is None else text)
    except NotationError as e:
        raise ValueError("start: %s" % e)


def _unquote(text, n):
    # text is what follows the tag name: "value"]
    if len(text) < 3 or text[0] != '"' or text[-2:] != '"]':
        raise ValueError('line %d: a tag is [Name "value"]' % n)
    out = []
    i = 1
    end = len(text) - 2
    while i < end:
        ch = text[i]
        if ch == "\\":
            i += 1
            if i >= end or text[i] not in '\\"':
                raise ValueError('line %d: only \\" and \\\\ are escapes in a tag value' % n)
            ch = text[i]
        elif ch == '"':
            raise ValueError('line %d: a " inside a tag value is written \\"' % n)
        elif ch < " ":
            raise ValueError("line %d: a tag value has a control character" % n)
        out.append(ch)
        i += 1
    return "".join(out)


def read(text):
    """(tags, start_text, actions) of a record: tags without Start, the start
    position's text (START when the record has none), the actions in
    canonical notation. ValueError with a one-line reason if the text is not
    a record of a legal game. Reads line by line (no list of every word), so
    that a long game fits a small heap."""
    if not isinstance(text, str):
        raise ValueError("record: expected text, got %s" % type(text).__name__)
    tags = {}  # type: dict[str, str]
    pos = None
    actions = []  # type: list[str]
    ended = None  # the result word, once the movetext gave it
    n = 0
    at = 0
    while at <= len(text):
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        line = text[at:end].strip()
        at = end + 1
        n += 1
        if not line:
            continue
        if line[0] == "[":
            if pos is not None:  # a tag must not change a game already replayed
                raise ValueError("line %d: a tag after the movetext (tags come first)" % n)
            _read_tag(line, n, tags)
            continue
        if pos is None:
            pos = _begin(tags)
            start = pos.text()
        for word in line.split():
            if ended is not None:
                raise ValueError("movetext: the result %s comes after the last action" % ended)
            if word in RESULTS:
                ended = word
                continue
            dot = word.rfind(".")
            if dot >= 0:  # a turn number, "12." or "12...", maybe run into its action: "12.W@d4"
                digits = word[:dot + 1].rstrip(".")
                if not digits or [ch for ch in digits if ch not in "0123456789"]:
                    raise ValueError("movetext: %r is not a turn number (as 12.)" % word)
                word = word[dot + 1:]
                if not word:
                    continue
            try:
                a = parse_action(word)
            except NotationError as e:
                raise ValueError("action %d: %s" % (len(actions) + 1, e))
            why = pos.why_illegal(a)
            if why:
                raise ValueError("action %d: %s is illegal: %s" % (len(actions) + 1, word, why))
            pos.push(a)
            actions.append(action_text(a))
    if pos is None:
        pos = _begin(tags)
        start = pos.text()
    result = tags.get("Result", UNKNOWN)
    if ended is not None and ended != result:
        if "Result" in tags:
            raise ValueError("movetext: ends in %s but the Result tag says %s" % (ended, result))
        result = tags["Result"] = ended
    over = result_text(pos.outcome())
    if over != UNKNOWN and result != over:
        raise ValueError("result: the game ended %s, the record says %s" % (over, result))
    tags.pop(START_TAG, None)
    return tags, start, actions


def _read_tag(line, n, tags):
    sp = line.find(" ")
    if sp < 0:
        raise ValueError('line %d: a tag is [Name "value"]' % n)
    name = line[1:sp]
    _check_name(name)
    if name in tags:
        raise ValueError("line %d: tag %s given twice" % (n, name))
    tags[name] = _unquote(line[sp + 1:].strip(), n)


def _begin(tags):
    # The tags are read: check the Result, set up the start position.
    result = tags.get("Result", UNKNOWN)
    if result not in RESULTS:
        raise ValueError("tag: Result %r is not one of %s" % (result, ", ".join(RESULTS)))
    return _start(tags.get(START_TAG))
