"""The board's parts as a runtime builds them from the pin map: main.py's
build() on MicroPython, vortex/hal/cp/parts.py on CircuitPython. The loop
(main.py's run()) takes them from here whichever runtime made them.

    reeds      scan(now), .cells                     (vortex.hal.reed, hal/cp/keys)
    tiles      poll(now), .cells, .ids, .missing, expect(cell)   (vortex.hal.tiles)
    pixels     show(frame)                           (vortex.hal.pixels)
    buttons    () -> raw bits A, B                   (vortex.app.buttons)
    clock      () -> ms, wrapping as vortex.ticks does
    store      the saves (vortex.hal.store)
    port       the host link's port (vortex.link.port, hal/cp/port)
    watchdog   Watchdog class: Watchdog(ms) feeds, keep_fed()
    buzzer     the PWM under vortex.hal.buzzer.Buzzer: freq(hz), duty_u16(duty)
    cc         the USB-C CC line's ADC under vortex.hal.supply.CCSense: read_u16()
"""


class Parts:
    def __init__(self, reeds, tiles, pixels, buttons, clock, store, port, watchdog, buzzer, cc):
        self.reeds = reeds
        self.tiles = tiles
        self.pixels = pixels
        self.buttons = buttons
        self.clock = clock
        self.store = store
        self.port = port
        self.watchdog = watchdog
        self.buzzer = buzzer
        self.cc = cc
