"""The AI's machine-code helpers (vortex.ai.track, vortex.ai.order,
evaluate.static) against what they stand for, over seeded random games.
Plain asserts: run by pytest (plain Python) and, compiled as the board runs
them, under MicroPython (tests/test_ai_micropython.py)."""
from array import array

from vortex.engine.position import Position
from vortex.engine.movegen import new_buffer, piece_moves, MAX_ACTIONS
from vortex.engine.play import make, unmake
from vortex.engine.defs import back_rank, PLACE, TRAVELLER
from vortex.ai import zobrist, track, order, search
from vortex.ai.order import VICTIM, NONE
from vortex.ai.evaluate import Evaluator, WEIGHTS_SIZE

STARTS = (
    "WFAFEFFF/FEFEAAFA/WWWEWAWE/EWFAEWWA/FEWEAAFE/AFEFWAAA/EWEEAEFE/AAWWFWWF "
    "2tth3/2t2ttt/2tt3T/2T5/5T2/1T6/5TT1/1TT1H3 l 3,4 h1h2 30 94",
    "WEAEAFAA/AEAFWFEW/EWWAEFWA/AAFEWFAF/FWFWFEEE/AWFAFWEW/EAAEFEWF/WEFAWFEW "
    "2S1h1t1/t1t2t2/3T4/8/4s3/6t1/TT2T2T/1TH4s l 0,2 d4e4 0 140",
)


def positions(games, plies, seed=5):
    """Seeded random games from STARTS: each position as it is reached."""
    buf = new_buffer()
    x = seed
    for g in range(games):
        pos = Position(STARTS[g % len(STARTS)])
        for _ in range(plies):
            n = pos.legal_into(buf)
            if not n:
                break
            yield pos
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            pos.push(buf[x % n])


def worth(pieces, a):
    return VICTIM[pieces[a & 63] & 3] * 4 - (pieces[a >> 6] & 3)


def test_the_key_and_sums_follow_every_action():
    keys = zobrist.shared()
    st = track.new_state(2)
    scratch = track.new_state(0)  # the weights, and one triple
    ev = Evaluator()
    buf = new_buffer()
    i = track.STATE
    for pos in positions(6, 40):
        track.start(pos, keys, st, i)
        assert st[i] ^ keys.state(pos) == keys.key(pos)
        n = pos.legal_into(buf)
        for j in range(0, n, 7):  # every 7th action, each kind among them
            a = buf[j]
            track.touch(a, i, 0, pos.pieces, pos.tiles, keys.z, st)
            undo = make(pos, a)
            track.touch(a, i, 1, pos.pieces, pos.tiles, keys.z, st)
            track.start(pos, keys, scratch, track.STATE)
            assert [st[i + 3], st[i + 4], st[i + 5]] == [scratch[i], scratch[i + 1],
                                                          scratch[i + 2]], pos.action_text(a)
            assert ev.score(pos, st[i + 4], st[i + 5]) == ev.evaluate(pos)
            unmake(pos, a, undo)


def test_order_puts_the_table_action_then_captures_by_worth_then_killers():
    buf = new_buffer()
    for pos in positions(4, 40):
        n = pos.legal_into(buf)
        before = sorted(buf[i] for i in range(n))
        pieces = pos.pieces
        far = back_rank(pos.side ^ 1)
        tt = buf[n // 2]
        quiet = [buf[i] for i in range(n) if buf[i] < PLACE and not pieces[buf[i] & 63]
                 and not (pieces[buf[i] >> 6] & 3 == TRAVELLER and (buf[i] & 63) >> 3 == far)]
        killers = quiet[-2:] if len(quiet) >= 2 else [NONE, NONE]
        k = order.order(buf, n, tt, pieces, far, killers[0], killers[1])
        got = [buf[i] for i in range(n)]
        assert sorted(got) == before and got[0] == tt
        good = [a for a in got[1:] if a < PLACE and (pieces[a & 63] or (
            pieces[a >> 6] & 3 == TRAVELLER and (a & 63) >> 3 == far))]
        lead = got[1:1 + len(good)]
        assert sorted(lead) == sorted(good)
        assert all(worth(pieces, lead[i]) >= worth(pieces, lead[i + 1])
                   for i in range(len(lead) - 1))
        rest = got[1 + len(good):k]
        assert rest == [kl for kl in killers if kl != NONE and kl != tt and kl in got]


def test_captures_keep_the_moves_that_take_best_first():
    buf = new_buffer()
    for pos in positions(4, 40):
        pieces = pos.pieces
        n = piece_moves(0, pos.side, 0, 64, pieces, pos.tiles, buf)
        takes = sorted(buf[i] for i in range(n) if pieces[buf[i] & 63])
        m = order.captures(buf, n, pieces)
        got = [buf[i] for i in range(m)]
        assert sorted(got) == takes
        assert all(worth(pieces, got[i]) >= worth(pieces, got[i + 1]) for i in range(m - 1))


def test_sort_by_is_highest_first_and_keeps_equals_in_order():
    buf = new_buffer(MAX_ACTIONS)
    keys = array("H", range(MAX_ACTIONS))
    x = 7
    for n in (0, 1, 2, 9, 200):
        pairs = []
        for i in range(n):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            buf[i] = i
            keys[i] = 32768 + (x % 11) - 5
            pairs.append((keys[i], i))
        order.sort_by(buf, keys, n)
        want = sorted(pairs, key=lambda p: (-p[0], p[1]))  # equals keep their order
        assert [buf[i] for i in range(n)] == [i for _, i in want]
        assert [keys[i] for i in range(n)] == [k for k, _ in want]


def test_decay_quarters_the_history():
    table = bytearray(i & 255 for i in range(4096))
    order.decay(table)
    assert all(table[i] == (i & 255) >> 2 for i in range(4096))


def test_the_machine_codes_numbers_are_the_ai_and_engines():
    # const() names of a module's own are literals in its machine code (and
    # not module attributes under MicroPython): checked where they are.
    from vortex.engine import defs
    from vortex.ai import evaluate
    if not hasattr(track, "_PLACE"):
        return
    for name in ("PLACE", "SWAP", "VORTEX"):
        assert getattr(track, "_" + name) == getattr(defs, name)
    assert track._TILE_KEYS == zobrist._TILE and track._RANKS == evaluate.RANKS
    assert track.STATE == WEIGHTS_SIZE
    assert order._PLACE == defs.PLACE and order._TRAVELLER == defs.TRAVELLER
    for module in (order, track, zobrist, search):
        for name in ("FROM_SHIFT", "TO_MASK", "KIND_MASK", "SIDE_SHIFT", "RANK_SHIFT"):
            if hasattr(module, "_" + name):
                assert getattr(module, "_" + name) == getattr(defs, name), (module, name)
    assert order._KIND_MASK == defs.KIND_MASK and search._TO_MASK == defs.TO_MASK
    for name in ("GUARD", "ATTACKER", "VORTEX_VALUE", "QUIET_FROM", "QUIET_WEIGHT", "WIN",
                 "COUNT_SHIFT", "SCORE_MASK"):
        assert getattr(evaluate, "_" + name) == getattr(evaluate, name)
