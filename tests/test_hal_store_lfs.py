"""FileStore on littlefs (os.VfsLfs2, MicroPython only) in a RAM block
device whose power goes at every program/erase in turn: littlefs's own
power-loss resilience and our rename protocol together. On CPython the
test returns at once."""
import os

from hal_fake_fs import B, C, R1, R2
from vortex.hal.store import FileStore

A = b"game A"


class RAMBlockDev:
    """A littlefs block device in RAM whose power goes after `budget`
    program/erase operations: that program is torn in half and fails;
    after it the device is dead: writes vanish without an error (so the
    finalisers of files left open by the cut stay quiet)."""

    def __init__(self, image=None, budget=-1, bs=128, n=32):
        self.bs = bs
        self.n = n
        self.data = bytearray(image) if image is not None else \
            bytearray(b"\xff" * (bs * n))
        self.budget = budget
        self.dead = False

    def _spend(self):
        if self.dead:
            return
        if self.budget == 0:
            self.dead = True
            raise OSError(5)
        if self.budget > 0:
            self.budget -= 1

    def readblocks(self, block, buf, off=0):
        a = block * self.bs + off
        for i in range(len(buf)):
            buf[i] = self.data[a + i]

    def writeblocks(self, block, buf, off=0):
        a = block * self.bs + off
        n = len(buf)
        if self.budget == 0 and not self.dead:
            n //= 2                       # the torn program
        elif self.dead:
            n = 0
        for i in range(n):                # no allocation: may run in a GC
            self.data[a + i] = buf[i]
        self._spend()

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.bs
        if op == 6:                       # erase
            self._spend()
            if self.dead:
                return 0
            a = arg * self.bs
            for i in range(a, a + self.bs):
                self.data[i] = 0xFF
            return 0
        return None


def test_power_cut_at_every_block_write_littlefs():
    lfs = getattr(os, "VfsLfs2", None)
    if lfs is None:
        return                            # no littlefs in CPython
    dev = RAMBlockDev()
    lfs.mkfs(dev)
    for d in (A, B):
        FileStore("/game.bin", lfs(dev)).save(d)
    image = bytes(dev.data)
    k = 0
    while True:
        dev = RAMBlockDev(image, budget=k)
        try:
            FileStore("/game.bin", lfs(dev)).save(C)
            done = True
        except OSError:
            done = False
        got = FileStore("/game.bin", lfs(RAMBlockDev(dev.data))).load()
        if done:
            assert got == C
            break
        assert got == B or got == C, (k, got)
        k += 1
    assert k >= 4


def test_power_cut_at_every_block_write_of_an_append_littlefs():
    lfs = getattr(os, "VfsLfs2", None)
    if lfs is None:
        return
    dev = RAMBlockDev()
    lfs.mkfs(dev)
    st = FileStore("/game.bin", lfs(dev))
    st.save(B)
    st.append(R1)
    image = bytes(dev.data)
    k = 0
    while True:
        dev = RAMBlockDev(image, budget=k)
        try:
            FileStore("/game.bin", lfs(dev)).append(R2)
            done = True
        except OSError:
            done = False
        st = FileStore("/game.bin", lfs(RAMBlockDev(dev.data)))
        assert st.load() == B
        got = st.records()
        if done:
            assert got == [R1, R2]
            break
        assert got == [R1] or got == [R1, R2], (k, got)
        k += 1
    assert k >= 1
