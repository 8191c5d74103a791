"""The host link (docs/protocol.md) against the firmware's board on the
virtual board: commands, answers, events, the record, bad input and a host
that does not read. Plain asserts: run by pytest and, under MicroPython, by
tests/mpy_runner.py (test_link_micropython.py)."""
import gc

from host_sim.scenario import Rig
from vortex.engine import START, Position, parse_action, parse_cell, action_text
from vortex.app.session import Settings
from vortex.link.link import Link, ANSWER_ROOM
from vortex.link.outbox import Outbox
from vortex.link.lines import LINE_MAX
from vortex import record
from link_pipe import Pipe, HELLO
from test_record import random_game


class Host:
    """A board with its link, and a host at the other end of a pipe."""

    def __init__(self, position=None, settings=None, store=None, actions=()):
        self.rig = Rig(position, settings=settings, store=store, actions=actions)
        self.board = self.rig.board
        self.link = Link(self.board)
        self.pipe = Pipe()
        self.rig.service.link = self.link  # served in every pass, as main.py's is
        self.rig.service.port = self.pipe
        self.seq = -1
        self.log = []

    def read(self):
        """The messages sent since the last read, as (seq, kind, rest) with
        every sequence number checked to follow the one before."""
        got = []
        for line in self.pipe.lines():
            seq, kind, rest = (line.split(" ", 2) + [""])[:3]
            assert int(seq) == self.seq + 1, (self.seq, line)
            self.seq = int(seq)
            got.append((kind, rest))
        self.log.extend(got)
        return got

    def ask(self, command):
        """Send a command, tick once; the messages sent."""
        self.pipe.send(command + "\n")
        self.rig.tick()
        return self.read()


def answers(got):
    return [(k, r) for k, r in got if k in ("ok", "error")]


def test_subscribing_sends_the_state_now_then_changes():
    h = Host(settings=Settings(ai_side=0))
    assert h.ask("subscribe") == [
        ("ok", "subscribe action lift verdict asks clock result memory"), ("verdict", "agree"),
        ("asks", action_text(h.board.pending)), ("result", "*")]
    assert h.ask("subscribe verdict") == [("ok", "subscribe action lift verdict asks clock "
                                                "result memory")]  # already on: nothing again
    assert h.ask("unsubscribe lift clock") == [("ok", "subscribe action verdict asks result memory")]
    assert h.ask("unsubscribe") == [("ok", "subscribe -")]


def test_hello_ping_and_help():
    h = Host()
    assert h.ask("hello") == [("ok", HELLO)]
    assert h.ask("ping 1f2e") == [("ok", "ping 1f2e")]
    assert h.ask("ping") == [("ok", "ping")]
    assert h.ask("ping a b")[0][0] == "error"
    ok, rest = h.ask("help")[0]
    assert ok == "ok" and "request" in rest and "subscribe" in rest


def test_position_status_and_settings():
    h = Host()
    assert h.ask("position") == [("ok", "position " + START)]
    assert h.ask("status") == [("ok", "status side light actions 0 verdict agree asks - "
                                      "result * dropped 0 nfc ok")]
    assert h.ask("settings") == [("ok", "settings ai=off clock=0+0 brightness=2 budget=auto "
                                        "hearts=fixed level=3 volume=soft")]


def test_memory_says_the_heap_and_the_ai_s_turns_short_of_it():
    # Free now, the largest block, free before the AI's last search and the
    # lowest so far (-1: none yet), its tables, its turns short of memory;
    # -1 for what CPython cannot measure.
    import gc
    measured = hasattr(gc, "mem_free")
    h = Host(BATTLE)
    words = h.ask("memory")[0][1].split()
    assert words[0] == "memory" and words[1::2] == ["free", "largest", "before", "low", "table",
                                                     "short"], words
    got = dict(zip(words[1::2], (int(w) for w in words[2::2])))
    assert (got["before"], got["low"], got["table"], got["short"]) == (-1, -1, 0, 0), got
    if measured:
        assert 0 < got["largest"] <= got["free"], got
    else:
        assert got["free"] == got["largest"] == -1, got
    # What the board measured before its AI's searches (tests/test_app_memory.py).
    b = h.board
    b.heap_before, b.heap_low, b.short = 20928, 18112, 2
    got = h.ask("memory")[0][1].split()
    assert got[6:9:2] == ["20928", "18112"] and got[-2:] == ["short", "2"], got
    assert h.ask("memory 1") == [("error", "no arguments expected, got 1")]


