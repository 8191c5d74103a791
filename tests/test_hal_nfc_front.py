"""The front end's chain and decoder (vortex.hal.frontend), several readers
on it, and what the MFRC522 driver does with its coils: reads paced by the
air, the cache of a slot's tag, halts. Against the register model of
hal_fake_rc522 behind hal_fake_front. Runs under MicroPython too."""
import gc

from vortex.hal.mfrc522 import MFRC522, OK, NOTAG, ERR, BUSY, CACHE_HITS
from vortex.hal.frontend import FrontEnd, OFF
from vortex import tag
from hal_fake_rc522 import FakeRC522
from hal_fake_front import FakeBus, tile, make

def test_the_chain_holds_address_reset_and_each_ranks_coil():
    bus = FakeBus([None] * 8)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    assert bus.latched == bytearray(9)                        # in reset, no coil
    assert bus.strobe.v == 1 and bus.latch.v == 0
    front.reset(0, 0)
    assert bus.latched == bytearray(8) + b"\x08"             # running, no coil
    front.coil(0, 5)
    front.coil(3, 2)
    assert bus.latched[7] == 0 and bus.latches == 3           # staged only
    front.select(6)
    # image[8] (the controller's 595): running, address 6; rank r's byte is
    # image[7 - r] (the rank board at ribbon position r).
    assert bytes(bus.latched) == bytes((0, 0, 0, 0, 0x08 | 2, 0, 0, 0x08 | 5, 0x08 | 6))
    assert (bus.coil(0), bus.coil(3), bus.address(), front.addressed) == (5, 2, 6, 6)
    n = bus.latches
    front.select(6)
    front.flush()
    assert bus.latches == n                                   # nothing changed: no rewrite
    front.coil(3, OFF)
    front.flush()
    assert bus.coil(3) == -1 and bus.coil(0) == 5 and front.coils[3] == 255
    n = bus.latches
    front.reset(0, 0)
    assert bus.latched[8] & 0x08 and bus.latches == n + 2     # low, then high again


def test_the_readers_are_held_in_reset_until_reset_lets_them_run():
    # Issue 37: the first latch must not start the readers (their fields
    # could come on before any switch is set); reset() starts them.
    chips = [FakeRC522() for _ in range(8)]
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    assert not bus.latched[8] & 0x08 and bus.latches >= 1
    assert not any(c.running for c in chips)
    front.coil(2, 1)
    front.flush()
    assert not bus.latched[8] & 0x08 and bus.coil(2) == 1    # still in reset
    front.reset(0, 0)
    assert bus.latched[8] & 0x08 and all(c.running for c in chips)


def test_a_switch_inside_a_field_change_keeps_the_field_asked_for():
    # field() -> xfer() -> select() -> _switch() -> a TxControlReg write of
    # its own: the outer write must still send the value asked for (issue
    # 37: they shared one buffer, and a wanted TX_ON went out as TX_OFF).
    chips = [FakeRC522() for _ in range(8)]
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    readers = [MFRC522(front, r, clock=None) for r in range(2)]
    front.coil(0, 2)
    front.coil(1, 3)
    front.flush()
    assert chips[0].regs[0x14] == chips[1].regs[0x14] == 0x83
    readers[0].antenna_off()
    front.coil(1, OFF)                       # staged: rank 1's field goes off first
    readers[0].antenna_on()                  # ...inside this write
    assert chips[1].regs[0x14] == 0x80 and bus.coil(1) == -1
    assert chips[0].regs[0x14] == 0x83
    readers[0].antenna_off()
    front.coil(1, 3)                         # staged: rank 1's field comes back after it
    readers[0].antenna_off()
    assert chips[1].regs[0x14] == 0x83 and chips[0].regs[0x14] == 0x80
    assert bus.overcurrents() == 0


