"""The board's pin map: the one place GPIO numbers live (Raspberry Pi Pico).

Deployed to the board's root next to main.py; main.py makes the machine.Pin
and machine.SPI objects from these numbers and hands them to vortex.hal.
Plain constants, so the host tools and tests can import it too. The
schematic (hardware/boardgen/schematic.py) wires the Pico by these numbers
and a test checks that it does; hardware/README.md has the wiring.
GP23-25 and GP29 are the Pico's own (SMPS, VBUS sense, LED, VSYS sense),
and on a Pico W its radio's (WL_ON, WL_D, WL_CS, WL_CLK): none is used
here, so the same map serves a Pico and a Pico W (tests/test_pico_w.py).
"""

# Reed switch matrix: rows are ranks (REED_ROWS[0] = rank 1: the ribbon's
# row line 1, which the rank board at position 0 takes), columns are files
# (REED_COLS[0] = file a, shared by every board). Rows drive, columns read
# with pull-downs; a diode per switch, anode on the row. Consecutive column GPIOs leave the
# door open to reading a row in one register read later.
REED_ROWS = (0, 1, 2, 3, 4, 5, 6, 7)
REED_COLS = (8, 9, 10, 11, 12, 13, 14, 15)
DEBOUNCE_MS = 5

# NFC: one MFRC522 per rank on SPI0 (mode 0), shared with a chain of nine
# 74HC595; 4 MHz leaves margin on the ribbon through eight boards. vortex.hal.frontend
# drives the chain and the decoder, vortex.hal.mfrc522 the readers.
NFC_SPI = 0
NFC_SCK = 18
NFC_MOSI = 19
NFC_MISO = 16
NFC_BAUD = 4000000
NFC_READERS = 8     # reader r serves rank r; coil f = file f
NFC_STROBE = 17     # 74HC138 /E (G2A): low selects the reader addressed
NFC_LATCH = 21      # RCLK of the 74HC595 chain
NFC_CHAIN_BYTES = 9  # spi.write(image): one 74HC595 on the controller, one on each
                     # rank board; image[0] ends in the farthest (the rank board
                     # at ribbon position 7), image[8] in the controller's
NFC_CTRL = 8        # image[8]: bits 0-2 the decoder address (reader), bit 3
                    # the readers' NRSTPD (1 = running), bits 4-7 unused (0)
NFC_CHAIN_RETURN = False  # True on a board whose farthest 595's QH' comes back
                    # on the ribbon's CHAIN_RET and reaches MISO while the strobe
                    # is high (a 74LVC1G126, OE = the strobe): the front end then
                    # shifts each image it latched again with write_readinto and
                    # compares, and a chain that holds something else gets every
                    # field off (vortex.hal.frontend; issue 37). The boards as laid
                    # today have no return line yet (the ribbon map that adds it is
                    # in progress: hardware/README.md), so the check is off: MISO
                    # reads its pull-down there, and every latch would look wrong.
# image[NFC_CTRL - 1 - r]: rank r's board (ribbon position r): bits 0-2 the
# coil (file), bit 3 the switch enable (1 = the selected coil connected),
# bits 4-7 unused. Reader r's select is the decoder's Yr, which reaches the
# board at position r through the ribbon's rotating select lines.

# NeoPixels: the chain starts at a1 and runs a1..h1 on rank 1's board, then
# on to the next board: a2..h2, and so on (the rank boards are identical, so
# every rank runs a to h); vortex.hal.pixels.led_map(LED_SERPENTINE).
LED_PIN = 22
LED_COUNT = 64
LED_SERPENTINE = False

# Buttons to ground (internal pull-ups), a piezo buzzer on a PWM pin.
BUTTON_A = 26
BUTTON_B = 20       # moved from 27: GP27 is an ADC input
CC_SENSE = 27       # ADC1: the USB-C CC lines, each with its 5.1 k Rd, summed
                    # through two equal resistors (hardware/power.py)
BUZZER = 28         # PWM slice 6 A

# Watchdog: reboot if the main loop stalls this long (RP2040 max 8388).
WATCHDOG_MS = 5000
