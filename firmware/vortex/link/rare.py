"""The link's rarely used commands (game, record, power, online, memory),
loaded when one is asked and unloaded after its answer (Link._line): their
bytecode stays out of the heap the board keeps at boot, which
CircuitPython's is short of (docs/device.md). Each is do_NAME(link, args),
as Link's own _do_NAME(args)."""
from array import array

from vortex.engine.notation import action_text
from vortex.engine.position import Position
from vortex.app import commands
from vortex.app.leds import SUPPLY_NAMES
from vortex import heap
from vortex.link.link import LinkError, HEAP_TOP


class _Actions:
    """The game's actions as record.lines() reads them (len(), [i] in
    notation): the codes copied at 2 bytes each (the game may go on while
    its record is sent), each written out when its turn comes, so a long
    game's record holds no string per action."""

    def __init__(self, stack):
        self.codes = array("H", stack)

    def __len__(self):
        return len(self.codes)

    def __getitem__(self, i):
        return action_text(self.codes[i])


def do_record(link, args):
    link._no_args(args)
    b = link.board
    from vortex import record  # 4 KB of the heap, CircuitPython's scarce
    # The generator holds what it needs: the link sends it a tick at a time
    # (Link._send_record) after this module is unloaded.
    link._record = record.lines(commands.record_tags(b), b.start, _Actions(b.pos.stack))
    link._record_n = 0
    link._send_record()


def do_game(link, args):
    # A game given whole, a line at a time (a record loaded, an online
    # room's game): `game START`, then `game + ACTION...` as many lines
    # as it takes, each action checked by the engine as it comes, then
    # `game end`, when the board takes it (commands.take_played). Until
    # then the board's game is untouched; a line refused changes nothing.
    if not args:
        raise LinkError("game takes a start position, + and actions, or end")
    word = args[0]
    if word == "+" or word == "end":
        pos = link._game
        if pos is None:
            raise LinkError("no game begun: game START first")
        if word == "end":
            link._no_args(args[1:])
            link._game = None
            commands.take_played(link.board, link._game_start, pos)
        else:
            n = len(pos.stack)
            try:
                for text in args[1:]:
                    pos.push(pos.parse_action(text))
            except ValueError as e:  # the line's actions taken back: nothing of it stays
                bad = len(pos.stack) + 1
                while len(pos.stack) > n:
                    pos.pop()
                raise LinkError("action %d: %s" % (bad, e))
        link._answer("game", str(len(pos.stack)))
        return
    text = " ".join(args)
    link._game = Position(text)  # NotationError: the reason
    link._game_start = text
    link._answer("game", "0")


def do_power(link, args):
    # What the USB-C source offers (read at boot), and the LEDs' budget now.
    link._no_args(args)
    b = link.board
    link._answer("power", "source %s leds %d budget %d" % (
        SUPPLY_NAMES[b.supply] if b.supply >= 0 else "-", b.supply_ma, b.budget_ma()))


def do_online(link, args):
    # Online play's settings and state (vortex/online/settings.py); the
    # words are the settings' (secrets are never sent back).
    if link.online is None:
        raise LinkError("no online play on this board (a Pico W build has it)")
    link._answer("online", link.online.command(args))


def do_memory(link, args):
    # The heap now (a collection, then blocks asked for: tens of ms), and
    # as the board found it before its AI's searches (vortex.heap). This
    # module is loaded while it measures (about 2 KB on CircuitPython).
    link._no_args(args)
    b = link.board
    link._answer("memory", "free %d largest %d before %d low %d table %d short %d" % (
        heap.free(), heap.largest(HEAP_TOP), b.heap_before, b.heap_low, b.table_bytes(),
        b.short))