def test_an_ai_turn_short_of_memory_is_an_event_with_its_text():
    # docs/protocol.md: `memory <text>` to a host subscribed to memory, once
    # for each shortfall (the board counts them: board.short); none to a
    # host that is not.
    h = Host()
    h.ask("subscribe memory")
    b = h.board
    b.short, b.short_text = 1, "out of memory: the AI searched again with a 512-byte table"
    h.rig.tick()
    assert h.read() == [("memory", "out of memory: the AI searched again with a 512-byte table")]
    h.rig.tick()
    assert h.read() == []                       # the same shortfall: said once
    h.ask("unsubscribe memory")
    b.short += 1
    h.rig.tick()
    assert h.read() == []


def test_power_says_what_the_source_offers_and_the_budget():
    h = Host()
    # A board not told of its source budgets what a USB 2.0 port leaves the
    # LEDs (hardware/power.py: 178 mA above the 64 LEDs' idle draw).
    assert h.ask("power") == [("ok", "power source - leds 242 budget 242")]
    h.rig.plug("1.5a")  # a USB-C source advertising 1.5 A: 1078 mA above the idle 64
    assert h.ask("power") == [("ok", "power source 1.5a leds 1142 budget 1142")]
    h.ask("set budget 900")  # the setting caps it lower
    assert h.ask("power") == [("ok", "power source 1.5a leds 1142 budget 900")]
    h.ask("set budget 1500")  # and never raises it
    assert h.ask("power") == [("ok", "power source 1.5a leds 1142 budget 1142")]
    assert h.ask("power now")[0][0] == "error"


def test_an_event_leaves_in_the_tick_of_its_commit():
    h = Host()
    assert h.ask("subscribe action verdict") == [("ok", "subscribe action verdict"),
                                                 ("verdict", "agree")]  # the state now
    n = len(h.log)
    h.rig.play(parse_action("W@d4"), settle=False)  # stops in the tick of the commit
    assert ("action", "1 W@d4") in h.read()
    assert len(h.log) > n


BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")


def test_lift_shows_the_destinations():
    h = Host(BATTLE)
    h.ask("subscribe lift verdict")
    h.rig.run("lift e2")
    got = h.read()
    lifts = [r for k, r in got if k == "lift"]
    moves = sorted(a & 63 for a in h.board.pos.legal_actions() if a < 4096 and a >> 6 == 12)
    assert lifts and lifts[0].split()[0] == "e2", got
    assert sorted(parse_cell(c) for c in lifts[0].split()[1:]) == moves
    assert ("verdict", "hand") in got


def test_a_requested_action_is_shown_checked_and_carried_out():
    h = Host()
    h.ask("subscribe")
    assert answers(h.ask("request e2e4")) == [
        ("error", "illegal action e2e4: the building phase allows only placements")]
    assert answers(h.ask("request W@z9"))[0][0] == "error"
    got = h.ask("request W@d4")
    assert ("ok", "request W@d4") in got and ("asks", "W@d4") in got
    assert h.board.pending == parse_action("W@d4")
    h.rig.run("lay E e5")  # not what was asked: refused
    h.rig.settle()
    assert len(h.board.pos.stack) == 0
    assert ("verdict", "not-asked") in h.read()
    h.rig.run("take-tile e5")
    h.rig.run("carry")
    got = h.read()
    assert ("action", "1 W@d4") in got and ("asks", "-") in got


def test_a_request_for_the_ais_side_or_a_finished_game_is_refused():
    h = Host(settings=Settings(ai_side=0))
    assert h.ask("request W@d4") == [("error", "the board's AI plays light")]


def test_new_game_takeback_and_set():
    h = Host()
    h.ask("subscribe action")
    h.rig.play(parse_action("W@d4"))
    h.read()
    assert h.ask("takeback") == [("ok", "takeback 0"), ("takeback", "0")]
    assert h.ask("takeback") == [("error", "nothing to take back")]
    assert h.ask("new 8/8 l") [0][0] == "error"
    got = h.ask("new")
    assert ("ok", "new") in got and ("new", START) in got
    assert h.ask("set clock 10+5") == [("ok", "settings ai=off clock=10+5 brightness=2 "
                                             "budget=auto hearts=fixed level=3 volume=soft")]
    assert h.board.settings.clock_ms == 600000
    for bad in ("set clock 10", "set ai maybe", "set level 9", "set level 0", "set brightness 4",
                "set budget 1", "set x 1", "set hearts", "set volume 11"):
        assert h.ask(bad)[0][0] == "error", bad