def test_no_field_is_ever_on_into_an_open_switch():
    # Boot: the drivers set up their chips with no coil connected, so no
    # field; the field comes on with the coil, goes off across every switch
    # change (break-before-make: the switch is open for a moment), and off
    # with the rank's coils all disconnected. FakeRC522 counts every moment
    # its field was on with its switch open.
    chips = [FakeRC522() for _ in range(8)]
    chips[1].tags[3] = tile(tag.WATER, 4)
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    readers = [MFRC522(front, r, clock=None) for r in range(8)]
    assert all(c.regs[0x14] == 0x80 for c in chips) and front.fields == bytearray(b"\x01" * 8)
    for f in (3, 4, 3):
        for r in range(8):
            front.coil(r, f)
        front.flush()
        assert all(c.regs[0x14] == 0x83 for c in chips)
        buf = bytearray(16)
        assert readers[1].read_tile(buf, slot=f) == (OK if f == 3 else NOTAG)
    front.coil(1, OFF)
    front.flush()
    assert chips[1].regs[0x14] == 0x80 and chips[2].regs[0x14] == 0x83
    readers[2].antenna_off()
    front.coil(2, 5)
    front.flush()
    assert chips[2].regs[0x14] == 0x80                        # its driver wants it off
    readers[1].init()                                         # a driver's re-init: still no coil
    assert chips[1].regs[0x14] == 0x80
    assert bus.overcurrents() == 0


def test_the_fault_model_sees_a_field_into_an_open_switch():
    chips = [FakeRC522() for _ in range(8)]
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    front.xfer(4, b"\x28\x83")                                # TxControlReg: both drivers on
    assert bus.overcurrents() == 1 and chips[4].overcurrent == 1
    # A coil connected under the field is the right load; moved to another
    # coil under it, the switch opens for a moment as it changes: a fault.
    bus.latched[7 - 4] = 0x08 | 2
    bus._apply()
    assert chips[4].overcurrent == 1
    bus.latched[7 - 4] = 0x08 | 5
    bus._apply()
    assert chips[4].overcurrent == 2


def test_a_coil_switched_away_and_back_needs_no_halt():
    t = tile(tag.AIR)
    chip, r, front, bus = make(t, f=2)
    buf = bytearray(16)
    assert r.read_tile(buf, slot=2) == OK
    front.coil(0, 3)
    front.flush()
    assert r.read_tile(buf, slot=3) == NOTAG
    front.coil(0, 2)
    front.flush()
    n = len(chip.cmds)
    assert r.read_tile(buf, slot=2) == OK
    assert chip.commands()[n] == 0x52


def test_the_cache_skips_the_read_of_the_same_tag_but_not_the_anticollision():
    t = tile(tag.EARTH, 77)
    chip, r, front, bus = make(t, f=4)
    buf = bytearray(16)
    assert r.read_tile(buf, slot=4) == OK
    full = bytes(chip.cmds)
    empty = bytearray(16)

    def away_and_back():
        # The scheduler's way: another coil read (the tag loses its field), then back.
        front.coil(0, 5)
        front.flush()
        assert r.read_tile(empty, slot=5) == NOTAG
        front.coil(0, 4)
        front.flush()

    def hits(k):
        for _ in range(k):
            away_and_back()
            n = len(chip.cmds)
            for i in range(16):
                buf[i] = 0
            assert r.read_tile(buf, slot=4) == OK
            assert tag.decode(buf) == tag.EARTH and tag.serial(buf) == 77
            assert chip.cmds[n:] == b"\x52\x93\x93\x95"   # no SELECT CL2, no READ

    def full_read():
        away_and_back()
        n = len(chip.cmds)
        assert r.read_tile(buf, slot=4) == OK
        assert chip.cmds[n:] == full                     # a full read again, now and then

    # Cached afresh, slot s is read in full again after CACHE_HITS - 2 s hits
    # (so that a rank's slots are not all read in full in one sweep); then
    # after CACHE_HITS each time.
    hits(CACHE_HITS - 2 * 4)
    full_read()
    hits(CACHE_HITS)
    full_read()
    assert r.hits == 2 * CACHE_HITS - 8


def test_another_tag_on_the_slot_is_read_in_full():
    chip, r, front, bus = make(tile(tag.EARTH, 1), f=1)
    buf = bytearray(16)
    assert r.read_tile(buf, slot=1) == OK
    chip.tags[1] = tile(tag.FIRE, 2, b"\x04\x99\x22\x33\x44\x55\x67")
    front.coil(0, 2)
    front.flush()
    front.coil(0, 1)
    front.flush()
    assert r.read_tile(buf, slot=1) == OK
    assert tag.decode(buf) == tag.FIRE and tag.serial(buf) == 2 and r.hits == 0


