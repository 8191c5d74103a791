"""The Pico W's online play with no computer: vortex.online.client over
the board's own radio (network) and umqtt.simple (mip). Loaded by main.py
only on MicroPython, so that CircuitPython never interns its names."""
import time


def start(board, settings_path, room_path):
    """The board's online client, or None: a Pico without the radio (no
    `network`), or without umqtt.simple. Online play's modules (about 35 KB
    of heap) are loaded only once both are there."""
    try:
        import network
        from umqtt import simple  # type: ignore[import-not-found]  # (mip: no stubs)
    except ImportError:
        return None
    import machine
    from binascii import hexlify
    from vortex.hal.store import FileStore
    from vortex.online.client import Online
    # A fixed client id, the chip's own: the broker keeps this board's session by it.
    client = "vx-" + hexlify(machine.unique_id()).decode()
    return Online(board, simple, FileStore(settings_path), network.WLAN(network.STA_IF),
                  time.ticks_ms, print, client, FileStore(room_path))
