"""Saving bytes so that a power cut never loses both the old and the new.

    st = FileStore("/game.bin")
    st.save(data)          # bytes: a whole snapshot
    st.append(record)      # bytes: one short record after it, in a journal
    data = st.load()       # the last complete snapshot (or the one before), or None
    st.records()           # the complete records appended to that snapshot

A snapshot costs as much as its length; a record costs the same whatever
came before it, so a game saves each action in constant time and writes
its whole text only at a new game (or a resume: compaction).

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

The journal, path.log, starts with b"VXJ1" and the CRC-32 of the snapshot
it extends (4 bytes LE); then records, each one byte of length, the
record, and its CRC-32 (4 bytes LE). save() ends by replacing the journal
with an empty one for the new snapshot (written as path.log.tmp, renamed:
atomic). A journal whose snapshot CRC is not the snapshot's (a save cut
between its two renames) is ignored; a record cut short by a power cut
fails its length or CRC and ends the journal there: load() returns the
records before it, and the next save() compacts them away.

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
JOURNAL = b"VXJ1"
RECORD_MAX = 255  # bytes in one record


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


def _le32(raw, i):
    return raw[i] | raw[i + 1] << 8 | raw[i + 2] << 16 | raw[i + 3] << 24


def pack(data):
    """The bytes of a save file holding `data`."""
    return MAGIC + _u32(len(data)) + _u32(crc32(data) & 0xFFFFFFFF) + data


def unpack(raw):
    """The data of a save file's bytes, or None if they do not check."""
    if len(raw) < HEADER or raw[0:4] != MAGIC:
        return None
    n = _le32(raw, 4)
    if len(raw) != HEADER + n:
        return None
    want = _le32(raw, 8)
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
        self.log = path + ".log"
        self.fs = fs if fs is not None else RealFS()
        self._records = []  # the journal's records, as load() found them

    def _raw(self, path):
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def _read(self, path):
        raw = self._raw(path)
        return None if raw is None else unpack(raw)

    def _write(self, path, mode, data):
        f = self.fs.open(path, mode)
        try:
            f.write(data)
            if hasattr(f, "flush"):
                f.flush()
        finally:
            f.close()

    def _sync(self):
        s = getattr(self.fs, "sync", None)
        if s is not None:
            s()

    def save(self, data):
        """Write `data` (bytes) so that load() returns it from now on."""
        data = bytes(data)
        fs = self.fs
        self._write(self.tmp, "wb", pack(data))
        self._sync()
        # Keep the current save as the fallback, but only if it is good:
        # renaming a damaged file over a good .bak would lose the good one.
        if self._read(self.path) is not None:
            fs.rename(self.path, self.bak)
        fs.rename(self.tmp, self.path)
        self._sync()
        # An empty journal for the new snapshot; until the rename the old
        # journal stands, naming the old snapshot's CRC: ignored.
        self._write(self.log + ".tmp", "wb", JOURNAL + _u32(crc32(data) & 0xFFFFFFFF))
        fs.rename(self.log + ".tmp", self.log)
        self._sync()
        self._records = []

    def append(self, record):
        """Add a record (bytes, at most RECORD_MAX) after the snapshot last
        saved: one short write to the end of the journal."""
        n = len(record)
        if not 0 < n <= RECORD_MAX:
            raise ValueError("store: a record holds 1 to %d bytes" % RECORD_MAX)
        self._write(self.log, "ab", bytes((n,)) + record + _u32(crc32(record) & 0xFFFFFFFF))
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
        self._records = [] if data is None else self._journal(data)
        return data

    def records(self):
        """The records appended to the snapshot load() returned, oldest first."""
        return self._records

    def _journal(self, data):
        # The complete records of the journal extending `data`.
        try:
            self.fs.remove(self.log + ".tmp")   # a journal reset cut short
        except OSError:
            pass
        raw = self._raw(self.log)
        if raw is None or len(raw) < 8 or raw[0:4] != JOURNAL or \
                _le32(raw, 4) != crc32(data) & 0xFFFFFFFF:
            return []
        out = []
        i = 8
        while i < len(raw):
            n = raw[i]
            end = i + 1 + n
            if not n or end + 4 > len(raw):
                break  # cut short
            record = bytes(raw[i + 1:end])
            if crc32(record) & 0xFFFFFFFF != _le32(raw, end):
                break
            out.append(record)
            i = end + 4
        return out
