"""The link's parser fuzzed with a small LCG (so that MicroPython runs the
very same bytes as CPython): random bytes, lines of garbage and of real
command words with garbage arguments, overlong lines, lines split across
reads at random, and a host that goes away mid-line. Nothing escapes,
every line gets exactly one answer, and neither the game nor its save
changes. Plain asserts: pytest and tests/mpy_runner.py."""
from vortex.app.board import Board
from vortex.hal.store import FileStore
from vortex.link.link import Link, COMMANDS
from vortex.link.lines import LINE_MAX
from hal_fake_fs import MemFS
from link_pipe import Pipe, HELLO

# Words that change the game when well formed, given garbage here.
RISKY = ("request", "new", "set", "subscribe", "unsubscribe", "takeback", "record")


class Rand:
    def __init__(self, seed):
        self.x = seed * 7919 + 17

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def board_and_link():
    fs = MemFS()
    board = Board(FileStore("/game.bin", fs))
    board.request(board.pos.parse_action("W@d4"))  # a pending action must survive too
    return board, Link(board), Pipe(), fs


def garbage(r, printable):
    out = bytearray()
    for _ in range(1 + r.below(30)):
        out.append(33 + r.below(94) if printable else r.below(256))
    return out


def a_line(r):
    """One line (without its end) that must get one answer: something visible in it."""
    kind = r.below(4)
    if kind == 0:  # garbage, printable
        return bytes(garbage(r, True))
    if kind == 1:  # garbage with bytes outside printable ASCII (no line ends)
        g = garbage(r, False)
        for i in range(len(g)):
            if g[i] in (8, 10, 13, 127):
                g[i] = 0
        g.append(0x80)
        return bytes(g)
    if kind == 2:  # overlong
        return b"x" * (LINE_MAX + 1 + r.below(300))
    word = (RISKY + COMMANDS)[r.below(len(RISKY) + len(COMMANDS))]
    return word.encode() + b" " + bytes(garbage(r, True)) + b" " + bytes(garbage(r, True))


def feed_in_pieces(r, link, pipe, data):
    at = 0
    while at < len(data):
        n = 1 + r.below(40)
        pipe.send(data[at:at + n])
        at += n
        link.serve(pipe)


def test_lines_of_garbage_get_one_answer_each():
    for seed in range(25):
        r = Rand(seed)
        board, link, pipe, fs = board_and_link()
        pos, save, pending = board.pos.text(), dict(fs.files), board.pending
        n = 4 + r.below(12)
        data = bytearray()
        for _ in range(n):
            data.extend(a_line(r))
            data.extend((b"\n", b"\r", b"\r\n")[r.below(3)])
        feed_in_pieces(r, link, pipe, data)
        for _ in range(20):  # what is queued goes out, 256 bytes a tick
            link.serve(pipe)
        lines = pipe.lines()
        answers = [l for l in lines if l.split()[1] in ("ok", "error")]
        assert len(answers) == n, (seed, bytes(data), lines)
        for l in answers:  # "internal error" would be a bug caught, not an answer
            assert "internal" not in l, (seed, l)
        assert (board.pos.text(), fs.files, board.pending) == (pos, save, pending), seed


def test_random_bytes_and_a_host_gone_mid_line():
    for seed in range(25):
        r = Rand(1000 + seed)
        board, link, pipe, fs = board_and_link()
        pos, save = board.pos.text(), dict(fs.files)
        data = bytearray()
        for _ in range(r.below(600)):
            data.append(r.below(256))
        feed_in_pieces(r, link, pipe, data)
        pipe.leave()  # the host goes away, maybe mid-line
        link.serve(pipe)
        for l in pipe.lines():
            assert "internal" not in l, (seed, l)
        if b"new" not in data and b"set" not in data and b"takeback" not in data:
            assert (board.pos.text(), fs.files) == (pos, save), seed
        pipe.send(b"hello\n")  # the next host is answered as if nothing happened
        link.serve(pipe)
        assert pipe.lines()[-1].split(" ", 1)[1] == "ok " + HELLO, seed
