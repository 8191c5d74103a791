"""The NFC driver's edges that the tile reads of test_hal_mfrc522 and
test_hal_nfc_front do not reach: Readers (the scheduler's view of the eight
readers) on the plain path and on the one-call path of the RP2040
(rp2nfc.serve, replaced here by a stand-in that keeps its contract), the
shared transfer buffers' layout, the blocking exchanges' bounds and clock,
chips that read 0xFF or hang, the tag left selected or not, and the chain
latched once when a rank's coil connects. Fakes: hal_fake_rc522 (the chip
and its tags), hal_fake_front (the 595 chain and decoder)."""
from array import array

from vortex import tag
from vortex.hal import mfrc522
from vortex.hal.mfrc522 import MFRC522, Readers, OK, NOTAG, ERR, NOREADER, BUSY
from vortex.hal.frontend import FrontEnd
from hal_fake_rc522 import FakeNtag, FakeRC522
from hal_fake_front import FakeBus, UID7, tile, make


def board(chips, **kw):
    """Eight readers on a fake bus, each rank's coil 0 connected."""
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    readers = Readers(front, 8, **kw)
    for r in range(8):
        front.coil(r, 0)
    front.flush()
    return readers, front, bus


def chips_with_tags(tagged, dead=()):
    chips = [FakeRC522() for _ in range(8)]
    for r, terrain in tagged.items():
        chips[r].tags[0] = tile(terrain, 10 + r)
    for r in dead:
        chips[r].dead = True
    return chips


def serve_all(readers, starts, now=0, limit=200):
    """Call serve() on every reader until each has ended; the masks it
    returned and the statuses."""
    n = len(readers)
    bufs = [bytearray(16) for _ in range(n)]
    wake = array("i", [0] * n)
    status = bytearray(n)
    st = bytearray(starts)
    pending = (1 << n) - 1
    masks = []
    for _ in range(limit):
        if not pending:
            break
        done = readers.serve(pending, wake, bufs, now, status, st)
        assert done & ~pending == 0
        if done:
            masks.append(done)
        pending &= ~done
    assert not pending, "reads never ended"
    assert bytes(st) == b"\xff" * n   # every start taken
    return masks, status, bufs, wake


# --- Readers, plain path ------------------------------------------------------

def test_readers_serve_reads_every_rank_and_reports_each_once():
    readers, front, bus = board(chips_with_tags({1: tag.WATER, 6: tag.AIR}, dead=(4,)))
    assert len(readers) == 8 and [readers[r].n for r in range(8)] == list(range(8))
    masks, status, bufs, wake = serve_all(readers, [0] * 8)
    got = 0
    for m in masks:
        assert m & got == 0
        got |= m
    assert got == 0xFF
    assert max(bin(m).count("1") for m in masks) > 1   # several end in the same call
    assert list(status) == [NOTAG, OK, NOTAG, NOTAG, NOREADER, NOTAG, OK, NOTAG]
    assert tag.decode(bufs[1]) == tag.WATER and tag.serial(bufs[1]) == 11
    assert tag.decode(bufs[6]) == tag.AIR and tag.serial(bufs[6]) == 16


def test_readers_serve_keeps_each_reads_slot_for_the_cache():
    readers, front, bus = board(chips_with_tags({2: tag.FIRE}))
    serve_all(readers, [3] * 8)
    masks, status, bufs, wake = serve_all(readers, [3] * 8)
    assert status[2] == OK and tag.decode(bufs[2]) == tag.FIRE
    assert readers[2].hits == 1   # the same tag on slot 3: its bytes from the cache


def test_readers_serve_says_when_to_look_again():
    # Without a clock, at once (now); with one, when the frames can be through.
    readers, front, bus = board(chips_with_tags({0: tag.EARTH}))
    wake = array("i", [-1] * 8)
    assert readers.serve(1, wake, [bytearray(16)] * 8, 777, bytearray(8), bytearray([0] * 8)) == 0
    assert wake[0] == 777 and list(wake[1:]) == [-1] * 7
    t = [5000]
    readers, front, bus = board(chips_with_tags({0: tag.EARTH}), clock=lambda: t[0])
    assert readers.serve(1, wake, [bytearray(16)] * 8, 5000, bytearray(8), bytearray([0] * 8)) == 0
    assert wake[0] == readers[0].due == 5000 + 376   # the wake-up's air time


