"""The host link at its edges (CPython; tests/test_link.py has the rest and
runs under MicroPython too): the lift of cell a1 (cell 0), a NUL byte, a
bug in a command answered as an internal error cut to a message's length,
the outbox's room for an answer at its exact bound, the output budget of a
tick, the online command."""
from vortex.engine import parse_cell
from vortex.link.link import ANSWER_ROOM, OUT_PER_TICK
from vortex.link.outbox import MESSAGE_MAX
from test_link import Host, answers

# BATTLE's position with Light's b2 Traveller on a1 instead: a1 can move.
A1 = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
      "4h3/tttttttt/8/8/8/8/1TTTTTTT/T3H3 l 3,4 - 0 64")


def test_a_piece_lifted_from_a1_is_a_lift_event():
    h = Host(A1)
    h.ask("subscribe lift")
    h.rig.run("lift a1")
    lifts = [r.split() for k, r in h.read() if k == "lift"]
    dests = sorted(a & 63 for a in h.board.pos.legal_actions() if a < 4096 and a >> 6 == 0)
    assert lifts and lifts[0][0] == "a1" and dests
    assert sorted(parse_cell(c) for c in lifts[0][1:]) == dests


def test_a_nul_byte_spoils_its_line():
    h = Host()
    h.pipe.send(b"hel\x00lo\nping\n")
    h.rig.tick(2)
    assert answers(h.read()) == [("error", "byte 0x00 is not printable ASCII"), ("ok", "ping")]


def test_a_bug_in_a_command_is_an_internal_error_and_the_board_goes_on():
    h = Host()

    def broken():
        raise RuntimeError("boom " + "x" * 400)

    h.board.takeback = broken
    got = answers(h.ask("takeback"))
    assert len(got) == 1 and got[0][0] == "error", got
    reason = got[0][1]
    assert reason.startswith("internal error: RuntimeError boom xxx")
    # Cut to what a message holds with its number and kind: 220 characters.
    assert len(reason) == MESSAGE_MAX - 20
    assert h.ask("ping") == [("ok", "ping")]


def test_subscribing_to_the_clock_sends_it_at_once_whatever_is_left():
    # 1.5 s left: the second shown is 1, which no earlier clock event sent.
    from vortex.app.session import Settings
    from test_link import BATTLE
    h = Host(BATTLE, settings=Settings(clock_ms=60000))
    h.board.new_game(BATTLE)
    h.rig.settle()
    clock = h.board.clock
    side = h.board.pos.side
    clock.left[side] = 1500
    got = [r.split() for k, r in h.ask("subscribe clock") if k == "clock"]
    assert got and int(got[0][side]) <= 1500, got


def test_a_line_is_answered_while_the_outbox_has_just_room_for_its_answer():
    # The host does not read; the outbox fills until exactly ANSWER_ROOM
    # bytes are free: that is room enough, the next line is answered now.
    h = Host()
    h.pipe.reading = False
    out = h.link.out
    while out.free() - ANSWER_ROOM > 100:
        h.pipe.send("ping\n")
        h.rig.tick()
    head = "%d ok ping " % out.seq
    h.pipe.send("ping %s\n" % ("w" * (out.free() - ANSWER_ROOM - len(head) - 1)))
    h.rig.tick(3)
    assert out.free() == ANSWER_ROOM
    h.pipe.send("ping x\n")
    h.rig.tick()
    assert out.free() == ANSWER_ROOM - len("%d ok ping x\n" % (out.seq - 1))
    h.pipe.reading = True
    h.rig.tick(20)
    assert answers(h.read())[-1] == ("ok", "ping x")


class FakeOnline:
    """The online client's command(): the answer text, or ValueError."""

    def __init__(self):
        self.asked = []

    def command(self, words):
        self.asked.append(list(words))
        if words == ["room"]:
            raise ValueError("online takes nothing, settings, on, off, or a name and a value")
        return "off room friday"


def test_the_online_command_answers_with_the_clients_text():
    h = Host()
    assert answers(h.ask("online")) == [
        ("error", "no online play on this board (a Pico W build has it)")]
    h.link.client = FakeOnline()
    assert answers(h.ask("online room friday")) == [("ok", "online off room friday")]
    assert answers(h.ask("ONLINE")) == [("ok", "online off room friday")]
    assert answers(h.ask("online room")) == [
        ("error", "online takes nothing, settings, on, off, or a name and a value")]
    assert h.link.client.asked == [["room", "friday"], [], ["room"]]


def test_at_most_out_per_tick_bytes_leave_in_a_tick():
    h = Host()
    h.pipe.reading = False
    for _ in range(30):
        h.pipe.send("ping %s\n" % ("w" * 40))
        h.rig.tick(2)
    assert h.link.out.used > 3 * OUT_PER_TICK
    h.pipe.reading = True
    sent = []
    while h.link.out.used:
        before = len(h.pipe.sent)
        h.link.serve(h.pipe)
        sent.append(len(h.pipe.sent) - before)
    assert max(sent) == OUT_PER_TICK and len(sent) >= 4, sent
