"""Every dimension and chosen part parameter the figures are computed from.

Change a number here and `make hardware` recomputes the coil, its matching
network, the reed's closing distance, the magnet's cost in read range, the
drawings and the parts list. Millimetres in the names, metres in physics.
"""
# -- the grid ---------------------------------------------------------------
CELL_PITCH_MM = 35.0      # 8 x 35 = 280 mm of cells: one PCB under 300 mm
BOARD_MARGIN_MM = 15.0    # frame around the cells (buttons, USB-C, Pico)

# -- the stack-up, from the PCB's top copper (z = 0) upwards ------------------
PCB_MM = 1.6              # FR-4, 2 layers, 1 oz (35 um) copper
COPPER_UM = 35.0
LED_HEIGHT_MM = 1.6       # WS2812B-5050 body on the top side, in the coil's hole
GAP_MM = 1.0              # air between the LED's top and the top panel
TOP_PANEL_MM = 2.0        # opal (light-diffusing) acrylic, no metal
TILE_MM = 3.0             # tile thickness; its tag sits under it in a recess as deep
TAG_MM = 0.2              # as the NTAG213 sticker (inlay + paper) is thick: flush
TAG_RECESS_MM = TAG_MM    # with the tile's underside, so the tag lies on the panel
TILE_SIDE_MM = 33.0       # 1 mm of play on each side in the 35 mm cell
TILE_WINDOW_MM = 8.0      # clear window over the LED (the tag is a ring inlay
                          # around it: the sticker's antenna has no copper there)
PIECE_FLOOR_MM = 1.0      # plastic (with 0.3 mm felt) under the magnet
PIECE_BASE_MM = 24.0      # piece base diameter: leaves the tile's edges visible
PIECE_HEIGHT_MM = 30.0
REED_GLASS_DIA_MM = 1.80  # reed on the PCB's bottom side, lying flat: the MDSR-7's
REED_GLASS_LEN_MM = 12.70 # glass, 12.70 x 1.80 mm max (Littelfuse MDSR-7 data sheet)
PIECE_OFFSETS_MM = (0.0, 2.0, 4.0)   # the piece's centre off the cell's: the reed's field
                                     # is computed at each; the prototype measures them

# -- the magnet (one per piece) -------------------------------------------------
MAGNET_GRADE = "N35"
MAGNET_BR_T = 1.18        # N35 remanence, typical (MMPA 0100-00 grade table, 1.17-1.22 T)
MAGNET_DIA_MM = 8.0
MAGNET_THICK_MM = 2.0

# -- the reed switch ------------------------------------------------------------
REED_AT_MAX = 15.0        # Littelfuse MDSR-7 10-15 AT: design for the least sensitive
REED_TEST_COIL_MM = 10.0  # length of the sensitivity test coil: an assumption (the
                          # data sheet rates AT, not mT); the rule's result is
                          # checked by measurement (prototype-plan.md, reeds)
REED_ONE_POLE = 2.0       # Littelfuse: one magnet pole at one end needs about 2x
REED_MARGIN = 2.0         # the rule above is good to a factor of 2: design for it

# -- the NFC tag (under each tile) ------------------------------------------------
TAG_DIA_MM = 25.0         # NTAG213 round sticker
TAG_ANT_MEAN_DIA_MM = 22.0
TAG_TRACE_MM = 0.5
TAG_F_MHZ = 14.0          # stickers are tuned a little above 13.56 MHz
TAG_Q = 20.0              # loaded by the chip
H_MIN_A_PER_M = 1.5       # ISO/IEC 14443-2 Hmin: the field a tag is guaranteed to work in

# -- the reader coil (one per cell, top copper) --------------------------------------
COIL_TURNS = 5
COIL_OUTER_MM = 24.0      # square, matches the 25 mm tag (AN11019: reader antenna
                          # about the tag's size for short range)
COIL_TRACE_MM = 0.5
COIL_SPACE_MM = 0.4
COIL_POUR_GAP_MM = 2.0    # the GND pour's gap to the coil's outer turn, both layers.
                          # openEMS (`make em`, generated/coil_em.csv), against the coil
                          # in free space: at 0.5 mm (the keep-out alone, before issue 37)
                          # L -7.1 %, R +10.5 %, Q -16 %; at 2 mm L -2.4 %, Q -5 %; at
                          # 4 mm L -0.2 %, Q -0.3 % but the pour between the cells and in
                          # the strips narrows to 3 and 1.3 mm. 2 mm is the least gap
                          # solved within both limits below
COIL_POUR_L_SHIFT_MAX = 0.05  # the pour may move L by a third of the +-15 % the
                              # matching allows, leaving the rest to the parts
COIL_POUR_Q_LOSS_MAX = 0.10   # and cost at most this share of the coil's own Q
COIL_EM_AGREE = 0.15      # the field solver's free-space L against Mohan's closed
                          # form (good to a few per cent): solved 13 % under it, the
                          # coarse mesh's (one 0.4-0.5 mm step across each trace, the
                          # foil a 0.4 mm layer); figures.coil_lr takes the solver's
                          # ratio to free space, in which that error cancels