# --- the one-call path (rp2nfc.serve on the RP2040) ------------------------------

class OneCall:
    """A stand-in for rp2nfc.serve: checks what it is given, then answers as
    told: {reader: status} ends those reads (GONE: the chip not as set up),
    the rest stay under way, to be looked at at `wake`."""
    GONE = 0xFE

    def __init__(self):
        self.answers = {}
        self.wake = 0
        self.calls = []

    def __call__(self, cfg, image, states, buffers, dests, wake, mask, status, starts):
        assert cfg is FAST_CFG and buffers is mfrc522._Buffers.one.io
        assert len(states) == len(dests) == len(status) == len(starts) and len(wake) >= len(states)
        self.calls.append((mask, list(states), list(dests), bytes(starts)))
        done = 0
        for r in range(len(states)):
            if mask >> r & 1:
                starts[r] = 255
                if r in self.answers:
                    status[r] = self.answers[r]
                    done |= 1 << r
                else:
                    wake[r] = self.wake
        return done


FAST_CFG = array("I", [0, 0, 0])


def fast_board(monkeypatch, chips):
    from vortex.hal import rp2nfc
    one = OneCall()
    monkeypatch.setattr(rp2nfc, "serve", one)
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    front.cfg = FAST_CFG        # what Rp2FrontEnd has: the readers go through serve()
    return one, front, bus


def test_readers_hand_every_read_to_one_call_and_set_up_a_chip_found_reset(monkeypatch):
    chips = chips_with_tags({}, dead=(5,))
    one, front, bus = fast_board(monkeypatch, chips)
    readers = Readers(front, 8)
    bufs = [bytearray(16) for _ in range(8)]
    wake, status, starts = array("i", [0] * 8), bytearray(8), bytearray([1] * 8)
    one.answers = {1: OK, 3: one.GONE, 5: one.GONE}
    one.wake = 4242
    done = readers.serve(0b101010, wake, bufs, 0, status, starts)
    assert done == 0b101010
    mask, states, dests, st = one.calls[0]
    assert mask == 0b101010 and dests == bufs and st == b"\x01" * 8
    assert all(states[r] is readers[r].state for r in range(8))
    # 1 ended as the call said; 3's chip answers, so it is set up again (ERR
    # for this read); 5's is dead: missing.
    assert (status[1], status[3], status[5]) == (OK, ERR, NOREADER)
    assert readers[3].present and not readers[5].present
    assert readers.serve(0b1, wake, bufs, 0, status, starts) == 0 and wake[0] == 4242


def test_a_readers_step_goes_through_one_call_too(monkeypatch):
    chips = chips_with_tags({})
    one, front, bus = fast_board(monkeypatch, chips)
    rd = MFRC522(front, 2)
    buf = bytearray(16)
    rd.begin(buf, 0)
    one.wake = 9000
    assert rd.step() == BUSY and rd.due == 9000    # under way: look again then
    mask, states, dests, st = one.calls[-1]
    assert mask == 1 and states[0] is rd.state and len(states) == 1 and dests == [buf]
    for answer, want in ((OK, OK), (NOTAG, NOTAG), (ERR, ERR), (one.GONE, ERR)):
        one.answers = {0: answer}
        rd.begin(buf, 0)
        assert rd.step() == want, answer
    chips[2].dead = True
    one.answers = {0: one.GONE}
    rd.begin(buf, 0)
    assert rd.step() == NOREADER and not rd.present


# --- the transfer buffers ------------------------------------------------------

