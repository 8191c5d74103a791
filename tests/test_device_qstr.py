"""The qstr pool on both emulated Picos: after the board has booted and
resumed a game, and then loaded every module its functions import on
demand and made every name a string index can, its pool of interned names
still has room, so no name the board can still make asks for a new pool.

On CircuitPython 10 the 1,271st name asks for a pool of 1,280 entries
(7.7 KB) in one block, which a board that has played a while does not
have: that was issue 41's crash ("allocating 1280 bytes", counted in
entries), at the 4th action of a game once issue 38's code had taken the
last of the room. The room left is the margin a change to the firmware may
spend before this fails (docs/device.md, the qstr pool); MicroPython's is
wide (its pools are larger and its heap too), and is checked the same way.
Each boot takes about a minute of CPU."""
import pytest

from needs_pico import needs_pico
import device_memory

# Names still to be had after everything the firmware can intern: room for
# a change to add this many before the board's pool is at its edge.
MARGIN = 32
# Bytes free then, at least (docs/device.md: about 40 KB and 7 KB measured).
FREE_MICROPYTHON = 24 * 1024
FREE_CIRCUITPYTHON = 4 * 1024


@pytest.mark.parametrize("runtime", [
    pytest.param("micropython", marks=needs_pico("micropython")),
    pytest.param("circuitpython", marks=needs_pico("circuitpython")),
])
def test_the_board_keeps_room_in_its_qstr_pool_for_every_name_it_can_still_make(runtime):
    names, free, online = device_memory.headroom(runtime)
    print("%s: room for %d more names, %d bytes free" % (runtime, names, free))
    assert names >= MARGIN, (runtime, names, free)
    # A Pico without the radio loads none of online play (its client alone
    # is some 35 KB of heap): only the module that found no radio.
    assert online in ([], ["vortex.online.wifi"]), online
    assert runtime == "micropython" or online == [], online
    # The heap left once all of it is loaded: MicroPython keeps its room
    # beside the AI's full tables; CircuitPython, its reserve (HEAP_RESERVE).
    assert free >= (FREE_MICROPYTHON if runtime == "micropython" else FREE_CIRCUITPYTHON), free


def test_the_names_made_on_demand_are_found_in_the_firmware():
    # The modules the check loads are the firmware's own on-demand imports,
    # found in its sources: a record, the AI's building and its search, the
    # version; CircuitPython skips what only MicroPython imports.
    cp = device_memory.on_demand_modules("circuitpython")
    mp = device_memory.on_demand_modules("micropython")
    assert {"vortex.record", "vortex.ai.build", "vortex.ai.search"} <= set(cp), cp
    assert not [m for m in cp if m.startswith(device_memory.MICROPYTHON_ONLY)], cp
    assert "vortex.hal.rp2nfc" in mp and set(cp) <= set(mp), mp
    # Online play's, which only a Pico W loads, on neither.
    assert not [m for m in cp + mp if m.startswith(device_memory.RADIO_ONLY)], mp


def test_an_on_demand_import_is_found_wherever_a_function_makes_it(tmp_path):
    # A new module imported inside a function, in either form, is found.
    pkg = tmp_path / "firmware" / "vortex"
    (pkg / "app").mkdir(parents=True)
    (pkg / "app" / "late.py").write_text("X = 1\n")
    (pkg / "app" / "other.py").write_text("Y = 1\n")
    (pkg / "app" / "user.py").write_text(
        "import vortex.app.other\n"
        "def f():\n    from vortex.app import late\n"
        "def g():\n    import vortex.app.other\n"
        "def h():\n    from vortex.app.other import Y\n")
    found = device_memory.on_demand_modules("circuitpython", root=str(tmp_path))
    assert found == ["vortex.app.late", "vortex.app.other"], found
