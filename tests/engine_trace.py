"""A trace of the engine over seeded random games, to compare the machine
code that MicroPython makes of the engine's viper and native functions with
the same source read as plain Python (CPython): both must print the same
lines. Runs under both (tests/test_engine_native.py)."""
from vortex.engine import Position, new_buffer, MAX_DESTINATIONS
from vortex.engine.movegen import watch

# The start, and battle positions with Awakened pieces, spent Vortexes, a ban.
STARTS = (
    "8/8/8/8/8/8/8/8 4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 0",
    "WFAFEFFF/FEFEAAFA/WWWEWAWE/EWFAEWWA/FEWEAAFE/AFEFWAAA/EWEEAEFE/AAWWFWWF "
    "2tth3/2t2ttt/2tt3T/2T5/5T2/1T6/5TT1/1TT1H3 l 3,4 h1h2 30 94",
    "WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
    "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 0 140",
)


def trace(seed, games, plies):
    """One line per position reached: game, ply and a hash of its legal
    actions in order, every cell's destinations, has_legal() and what
    watch() counts around the Hearts; after each game, the text of its
    start once every action is popped again."""
    x = seed
    buf = new_buffer()
    dest = new_buffer(MAX_DESTINATIONS)
    hearts = bytearray(4)
    out = []
    for g in range(games):
        pos = Position(STARTS[g % len(STARTS)])
        for ply in range(plies):
            n = pos.legal_into(buf)
            h = n
            for i in range(n):
                h = (h * 31 + buf[i]) & 0xFFFFFF
            for c in range(64):
                for i in range(pos.destinations(c, dest)):
                    h = (h * 31 + dest[i]) & 0xFFFFFF
            h = (h * 31 + (1 if pos.has_legal() else 0)) & 0xFFFFFF
            watch(pos, hearts)
            for i in range(4):
                h = (h * 31 + hearts[i]) & 0xFFFFFF
            out.append("%d %d %06x" % (g, ply, h))
            if not n:
                break
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            pos.push(buf[x % n])
        while pos.stack:
            pos.pop()
        out.append(pos.text())
    return out


if __name__ == "__main__":
    import sys
    print("\n".join(trace(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))))
