"""The board's sounds on the virtual board: which sound for which event,
each once, none at the volume off, and the buzzer's tones in time. Plain
asserts: pytest runs them on CPython and tests/mpy_runner.py under the
MicroPython unix port."""
import gc

from host_sim.scenario import Rig, TICK_MS
from vortex.app import sounds, commands
from vortex.app.board import Board
from vortex.app.service import Service
from vortex.app.session import Settings
from vortex.engine.defs import LIGHT, DARK
from vortex.hal.buzzer import Buzzer, VOLUME_DUTY
from test_app_scenarios import BATTLE, AWAKE, START
from test_app_idle import idle_board


def heard(rig):
    """The sounds the board played, by name."""
    return [name for _, name, _ in rig.virtual.buzzer.played]


def test_an_illegal_action_sounds_once_however_long_it_stays():
    rig = Rig(BATTLE)
    rig.run("lift e2, place d4, wait 3000")  # e2 is on Water: no diagonal; it flashes 2 s
    assert heard(rig) == ["illegal"]
    rig.run("lift d4, place e2, settle")  # put back: nothing more
    assert heard(rig) == ["illegal"]
    rig.run("lift e2, place d3, settle")  # a second illegal action: a second sound
    assert heard(rig) == ["illegal", "illegal"]


def test_lifting_and_moving_sound_nothing():
    rig = Rig(BATTLE)
    rig.run("lift e2, wait 500, place e2, settle, play e2e4, play d7d6")
    assert rig.played() == "e2e4 d7d6" and heard(rig) == []


def test_the_ai_s_action_asks_once_and_the_wrong_one_sounds_illegal():
    rig = Rig(START, settings=Settings(ai_side=LIGHT))
    want = rig.board.pending
    assert want >= 0 and heard(rig) == ["asks"]
    cell = "h8" if rig.board.pos.action_text(want)[2:] != "h8" else "g8"
    rig.run("lay %s %s, settle" % (rig.board.pos.action_text(want)[0], cell))
    assert heard(rig) == ["asks", "illegal"]  # a legal placement, not the one asked for
    rig.run("take-tile %s, settle, carry" % cell)
    assert rig.board.pos.stack == [want]
    assert heard(rig) == ["asks", "illegal"]  # carried out: no sound of its own
    rig.run("play E@e4")  # the human's placement; the AI's next one is asked
    assert heard(rig) == ["asks", "illegal", "asks"]


def test_a_remote_opponent_s_action_asks():
    rig = Rig(BATTLE)
    rig.run("play e2e4")
    commands.request(rig.board, "b7c6")
    rig.tick(2)
    assert heard(rig) == ["asks"]
    rig.run("carry")
    assert rig.played() == "e2e4 b7c6" and heard(rig) == ["asks"]


def test_the_game_over_sounds_once_and_not_again_at_boot():
    rig = Rig(AWAKE)
    rig.run("lift h8, drop, lift h6, place h8, settle")
    assert rig.board.result() is not None
    rig.wait(3000)
    assert heard(rig) == ["over"]
    # The board powered up on that finished game: it is not news.
    board = rig.board
    assert sounds.Cues(board).update(board) == sounds.NONE


def test_a_clock_running_low_warns_each_side_once():
    rig = Rig(BATTLE, settings=Settings(clock_ms=20000, increment_ms=0))
    rig.wait(11000)  # Light's clock falls under 10 s
    assert heard(rig) == ["clock"]
    rig.run("play e2e4")  # Dark's clock is still high: nothing
    rig.wait(1000)
    rig.run("play d7d6")  # Light's again, still low: no second warning
    rig.wait(1000)
    assert heard(rig) == ["clock"] and rig.board.clock.left[DARK] > 10000
    rig.run("play a2a3")
    rig.wait(5000)  # Dark's falls under 10 s in turn
    assert heard(rig) == ["clock", "clock"]
    rig.wait(10000)  # Dark runs out of time
    assert rig.board.result() is not None and heard(rig) == ["clock", "clock", "over"]


def test_a_clock_already_low_at_boot_is_no_news():
    rig = Rig(BATTLE, settings=Settings(clock_ms=20000, increment_ms=0))
    rig.wait(11000)  # Light's clock falls under 10 s: warned once
    assert heard(rig) == ["clock"]
    # The board powered up on that game, Light's clock still low: no warning again.
    board = rig.board
    assert sounds.Cues(board).update(board) == sounds.NONE