def test_the_transfer_buffers_layout():
    # One set for every reader; rp2nfc's machine code reads the same offsets.
    b = mfrc522._Buffers()
    io = b.io
    assert len(io) == mfrc522._IO
    # The poll: ComIrq, Error, FIFOLevel, Control, TxControl, read addresses.
    assert bytes(b.poll) == bytes((0x88, 0x8C, 0x94, 0x98, 0xA8, 0))
    assert bytes(io[12:12 + 19]) == b"\x92" * 19 and io[31] == 0   # FIFODataReg read x19, then 0
    # The script's fixed segments: skipped until the reader needs them, but
    # the interrupts cleared (ComIrqReg 0x7F) always; then the FIFO's address.
    sc = bytes(b.script[:17])
    assert sc[0:3] == bytes((0x82, 0x12 << 1, 0))            # TxModeReg
    assert sc[3:6] == bytes((0x82, 0x13 << 1, 0))            # RxModeReg
    assert sc[6:9] == bytes((0x82, 0x0A << 1, 0x80))         # FIFOLevelReg: flush
    assert sc[9:12] == bytes((0x82, 0x01 << 1, 0x0C))        # CommandReg: Transceive
    assert sc[12:15] == bytes((2, 0x04 << 1, 0x7F))          # ComIrqReg: all cleared
    assert sc[16] == 0x09 << 1
    assert len(b.rx) == 20 and len(b.got) == 6
    for n in range(19):  # n bytes from the FIFO: n read addresses and the 0 that ends them
        assert bytes(b.rdv[n]) == b"\x92" * n + b"\x00" and len(b.rxv[n]) == n + 1
    b.rx[0] = 0x55
    assert io[32] == 0x55 and b.rxv[3][0] == 0x55   # views, not copies


# --- chips that do not answer as they should ---------------------------------------

class HighMISO(FakeBus):
    """A bus on which reader 5's MISO floats high: every byte reads 0xFF."""

    def _xfer(self, out, into):
        FakeBus._xfer(self, out, into)
        if into is not None and not self.strobe.v and self.address() == 5:
            for i in range(len(into)):
                into[i] = 0xFF


