"""MicroPython's native and viper code emitters, and what they mean elsewhere.

    from ..native import micropython, ptr8, ptr16

    @micropython.viper
    def total(buf, n: int) -> int:
        p = ptr8(buf)          # raw bytes: no bounds check, no boxing
        s = 0
        for i in range(n):
            s += p[i]
        return s

MicroPython's compiler knows `@micropython.native` and `@micropython.viper`
by their spelling and compiles the function to machine code (the .mpy files
for the board are built with mpy-cross -march=armv6m, tools/build_mpy.py);
inside a viper function `ptr8`, `ptr16` and `int` are casts the compiler
handles, whatever the module binds under those names. What this module
binds is what everything else sees: on CPython (which has no `micropython`
module) decorators that return the function unchanged, and on every Python
pointer "casts" that return the buffer itself, whose indexing reads and
writes the same 8-, 16- or 32-bit values. So one source runs as machine code on
the board and the unix port, and as plain Python on CPython; the engine's
perft and reference tests run it both ways.

Viper code here keeps to what has one meaning in both: small non-negative
ints (no machine-word overflow), bytes/bytearray through ptr8, array('H')
through ptr16, array('I') of values under 2**30 through ptr32, and no
Python objects mixed into int arithmetic (module constants are const() of
the module's own, or turned into ints first).
"""
try:
    import micropython
    COMPILED = True   # the decorators compile: viper and native code exist
except ImportError:  # CPython
    COMPILED = False

    class micropython:  # type: ignore[no-redef]
        """The decorators, as no-ops."""

        @staticmethod
        def native(f):
            return f

        @staticmethod
        def viper(f):
            return f


def ptr8(buf):
    """A bytes-like buffer, indexed by byte (viper: a uint8 pointer)."""
    return buf


def ptr16(buf):
    """An array('H'), indexed by 16-bit entry (viper: a uint16 pointer)."""
    return buf


def ptr32(buf):
    """An array('I'), indexed by 32-bit entry (viper: a uint32 pointer). Keep
    its values under 2**30 (the RP2040's small ints, and viper's signed
    machine ints, hold them unchanged). Viper code also points it at an
    address, the RP2040's registers (vortex.hal.rp2nfc, run on the board
    only): Python has no memory there."""
    if isinstance(buf, int):
        raise OSError("register access is for viper code on the RP2040")
    return buf