def test_the_volume_off_silences_every_sound():
    rig = Rig(START, settings=Settings(ai_side=LIGHT, volume=0))
    want = rig.board.pos.action_text(rig.board.pending)
    cell = "h8" if want[2:] != "h8" else "g8"
    rig.run("lay %s %s, settle, tidy, carry" % (want[0], cell))  # asked, then not-asked
    assert rig.played() == want
    assert heard(rig) == [] and rig.virtual.buzzer.tones == []
    commands.set_setting(rig.board, "volume", "loud")
    rig.run("play W@d4")  # the AI asks again, now loud
    assert rig.virtual.buzzer.played[-1][1:] == ("asks", 2)


def test_the_volume_is_the_duty_and_the_tones_follow_the_notes():
    rig = Rig(BATTLE, settings=Settings(volume=1))
    rig.run("lift e2, place d4")
    rig.until(lambda: heard(rig), 2000)
    start = rig.virtual.buzzer.played[-1][0]
    rig.wait(1000)
    tones = [t for t in rig.virtual.buzzer.tones if t[0] >= start]
    notes = sounds.NOTES[sounds.ILLEGAL]
    at = start
    want = []
    for i in range(0, len(notes), 2):
        want.append((at, notes[i], VOLUME_DUTY[1] if notes[i] else 0))
        at += notes[i + 1]
    want.append((at, 0, 0))  # silent at the end
    # Each tone begins at the first pass on or after its time (passes are TICK_MS apart).
    assert [(hz, duty) for _, hz, duty in tones] == [(hz, duty) for _, hz, duty in want]
    for (t, _, _), (w, _, _) in zip(tones, want):
        assert w <= t < w + TICK_MS, (tones, want)


def test_the_menu_has_a_volume_row_and_the_save_keeps_it():
    rig = Rig(BATTLE)
    rig.run("hold b" + ", press b" * (len(commands.NAMES) - 1))
    assert commands.NAMES[rig.board.menu.item] == "volume"
    assert 8 in rig.lit() and 15 in rig.lit()  # rank 2: soft chosen, the cursor on h2
    rig.run("press a, hold b")  # soft -> loud, closed
    assert rig.board.settings.volume == 2
    assert commands.settings_text(rig.board.settings).endswith(" volume=loud")


def test_a_save_from_before_the_volume_loads_with_the_default():
    from vortex.app import session
    text = session.dump(Settings(volume=2, ai_level=4), BATTLE, [], (0, 0)).decode()
    assert "\nsettings -1 0 0 2 0 0 4 2\n" in text
    old = text.replace(" 4 2\n", " 4\n")  # the line a board wrote before it had a buzzer
    s = session.load(old.encode())[0]
    assert (s.ai_level, s.volume) == (4, Settings().volume)


class _PWM:
    def __init__(self):
        self.hz = 0
        self.duty = 0

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, duty):
        self.duty = duty


class _Reeds:
    def __init__(self, occ):
        self.cells = occ

    def scan(self, now):
        pass


class _Tiles:
    def __init__(self, tiles, ids):
        self.cells = tiles
        self.ids = ids
        self.missing = 0  # every reader answers

    def poll(self, now, between=None, budget_us=None):
        pass

    def view(self, fallback):
        return self.cells

    def expect(self, cell):
        pass


class _Pixels:
    def show(self, frame):
        pass


def _growth(service, clock, passes):
    """gc.mem_alloc() growth over `passes` passes (None off MicroPython)."""
    measure = hasattr(gc, "mem_alloc")
    if measure:
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
    for _ in range(passes):
        clock[0] += TICK_MS
        service.tick()
    if not measure:
        return None
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def test_the_pass_allocates_nothing_idle_or_while_a_sound_plays():
    board, occ, tiles, ids, now = idle_board(Settings(volume=2))
    clock = [now]
    buzzer = Buzzer(_PWM(), sounds.NOTES)
    service = Service(board, _Reeds(occ), _Tiles(tiles, ids), _Pixels(), lambda: 0,
                      lambda: clock[0], buzzer=buzzer)
    growth = _growth(service, clock, 1000)
    assert growth is None or growth == 0, growth
    buzzer.play(sounds.OVER, 2, clock[0])  # the longest sound, 660 ms: 132 passes
    growth = _growth(service, clock, 100)
    assert buzzer.playing == sounds.OVER
    assert growth is None or growth == 0, growth
    _growth(service, clock, 100)
    assert not buzzer.playing


def test_a_new_board_sounds_nothing_at_boot():
    board = Board(None, Settings(ai_side=DARK))
    assert sounds.Cues(board).update(board) == sounds.NONE
