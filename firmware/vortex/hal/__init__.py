"""The hardware layer: the only package that imports machine, rp2, neopixel.

Every driver takes its pins and buses as constructor arguments, so host tests
pass fakes. Pure helpers (debounce, ticks, the tile read scheduler, the store
protocol) run on CPython and the unix port too. Import the modules directly
(`from vortex.hal.reed import ReedMatrix`): this file imports nothing.
"""
