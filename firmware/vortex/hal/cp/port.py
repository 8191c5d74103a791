"""The USB serial as the link's port on CircuitPython: usb_cdc.console, the
port of the REPL and of print(), read and written without waiting (the
calls of vortex.link.port.StdioPort).

Ctrl-C still stops code.py: CircuitPython's USB stack watches the bytes
that arrive for it, however they are read. While no host has the port
open (no DTR), what is written is dropped, as MicroPython's rp2 port does,
so the link's outbox never fills for nobody.
"""


class ConsolePort:
    """ConsolePort(serial=None): read_byte() -> byte, or -1 if none is
    waiting; gone(); write(data) -> the bytes taken. serial: a usb_cdc.Serial
    (default usb_cdc.console)."""
    CHUNK = 64  # bytes offered at most per write: a full-speed USB packet

    def __init__(self, serial=None):
        if serial is None:
            import usb_cdc
            serial = usb_cdc.console
        serial.timeout = 0        # reads return what is there
        serial.write_timeout = 0  # writes take what fits
        self._s = serial
        self._one = bytearray(1)
        self._connected = serial.connected

    def gone(self):
        """True once each time the host closed the port (its DTR dropped),
        having dropped what it sent and the board had not read."""
        connected = self._s.connected
        left = self._connected and not connected
        self._connected = connected
        if left:
            self._s.reset_input_buffer()
        return left

    def read_byte(self):
        s = self._s
        if s.in_waiting and s.readinto(self._one) == 1:
            return self._one[0]
        return -1

    def write(self, data):
        s = self._s
        if not s.connected:
            return len(data)
        return s.write(data) or 0
