"""Power cut at every step of a save, during a game on the board: after the
reboot the game resumes as last committed or as the one before, never
corrupt, never lost. With an in-memory filesystem and with real files.
Plain asserts (dual-run)."""
import gc
import os

from hal_fake_fs import MemFS, CutFS, PowerCut
from host_sim.scenario import Rig
from vortex.app.ai import Ai
from vortex.app.board import Board
from vortex.hal.store import FileStore, RealFS

BATTLE = ("AAAWAWEW/FFAEFEFF/FEEWFAEE/WFEAFEAF/WWFEAAFE/WWWEEEFF/WFWAWAEF/AAEWWAWA "
          "4h3/tttttttt/8/8/8/8/TTTTTTTT/4H3 l 3,4 - 0 64")
PLAYED = 4  # actions committed before the save that loses power


def cut_sweep(new_fs, path):
    """For every step k of one save, cut the power there; return the steps."""
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
            rig.play(last, settle=False)
            done = True
        except PowerCut:
            done = False
        resumed = Board(FileStore(path, fs))  # the reboot
        got = resumed.pos.stack
        assert resumed.start == BATTLE
        if done:
            assert got == before + [last]
            return k
        assert got == before or got == before + [last], (k, got)
        assert "resumed after" in resumed.messages[-1]
        rig = resumed = None  # let the next round have the heap
        k += 1


def test_power_cut_at_every_step_in_memory():
    assert cut_sweep(MemFS, "/game.bin") >= 8


def test_power_cut_at_every_step_with_real_files():
    folder = "/tmp/vortex-powercut-%d" % getattr(os, "getpid", lambda: 1)()  # none on MicroPython
    try:
        os.mkdir(folder)
    except OSError:
        pass
    path = folder + "/game.bin"

    def fresh():
        for name in ("", ".tmp", ".bak"):
            try:
                os.remove(path + name)
            except OSError:
                pass
        return RealFS()

    assert cut_sweep(fresh, path) >= 8
    fresh()
    os.rmdir(folder)
