"""The link's parser under hypothesis (CPython): any bytes, in any pieces,
with the host going away anywhere. Nothing escapes; every line that has
something visible in it gets exactly one answer; the game, its save and the
action the board asks for change only through a well-formed command."""
from hypothesis import HealthCheck, given, settings, strategies as st

from vortex.link.link import COMMANDS
from vortex.link.lines import LINE_MAX
from test_link_fuzz import RISKY, board_and_link
from link_pipe import HELLO

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100)
visible = st.binary(min_size=1, max_size=40).map(
    lambda b: bytes(x for x in b if x not in (8, 10, 13, 127)) + b"!")
words = st.sampled_from(RISKY + COMMANDS).map(str.encode)
line = st.one_of(
    visible,
    st.tuples(words, st.lists(visible, max_size=3)).map(lambda t: b" ".join((t[0],) + tuple(t[1]))),
    st.integers(LINE_MAX + 1, 3 * LINE_MAX).map(lambda n: b"y" * n))
ends = st.sampled_from([b"\n", b"\r", b"\r\n"])


def changes_game(data):
    # A line that may change the game when well formed (a printable "new"
    # alone starts a new game: the same position, but a new save).
    return any(w in data for w in (b"new", b"set", b"takeback", b"request"))


@settings(**SETTINGS)
@given(st.lists(st.tuples(line, ends), min_size=1, max_size=12), st.lists(st.integers(1, 64)))
def test_every_line_gets_one_answer(lines, cuts):
    board, link, pipe, fs = board_and_link()
    before = (board.pos.text(), dict(fs.files), board.pending)
    data = b"".join(l + e for l, e in lines)
    at = 0
    for n in cuts + [len(data)]:
        pipe.send(data[at:at + n])
        at += n
        link.serve(pipe)
    while pipe.at < len(pipe.inbox):
        link.serve(pipe)
    for _ in range(20):  # what is queued goes out, 256 bytes a tick
        link.serve(pipe)
    sent = pipe.lines()
    answers = [l for l in sent if l.split()[1] in ("ok", "error")]
    assert len(answers) == len(lines), (data, sent)
    assert not [l for l in sent if "internal" in l]
    if not changes_game(data):
        assert (board.pos.text(), fs.files, board.pending) == before


@settings(**SETTINGS)
@given(st.binary(max_size=600), st.binary(max_size=20))
def test_any_bytes_then_a_host_gone_mid_line(data, tail):
    board, link, pipe, fs = board_and_link()
    before = (board.pos.text(), dict(fs.files))
    pipe.send(data + tail.replace(b"\n", b"").replace(b"\r", b""))
    while pipe.at < len(pipe.inbox):
        link.serve(pipe)
    pipe.leave()
    link.serve(pipe)
    assert not [l for l in pipe.lines() if "internal" in l]
    if not changes_game(data):
        assert (board.pos.text(), fs.files) == before
    pipe.send(b"hello\n")
    link.serve(pipe)
    assert pipe.lines()[-1].split(" ", 1)[1] == "ok " + HELLO


@settings(**SETTINGS)
@given(st.integers(48, 400),
       st.lists(st.one_of(st.integers(1, 120).map(lambda n: ("put", n)),
                          st.integers(0, 70).map(lambda n: ("read", n))), max_size=120))
def test_the_outbox_delivers_whole_numbered_lines(size, steps):
    # Any mix of lines put and bytes taken by a slow host, in any ring size:
    # the host gets whole lines, in order, each as put; what it misses is
    # counted as dropped.
    from vortex.link.outbox import Outbox
    out = Outbox(size)
    got = bytearray()
    put = {}
    for op, n in steps:
        if op == "put":
            out.begin()
            for i in range(n):
                out.byte(97 + (out.seq + i) % 26)
            put[out.seq] = n
            out.end()
        else:
            part = out.pending(n)
            got.extend(part)
            out.sent(len(part))
    while out.used:
        part = out.pending(64)
        got.extend(part)
        out.sent(len(part))
    lines = bytes(got).decode().split("\n")
    assert lines[-1] == ""
    seqs = []
    for line in lines[:-1]:
        seq, _, text = line.partition(" ")
        seq = int(seq)
        assert text == "".join(chr(97 + (seq + i) % 26) for i in range(len(text))), line
        assert len(text) == put[seq], line
        seqs.append(seq)
    assert seqs == sorted(set(seqs))
    assert len(seqs) + out.dropped == len(put)