def test_a_tag_whose_uid_differs_from_the_cached_one_in_any_single_byte_is_read_in_full():
    # Tiles are tagged in series, so the next tile's UID is often the last
    # one's plus one: the cache must compare every byte of the UID, the
    # last included, at both lengths (4 bytes: one cascade level; 7: two).
    for uid in (b"\x04\x11\x22\x33\x44\x55\x66", b"\xde\xad\xbe\xef"):
        for i in range(len(uid)):
            other = bytearray(uid)
            other[i] = (other[i] + 1) & 0xFF
            if i == 0 and len(uid) == 4:
                other[0] = 0x89                  # (0x88 would be the cascade tag)
            chip = r = front = bus = None
            gc.collect()                         # (a rig at a time in MicroPython's 64K heap)
            chip, r, front, bus = make(tile(tag.EARTH, 100, uid), f=6)
            buf = bytearray(16)
            assert r.read_tile(buf, slot=6) == OK and tag.serial(buf) == 100
            chip.tags[6] = tile(tag.WATER, 101, bytes(other))
            front.coil(0, 5)                     # the scheduler's way: another coil, then back
            front.flush()
            front.coil(0, 6)
            front.flush()
            n = len(chip.cmds)
            assert r.read_tile(buf, slot=6) == OK
            assert (tag.decode(buf), tag.serial(buf), r.hits) == (tag.WATER, 101, 0), (uid, i)
            assert chip.commands()[n:][-1] == 0x30, (uid, i)   # READ sent
            assert bytes(r.uid[:r.uid_len]) == bytes(other)


def test_two_tags_on_a_cached_slot_still_collide():
    t = tile(tag.EARTH, 1)
    chip, r, front, bus = make(t, f=1)
    buf = bytearray(16)
    assert r.read_tile(buf, slot=1) == OK
    t.collide = True                 # a second tag in the field
    front.coil(0, 2)
    front.flush()
    front.coil(0, 1)
    front.flush()
    assert r.read_tile(buf, slot=1) == ERR


def test_readers_are_told_apart_by_the_decoder():
    chips = [FakeRC522() for _ in range(8)]
    chips[2].tags[6] = tile(tag.WATER, 2)
    chips[5].tags[6] = tile(tag.AIR, 5)
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    r2 = MFRC522(front, 2, clock=None)
    r5 = MFRC522(front, 5, clock=None)
    front.coil(2, 6)
    front.coil(5, 6)
    front.flush()
    b2 = bytearray(16)
    b5 = bytearray(16)
    r2.begin(b2, 6)
    r5.begin(b5, 6)
    st2 = st5 = BUSY
    while st2 == BUSY or st5 == BUSY:             # both at once, exchange by exchange
        st2 = r2.step()
        st5 = r5.step()
    assert (st2, st5) == (OK, OK)
    assert tag.serial(b2) == 2 and tag.serial(b5) == 5
    assert chips[2].commands() == chips[5].commands()
    assert all(c.transfers == 0 for i, c in enumerate(chips) if i not in (2, 5))


def test_step_waits_for_the_air_without_touching_the_bus():
    class Clock:
        t = 0

        def __call__(self):
            return self.t

    clock = Clock()
    chip, _, front, bus = make(tile())
    r = MFRC522(front, 0, clock=clock)
    buf = bytearray(16)
    r.begin(buf, 0)
    n = chip.transfers
    assert r.step() == BUSY and chip.transfers > n       # the WUPA sent at the first step
    n = chip.transfers
    assert r.step() == BUSY and chip.transfers == n      # WUPA + ATQA: 0.37 ms on the air
    clock.t = 300
    assert r.step() == BUSY and chip.transfers == n
    clock.t = 400
    assert r.step() == BUSY and chip.transfers > n       # looked, moved on to the anticollision
    st = BUSY
    while st == BUSY:
        clock.t += 100
        st = r.step()
    assert st == OK and tag.decode(buf) == tag.FIRE
    # WUPA, 2 anticollisions, 2 selects and a READ: about 6 ms of frames.
    assert 5500 <= clock.t <= 7500, clock.t
