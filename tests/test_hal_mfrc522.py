"""The MFRC522 driver against a register model of the chips behind the
front end's 595s and decoder, with NTAG213s under their coils
(hal_fake_rc522, hal_fake_front). Runs under MicroPython too."""
import gc

# The driver first: compiled while the heap is emptiest (64K under test).
from vortex.hal.mfrc522 import MFRC522, OK, NOTAG, ERR, NOREADER
from vortex.hal.frontend import FrontEnd
from vortex import tag
from hal_fake_rc522 import FakeNtag, FakeRC522, crc_a
from hal_fake_front import FakeBus, UID7, tile, make

def test_crc_a_reference():
    assert crc_a(b"\x00\x00") == 0x1EA0        # ISO 14443-3 annex B


def test_init_sets_timer_ask_crc_preset_and_field():
    chip, r, front, bus = make()
    regs = chip.regs
    assert regs[0x2A] == 0x80 and regs[0x2B] == 0xA9   # TAuto, 25 us ticks
    assert regs[0x2C] << 8 | regs[0x2D] == 40          # 1 ms
    assert regs[0x15] == 0x40 and regs[0x11] == 0x3D
    assert regs[0x14] & 0x03 == 0x03                   # antenna on
    assert r.version() == 0x92 and r.present
    assert bus.strobe.v == 1                           # no reader selected between transactions


def test_read_tile_selects_a_7_byte_uid_and_reads_pages_4_to_7():
    t = tile(tag.WATER, 300)
    chip, r, front, bus = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == OK
    assert tag.decode(buf) == tag.WATER and tag.serial(buf) == 300
    assert bytes(r.uid[:r.uid_len]) == UID7 and r.sak == 0x00
    assert r.atqa == 0x0044
    # WUPA, CL1 anticoll + select, CL2 anticoll + select, READ.
    assert chip.commands() == [0x52, 0x93, 0x93, 0x95, 0x95, 0x30]
    frames = chip.frames
    assert frames[0] == (b"\x52", 7)
    assert frames[1][0] == b"\x93\x20" and frames[3][0] == b"\x95\x20"   # no CRC
    assert frames[5][0][:2] == b"\x30\x04"
    for f, bits in (frames[2], frames[4], frames[5]):
        assert crc_a(f[:-2]) == f[-2] | f[-1] << 8     # CRC_A appended by the chip
    assert t.state == "ACTIVE"


def test_crc_enables_are_written_only_when_they_change():
    chip, r, front, bus = make(tile())
    chip.writes = []
    assert r.read_tile(bytearray(16)) == OK
    modes = [(reg, v) for reg, v in chip.writes if reg in (0x12, 0x13)]
    # on for SELECT CL1, off for anticollision CL2, on for SELECT CL2 (READ keeps it)
    assert modes == [(0x12, 0x80), (0x13, 0x80), (0x12, 0), (0x13, 0), (0x12, 0x80), (0x13, 0x80)]


def test_the_poll_reads_five_registers_in_one_transaction():
    chip, r, front, bus = make(None)
    n0 = chip.transfers
    assert r.read_tile(bytearray(16)) == NOTAG
    # CRC off is the reset state: flush, Transceive, clear IRQs, FIFO,
    # StartSend, then one poll (ComIrq, Error, FIFOLevel, Control, TxControl).
    assert chip.transfers - n0 == 6


def test_read_again_on_the_same_coil_halts_the_tag_first():
    t = tile(tag.AIR)
    chip, r, front, bus = make(t)
    buf = bytearray(16)
    for _ in range(3):
        for i in range(16):
            buf[i] = 0
        assert r.read_tile(buf) == OK and tag.decode(buf) == tag.AIR
    assert chip.commands()[6:8] == [0x50, 0x52]       # HLTA, then WUPA


def test_4_byte_uid():
    t = FakeNtag(b"\xde\xad\xbe\xef", tag.encode(tag.EARTH))
    chip, r, front, bus = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and tag.decode(buf) == tag.EARTH
    assert bytes(r.uid[:r.uid_len]) == b"\xde\xad\xbe\xef"
    assert chip.commands() == [0x52, 0x93, 0x93, 0x30]


def test_no_tag():
    chip, r, front, bus = make(None)
    buf = bytearray(16)
    assert r.request() == NOTAG
    assert r.read_tile(buf) == NOTAG
    assert chip.commands()[-1] == 0x52      # nothing after the wake-up


