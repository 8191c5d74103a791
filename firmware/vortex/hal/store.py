"""Saving bytes so that a power cut never loses both the old and the new.

    st = FileStore("/game.bin")
    st.save(data)          # bytes
    data = st.load()       # the last complete save (or the one before), or None

Each file is a 12-byte header, then the data:

    0-3  b"VXS1"   magic and format version
    4-7  length of the data, little-endian
    8-11 CRC-32 of the data, little-endian

save() writes path.tmp, flushes it, syncs, then, if path holds a good save,
renames path -> path.bak, and renames path.tmp -> path, and syncs. Renames
are atomic on littlefs (and POSIX), so at every instant path or path.bak
holds the newest complete save or the one before it. load() removes a stale
path.tmp and returns path if it checks, else path.bak if it checks, else
None. A file that fails the check is ignored, not deleted: it may be
studied later, and the next save replaces it. A bad path is never renamed
over a good path.bak.

Every filesystem call goes through `fs` (default: os and open()), so tests
inject one that loses power at any step. A littlefs VFS object
(os.VfsLfs2) can serve as fs directly.
"""
import os


def crc32_py(data, crc=0):
    """CRC-32 (IEEE, as zlib and binascii), for ports built without it."""
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32
except ImportError:
    crc32 = crc32_py

MAGIC = b"VXS1"
HEADER = 12


class RealFS:
    """The filesystem calls FileStore makes, on os and open()."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)  # replaces `new` on littlefs and POSIX

    def remove(self, path):
        os.remove(path)

    def sync(self):
        s = getattr(os, "sync", None)
        if s is not None:
            s()


def _u32(v):
    return bytes((v & 0xFF, v >> 8 & 0xFF, v >> 16 & 0xFF, v >> 24 & 0xFF))


def pack(data):
    """The bytes of a save file holding `data`."""
    return MAGIC + _u32(len(data)) + _u32(crc32(data) & 0xFFFFFFFF) + data


def unpack(raw):
    """The data of a save file's bytes, or None if they do not check."""
    if len(raw) < HEADER or raw[0:4] != MAGIC:
        return None
    n = raw[4] | raw[5] << 8 | raw[6] << 16 | raw[7] << 24
    if len(raw) != HEADER + n:
        return None
    want = raw[8] | raw[9] << 8 | raw[10] << 16 | raw[11] << 24
    data = bytes(raw[HEADER:])
    if crc32(data) & 0xFFFFFFFF != want:
        return None
    return data


class FileStore:
    """FileStore(path, fs=None): save(data), load() -> bytes or None."""

    def __init__(self, path, fs=None):
        self.path = path
        self.tmp = path + ".tmp"
        self.bak = path + ".bak"
        self.fs = fs if fs is not None else RealFS()

    def _read(self, path):
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            raw = f.read()
        finally:
            f.close()
        return unpack(raw)

    def _sync(self):
        s = getattr(self.fs, "sync", None)
        if s is not None:
            s()

    def save(self, data):
        """Write `data` (bytes) so that load() returns it from now on."""
        data = bytes(data)
        fs = self.fs
        f = fs.open(self.tmp, "wb")
        try:
            f.write(pack(data))
            if hasattr(f, "flush"):
                f.flush()
        finally:
            f.close()
        self._sync()
        # Keep the current save as the fallback, but only if it is good:
        # renaming a damaged file over a good .bak would lose the good one.
        if self._read(self.path) is not None:
            fs.rename(self.path, self.bak)
        fs.rename(self.tmp, self.path)
        self._sync()

    def load(self):
        """The newest save that checks (path, else path.bak), or None."""
        try:
            self.fs.remove(self.tmp)   # a save cut short
        except OSError:
            pass
        data = self._read(self.path)
        if data is None:
            data = self._read(self.bak)
        return data
