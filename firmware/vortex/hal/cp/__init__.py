"""The same parts on CircuitPython 10 (the Pico): its own modules, each the
way CircuitPython does it.

    keys.py      the reed matrix and the buttons through keypad (scanning and
                 debouncing in C, as events) behind the interface the app
                 uses: .cells and scan(now), the buttons' raw bits
    pixels.py    the LEDs through adafruit-circuitpython-neopixel, as the
                 driver vortex.hal.pixels.Pixels fills
    bus.py       busio.SPI and digitalio pins as machine.SPI and machine.Pin
                 present them, so the MicroPython NFC driver runs unchanged
    watchdog.py  microcontroller.watchdog
    port.py      the USB serial (usb_cdc.console) as the link's port
    store.py     saves on CIRCUITPY, which boot.py makes the game's
    parts.py     all of them, wired from the pin map (vortex/hal/mp.py on MicroPython)

Only CircuitPython gets this package (tools/build_mpy.py), and only this
package and firmware/boot.py import CircuitPython's modules. It is
type-checked against circuitpython-stubs (tests/test_firmware_build.py).
"""