def test_the_record_reads_back_as_the_game():
    h = Host(settings=Settings(ai_side=1))
    for _ in range(3):
        h.rig.play(h.board.pos.legal_actions().__iter__().__next__())
        h.rig.run("carry")
        h.rig.settle()
    h.read()
    got = h.ask("record")
    h.rig.tick(3)
    got += h.read()
    lines = [r for k, r in got if k == "record"]
    assert got[-1] == ("ok", "record %d" % len(lines))
    tags, start, actions = record.read("\n".join(lines))
    assert tags["Dark"] == "board AI" and tags["Result"] == "*"
    assert start == START and len(actions) == 6
    assert [parse_action(a) for a in actions] == h.board.pos.stack


def test_bad_lines_get_one_error_each():
    h = Host()
    save = h.board.pos.text()
    h.pipe.send("frobnicate\n" + "x" * (LINE_MAX + 5) + "\nhel\x01lo\n\r\n\n   \nHELLO\n")
    h.rig.tick(6)  # 64 bytes a tick
    got = answers(h.read())
    assert got == [("error", "unknown command frobnicate (help lists them)"),
                   ("error", "line too long (at most %d bytes)" % LINE_MAX),
                   ("error", "byte 0x01 is not printable ASCII"),
                   ("ok", HELLO)], got
    assert h.board.pos.text() == save


def test_lines_split_across_reads_and_typed_with_backspace():
    h = Host()
    for part in ("he", "l", "lo\r", "posx\x7fition\r\n"):
        h.pipe.send(part)
        h.rig.tick()
    assert answers(h.read()) == [("ok", HELLO), ("ok", "position " + START)]


def test_a_host_gone_mid_line_leaves_nothing_behind():
    h = Host()
    h.pipe.send("reque")
    h.rig.tick()
    h.pipe.leave()
    h.rig.tick()
    assert answers(h.ask("hello")) == [("ok", HELLO)]


def test_a_host_that_does_not_read_loses_the_oldest_lines_whole():
    h = Host(BATTLE)
    h.ask("subscribe")
    h.pipe.reading = False
    for _ in range(60):  # lifts and put-backs: events, no answers
        h.rig.run("lift e2, place e2")
    h.pipe.reading = True
    h.rig.tick(80)
    lines = h.pipe.lines()
    assert h.link.out.dropped > 0
    seqs = [int(l.split()[0]) for l in lines]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    for l in lines:  # every line whole
        assert l.split()[1] in ("ok", "lift", "verdict", "asks", "action"), l
    h.seq = seqs[-1]
    assert h.ask("status")[0][1].endswith("dropped %d nfc ok" % h.link.out.dropped)


def test_a_burst_of_commands_is_answered_in_order():
    h = Host()
    h.pipe.send("position\nhello\n" * 250)
    want = (("ok", "position " + START), ("ok", HELLO))
    n = 0
    for _ in range(200):
        h.rig.tick()
        for got in h.read():  # (read() checks that no number is skipped or repeated)
            assert got == want[n % 2], (n, got)
            n += 1
        del h.log[:]
    assert n == 500


def test_the_outbox_drops_whole_lines_even_behind_a_half_sent_one():
    out = Outbox(64)
    for i in range(3):
        out.begin()
        out.word(b"event")
        out.number(i)
        out.end()
    got = bytearray(out.pending(5))  # the host takes half of the first line
    out.sent(5)
    for i in range(3, 12):  # then stops reading while more comes
        out.begin()
        out.word(b"event")
        out.number(i)
        out.end()
    while out.used:
        part = out.pending(7)
        got.extend(part)
        out.sent(len(part))
    lines = bytes(got).decode().split("\n")
    assert lines[0] == "0 event 0" and lines[-1] == ""
    numbers = [int(l.split()[0]) for l in lines[:-1]]
    for l in lines[:-1]:
        n = l.split()
        assert n == [n[0], "event", n[0]], l
    assert numbers == sorted(numbers) and numbers[-1] == 11
    assert out.dropped == 12 - len(numbers) > 0


def test_the_clock_every_second():
    h = Host(BATTLE, settings=Settings(clock_ms=60000))
    h.board.new_game(BATTLE)  # the clock of the settings starts with a game
    h.rig.settle()
    h.ask("subscribe clock result")
    h.rig.wait(2100)
    clocks = [r for k, r in h.read() if k == "clock"]
    assert len(clocks) >= 2 and clocks[-1].split()[1] == "60000", clocks
    assert int(clocks[-1].split()[0]) < 59000



