"""The Pico's flash as MicroPython's rp2 port lays it out (board RPI_PICO,
mpconfigboard.h): a 2 MB chip read at XIP_BASE, the firmware from its start,
and in its last 1408 KB a littlefs2 filesystem of 4 KB blocks, mounted at /
by VfsLfs2 with its default read, prog and lookahead sizes (MicroPython
formats it afresh at boot if it does not mount).

The emulated Pico (tools/pico) writes the deploy tree there; make uf2
(tools/build_uf2.py) puts the same image in the file a maker drops.

    image = fs_image({"main.py": "build/flash/firmware/main.py", "game.bin": b"..."})
"""
XIP_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024
FS_BYTES = 1408 * 1024
FS_OFFSET = FLASH_BYTES - FS_BYTES
BLOCK = 4096


def fs_image(files):
    """The filesystem's FS_BYTES bytes holding files ({device path: local path or bytes})."""
    import littlefs
    fs = littlefs.LittleFS(block_size=BLOCK, block_count=FS_BYTES // BLOCK, read_size=32,
                           prog_size=32, lookahead_size=32)
    made = set()
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            if folder not in made:
                fs.mkdir(folder)
                made.add(folder)
        data = files[path]
        if isinstance(data, str):
            with open(data, "rb") as f:
                data = f.read()
        with fs.open("/".join(parts), "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)
