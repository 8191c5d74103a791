"""Power cut at every step of a save, during a game on the board: after the
reboot the game resumes as last committed or as the one before, never
corrupt, never lost. Both kinds of save: an action's record appended to the
journal, and the whole snapshot written at a new game (compaction). With an
in-memory filesystem and with real files. Plain asserts (dual-run)."""
import gc
import os

from hal_fake_fs import MemFS, CutFS, PowerCut
from host_sim.scenario import Rig
from vortex.app.ai import Ai
from vortex.app.board import Board, NOT_SAVED
from vortex.hal.store import FileStore, RealFS
from vortex.engine.position import START
from vortex.app.session import Settings

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
PLAYED = 4  # actions committed before the save that loses power


def cut_sweep(new_fs, path, new_game=False):
    """For every step k of one save, cut the power there; return the steps.
    The save is the next action's, or with new_game, a new game's."""
    k = 0
    while True:
        gc.collect()  # two boards live per round: keep the heap for them
        fs = new_fs()
        cut = CutFS(fs)
        rig = Rig(BATTLE, store=FileStore(path, cut))
        ai = Ai(level=0, seed=7)
        for _ in range(PLAYED):
            rig.play(ai.choose(rig.board.pos), settle=False)
        before = list(rig.board.pos.stack)
        last = ai.choose(rig.board.pos)
        cut.cut = cut.step + k  # the power goes at step k of the next save
        try:
            if new_game:
                rig.board.new_game()
            else:
                rig.play(last, settle=False)
            done = True
        except PowerCut:
            done = False
        resumed = Board(FileStore(path, fs))  # the reboot
        got = resumed.pos.stack
        if new_game:
            assert (resumed.start, got) in ((BATTLE, before), (START, [])), (k, got)
            if done:
                assert resumed.start == START
                return k
        else:
            assert resumed.start == BATTLE
            if done:
                assert got == before + [last]
                return k
            assert got == before or got == before + [last], (k, got)
        assert "resumed after" in resumed.messages[-1]
        rig = resumed = None  # let the next round have the heap
        k += 1


def test_power_cut_at_every_step_in_memory():
    assert cut_sweep(MemFS, "/game.bin") >= 4  # open, write, flush, close of a record
    assert cut_sweep(MemFS, "/game.bin", new_game=True) >= 12


def test_power_cut_at_every_step_with_real_files():
    # A folder of this run's own: other runs may share /tmp (no getpid on MicroPython).
    folder = "/tmp/vortex-powercut-" + "".join("%02x" % b for b in os.urandom(6))
    try:
        os.mkdir(folder)
    except OSError:
        pass
    path = folder + "/game.bin"

    def fresh():
        for name in ("", ".tmp", ".bak", ".log", ".log.tmp"):
            try:
                os.remove(path + name)
            except OSError:
                pass
        return RealFS()

    assert cut_sweep(fresh, path) >= 4
    assert cut_sweep(fresh, path, new_game=True) >= 12
    fresh()
    os.rmdir(folder)


def test_resume_replays_actions_takebacks_and_the_clock_from_the_journal():
    fs = MemFS()
    rig = Rig(BATTLE, settings=Settings(clock_ms=600000, increment_ms=5000),
              store=FileStore("/game.bin", fs))
    ai = Ai(3)
    for _ in range(3):
        rig.play(ai.choose(rig.board.pos), settle=False)
    rig.do("press", "a")  # a takeback
    rig.wait(700)
    board = rig.board
    text, left = board.pos.text(), list(board.clock.left)
    assert len(board.pos.stack) == 2
    rig = board = ai = None  # one board at a time in MicroPython's 128 KB
    gc.collect()
    st = FileStore("/game.bin", fs)
    st.load()
    assert len(st.records()) == 4  # three actions and the takeback, after the snapshot
    resumed = Board(FileStore("/game.bin", fs))
    assert resumed.pos.text() == text and resumed.start == BATTLE
    # The clocks as at the takeback: none ran since, while the board was put back.
    assert list(resumed.clock.left) == left
    st.load()
    assert st.records() == []  # the resume compacted the journal


def test_power_cut_while_the_ai_thinks_keeps_the_action_it_answers():
    # The AI thinks for seconds on the device, right after the human's
    # action: that action is saved before it starts.
    fs = MemFS()
    board = Board(FileStore("/game.bin", fs), settings=Settings(ai_side=1, ai_level=1))
    board.new_game(BATTLE)
    mover = Ai(0)
    action = mover.choose(board.pos)

    def cut():
        raise PowerCut()
    board.on_think = cut
    try:
        board.commit(action)
        board.think()  # as the step of the commit does
        assert False, "the AI never thought"
    except PowerCut:
        pass
    board = None
    gc.collect()
    resumed = Board(FileStore("/game.bin", fs))
    assert resumed.pos.stack == [action]


class FullFS(MemFS):
    """A flash that fills up: while full, every write is refused (OSError 28,
    ENOSPC, as littlefs and FAT say it) and nothing of it is kept."""

    def __init__(self):
        MemFS.__init__(self)
        self.full = False

    def open(self, path, mode):
        if self.full and mode[0] in "wa":
            raise OSError(28)
        return MemFS.open(self, path, mode)


def test_a_full_flash_loses_no_game_and_says_so():
    fs = FullFS()
    rig = Rig(BATTLE, store=FileStore("/game.bin", fs))
    said = []
    rig.service.say = said.append
    ai = Ai(level=0, seed=7)
    for _ in range(2):
        rig.play(ai.choose(rig.board.pos), settle=False)
    kept = list(rig.board.pos.stack)
    fs.full = True
    for _ in range(2):  # a record, then (the journal behind) a whole save: both refused
        rig.play(ai.choose(rig.board.pos), settle=False)
    board = rig.board
    assert len(board.pos.stack) == 4  # play went on
    assert board.unsaved == 2 and board.unsaved_text == NOT_SAVED % "the flash is full"
    rig.tick()
    assert said == [board.unsaved_text] * 2  # a line each refused save, said once
    # A boot on the full flash: the resume's compaction is refused, the last save resumes.
    resumed = Board(FileStore("/game.bin", fs))
    assert resumed.pos.stack == kept and resumed.unsaved == 1
    assert resumed.messages[-2:] == [NOT_SAVED % "the flash is full", "resumed after 2 actions"]
    # Room again: the next change saves the whole game (a journal record on
    # the old snapshot would not replay, and the game would be lost).
    fs.full = False
    rig.play(ai.choose(rig.board.pos), settle=False)
    assert Board(FileStore("/game.bin", fs)).pos.stack == rig.board.pos.stack
    assert len(rig.board.pos.stack) == 5 and board.unsaved == 2


def test_another_flash_error_is_named_by_its_code():
    fs = FullFS()
    board = Board(FileStore("/game.bin", fs))

    def worn(path, mode):
        raise OSError(5)
    fs.open = worn
    board.new_game(BATTLE)
    assert board.unsaved == 1 and board.unsaved_text == NOT_SAVED % "flash error 5"
