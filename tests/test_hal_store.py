"""FileStore: power cuts at every step of a save, on an in-memory fs, on
real files in a temporary directory and (MicroPython) on littlefs in a RAM
block device cut at every block write. Runs under pytest and MicroPython.

The promise checked everywhere: after a cut, load() returns the save being
made or the newest one before it; never garbage, never None if something
was saved before; and a save after the reboot works. The littlefs sweep is
in test_hal_store_lfs."""
import os

from hal_fake_fs import MemFS, CutFS, PowerCut, sweep, A, B, C, D, R1, R2
from vortex.hal import store
from vortex.hal.store import FileStore, RealFS, pack, unpack


def sweep_append(new_fs, path):
    """Cut an append at every step, after a snapshot and a record; check
    load() and records() after each; return the number of steps of a whole
    append. After the reboot, compaction and appends work again."""
    k = 0
    while True:
        fs = new_fs()
        st = FileStore(path, fs)
        st.save(A)
        st.append(R1)
        cut = CutFS(fs, k)
        try:
            FileStore(path, cut).append(R2)
            done = True
        except PowerCut:
            done = False
        st = FileStore(path, fs)                  # the reboot
        assert st.load() == A
        got = st.records()
        if done:
            assert got == [R1, R2]
            return k
        assert got == [R1] or got == [R1, R2], (k, got)
        st.save(A + b"".join(got))                # compaction, as the board does on resume
        st.append(R2)
        assert st.load() == A + b"".join(got) and st.records() == [R2]
        k += 1


def sweep_compaction(new_fs, path):
    """Cut a save at every step after a snapshot with records: after the
    reboot, the old snapshot with all its records, or the new one alone."""
    k = 0
    while True:
        fs = new_fs()
        st = FileStore(path, fs)
        st.save(A)
        st.append(R1)
        st.append(R2)
        cut = CutFS(fs, k)
        try:
            FileStore(path, cut).save(B)
            done = True
        except PowerCut:
            done = False
        st = FileStore(path, fs)
        got = (st.load(), st.records())
        if done:
            assert got == (B, [])
            return k
        assert got == (A, [R1, R2]) or got == (B, []), (k, got)
        k += 1



def test_header_round_trip_and_rejects():
    for d in (b"", b"x", A, C):
        assert unpack(pack(d)) == d
    p = pack(A)
    assert p[:4] == b"VXS1" and len(p) == 12 + len(A)
    assert unpack(b"") is None
    assert unpack(p[:11]) is None
    assert unpack(b"VXS2" + p[4:]) is None
    assert unpack(p + b"\x00") is None
    assert unpack(p[:-1]) is None
    bad = bytearray(p)
    bad[-1] ^= 1
    assert unpack(bytes(bad)) is None


def test_crc32_fallback_matches_binascii():
    for d in (b"", b"123456789", C):
        assert store.crc32_py(d) == store.crc32(d) & 0xFFFFFFFF
    assert store.crc32_py(b"123456789") == 0xCBF43926


def test_empty_store_loads_none():
    assert FileStore("/g", MemFS()).load() is None


def test_save_load_and_backup():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    assert st.load() == A and "/g.bak" not in fs.files
    st.save(B)
    assert st.load() == B and unpack(fs.files["/g.bak"]) == A
    st.save(bytearray(C))
    assert st.load() == C and unpack(fs.files["/g.bak"]) == B
    assert "/g.tmp" not in fs.files


def test_power_cut_at_every_step_memfs():
    for history in ([], [A], [A, B]):
        sweep(MemFS, "/g", history)


def test_journal_records_follow_their_snapshot():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    st.append(R1)
    st.append(R2)
    assert FileStore("/g", fs).load() == A and st.load() == A and st.records() == [R1, R2]
    st.save(B)  # compaction: a new snapshot starts an empty journal
    assert st.load() == B and st.records() == []
    for bad in (b"", bytes(256)):  # a record holds 1 to 255 bytes
        try:
            st.append(bad)
            assert False, "append(%d bytes) accepted" % len(bad)
        except ValueError:
            pass


def test_journal_of_another_snapshot_is_ignored():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    st.append(R1)
    old_log = fs.files["/g.log"]
    st.save(B)
    fs.files["/g.log"] = old_log  # as if the save was cut before its journal's rename
    assert st.load() == B and st.records() == []


def test_journal_damaged_record_ends_it():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    st.append(R1)
    st.append(R2)
    st.append(R1)
    log = bytearray(fs.files["/g.log"])
    log[8 + 1 + len(R1) + 4 + 3] ^= 1  # a byte of the second record
    fs.files["/g.log"] = bytes(log)
    assert st.load() == A and st.records() == [R1]


