"""Debouncer: QMK-style tables of timed events. Runs under MicroPython too.

An event is (time_ms, inputs, outputs): at time_ms the raw cells in
`inputs` take their values, a scan runs, and exactly the debounced changes
in `outputs` must come out of it. Between events a scan runs every ms (more
than one event at the same ms: several scans within that ms) and must
change nothing. Every table runs twice: from time 0 and across the
ticks_ms wrap-around.
"""
import gc

from vortex.hal.debounce import Debouncer
from vortex.ticks import ticks_add, ticks_diff

ON = 1
OFF = 0


def run(events, ms=5, n=64, base=0):
    d = Debouncer(n, ms)
    raw = bytearray(n)
    before = bytearray(n)
    t = 0
    k = 0
    end = events[-1][0]
    while t <= end:
        todo = []
        while k < len(events) and events[k][0] == t:
            todo.append(events[k])
            k += 1
        if not todo:
            todo = [(t, {}, {})]
        for _, inputs, outputs in todo:
            for c in inputs:
                raw[c] = inputs[c]
            before[:] = d.state
            changed = d.update(raw, ticks_add(base, t))
            got = {}
            for c in range(n):
                if d.state[c] != before[c]:
                    got[c] = d.state[c]
            assert got == outputs, "t=%d: got %r, want %r" % (t, got, outputs)
            assert changed == bool(outputs), "t=%d: changed=%r" % (t, changed)
        t += 1


def both(events, ms=5):
    run(events, ms)
    run(events, ms, base=ticks_add(0, -3))       # wraps at t = 3
    run(events, ms, base=ticks_add(0, -(events[-1][0] // 2 + 1)))


def test_one_cell_short():
    both([(0, {1: ON}, {}), (5, {}, {1: ON}),
          (5, {1: OFF}, {}), (10, {}, {1: OFF})])


def test_one_cell_short_after_1ms():
    both([(0, {1: ON}, {}), (5, {}, {1: ON}),
          (6, {1: OFF}, {}), (11, {}, {1: OFF})])


def test_too_quick_is_ignored():
    both([(0, {1: ON}, {}), (5, {1: OFF}, {}), (20, {}, {})])


def test_too_quick_second_press():
    both([(0, {1: ON}, {}), (5, {}, {1: ON}),
          (6, {1: OFF}, {}), (11, {1: ON}, {}), (30, {}, {})])


def test_bounce_under_1ms_then_stable():
    # Scans faster than the ms tick see the reed bounce within one ms.
    both([(0, {9: ON}, {}), (0, {9: OFF}, {}), (0, {9: ON}, {}),
          (1, {9: OFF}, {}), (1, {9: ON}, {}),
          (6, {}, {9: ON}), (20, {}, {})])


def test_bouncing_every_ms():
    both([(0, {1: ON}, {}), (1, {1: OFF}, {}), (2, {1: ON}, {}),
          (3, {1: OFF}, {}), (4, {1: ON}, {}), (5, {1: OFF}, {}),
          (6, {1: ON}, {}), (11, {}, {1: ON})])


def test_bouncing_release():
    both([(0, {1: ON}, {}), (5, {}, {1: ON}), (6, {1: OFF}, {}),
          (7, {1: ON}, {}), (8, {1: OFF}, {}), (9, {1: ON}, {}),
          (10, {1: OFF}, {}), (15, {}, {1: OFF})])


def test_a_real_lift_and_place():
    # A piece lifted from e2 (12) and put down on e4 (28), with bounce.
    both([(0, {12: ON, 28: OFF}, {}), (5, {}, {12: ON}),
          (100, {12: OFF}, {}), (100, {12: ON}, {}), (101, {12: OFF}, {}),
          (106, {}, {12: OFF}),
          (400, {28: ON}, {}), (400, {28: OFF}, {}), (401, {28: ON}, {}),
          (406, {}, {28: ON}), (420, {}, {})])


def test_two_cells_independent():
    both([(0, {1: ON}, {}), (1, {2: ON}, {}),
          (5, {}, {1: ON}), (6, {1: OFF}, {2: ON}), (7, {2: OFF}, {}),
          (11, {}, {1: OFF}), (12, {}, {2: OFF})])


def test_simultaneous():
    both([(0, {1: ON, 63: ON}, {}), (5, {}, {1: ON, 63: ON}),
          (6, {1: OFF, 63: OFF}, {}), (11, {}, {1: OFF, 63: OFF})])


def test_other_debounce_times():
    both([(0, {0: ON}, {}), (1, {}, {0: ON}), (1, {0: OFF}, {}),
          (2, {}, {0: OFF})], ms=1)
    both([(0, {0: ON}, {}), (19, {0: OFF}, {}), (20, {0: ON}, {}),
          (40, {}, {0: ON})], ms=20)


def test_zero_ms_follows_raw_at_once():
    both([(0, {3: ON}, {3: ON}), (1, {3: OFF}, {3: OFF})], ms=0)


def test_delayed_scan():
    # The loop was busy for 300 ms: the change is accepted at the next scan.
    d = Debouncer(64, 5)
    raw = bytearray(64)
    raw[4] = 1
    assert not d.update(raw, 0)
    assert d.update(raw, 300) and d.state[4] == 1
    raw[4] = 0
    assert not d.update(raw, 300)
    assert not d.update(raw, 304)
    assert d.update(raw, 305) and d.state[4] == 0


def test_delayed_scan_across_the_wrap():
    d = Debouncer(64, 5)
    raw = bytearray(64)
    raw[4] = 1
    t0 = ticks_add(0, -100)
    assert not d.update(raw, t0)
    assert not d.update(raw, ticks_add(t0, 4))
    assert d.update(raw, ticks_add(t0, 200))


def test_ticks_helpers():
    a = ticks_add(0, -2)
    b = ticks_add(a, 5)
    assert ticks_diff(b, a) == 5
    assert ticks_diff(a, b) == -5
    assert b == 3


def test_reset():
    d = Debouncer(4, 5)
    raw = bytearray(b"\x01\x00\x01\x00")
    d.update(raw, 0)
    d.reset(raw)
    assert d.state == raw
    assert not d.update(raw, 1)
    d.reset()
    assert d.state == bytearray(4)


def test_bad_ms():
    for ms in (-1, 256):
        try:
            Debouncer(64, ms)
        except ValueError:
            continue
        raise AssertionError(ms)


def test_a_short_scan_is_refused():
    d = Debouncer(64, 5)
    try:
        d.update(bytearray(b"\x01" * 63), 0)
    except ValueError:
        return
    assert False, "accepted 63 cells for 64"


def test_update_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    d = Debouncer(64, 5)
    raw = bytearray(64)
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        t = 0
        for i in range(200):
            raw[i & 63] ^= 1 if i % 7 == 0 else 0
            d.update(raw, t)
            t += 1
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used