def test_timeout_in_the_middle_is_an_error():
    t = tile()
    t.silent_on = 0x30                      # answers all but READ
    chip, r, front, bus = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == ERR
    t.silent_on = 0x95
    assert r.read_tile(buf) == ERR
    t.silent_on = None
    assert r.read_tile(buf) == OK


def test_crc_error_on_read_and_on_sak():
    t = tile()
    t.bad_crc_on = 0x30
    chip, r, front, bus = make(t)
    buf = bytearray(16)
    assert r.read_tile(buf) == ERR
    assert buf == bytearray(16)             # nothing copied
    t.bad_crc_on = 0x93
    assert r.read_tile(buf) == ERR
    t.bad_crc_on = None
    assert r.read_tile(buf) == OK


def test_a_read_reply_with_a_bad_crc_is_refused_though_its_length_is_right():
    # The chip keeps a reply's CRC_A out of its FIFO, good or bad: 16 bytes
    # wait there and only ErrorReg's CRCErr tells them from a good reply.
    t = tile(tag.FIRE, 9)
    t.bad_crc_on = 0x30
    chip, r, front, bus = make(t)
    assert r.request(True) == OK and r.select() == OK
    r.state[0] = 0                          # (the blocking helpers leave no read under way)
    chip.writes = None
    buf = bytearray(16)
    assert r.read(4, buf) == ERR and r.rx_n == 16 and chip.regs[0x06] & 0x04
    assert buf == bytearray(16)
    for slot in (-1, 3):                    # non-blocking, without and with the cache
        assert r.read_tile(buf, slot=slot) == ERR
        assert buf == bytearray(16)
    t.bad_crc_on = None
    assert r.read_tile(buf, slot=3) == OK and tag.decode(buf) == tag.FIRE


def test_an_anticollision_reply_with_a_wrong_bcc_selects_nothing():
    for level, before in ((1, [0x52, 0x93]), (2, [0x52, 0x93, 0x93, 0x95])):
        gc.collect()                        # (two rigs in MicroPython's 64K heap)
        t = tile(tag.WATER, 5)
        t.bad_bcc_on = level
        chip, r, front, bus = make(t)
        buf = bytearray(16)
        assert r.read_tile(buf, slot=2) == ERR
        assert chip.commands() == before    # no SELECT with a UID that does not check
        assert buf == bytearray(16) and t.state == "READY"
        t.power(False)                      # (a READY tag answers no WUPA)
        t.power(True)
        assert r.request(True) == OK and r.select() == ERR   # the blocking helper too
        # A good read fills the cache; a wrong BCC then is not a cache hit.
        t.bad_bcc_on = None
        assert r.read_tile(buf, slot=2) == OK
        t.power(False)                      # (the ACTIVE tag loses the field: IDLE)
        t.power(True)
        t.bad_bcc_on = level
        n = len(chip.cmds)
        assert r.read_tile(buf, slot=2) == ERR and r.hits == 0
        assert bytes(chip.cmds[n:]) == bytes([0x50] + before)   # HLTA: the slot's tag was left ACTIVE


def test_collision_is_an_error():
    t = tile()
    t.collide = True
    chip, r, front, bus = make(t)
    assert r.read_tile(bytearray(16)) == ERR


def test_nak_on_a_page_out_of_range():
    chip, r, front, bus = make(tile())
    buf = bytearray(16)
    assert r.request(True) == OK and r.select() == OK
    assert r.read(45, buf) == ERR


def test_reqa_does_not_wake_a_halted_tag_but_wupa_does():
    t = tile()
    chip, r, front, bus = make(t)
    assert r.read_tile(bytearray(16)) == OK
    assert r.halt() == OK and t.state == "HALT"
    assert r.request(False) == NOTAG
    assert r.request(True) == OK


def test_dead_chip_is_reported_missing_in_bounded_time_then_cheaply():
    chip, r, front, bus = make(tile())
    chip.dead = True
    n0 = chip.transfers
    assert r.read_tile(bytearray(16)) == NOREADER and not r.present
    assert chip.transfers - n0 < 12
    n0 = chip.transfers
    assert r.read_tile(bytearray(16)) == NOREADER
    assert chip.transfers - n0 == 1               # the version register only


