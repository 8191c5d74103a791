"""A remote opponent on the board's LEDs (Board.set_remote, online play):
while it is here and it is its turn, the thinking light turns round the
centre, as for the board's own AI; while it is gone, its side's colour
stays on the four centre cells; while the room's game is awaited from a
seat's player, that side's colour blinks there; once its action has come
(asked of the board), the light stops."""
from host_sim.scenario import Rig
from vortex.app import leds
from vortex.app.board import NO_REMOTE, REMOTE_HERE, REMOTE_AWAY, REMOTE_WAIT
from vortex.app import commands
from vortex.engine import LIGHT, DARK

CENTRE = ("d4", "d5", "e5", "e4")


def thinking_cells(rig):
    return [c for c in CENTRE if rig.shows(c, leds.THINKING)]


def test_a_remote_opponent_here_thinks_on_its_turn():
    rig = Rig()
    rig.board.set_remote(REMOTE_HERE, DARK)
    assert thinking_cells(rig) == []  # light's turn: nothing turns
    rig.act("W@a1")
    rig.wait(20)
    seen = set()
    for _ in range(8):
        cells = thinking_cells(rig)
        assert len(cells) == 1, cells
        seen.add(cells[0])
        rig.wait(130)
    assert len(seen) == 4  # it went round
    commands.request(rig.board, "F@h8")  # its action came: the board asks for it
    rig.wait(20)
    assert thinking_cells(rig) == []
    assert rig.board.pending >= 0


def test_a_remote_opponent_gone_shows_its_colour_in_the_centre():
    rig = Rig()
    rig.board.set_remote(REMOTE_AWAY, DARK)
    rig.wait(20)
    assert all(rig.shows(c, leds.SIDE[DARK]) for c in CENTRE)
    rig.board.set_remote(REMOTE_AWAY, LIGHT)
    rig.wait(20)
    assert all(rig.shows(c, leds.SIDE[LIGHT]) for c in CENTRE)
    rig.board.set_remote(NO_REMOTE)
    rig.wait(20)
    assert not any(rig.shows(c, leds.SIDE[LIGHT]) for c in CENTRE)


def test_the_rooms_game_awaited_blinks_its_players_colour_in_the_centre():
    rig = Rig()
    rig.board.set_remote(REMOTE_WAIT, DARK)
    seen = set()
    for _ in range(8):
        rig.wait(130)
        lit = [rig.shows(c, leds.SIDE[DARK]) for c in CENTRE]
        assert lit in ([True] * 4, [False] * 4), lit  # the four together
        assert not any(rig.shows(c, leds.THINKING) for c in CENTRE)
        seen.add(lit[0])
        assert rig.board.due_in(rig.now) <= 250  # (a page passing the board rarely sees it blink)
    assert seen == {True, False}
    rig.board.set_remote(REMOTE_AWAY, DARK)  # then the game came, and dark's player is away
    rig.wait(20)
    for _ in range(4):
        rig.wait(130)
        assert all(rig.shows(c, leds.SIDE[DARK]) for c in CENTRE)


def test_a_game_taken_whole_is_the_boards_saved_once_and_taken_back_as_any():
    from hal_fake_fs import MemFS
    from vortex.hal.store import FileStore
    from vortex.app.board import Board
    from vortex.engine.position import START
    from checks import raises
    store = FileStore("/game.bin", MemFS())
    board = Board(store)
    moves = ["W@d4", "F@e5", "E@c3", "A@f6"]
    commands.take_game(board, START, moves)
    assert [board.pos.action_text(a) for a in board.pos.stack] == moves
    assert store.records() == []  # one snapshot, not a record an action
    again = Board(store)  # a power cut: the game is there
    assert again.pos.text() == board.pos.text() and again.start == START
    assert board.takeback() and len(board.pos.stack) == 3
    before = board.pos.text()
    raises(ValueError, commands.take_game, board, START, ["W@d4", "W@d4"])
    raises(ValueError, commands.take_game, board, "nonsense", [])
    assert board.pos.text() == before  # refused: the board's game as it was
