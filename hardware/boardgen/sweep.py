"""How long a sweep of the 64 cells takes, for each NFC front end.

The RF floor comes from ISO/IEC 14443: every frame at 106 kbit/s (one bit is
128 carrier periods, 9.44 us; a byte is 9 bits with its parity, plus a start
and an end bit per frame: ISO/IEC 14443-2 and -3), the frame delay time
between frames (FDT >= 1172/fc, about 86 us: ISO/IEC 14443-3 6.2.1), the
1 ms the reader waits after HLTA (no answer is the answer: 14443-3 6.4.3)
or after a WUPA no tag answers (the driver's timeout), and the 5 ms of field
a tag may need after its coil is connected (the field guard time the tile
scanner waits, vortex.hal.tiles.SETTLE_MS).

What MicroPython and the SPI bus cost per read, mcu_ms, is measured by the
firmware on the emulated Pico (`make bench-device`); every figure here is a
function of it, and mcu_ms = 0 is the RF floor.
"""
BIT_US = 128 / 13.56          # one bit at 106 kbit/s
FDT_US = 1172 / 13.56         # frame delay time, either direction
NOREPLY_US = 1000.0           # wait for an answer that does not come
GUARD_MS = 5.0                # field before a tag answers
CELLS = 64
RANKS = 8

# The driver's exchange with an NTAG213 (vortex.hal.mfrc522.read_tile):
# (what, bytes sent, bytes answered); 0.875 byte = a 7-bit short frame.
EXCHANGE = (
    ("WUPA / ATQA", 0.875, 2),
    ("ANTICOLLISION CL1 / UID", 2, 5),
    ("SELECT CL1 / SAK", 9, 3),
    ("ANTICOLLISION CL2 / UID", 2, 5),
    ("SELECT CL2 / SAK", 9, 3),
    ("READ 4 / 16 bytes", 4, 18),
    ("HLTA / (silence)", 4, 0),
)


def frame_us(nbytes):
    """A frame's duration: start bit, 9 bits per byte (7 for a short frame),
    end bit."""
    bits = 7 if nbytes < 1 else 9 * nbytes
    return (bits + 2) * BIT_US


def read_us(tag=True):
    """RF time of one read: the whole exchange with a tag, or a WUPA that
    nobody answers."""
    if not tag:
        return frame_us(EXCHANGE[0][1]) + NOREPLY_US
    t = 0.0
    for _what, sent, answered in EXCHANGE:
        t += frame_us(sent) + FDT_US
        t += frame_us(answered) + FDT_US if answered else NOREPLY_US
    return t


def one_reader(t_read_ms, mcu_ms):
    """Today's design: one reader switched to 64 coils. After each switch the
    tag needs the guard time under the only field: nothing overlaps it."""
    return CELLS * (GUARD_MS + t_read_ms + mcu_ms)


def per_rank(t_read_ms, mcu_ms, overlap_mcu=False):
    """One reader per rank, 8 coils each. Blocking reads (the CPU waits on
    each read's RF): the other seven readers' reads cover a reader's guard
    time. Overlapped (the CPU starts a frame on one reader and serves the
    others while it is in the air): the CPU's share and each rank's own RF
    time bound it."""
    if overlap_mcu:
        return max(CELLS * mcu_ms, (CELLS // RANKS) * (GUARD_MS + t_read_ms))
    return max(CELLS * (t_read_ms + mcu_ms), (CELLS // RANKS) * (GUARD_MS + t_read_ms + mcu_ms))


def per_cell(t_read_ms, mcu_ms, overlap_mcu=False):
    """One reader per cell, every field always on (no guard after boot: a tile
    laid later powers up while other cells are read)."""
    if overlap_mcu:
        return max(CELLS * mcu_ms, t_read_ms)
    return CELLS * (t_read_ms + mcu_ms)


def table(mcu_values):
    """Rows (front end, mcu_ms, full board ms, empty board ms)."""
    full, empty = read_us(True) / 1000, read_us(False) / 1000
    rows = []
    for mcu in mcu_values:
        rows.append(("one reader, 64 coils (today)", mcu, one_reader(full, mcu), one_reader(empty, mcu)))
        rows.append(("one reader per rank, blocking reads", mcu, per_rank(full, mcu), per_rank(empty, mcu)))
        rows.append(("one reader per rank, overlapped reads", mcu, per_rank(full, mcu, True),
                     per_rank(empty, mcu, True)))
        rows.append(("one reader per cell, blocking reads", mcu, per_cell(full, mcu), per_cell(empty, mcu)))
        rows.append(("one reader per cell, overlapped reads", mcu, per_cell(full, mcu, True),
                     per_cell(empty, mcu, True)))
    return rows