def test_missing_chip_at_start_then_plugged_in():
    chips = [FakeRC522() for _ in range(8)]
    chips[2].tags[0] = tile()
    chips[2].dead = True
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    r = MFRC522(front, 2, clock=None)
    front.coil(2, 0)
    front.flush()
    assert not r.present
    assert r.read_tile(bytearray(16)) == NOREADER
    chips[2].dead = False                         # it answers: set up, then read
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and r.present
    assert tag.decode(buf) == tag.FIRE


def test_a_chip_reset_under_the_driver_is_set_up_again():
    chip, r, front, bus = make(tile())
    front.reset(0, 0)                             # NRSTPD pulsed: registers at reset values
    assert r.read_tile(bytearray(16)) == ERR      # seen at the poll, set up again
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and tag.decode(buf) == tag.FIRE


def test_write_page_then_read_back():
    t = FakeNtag(UID7)
    chip, r, front, bus = make(t)
    data = tag.encode(tag.EARTH, 77)
    assert r.request(True) == OK and r.select() == OK
    for p in range(4):
        assert r.write(4 + p, data[4 * p:4 * p + 4]) == OK
    assert chip.regs[0x2C] << 8 | chip.regs[0x2D] == 40   # timeout restored
    assert r.write(2, b"\x00\x00\x00\x00") == ERR         # NAK: locked page
    r.halt()
    buf = bytearray(16)
    assert r.read_tile(buf) == OK and bytes(buf) == data


def _alloc(fn, n):
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for _ in range(n):
            fn()
        return gc.mem_alloc() - a
    finally:
        gc.enable()


def test_no_tag_path_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only

    class Front:
        """Registers only; every poll answers TimerIRq, no allocation."""

        def __init__(self):
            self.regs = bytearray(64)
            self.regs[0x04] = 0x01
            self.regs[0x14] = 0x83
            self.regs[0x37] = 0x92       # a chip that answers: VersionReg

        def run(self, n, script):
            pass

        def field(self, n, on):
            self.regs[0x14] = 0x83 if on else 0x80

        def xfer(self, n, out, into=None):
            if into is None:
                if out[0] >> 1 == 0x14:
                    self.regs[0x14] = out[1] | 0x80
                return
            for i in range(1, len(out)):
                into[i] = self.regs[out[i - 1] >> 1 & 0x3F]

    r = MFRC522(Front(), 0, clock=None)
    buf = bytearray(16)
    r.read_tile(buf, slot=3)

    def read():
        assert r.read_tile(buf, slot=3) == NOTAG
    assert _alloc(read, 20) == 0


def test_read_tile_with_a_tag_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return                       # measured under MicroPython only
    # Record what the fake chips answer over a session, then replay those
    # bytes to a second driver through a front end that allocates nothing:
    # the driver's transfers are the same, so only the driver is measured.
    chip, rec, front, bus = make(tile(tag.EARTH))
    got = bytearray()

    class Recorder:
        def run(self, n, script):
            front.run(n, script)

        def field(self, n, on):
            front.field(n, on)

        def xfer(self, n, o, i=None):
            front.xfer(n, o, i)
            if i is not None:
                got.extend(i)

    rec = MFRC522(Recorder(), 0, clock=None)
    buf = bytearray(16)
    for _ in range(4):
        assert rec.read_tile(buf, slot=0) == OK       # full, then from the cache

    class Replay:
        def __init__(self, data):
            self.data = data
            self.pos = 0

        def run(self, n, script):
            pass

        def field(self, n, on):
            pass

        def xfer(self, n, o, i=None):
            if i is None:
                return
            p = self.pos
            d = self.data
            for k in range(len(i)):
                i[k] = d[p + k]
            self.pos = p + len(i)

    bus2 = Replay(got)
    r = MFRC522(bus2, 0, clock=None)
    assert r.read_tile(buf, slot=0) == OK
    sts = bytearray(3)

    def read2():
        sts[0] = r.read_tile(buf, slot=0)
        sts[1] = r.read_tile(buf, slot=0)
        sts[2] = r.read_tile(buf, slot=0)
    used = _alloc(read2, 1)
    assert (bytes(sts), tag.decode(buf), bus2.pos) == (
        bytes(3), tag.EARTH, len(got)), (bytes(sts), bus2.pos, len(got))
    assert used == 0, used
