"""busio.SPI and digitalio pins as the MicroPython drivers use machine.SPI
and machine.Pin, so that a driver written for MicroPython (vortex/hal/
mfrc522.py, the NFC front end's chain and strobe) runs on CircuitPython
unchanged.

    spi = SPIBus(busio.SPI(sck, MOSI=mosi, MISO=miso), 4_000_000)
    cs = Pin(digitalio.DigitalInOut(microcontroller.pin.GPIO17))
    cs.init(cs.OUT, value=1)
    cs.value(0); spi.write_readinto(out, into); cs.value(1)

What the drivers call: spi.write(buf), spi.readinto(buf, write=0),
spi.write_readinto(out, into) (buffers or memoryviews of them);
pin.init(mode, pull=None, value=None), pin.value() and pin.value(v),
pin(v), on(), off(), and the Pin.IN, OUT, PULL_UP, PULL_DOWN constants.
"""


class SPIBus:
    """SPIBus(spi, baudrate, polarity=0, phase=0): a busio.SPI, locked and
    configured once (mode 0 by default, as the MFRC522 and the 74HC595 want):
    the board's drivers are the bus's only users, and a lock per transfer
    would cost two calls each."""

    def __init__(self, spi, baudrate, polarity=0, phase=0):
        while not spi.try_lock():
            pass
        spi.configure(baudrate=baudrate, polarity=polarity, phase=phase, bits=8)
        self._spi = spi

    def write(self, buf):
        self._spi.write(buf)

    def readinto(self, buf, write=0):
        self._spi.readinto(buf, write_value=write)

    def write_readinto(self, out, into):
        self._spi.write_readinto(out, into)

    def deinit(self):
        self._spi.unlock()
        self._spi.deinit()


class Pin:
    """Pin(dio, mode=-1, pull=None, value=None): a digitalio.DigitalInOut
    with machine.Pin's calls (the constants are machine.Pin's values)."""
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, dio, mode=-1, pull=None, value=None):
        self._d = dio
        if mode != -1:
            self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=None, value=None):
        d = self._d
        if mode == Pin.OUT:
            d.switch_to_output(value=bool(value))
        elif mode == Pin.IN:
            from digitalio import Pull
            d.switch_to_input(pull=Pull.UP if pull == Pin.PULL_UP else
                              Pull.DOWN if pull == Pin.PULL_DOWN else None)
        elif value is not None:
            d.value = bool(value)

    def value(self, v=None):
        if v is None:
            return 1 if self._d.value else 0
        self._d.value = bool(v)
        return None

    __call__ = value

    def on(self):
        self._d.value = True

    def off(self):
        self._d.value = False
