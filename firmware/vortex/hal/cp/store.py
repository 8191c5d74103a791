"""Saves on CircuitPython's filesystem (CIRCUITPY), through the same FileStore
as on MicroPython.

CIRCUITPY is writable either by the computer it is plugged into (a USB
drive) or by the code on the board, never both. firmware/boot.py gives it
to the game unless button A is held at boot (README: For makers). When the
drive is the computer's, the board still resumes the game saved on it but
cannot save: ReadOnlyStore, and the board says so once.

FAT renames over an existing file by removing it first (MicroPython's and
CircuitPython's VfsFat alike); FileStore never needs that atomic for a
save to survive a power cut: the snapshot is renamed onto a name freed by
the previous rename, and the journal it replaces refers to the old
snapshot's CRC (vortex/hal/store.py).
"""
from vortex.hal.store import FileStore

READ_ONLY = ("CIRCUITPY is the computer's (button A was held at boot): the game "
             "is not saved; reset without holding A to save it")


class ReadOnlyStore:
    """ReadOnlyStore(store): loads what store holds; saves nothing."""

    def __init__(self, store):
        self._store = store

    def load(self):
        return self._store.load()

    def records(self):
        return self._store.records()

    def save(self, data):
        pass

    def append(self, record):
        pass


def store(path, say=print):
    """The game's store at path: a FileStore when the code may write
    CIRCUITPY, else a ReadOnlyStore (and say why)."""
    import storage
    saves = FileStore(path)
    if storage.getmount("/").readonly:
        say(READ_ONLY)
        return ReadOnlyStore(saves)
    return saves