H_TARGET_A_PER_M = 6.0    # field at the tag the matching is computed for: inside
                          # ISO/IEC 14443-2's 1.5-7.5 A/m with the switch's Ron
                          # anywhere between typical and maximum

# -- the reader's analogue parts ------------------------------------------------------
TVDD_V = 3.3
EMC_L0_H = 560e-9         # AN1445 EMC filter inductor
EMC_F_CUT_HZ = 14.3e6     # AN1445: cut-off between 13.56 MHz and the upper sideband
SWITCH = "ADG1608"
SWITCH_RON_OHM = 4.5      # ADG1608 data sheet, typical
SWITCH_RON_MAX_OHM = 8.0  # design margin over temperature and supply
C1_TOLERANCE = 0.02      # a single E24 C0G part for C1 when within 2 % (else a pair)
# -- each coil's feed (the pair from the reader's switches to the coil) -------------
READER_X_MM = 298.0       # the switches' position along the rank board (in its
                          # electronics end, 13 mm past file h's capacitors: room
                          # for the feed rows to fan out to their pins; measured,
                          # hardware/layout.md), the estimate's origin
FEED_EXTRA_MM = 12.0      # from the switch to the pair's run, and into the coil
FEED_TRACE_MM = 0.3       # the pair's traces and gap, on one layer, no plane under
FEED_GAP_MM = 0.3
SWITCH_C_ON_F = 40e-12    # what the on switch adds to ground at the node (order
                          # of an 8:1 mux's on-capacitance; the prototype measures it)
SWITCH_C_OFF_F = 15e-12   # an off channel's source capacitance (same caveat)
SWITCH_I_MAX_A = 0.47     # ADG1608: up to 470 mA continuous
MFRC522_TX_TYP_A = 0.060  # MFRC522 data sheet: IDD(TVDD) typ 60 mA
MFRC522_TX_MAX_A = 0.100  # max 100 mA
CD4067_RON_OHM = 70.0     # TI SCHS209: CD74HC4067 typ at 4.5 V (160 max)
CD4067_I_MAX_A = 0.025    # 74HC4067 data sheets: +-25 mA switch current

# -- power --------------------------------------------------------------------------------
CC_RD_OHM = 5100.0        # USB Type-C spec: sink pull-down Rd = 5.1 k
CC_SUM_OHM = 100000.0     # the two summing resistors, equal
CONTROLLER_BULK_UF = 220.0  # on the controller's 5 V, behind the soft start
RANK_BULK_UF = 100.0      # on each rank board where 5 V enters its LEDs (Adafruit's
                          # NeoPixel guide asks for about 1000 uF: 220 + 8 x 100)
USB_ATTACH_UF_MAX = 10.0  # USB 2.0 7.2.4.1: the most a device may show at attach
# The soft start (P-MOSFET AO3401A, a Miller capacitor from drain to gate): the
# gate sits at its plateau while the drain rises, so dV/dt = I_gate / C_GD.
SOFTSTART_R_TOP_OHM = 200e3   # source to gate
SOFTSTART_R_BOT_OHM = 47e3    # gate to ground: on, Vgs = -5 V x 200/247 = -4.0 V
SOFTSTART_CGS_F = 10e-6       # gate to source: at the plug's step Vgs = -5 V x CGD/(CGS+CGD)
SOFTSTART_CGD_F = 680e-9
SOFTSTART_VPLATEAU_V = 1.5    # AO3401A: |Vgs| at a few hundred mA (its transfer curve)
SOFTSTART_VTH_MIN_V = 0.5     # AO3401A: |Vgs(th)| 0.5-1.3 V
SOFTSTART_RDS_OHM = 0.060     # AO3401A: Rds(on) max at Vgs = -4.5 V is 50 mOhm; -4 V: margin
POLYFUSE_HOLD_A = 2.5     # Bourns MF-MSMF250: hold 2.5 A at 23 C, trips (at 5 A) on a short
POLYFUSE_DERATE = 0.85    # hold at 40 C ambient over hold at 23 C (Bourns MF-MSMF
                          # thermal derating table); the budget stays under it
LED_MA_FULL = 60.0        # WS2812B, all three channels full
# The next two are ASSUMPTIONS, not data-sheet figures: the WS2812B data sheet
# states no idle current, and the Pico's depends on what the firmware runs.
# prototype-plan.md measures both (the budgets in power.py move with them).
LED_MA_IDLE = 1.0         # WS2812B dark but powered, per LED: assumed
PICO_MA = 50.0            # RP2040 busy at 125 MHz plus the Pico's regulator: assumed
LOGIC_MA = 10.0           # 595s, 138, switches, level shifter, pull-downs
READER_IDLE_MA = 10.0     # MFRC522 without its field (analogue + digital)
