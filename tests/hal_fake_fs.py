"""Filesystems for the FileStore tests: an in-memory one, a wrapper that
loses power at a chosen step, and the sweep that cuts a save at every step.
CPython and MicroPython."""
from vortex.hal.store import FileStore

A = b"game A: 1. E@e4"
B = b"game B: 1. E@e4 W@d5 " * 7
C = b"game C" + bytes(range(256))
D = b"after the reboot"


class PowerCut(Exception):
    pass


class MemFS:
    """Files in a dict, POSIX-like and harsh: what is written is there at
    once (a torn write leaves a prefix); rename replaces atomically."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        return _MemFile(self, path, mode)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]


class _MemFile:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        if "w" in mode or ("a" in mode and path not in fs.files):
            fs.files[path] = b""
        elif path not in fs.files:
            raise OSError(2)

    def write(self, b):
        self.fs.files[self.path] += bytes(b)
        return len(b)

    def read(self):
        return self.fs.files[self.path]

    def flush(self):
        pass

    def close(self):
        pass


class CutFS:
    """Wraps an fs; the power goes at step `cut` (every call on the fs or a
    file is a step; a write cut in the middle writes half its bytes)."""

    def __init__(self, base, cut=-1):
        self.base = base
        self.cut = cut
        self.step = 0
        self.dead = False

    def tick(self):
        if self.dead:
            raise PowerCut()
        if self.step == self.cut:
            self.dead = True
            raise PowerCut()
        self.step += 1

    def open(self, path, mode):
        self.tick()
        return _CutFile(self, self.base.open(path, mode))

    def rename(self, old, new):
        self.tick()
        self.base.rename(old, new)

    def remove(self, path):
        self.tick()
        self.base.remove(path)

    def sync(self):
        self.tick()
        s = getattr(self.base, "sync", None)
        if s is not None:
            s()


class _CutFile:
    def __init__(self, fs, f):
        self.fs = fs
        self.f = f

    def write(self, b):
        fs = self.fs
        if not fs.dead and fs.step == fs.cut:
            self.f.write(bytes(b)[:len(b) // 2])    # a torn write
            if hasattr(self.f, "flush"):
                self.f.flush()
        fs.tick()
        return self.f.write(b)

    def read(self):
        self.fs.tick()
        return self.f.read()

    def flush(self):
        self.fs.tick()
        self.f.flush()

    def close(self):
        if self.fs.dead:
            self.f.close()      # the OS would drop the handle anyway
            raise PowerCut()
        self.fs.tick()
        self.f.close()


# -- the cut sweeps, for any filesystem --------------------------------------
R1 = b"a e2e4 600000 600000"
R2 = b"a d7d5 598000 600000"


def sweep(new_fs, path, history, new=C):
    """Cut a save of `new` at every step, after saving `history`; check
    load() after each; return the number of steps of a whole save."""
    k = 0
    while True:
        fs = new_fs()
        for d in history:
            FileStore(path, fs).save(d)
        before = FileStore(path, fs).load()
        cut = CutFS(fs, k)
        try:
            FileStore(path, cut).save(new)
            done = True
        except PowerCut:
            done = False
        got = FileStore(path, fs).load()          # the reboot
        if done:
            assert got == new
            assert cut.step == k and k >= 8
            return k
        assert got == new or got == before, (k, got)
        if history:
            assert got is not None
        # After the reboot, saving works again.
        st = FileStore(path, fs)
        st.save(D)
        assert st.load() == D
        k += 1
