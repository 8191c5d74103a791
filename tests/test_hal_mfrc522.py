"""The MFRC522 driver against a register model of the chip with an NTAG213
in its field (hal_fakes). Runs under MicroPython too."""
import gc

# The driver first: compiled while the heap is emptiest (64K under test).
from vortex.hal.mfrc522 import MFRC522, OK, NOTAG, ERR, NOREADER
from vortex import tag
from hal_fake_rc522 import FakeNtag, FakeRC522, crc_a
from hal_fakes import FakePin

UID7 = b"\x04\x11\x22\x33\x44\x55\x66"


def make(t=None):
    chip = FakeRC522(t)
    return chip, MFRC522(chip, chip.cs, chip.rst)


def tile(terrain=tag.FIRE, serial=9, uid=UID7):
    return FakeNtag(uid, tag.encode(terrain, serial))


def test_crc_a_reference():
    assert crc_a(b"\x00\x00") == 0x1EA0        # ISO 14443-3 annex B


def test_init_sets_timer_ask_crc_preset_and_field():
    chip, r = make()
    regs = chip.regs
    assert regs[0x2A] == 0x80 and regs[0x2B] == 0xA9   # TAuto, 25 us ticks
    assert regs[0x2C] << 8 | regs[0x2D] == 40          # 1 ms
    assert regs[0x15] == 0x40 and regs[0x11] == 0x3D
    assert regs[0x14] & 0x03 == 0x03                   # antenna on
    assert r.version() == 0x92
    assert chip.cs.v == 1 and chip.rst.v == 1
    r.antenna_off()
    assert regs[0x14] & 0x03 == 0
    r.antenna_on()
    assert regs[0x14] & 0x03 == 0x03


def test_read_tile_selects_a_7_byte_uid_and_reads_pages_4_to_7():
    t = tile(tag.WATER, 300)
    chip, r = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == OK
    assert tag.decode(buf) == tag.WATER and tag.serial(buf) == 300
    assert bytes(r.uid[:r.uid_len]) == UID7 and r.sak == 0x00
    assert r.atqa == 0x0044
    # WUPA, CL1 anticoll + select, CL2 anticoll + select, READ, HLTA.
    assert chip.commands() == [0x52, 0x93, 0x93, 0x95, 0x95, 0x30, 0x50]
    frames = chip.frames
    assert frames[0] == (b"\x52", 7)
    assert frames[5][0][:2] == b"\x30\x04"
    for f, bits in frames[2:3] + frames[4:]:
        assert crc_a(f[:-2]) == f[-2] | f[-1] << 8     # CRC_A appended
    assert t.state == "HALT"


def test_read_again_after_halt():
    t = tile(tag.AIR)
    chip, r = make(t)
    buf = bytearray(16)
    for _ in range(3):
        for i in range(16):
            buf[i] = 0
        assert r.read_tile(buf) == OK and tag.decode(buf) == tag.AIR


def test_4_byte_uid():
    t = FakeNtag(b"\xde\xad\xbe\xef", tag.encode(tag.EARTH))
    chip, r = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and tag.decode(buf) == tag.EARTH
    assert bytes(r.uid[:r.uid_len]) == b"\xde\xad\xbe\xef"
    assert chip.commands() == [0x52, 0x93, 0x93, 0x30, 0x50]


def test_no_tag():
    chip, r = make(None)
    buf = bytearray(16)
    assert r.request() == NOTAG
    assert r.read_tile(buf) == NOTAG
    assert chip.commands()[-1] == 0x52      # nothing after the wake-up


def test_timeout_in_the_middle_is_an_error():
    t = tile()
    t.silent_on = 0x30                      # answers all but READ
    chip, r = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == ERR
    assert chip.commands()[-1] == 0x50      # halted all the same
    t.silent_on = 0x95
    assert r.read_tile(buf) == ERR


def test_crc_error_on_read_and_on_sak():
    t = tile()
    t.bad_crc_on = 0x30
    chip, r = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == ERR
    assert buf == bytearray(16)             # nothing copied
    t.bad_crc_on = 0x93
    assert r.read_tile(buf) == ERR
    t.bad_crc_on = None
    assert r.read_tile(buf) == OK


