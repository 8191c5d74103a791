"""The heap as the firmware measures it, the same calls on MicroPython,
CircuitPython and CPython (which has no such heap: -1).

    free()            bytes free after a collection (gc.mem_free)
    has(n)            whether a block of n bytes can be had now
    largest(top)      the largest block the heap gives now, up to top bytes

CircuitPython's heap (about 160 KB on a Pico, MicroPython's 240 KB) is
where a long game runs out: the board measures it before each of its AI's
searches and the host link's `memory` says what it found (docs/device.md).
"""
import gc

STEP = 256  # largest()'s precision, bytes


def free():
    """Bytes free after a collection, or -1 where the runtime cannot say."""
    gc.collect()
    f = getattr(gc, "mem_free", None)
    return f() if f is not None else -1


def has(n):
    """Whether a block of n bytes can be had now (asked for: no collection
    first unless the heap has none, as any allocation)."""
    try:
        bytearray(n)
        return True
    except MemoryError:
        return False


def largest(top):
    """The largest block (bytes, to within STEP, at most top) that an
    allocation gets now, found by asking for blocks: top, then a
    bisection, a collection before each try (a block got is garbage until
    the next). About 10 collections: tens of ms on an RP2040. -1 on
    CPython."""
    if getattr(gc, "mem_free", None) is None:
        return -1
    gc.collect()
    try:
        bytearray(top)
        return top
    except MemoryError:
        lo, hi = 0, top  # a block of lo bytes was had; hi bytes was not
    while hi - lo > STEP:
        mid = (lo + hi) // 2
        gc.collect()
        try:
            bytearray(mid)
            lo = mid
        except MemoryError:
            hi = mid
    gc.collect()
    return lo