def test_a_chip_that_reads_ff_is_missing():
    chips = chips_with_tags({5: tag.FIRE})
    chips[5] = None
    bus = HighMISO(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    rd = MFRC522(front, 5, clock=None)
    assert not rd.present and rd.read_tile(bytearray(16)) == NOREADER


class Hung(FakeRC522):
    """A chip whose Transceive never ends: no interrupt ever comes."""

    def __init__(self, *a):
        FakeRC522.__init__(self, *a)
        self.polls = 0

    def _receive(self, reply):
        self._recv = True

    def _read(self, reg):
        if reg == 0x04:
            self.polls += 1
            assert self.polls < 2000, "polled without end"
        return FakeRC522._read(self, reg)


def hung_reader(max_polls):
    chips = [FakeRC522() for _ in range(8)]
    chips[0] = Hung({0: tile()})
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    rd = MFRC522(front, 0, clock=None, max_polls=max_polls)
    front.coil(0, 0)
    front.flush()
    return chips[0], rd


def test_a_hung_exchange_is_an_error_after_max_polls_looks():
    chip, rd = hung_reader(30)
    assert rd.read_tile(bytearray(16)) == ERR and chip.polls == 30
    chip.polls = 0
    assert rd.request(True) == ERR and chip.polls == 30          # the blocking one too
    chip, rd = hung_reader(1000)                                  # at most 255: one byte
    assert rd.read_tile(bytearray(16)) == ERR and chip.polls == 255


def test_init_reads_the_command_register_once_when_the_chip_is_up():
    chip, rd, front, bus = make(tile())
    reads = []
    real = chip._read

    def logged(reg):
        reads.append(reg)
        return real(reg)
    chip._read = logged
    assert rd.init()
    assert reads.count(0x01) == 1


# --- the tag left selected ------------------------------------------------------

def test_no_halt_after_the_field_went_off_or_the_tag_was_halted():
    t = tile(tag.WATER)
    chip, rd, front, bus = make(t)
    buf = bytearray(16)
    assert rd.read_tile(buf, slot=0) == OK
    rd.antenna_off()                  # the tag loses power: reset, nothing to halt
    rd.antenna_on()
    chip.cmds = bytearray()
    assert rd.read_tile(buf, slot=0) == OK and chip.commands()[0] == 0x52
    rd.halt()                         # HLTA: the tag sleeps, nothing left selected
    chip.cmds = bytearray()
    assert rd.read_tile(buf, slot=0) == OK and chip.commands()[0] == 0x52


# --- blocking request and select (tools that write tags) ---------------------------

def test_blocking_select_gets_the_whole_uid():
    for uid in (UID7, b"\xde\xad\xbe\xef"):
        chip, rd, front, bus = make(FakeNtag(uid, tag.encode(tag.EARTH)))
        assert rd.request(True) == OK and rd.select() == OK
        assert bytes(rd.uid[:rd.uid_len]) == uid and rd.sak == 0


class OddAtqa(FakeNtag):
    def handle(self, frame, bits):
        reply = FakeNtag.handle(self, frame, bits)
        if reply is not None and reply[0] == b"\x44\x00":
            return (b"\x44\x03", 0, 0)
        return reply


def test_both_bytes_of_the_atqa_are_kept():
    chip, rd, front, bus = make(OddAtqa(UID7, tag.encode(tag.FIRE)))
    assert rd.read_tile(bytearray(16)) == OK and rd.atqa == 0x0344
    chip, rd, front, bus = make(OddAtqa(UID7, tag.encode(tag.FIRE)))
    assert rd.request(True) == OK and rd.atqa == 0x0344


def test_a_blocking_exchange_waits_for_its_air_time_on_the_clock():
    t = [1000]
    looked = []

    def clock():
        t[0] += 50
        return t[0]
    chips = [FakeRC522() for _ in range(8)]
    chips[0].tags[0] = tile()
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    rd = MFRC522(front, 0, clock=clock)
    front.coil(0, 0)
    front.flush()
    real = chips[0]._read

    def logged(reg):
        if reg == 0x04:
            looked.append(t[0])
        return real(reg)
    chips[0]._read = logged
    start = t[0]
    assert rd.request(True) == OK
    assert looked and looked[0] - start >= 376       # not before the WUPA and ATQA are through
    assert rd.select() == OK


# --- the chain -------------------------------------------------------------------

def test_a_coil_connected_under_a_waiting_field_is_latched_with_its_reader_addressed():
    # Reader 0 wants its field (init) but rank 0 has no coil; reader 1 is
    # addressed. Connecting coil 2 latches the switch and reader 0's address
    # together: one latch, then the field on.
    chips = [FakeRC522() for _ in range(8)]
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    MFRC522(front, 0, clock=None)
    MFRC522(front, 1, clock=None)
    assert bus.address() == 1 and chips[0].regs[0x14] & 3 != 3
    latches = bus.latches
    front.coil(0, 2)
    front.flush()
    assert bus.latches - latches == 1
    assert bus.coil(0) == 2 and chips[0].regs[0x14] & 3 == 3 and bus.overcurrents() == 0


class Trickle(FakeRC522):
    """A chip whose reply is in the FIFO one look before RxIRq says it is
    complete (bytes still arriving)."""

    def __init__(self, *a):
        FakeRC522.__init__(self, *a)
        self.late = 0

    def _receive(self, reply):
        FakeRC522._receive(self, reply)
        if reply is not None:
            self.late = self.regs[0x04] & 0x22
            self.regs[0x04] &= ~0x22 & 0xFF

    def _read(self, reg):
        v = FakeRC522._read(self, reg)
        if reg == 0x04 and self.late:
            self.regs[0x04] |= self.late     # complete from the next look on
            self.late = 0
        return v


def test_the_reply_is_read_only_once_the_chip_says_it_is_complete():
    chips = [FakeRC522() for _ in range(8)]
    chips[0] = Trickle({0: tile(tag.AIR)})
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    rd = MFRC522(front, 0, clock=None)
    front.coil(0, 0)
    front.flush()
    buf = bytearray(16)
    assert rd.read_tile(buf) == OK and tag.decode(buf) == tag.AIR
    rd.halt()
    assert rd.request(True) == OK and rd.select() == OK
