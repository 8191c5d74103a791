"""The board's pin map: the one place GPIO numbers live (Raspberry Pi Pico).

Deployed to the board's root next to main.py; main.py makes the machine.Pin
and machine.SPI objects from these numbers and hands them to vortex.hal.
Plain constants, so the host tools and tests can import it too.
hardware/README.md has the wiring. All 26 GPIOs of the Pico's header are
used; GP23-25 and GP29 are the Pico's own (SMPS, VBUS, LED, VSYS).
"""

# Reed switch matrix: rows are ranks (REED_ROWS[0] = rank 1), columns are
# files (REED_COLS[0] = file a). Rows drive, columns read with pull-downs;
# a diode per switch, anode on the row. Consecutive column GPIOs leave the
# door open to reading a row in one register read later.
REED_ROWS = (0, 1, 2, 3, 4, 5, 6, 7)
REED_COLS = (8, 9, 10, 11, 12, 13, 14, 15)
DEBOUNCE_MS = 5

# MFRC522 on SPI0 (mode 0). 4 MHz leaves margin on long board traces.
NFC_SPI = 0
NFC_SCK = 18
NFC_MOSI = 19
NFC_MISO = 16
NFC_CS = 17
NFC_RST = 20
NFC_BAUD = 4000000

# Antenna multiplexer: a 74HC595 on the same SPI bus drives S0-S3 (Q0-Q3)
# and /E0-/E3 (Q4-Q7) of four CD74HC4067; MUX_LATCH is its RCLK.
# (vortex.hal.tiles.ShiftMux.) Eight direct GPIOs (AntennaMux) would not fit.
MUX_LATCH = 21

# NeoPixels: the chain starts at a1, runs a1..h1, then h2..a2 (serpentine),
# a3..h3, and so on; vortex.hal.pixels.led_map(LED_SERPENTINE).
LED_PIN = 22
LED_COUNT = 64
LED_SERPENTINE = True

# Buttons to ground (internal pull-ups), a piezo buzzer on a PWM pin.
BUTTON_A = 26
BUTTON_B = 27
BUZZER = 28

# Watchdog: reboot if the main loop stalls this long (RP2040 max 8388).
WATCHDOG_MS = 5000
