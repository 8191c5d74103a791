"""perft: count the leaf positions of the action tree, to test and time the engine.

    micropython -m vortex.engine.perft "<position>" N [--bulk] [--divide]

Every leaf is made and unmade (push/pop) unless --bulk, which counts the last
ply's actions without playing them.
"""
from .position import Position, new_buffer
from .notation import action_text

MAX_DEPTH = 5  # the command lines' limit: perft 5 of a battle takes minutes on a PC, 6 hours


def perft(pos, depth, bulk=False):
    """The number of action sequences of length depth from pos.

        >>> from vortex.engine import Position
        >>> perft(Position(), 2)  # 64 cells x 4 terrains, then 63 x 4
        64512
    """
    if depth == 0:
        return 1
    return _perft(pos, depth, _buffers(depth), bulk)


def divide(pos, depth, bulk=False):
    """[(action, perft of depth-1 after it)] for every legal action of pos.

        >>> from vortex.engine import Position
        >>> rows = divide(Position(), 2)
        >>> len(rows), action_text(rows[0][0]), rows[0][1]
        (256, 'W@a1', 252)
    """
    buf = new_buffer()
    bufs = _buffers(depth - 1)
    out = []
    for i in range(pos.legal_into(buf)):
        a = buf[i]
        pos.push(a)
        out.append((a, 1 if depth <= 1 else _perft(pos, depth - 1, bufs, bulk)))
        pos.pop()
    return out


def _buffers(depth):
    # One action buffer per remaining depth: bufs[d] serves depth d (bufs[0] unused).
    return [None] + [new_buffer() for _ in range(depth)]


def _perft(pos, depth, bufs, bulk):
    buf = bufs[depth]
    n = pos.legal_into(buf)
    if depth == 1:
        if not bulk:
            push = pos.push
            pop = pos.pop
            for i in range(n):
                push(buf[i])
                pop()
        return n
    total = 0
    push = pos.push
    pop = pos.pop
    for i in range(n):
        push(buf[i])
        total += _perft(pos, depth - 1, bufs, bulk)
        pop()
    return total


def main(argv):
    """Command line: perft "<position>" N [--bulk] [--divide]; returns an exit code."""
    flags = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--")]
    import sys
    if "--help" in flags or "-h" in args:
        print('usage: perft "<position>" N [--bulk] [--divide]   (N: 0..%d)' % MAX_DEPTH)
        return 0
    if (len(args) != 2 or not args[1].isdigit() or int(args[1]) > MAX_DEPTH
            or [f for f in flags if f not in ("--bulk", "--divide")]):
        sys.stderr.write('perft: usage: perft "<position>" N [--bulk] [--divide]   (N: 0..%d)\n'
                         % MAX_DEPTH)
        return 2
    try:
        pos = Position(args[0])
    except ValueError as e:
        sys.stderr.write("perft: error: %s\n" % e)
        return 1
    depth = int(args[1])
    bulk = "--bulk" in flags
    if "--divide" in flags and depth > 0:
        total = 0
        for a, n in divide(pos, depth, bulk):
            print(action_text(a), n)
            total += n
        print(total)
    else:
        print(perft(pos, depth, bulk))
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
