"""The front end reads its chain back after every latch (issue 37,
pins.NFC_CHAIN_RETURN): against hal_fake_front's chain, whose farthest 595
comes back on MISO while the strobe is high, sound and with the faults a
board can have (a stuck bit, a chain slipped by a ringing clock edge, the
return line open). Runs under MicroPython too."""
from vortex.hal.mfrc522 import MFRC522, OK, NOREADER
from vortex.hal import frontend
from vortex.hal.frontend import FrontEnd
from vortex import tag
from hal_fake_rc522 import FakeRC522
from hal_fake_front import FakeBus, tile

RANK = 2
FILE = 5
_TRIES = 3          # frontend._TRIES: a const(), no name to import on MicroPython


def test_the_tries_are_the_front_ends():
    assert getattr(frontend, "_TRIES", _TRIES) == _TRIES


def rig():
    """Reader RANK reading its tile at FILE, its field on; a reader on rank 6
    with its coil connected too."""
    chips = [FakeRC522() for _ in range(8)]
    chips[RANK].tags[FILE] = tile(tag.AIR, 3)
    bus = FakeBus(chips)
    front = FrontEnd(bus, bus.strobe, bus.latch)
    front.reset(0, 0)
    rdr = MFRC522(front, RANK, clock=None)
    other = MFRC522(front, 6, clock=None)
    front.coil(RANK, FILE)
    front.coil(6, 1)
    front.flush()
    return chips, bus, front, rdr, other


def fields_on(chips):
    return [r for r, c in enumerate(chips) if c.running and c.regs[0x14] & 0x03]


def test_a_sound_chain_is_read_back_at_every_latch_and_the_fields_come_on():
    chips, bus, front, rdr, other = rig()
    buf = bytearray(16)
    n = bus.latches
    assert rdr.read_tile(buf, slot=FILE) == OK and tag.serial(buf) == 3
    other.read_tile(buf, slot=1)             # the decoder readdressed: the chain rewritten
    assert bus.latches > n and bus.readbacks == bus.latches
    assert front.fault == 0 and fields_on(chips) == [RANK, 6]
    assert bus.overcurrents() == 0


def test_the_check_costs_one_readback_a_latch_and_nothing_without_the_return():
    bus = FakeBus([None] * 8)
    front = FrontEnd(bus, bus.strobe, bus.latch, check=False)
    front.reset(0, 0)
    assert bus.readbacks == 0 and front.fault == 0
    bus.broken = True                        # unseen: the board has no return line
    front.select(3)
    assert front.fault == 0 and bus.address() == 3


def inject(bus, fault):
    if fault == "stuck":
        bus.stuck = (8 - 1 - 5, 0x40, 1)     # rank 5's 595, an unused output stuck high
    elif fault == "slipped":
        bus.glitch = 1000                    # every transfer's first edge rings
    else:
        bus.broken = True


def clear(bus):
    bus.stuck = None
    bus.glitch = 0
    bus.broken = False


def each_fault(check):
    for fault in ("stuck", "slipped", "broken"):
        check(fault)


def test_a_chain_that_reads_back_wrong_turns_every_field_off_retries_and_is_faulted():
    def check(fault):
        chips, bus, front, rdr, other = rig()
        assert fields_on(chips) == [RANK, 6]
        inject(bus, fault)
        n = bus.latches
        front.select(4)                      # another reader addressed: a latch
        # A wrong image is on the outputs only until its read-back (a
        # slipped switch may change under its field for those 20 us: the
        # readers' hardware interlock's business); none after.
        oc = bus.overcurrents()
        if fault != "slipped":               # the image latched was right: break before make
            assert oc == 0, fault
        # The load, then every field off (NRSTPD low, then all zeros),
        # _TRIES times: the last latch left every switch open and every
        # reader in reset.
        assert bus.latches - n == 3 * _TRIES, (fault, bus.latches - n)
        assert front.fault == 1, fault
        n = bus.latches
        front.coil(RANK, FILE - 1)           # the scheduler's next coil
        front.flush()
        # Once a load while faulted (the field off, the switch, the field
        # on, flush()'s own: each a load and the two latches that follow).
        assert front.fault == 1 and bus.latches - n == 4 * 3, (fault, bus.latches - n)
        assert not bus.latched[8] & 0x08, fault
        assert not any(c.running for c in chips) and fields_on(chips) == [], fault
        # Not read while faulted: every transaction is dropped, each tries
        # the chain again (and fails).
        buf = bytearray(16)
        s = chips[RANK].transfers
        assert rdr.read_tile(buf, slot=FILE - 1) == NOREADER, fault
        assert chips[RANK].transfers == s and front.fault == 1, fault
        front.field(RANK, True)              # a driver asking: no field comes on
        assert fields_on(chips) == [] and bus.overcurrents() == oc, fault
        # The fault goes: the next check passes, the readers run again, set
        # up afresh by their drivers, and read.
        clear(bus)
        front.coil(RANK, FILE)
        front.flush()
        assert front.fault == 0 and bus.latched[8] & 0x08, fault
        assert rdr.read_tile(buf, slot=FILE) == OK and tag.serial(buf) == 3, fault
        assert RANK in fields_on(chips) and bus.overcurrents() == oc, fault
    each_fault(check)


def test_one_ringing_edge_is_retried_and_the_front_end_goes_on():
    chips, bus, front, rdr, other = rig()
    bus.glitch = 1                           # the next transfer only: the chain's load
    n = bus.latches
    front.select(4)
    # Wrong, NRSTPD low, all zeros, right: the readers were reset on the
    # way, so their drivers set them up again at their next read
    # (TxControlReg found reset).
    assert bus.latches - n == 4 and front.fault == 0 and bus.coil(RANK) == FILE
    assert fields_on(chips) == []
    oc = bus.overcurrents()                  # (the slipped image's 20 us: see above)
    buf = bytearray(16)
    st = rdr.read_tile(buf, slot=FILE)
    if st != OK:                             # the first read found its chip reset
        st = rdr.read_tile(buf, slot=FILE)
    assert st == OK and tag.serial(buf) == 3
    assert bus.overcurrents() == oc