def test_collision_is_an_error():
    t = tile()
    t.collide = True
    chip, r = make(t)
    assert r.read_tile(bytearray(16)) == ERR


def test_nak_on_a_page_out_of_range():
    chip, r = make(tile())
    buf = bytearray(16)
    assert r.request(True) == OK and r.select() == OK
    assert r.read(45, buf) == ERR


def test_reqa_does_not_wake_a_halted_tag_but_wupa_does():
    t = tile()
    chip, r = make(t)
    assert r.read_tile(bytearray(16)) == OK
    assert r.request(False) == NOTAG
    assert r.request(True) == OK


def test_dead_chip_is_reported_missing_in_bounded_time_then_cheaply():
    chip, r = make(tile())
    chip.dead = True
    n0 = chip.transfers
    assert r.read_tile(bytearray(16)) == NOREADER and not r.present
    assert chip.transfers - n0 < 4 * r.max_polls
    n0 = chip.transfers
    assert r.read_tile(bytearray(16)) == NOREADER
    assert chip.transfers - n0 == 1               # the version register only


def test_missing_chip_at_start_then_plugged_in():
    chip = FakeRC522(tile())
    chip.dead = True
    r = MFRC522(chip, chip.cs, chip.rst)
    assert not r.present
    assert r.read_tile(bytearray(16)) == NOREADER
    chip.dead = False                             # it answers: set up, then read
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and r.present
    assert tag.decode(buf) == tag.FIRE


def test_write_page_then_read_back():
    t = FakeNtag(UID7)
    chip, r = make(t)
    data = tag.encode(tag.EARTH, 77)
    assert r.request(True) == OK and r.select() == OK
    for p in range(4):
        assert r.write(4 + p, data[4 * p:4 * p + 4]) == OK
    assert chip.regs[0x2C] << 8 | chip.regs[0x2D] == 40   # timeout restored
    assert r.write(2, b"\x00\x00\x00\x00") == ERR         # NAK: locked page
    r.halt()
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and bytes(buf) == data


def test_no_tag_path_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only

    class Chip:
        """Registers only; every transfer answers TimerIRq, no allocation."""
        def __init__(self):
            self.regs = bytearray(64)
            self.regs[0x04] = 0x01
            self.regs[0x37] = 0x92       # a chip that answers: VersionReg

        def write(self, b):
            pass

        def write_readinto(self, out, into):
            for i in range(1, len(out)):
                into[i] = self.regs[out[i - 1] >> 1 & 0x3F]

    r = MFRC522(Chip(), FakePin(), None)
    buf = bytearray(16)
    r.read_tile(buf)
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for _ in range(20):
            assert r.read_tile(buf) == NOTAG
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert used == 0, used


def test_read_tile_with_a_tag_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    # Record what the fake chip answers over a session, then replay those
    # bytes to a second driver through a bus that allocates nothing: the
    # driver's transfers are the same, so only the driver is measured.
    chip = FakeRC522(tile(tag.EARTH))
    got = bytearray()

    class Recorder:
        def write(self, b):
            chip.write(b)

        def write_readinto(self, o, i):
            chip.write_readinto(o, i)
            got.extend(i)

    buf = bytearray(16)
    rec = MFRC522(Recorder(), chip.cs, chip.rst)
    for _ in range(3):
        assert rec.read_tile(buf) == OK

    class Replay:
        def __init__(self, data):
            self.data = data
            self.pos = 0

        def write(self, b):
            pass

        def write_readinto(self, o, i):
            p = self.pos
            d = self.data
            for k in range(len(i)):
                i[k] = d[p + k]
            self.pos = p + len(i)

    bus = Replay(got)
    r = MFRC522(bus, FakePin(), FakePin())
    assert r.read_tile(buf) == OK
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        st1 = r.read_tile(buf)
        st2 = r.read_tile(buf)
        used = gc.mem_alloc() - a
    finally:
        gc.enable()
    assert (st1, st2, tag.decode(buf), bus.pos, len(got)) == (
        OK, OK, tag.EARTH, len(got), len(got)), (st1, st2, bus.pos, len(got))
    assert used == 0, used