def test_power_cut_at_every_step_of_an_append_memfs():
    assert sweep_append(MemFS, "/g") >= 3


def test_power_cut_at_every_step_of_a_compaction_memfs():
    assert sweep_compaction(MemFS, "/g") >= 10


def test_power_cut_twice():
    # A cut, a reboot, then a cut in the next save: still the newest
    # complete save or the one before.
    n = sweep(MemFS, "/g", [A, B])
    for k1 in range(n):
        for k2 in range(n + 1):
            fs = MemFS()
            FileStore("/g", fs).save(A)
            FileStore("/g", fs).save(B)
            try:
                FileStore("/g", CutFS(fs, k1)).save(C)
            except PowerCut:
                pass
            first = FileStore("/g", fs).load()
            try:
                FileStore("/g", CutFS(fs, k2)).save(D)
            except PowerCut:
                pass
            got = FileStore("/g", fs).load()
            assert got == D or got == first, (k1, k2, got)


def test_truncated_file_falls_back_and_is_kept():
    for cut in range(0, len(pack(B)), 5):
        fs = MemFS()
        st = FileStore("/g", fs)
        st.save(A)
        st.save(B)
        fs.files["/g"] = fs.files["/g"][:cut]
        assert st.load() == A
        assert len(fs.files["/g"]) == cut       # not deleted


def test_corrupted_byte_anywhere_falls_back():
    n = len(pack(B))
    for i in range(n):
        fs = MemFS()
        st = FileStore("/g", fs)
        st.save(A)
        st.save(B)
        raw = bytearray(fs.files["/g"])
        raw[i] ^= 0x40
        fs.files["/g"] = bytes(raw)
        assert st.load() == A, i
        assert fs.files["/g"] == bytes(raw)


def test_both_bad_is_none_and_nothing_deleted():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    st.save(B)
    fs.files["/g"] = b"VXS1garbage"
    fs.files["/g.bak"] = b""
    assert st.load() is None
    assert fs.files["/g"] == b"VXS1garbage" and "/g.bak" in fs.files


def test_bad_file_is_not_rotated_over_a_good_backup():
    n = sweep(MemFS, "/g", [A, B])
    for k in range(n + 1):
        fs = MemFS()
        st = FileStore("/g", fs)
        st.save(A)
        st.save(B)
        fs.files["/g"] = fs.files["/g"][:-3]    # damaged: B is lost
        try:
            FileStore("/g", CutFS(fs, k)).save(C)
        except PowerCut:
            pass
        got = FileStore("/g", fs).load()
        assert got == C or got == A, (k, got)
    assert unpack(fs.files["/g.bak"]) == A


def test_stale_tmp_is_removed_and_ignored():
    fs = MemFS()
    st = FileStore("/g", fs)
    st.save(A)
    fs.files["/g.tmp"] = pack(B)[:20]
    assert st.load() == A and "/g.tmp" not in fs.files
    fs.files["/g.tmp"] = pack(B)      # complete, but never renamed
    assert st.load() == A


# -- real files ----------------------------------------------------------
def _tmpdir():
    try:
        import tempfile
        return tempfile.mkdtemp()
    except ImportError:                 # MicroPython
        import time
        d = "/tmp/vx_store_%d" % time.ticks_us()
        os.mkdir(d)
        return d


def _clear(d):
    for name in os.listdir(d):
        os.remove(d + "/" + name)


def test_power_cut_at_every_step_real_files():
    d = _tmpdir()
    path = d + "/game.bin"

    def fresh():
        _clear(d)
        return RealFS()

    try:
        for history in ([], [A], [A, B]):
            sweep(fresh, path, history)
        sweep_append(fresh, path)
        sweep_compaction(fresh, path)
        # Real files, damaged by hand.
        fs = fresh()
        st = FileStore(path, fs)
        st.save(A)
        st.save(B)
        with open(path, "rb") as f:
            raw = f.read()
        with open(path, "wb") as f:
            f.write(raw[:len(raw) - 7])
        assert st.load() == A
        assert len(os.listdir(d)) == 3          # game.bin kept, .bak, .log
        with open(path + ".tmp", "wb") as f:
            f.write(b"half")
        assert st.load() == A
        assert sorted(os.listdir(d)) == ["game.bin", "game.bin.bak", "game.bin.log"]
    finally:
        _clear(d)
        os.rmdir(d)


def test_default_fs_is_os():
    d = _tmpdir()
    try:
        st = FileStore(d + "/x")
        assert isinstance(st.fs, RealFS)
        st.save(A)
        st.save(B)
        assert FileStore(d + "/x").load() == B
    finally:
        _clear(d)
        os.rmdir(d)