def test_the_result_when_a_heart_is_taken():
    start, actions, end = random_game(2)  # a game that ends with a Heart taken
    pos = Position(start)
    for a in actions[:-1]:
        pos.push(pos.parse_action(a))
    h = Host(pos.text())
    h.ask("subscribe result")
    h.rig.play(parse_action(actions[-1]), settle=False)
    assert ("result", "%s heart taken" % record.result_text(end.outcome())) in h.read()
    assert h.ask("request W@d4") == [("error", "the game is over")]
    got = h.ask("takeback")  # the game goes on again
    assert ("ok", "takeback 0") in got and ("result", "*") in got


# --- one answer a line, in order, whatever is pipelined -------------------------------
def until_answer(h, want, ticks=400):
    """Tick until the answer `want` has come; every message since, in order."""
    got = []
    for _ in range(ticks):
        h.rig.tick()
        got += h.read()
        del h.log[:]  # (kept in got: MicroPython's heap holds one copy)
        if ("ok", want) in got:
            return got
    raise AssertionError("no %r in %d ticks: %r" % (want, ticks, got[-5:]))


def records_in(got):
    """The records in messages (each a list of lines, ended by its ok record)
    and the answers that are not records', in order."""
    records, lines, others = [], [], []
    for kind, rest in got:
        if kind == "record":
            lines.append(rest)
        elif (kind, rest.split(" ")[0]) == ("ok", "record"):
            assert rest == "record %d" % len(lines), (rest, len(lines))
            records.append(lines)
            lines = []
        elif kind in ("ok", "error"):
            assert not lines, ("an answer inside a record", kind, rest)
            others.append((kind, rest))
    assert not lines
    return records, others


def finished_game():
    """A Host whose board has played a whole random game: 190 actions, ended
    by 80 quiet actions (its record is longer than the outbox)."""
    start, actions, end = random_game(297, max_actions=200)
    assert len(actions) == 190 and end.outcome() is not None
    end = None
    gc.collect()  # (MicroPython's heap: the game played is garbage now)
    return Host(start, actions=actions), actions


def test_pipelined_records_are_answered_in_the_order_asked():
    h = Host()
    h.pipe.send("record\n" * 13 + "ping end\n")
    records, others = records_in(until_answer(h, "ping end"))
    assert len(records) == 13 and others == [("ok", "ping end")]
    assert all(r == records[0] for r in records)
    assert record.read("\n".join(records[0]))[2] == []


def test_two_long_records_then_a_ping_come_whole_and_in_order():
    h, actions = finished_game()
    h.pipe.send("record\nrecord\nping x\n")
    got = until_answer(h, "ping x")
    assert got[-1] == ("ok", "ping x")
    records, others = records_in(got)
    assert len(records) == 2 and records[0] == records[1] and others == [("ok", "ping x")]
    lines = records[0]  # (record.read replays it: test_the_record_reads_back_as_the_game)
    assert '[Result "1/2-1/2"]' in lines and "" in lines
    actions.append("1/2-1/2")
    n = 0
    for line in lines[lines.index("") + 1:]:  # the movetext: turn numbers, actions, result
        for w in line.split():
            if not w.endswith("."):
                assert w == actions[n], (n, w)
                n += 1
    assert n == len(actions)


def test_a_host_that_goes_takes_its_record_and_subscriptions_with_it():
    h, _ = finished_game()
    h.pipe.send("subscribe\nrecord\n")
    h.rig.tick()
    assert h.link.events and ("ok", "subscribe action lift verdict asks clock result memory") in h.read()
    h.pipe.leave()  # gone while its record is being sent
    h.rig.tick()
    h.pipe.send("\nping new\nhello\nsubscribe verdict\n")  # the next host, as docs/protocol.md says
    got = until_answer(h, "ping new")
    h.rig.tick(5)
    after = got[got.index(("ok", "ping new")) + 1:] + h.read()
    assert [m for m in after if m[0] in ("ok", "error", "record")] == [
        ("ok", HELLO), ("ok", "subscribe verdict")], after


def test_a_host_gone_before_the_board_read_its_subscribe_leaves_nothing_to_the_next():
    h = Host(settings=Settings(ai_side=0))
    h.pipe.send("subscribe\n")
    h.pipe.leave()  # gone before the board read a byte of it
    h.rig.tick()
    assert h.link.events == 0
    h.pipe.send("\nping new\nhello\n")  # the next host, as docs/protocol.md says
    got = until_answer(h, "ping new")
    h.rig.tick(5)
    assert got + h.read() == [("ok", "ping new"), ("ok", HELLO)]


