"""The bridge between a board on USB and an online room (host_sim/online/
bridge.py's RoomPeer), in this process with a real Room and a player that
needs no broker: the board's actions go to the room in their order, one the
room refuses is taken back on the board and said in one line, and the
room's actions come back numbered, each once."""
from host_sim.online.bridge import RoomPeer
from vortex.online.room import Room
from vortex.engine.defs import LIGHT
from test_app_scenarios import BATTLE


class Player:
    """What RoomPeer uses of online.player.Player, without a broker."""

    def __init__(self):
        self.room = Room("den", BATTLE, "secret", LIGHT, "ann")
        self.name, self.address, self.up, self.side = "den", "broker:1883", True, LIGHT
        self.seated = True
        self.waiting = None
        self.news = []
        self.polls = 0

    def ready(self):
        return self.seated

    def poll(self):
        self.polls += 1

    def act(self, text):
        self.room.act(text)

    def opponent(self):
        return "here"

    def fileno(self):
        return 7


class Board:
    def __init__(self):
        self.sent = []

    def send(self, line):
        self.sent.append(line)


def bridge():
    said = []
    pl, board = Player(), Board()
    return RoomPeer(pl, board, said.append), pl, board, said


def test_the_board_s_action_goes_to_the_room():
    peer, pl, board, said = bridge()
    assert peer.fileno() == 7
    peer.send("action 1 e2e4")
    assert list(pl.room.actions) == ["e2e4"] and board.sent == [] and said == []
    peer.send("action 1 e2e4")  # the same again (a resend): nothing more
    for line in ("hello", "moved 2 d7d6", "action two d7d6", "action 2"):  # not action lines
        peer.send(line)
    assert list(pl.room.actions) == ["e2e4"] and board.sent == [] and said == []


def test_offered_before_the_room_is_read_it_goes_once_the_room_is():
    peer, pl, board, said = bridge()
    pl.seated = False
    peer.send("action 1 e2e4")
    assert list(pl.room.actions) == [] and peer.lines() == []
    assert said == ["room den: joining on broker:1883..."]
    pl.seated = True
    assert peer.lines() == ["action 1 e2e4"]  # in the room now, and the board told of it
    assert said[-1] == "room den: you play light; your opponent (dark) is here"
    assert peer.lines() == [] and len(said) == 2  # each once


def test_a_later_action_waits_for_the_one_before():
    peer, pl, board, said = bridge()
    peer.send("action 3 a2a3")  # action 2 (Dark's) is not in the room yet
    assert list(pl.room.actions) == [] and peer.offered == {3: "a2a3"}
    peer.send("action 1 e2e4")
    assert list(pl.room.actions) == ["e2e4"] and peer.offered == {3: "a2a3"}
    assert board.sent == [] and said == []


def test_an_action_the_room_refuses_is_taken_back_on_the_board():
    peer, pl, board, said = bridge()
    peer.send("action 1 e2d3")  # e2 is on Water: no diagonal
    assert list(pl.room.actions) == [] and board.sent == ["takeback"]
    assert len(said) == 1 and said[0].startswith("refused the board's e2d3: illegal action e2d3")
    assert said[0].endswith("; taking it back on the board") and "\n" not in said[0]


def test_an_action_the_room_already_has_otherwise_is_taken_back():
    peer, pl, board, said = bridge()
    peer.send("action 1 e2e4")
    peer.send("action 1 d2d4")  # the board played another first action
    assert list(pl.room.actions) == ["e2e4"] and board.sent == ["takeback"]
    assert said == ["refused the board's d2d4: the room's action 1 is e2e4; "
                    "taking it back on the board"]


def test_the_room_s_actions_and_news_come_back_each_once():
    peer, pl, board, said = bridge()
    pl.room.act("e2e4")  # the room's game, as a state from the broker would bring it
    pl.news.append("ben sat down as dark")
    assert peer.lines() == ["action 1 e2e4"] and pl.polls == 1
    assert said == ["room: ben sat down as dark",
                    "room den: you play light; your opponent (dark) is here"]
    assert pl.news == [] and peer.lines() == [] and len(said) == 2


def test_the_board_s_earlier_actions_are_checked_against_the_room_s_own():
    peer, pl, board, said = bridge()
    pos = pl.room.begin(BATTLE, [])
    played = [pos.parse_action("e2e4")]
    pos.push(played[0])
    played.append(pos.parse_action("d7d6"))
    pl.room.begin(BATTLE, played)  # the room's game: e2e4 d7d6, Light to act
    pl.seated = False
    for line in ("action 1 e2e4", "action 2 d7d6", "action 3 a2a3"):  # a resend, then ours
        peer.send(line)
    pl.seated = True
    assert peer.lines() == ["action 1 e2e4", "action 2 d7d6", "action 3 a2a3"]
    assert board.sent == [] and len(said) == 1  # the presence line: nothing refused
    peer.send("action 1 d2d4")
    assert board.sent == ["takeback"]
    assert said[-1] == ("refused the board's d2d4: the room's action 1 is e2e4; "
                        "taking it back on the board")