def test_a_line_waiting_its_turn_goes_with_its_host():
    h = Host()
    h.pipe.reading = False
    while h.link.out.free() >= ANSWER_ROOM:  # answers the host does not read: the ring fills
        h.pipe.send("ping\n")
        h.rig.tick()
    h.pipe.send("subscribe\n")
    h.rig.tick()  # read, waiting for room for its answer
    h.pipe.leave()
    h.pipe.reading = True
    h.rig.tick()
    assert h.link.events == 0
    h.pipe.send("\nping new\nhello\n")
    got = until_answer(h, "ping new")
    h.rig.tick(5)
    after = got[got.index(("ok", "ping new")) + 1:] + h.read()
    assert not [m for m in got if m[0] != "ok" or m[1].startswith("subscribe")], got
    assert after == [("ok", HELLO)]


def test_a_tab_spoils_its_line():
    h = Host()
    assert answers(h.ask("hel\tlo")) == [("error", "byte 0x09 is not printable ASCII")]
    assert answers(h.ask("ping\tx")) == [("error", "byte 0x09 is not printable ASCII")]
    assert h.ask("ping  x ") == [("ok", "ping x")]  # spaces part words, as many as you like


def test_the_line_limit_itself_and_a_long_ping_word_echoed_whole():
    h = Host()
    word = "w" * (LINE_MAX - len("ping "))
    h.pipe.send("ping %s\r\n" % word)  # LINE_MAX bytes: taken (64 bytes are read a tick)
    h.rig.tick(5)
    assert h.read() == [("ok", "ping " + word)]
    h.pipe.send("ping %sw\r\n" % word)  # one byte more: refused
    h.rig.tick(5)
    assert h.read() == [("error", "line too long (at most %d bytes)" % LINE_MAX)]
    assert h.ask("hello") == [("ok", HELLO)]  # and nothing left behind


def test_sequence_numbers_wrap_after_999999():
    out = Outbox(256)
    out.seq = 999998
    for word in (b"a", b"b", b"c"):
        out.begin()
        out.word(word)
        out.end()
    sent = bytes(out.pending(256)).decode()
    assert sent == "999998 a\n999999 b\n0 c\n", sent


def ask(h, command):
    """Send a command and tick until its answer came (a long line takes a
    few ticks: the link reads 64 bytes a tick); the messages sent."""
    h.pipe.send(command + "\n")
    got = []
    for _ in range(8):
        h.rig.tick()
        got += h.read()
        if answers(got):
            return got
    return got


def test_a_game_given_whole_a_line_at_a_time():
    h = Host()
    ask(h, "subscribe action")
    assert ask(h, "game + W@d4") == [("error", "no game begun: game START first")]
    assert ask(h, "game 8/8 l")[0][0] == "error"  # not a position
    assert ask(h, "game " + START) == [("ok", "game 0")]
    assert ask(h, "game + W@d4 F@e5") == [("ok", "game 2")]
    # A line with an illegal action: refused whole, none of its actions kept.
    got = ask(h, "game + A@a1 W@d4")
    assert got[0][0] == "error" and got[0][1].startswith("action 4: "), got
    assert ask(h, "game + A@a1") == [("ok", "game 3")]
    assert len(h.board.pos.stack) == 0  # nothing taken until the end
    assert ask(h, "game end x")[0][0] == "error"
    got = ask(h, "game end")
    assert got[0] == ("ok", "game 3") and ("new", START) in got, got
    assert [action_text(a) for a in h.board.pos.stack] == ["W@d4", "F@e5", "A@a1"]
    assert h.board.start == START
    assert ask(h, "game end") == [("error", "no game begun: game START first")]
    # From another start, and a host gone: what it began is dropped.
    battle = Position(START)
    assert ask(h, "game " + battle.text()) == [("ok", "game 0")]
    h.pipe.leave()
    assert ask(h, "game end") == [("error", "no game begun: game START first")]


def test_a_game_given_whole_waits_for_the_menu():
    h = Host()
    ask(h, "game " + START)
    h.board.menu = object()  # (the settings menu open on the board)
    assert ask(h, "game end") == [("error", "the settings menu is open on the board")]
    h.board.menu = None


def test_only_the_commands_reach_their_handlers():
    # Each command's handler is the Link method named by its word; the
    # link's other methods and attributes are not commands, whatever a
    # host sends.
    from vortex.link.link import COMMANDS, Link
    assert all(callable(getattr(Link, w, None)) for w in COMMANDS)
    h = Host()
    save = h.board.pos.text()
    h.pipe.send("serve\ntick\n_line\nboard\nclient\n")
    h.rig.tick(4)
    got = answers(h.read())
    assert got == [("error", "unknown command %s (help lists them)" % w)
                   for w in ("serve", "tick", "_line", "board", "client")], got
    assert h.board.pos.text() == save
