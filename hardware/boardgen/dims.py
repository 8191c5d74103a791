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

# -- the piece sensor: a linear Hall sensor at each cell's centre ----------------------
# TI DRV5053VA, SOT-23 (DBZ), top side, flat: it answers B_z (the field across the
# package). Figures from its data sheet, SLIS153C (Dec. 2015), sections 6.5-6.7, 7.3.4
# and 9.1 (read for this design from TI's PDF); the others are marked ASSUMPTION and
# the one-cell bench test (prototype-plan.md) measures them before the order.
SENSE_PART = "DRV5053VA"
SENSE_VCC_V = 3.3           # its supply: the rank's switched 3V3 (2.5-38 V allowed; S is specified at 3.3 V)
SENSE_S_TYP_V_PER_T = 90.0  # |sensitivity| 90 mV/mT typ (negative: a south pole lowers OUT), 6.7
SENSE_S_MIN_V_PER_T = 45.0  # |S| min 45 mV/mT, VCC 3.3 V, TA -40..125 C (part to part and temperature), 6.7
SENSE_S_MAX_V_PER_T = 140.0 # |S| max 140 mV/mT, same conditions, 6.7
SENSE_VQ_MIN_V = 0.90       # quiescent output (B = 0) 0.9 / 1.02 / 1.15 V, TA -40..125 C, 6.7
SENSE_VQ_TYP_V = 1.02
SENSE_VQ_MAX_V = 1.15
SENSE_VOUT_MIN_V = 0.20     # output saturation: <= 0.2 V below -BSAT, >= 1.8 V above, 6.7
SENSE_VOUT_MAX_V = 1.80
SENSE_VOUT_TOP_V = 2.0      # "0- to 2-V analog output" (section 3): no healthy output above it
SENSE_VOUT_FLOOR_V = 0.10   # ASSUMPTION: a saturated output stays above half its 0.2 V bound (the
                            # data sheet bounds it from above only); the bench test saturates each part
SENSE_CAL_MT = 5.0          # the bench test's gain measurement: a field well inside +-BSAT
SENSE_BSAT_MT = 9.0         # VA's input saturation field, typ, 6.7
SENSE_S_BATCH_SPREAD = 0.20 # ASSUMPTION: the batch's |S| within +-20 % of typical at 15-45 C. The
                            # limits above span 45-140 mV/mT over every part and -40..125 C (the
                            # features list: +-10 % over temperature alone); the thresholds are set
                            # for this spread, and the bench test checks every part of the batch
SENSE_NOISE_MTPP = 0.79     # input-referred noise BN, max 0.79 mTpp (typ 0.49), 20 kHz bandwidth, 6.7
SENSE_TON_US = 50.0         # power-on time ton, 35 typ / 50 max, 6.5 (OUT valid after it, 7.3.3)
SENSE_TD_US = 25.0          # output delay after a field change, 13 typ / 25 max, 6.6
SENSE_ICC_MA = 3.6          # supply current, max (2.7 typ at 25 C; 3 typ / 3.6 max at 125 C), 6.5
SENSE_SOURCE_UA = 300.0     # output current limit, sourcing (sink 2.3 mA), 6.5 and 7.3.4
SENSE_C_LOAD_MAX_F = 10e-9  # capacitance on OUT for a stable output, < 10 nF (7.3.4)
SENSE_HALL_Z_MM = 0.70      # the Hall element: 0.7 +-0.05 mm above the package's underside,
SENSE_HALL_XY_TOL_MM = 0.10 # centred in the package +-0.1 mm (9.1, Figure 18)
SENSE_PLACE_TOL_MM = 0.20   # ASSUMPTION: pick-and-place and solder float of a SOT-23
SENSE_Z_TOL_MM = 0.5        # ASSUMPTION: the magnet's height over the sensor, +-: piece
                            # floor and felt, tile, panel and the LED-gap spacers' tolerances
SENSE_VQ_DRIFT_V = 0.030    # ASSUMPTION: VQ's drift after the per-cell zero, over the board's
                            # 15-45 C: the data sheet gives only VQ's whole spread (0.9-1.15 V over
                            # -40..125 C and parts), no drift; the bench test measures it
MAGNET_BR_MIN_T = 1.17      # N35 remanence, min / max (MMPA 0100-00 grade table, 1.17-1.22 T)
MAGNET_BR_MAX_T = 1.22
MAGNET_BR_TC_PER_K = -0.0012  # NdFeB reversible temperature coefficient of Br, -0.12 %/K
                              # (MMPA 0100-00 / Arnold's N-grade tables: -0.11 to -0.12 %/K)
BOARD_T_MIN_C = 15.0        # the room the board is played in, and the board under its
BOARD_T_MAX_C = 45.0        # LEDs: ASSUMPTION, 20 C referred (Br is graded at 20 C)
PIECE_CARRY_MM = 15.0       # a piece carried over a cell: its base this far above the board's
                            # surface (the panel: a cell may have no tile)
SENSE_MARGIN_MIN = 1.3      # every worst case's ratio to its threshold, both ways
SENSE_HYSTERESIS = 1.2      # ON / OFF: the firmware's hysteresis between its thresholds
# -- the scan: one rank powered at a time, an 8:1 mux per rank, one ADC --------------------
ADC_BITS = 12               # RP2040 ADC: 12 bit, 500 ksps (2 us a conversion: 96 ADC clocks
ADC_SAMPLE_US = 2.0         # at 48 MHz), reference ADC_VREF = the Pico's 3.3 V (RP2040
ADC_VREF_V = 3.3            # datasheet 4.9, Pico datasheet 4.3)
ADC_ERROR_COUNTS = 12       # ASSUMPTION: what the per-cell zero does not take out of the RP2040
                            # ADC's reading: its DNL steps (errata RP2040-E11, several counts at
                            # codes 512, 1536, 2560, 3584) and its own noise (ENOB about 9 bits):
                            # measured by the bench test
NOISE_SIGMAS_PP = 6.0       # a Gaussian noise's peak to peak spans about 6 sigma (how TI quotes
                            # BN); the debounce wants DEBOUNCE_MS of agreeing reads, so the noise
                            # enters the margins at 1 sigma, not at its peak
SENSE_MUX = "TMUX1208"      # each rank's 8:1 mux (the schematic's choice)
SENSE_MUX_RON_OHM = 17.0    # TMUX1208 on-resistance at VDD 3.3 V: 9 typ, 15 max to 85 C, 17 max to
                            # 125 C (SCDS389C, 7.6); a 74HC4051 would be hundreds of Ohm: recompute
SENSE_LINE_C_F = 450e-12    # ASSUMPTION: the shared analog line: 1.3 m of ribbon (about 50 pF/m),
                            # 8 muxes' drain capacitance (up to about 45 pF each: not read from the
                            # TMUX1208 data sheet) and the ADC pin; the bench test measures settling
SENSE_SWITCH_RISE_US = 20.0 # ASSUMPTION: the rank's high-side switch turning on into its sensors'
                            # bypass capacitors (the schematic's P-MOSFET: well under this)
SENSE_SAMPLES = 1           # ADC samples averaged per cell per scan
LED_FRAME_US = 64 * 30.0 + 280.0  # 64 WS2812B x 24 bits x 1.25 us, then the >= 280 us reset
SCAN_TARGET_HZ = 500.0      # full scans per second while the tiles are read (the firmware's)
LIFT_LATENCY_MS = 20.0      # a lift reaches the LEDs within this

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
# The ADG1608's capacitances to ground (M9), at +-5 V (the TPS60403 supply):
# the ADG1608/ADG1609 data sheet (Rev. A) has a +-5 V table, and +12, +5 and
# +3.3 V single-supply ones (its front page); NOT read: the search tool
# reached only its first page and page 10. The nominal figures are recalled
# for the +-5 V table. The only table figures found are the +3.3 V single
# supply's, quoted by a design note (CS(off) 23, CD(off) 145, CD,CS(on)
# 173 pF typ): a narrower reverse bias than +-5 V, so higher. The
# simulation (rfsim.py) runs the switch's capacitances at SWITCH_C_SCALES
# too, the upper one past every 3.3 V figure. Read the +-5 V table before
# the order; the prototype measures each node and trims C_N.
SWITCH_C_ON_F = 125e-12   # CD, CS (On): the on channel, drain and source together, to ground
SWITCH_C_D_OFF_F = 85e-12 # CD (Off): the drain with every channel off (EN low)
SWITCH_C_OFF_F = 14e-12   # CS (Off): one off channel's source
SWITCH_C_SCALES = (0.7, 1.75)   # the sensitivity run: every capacitance x 0.7 and x 1.75
                                # (1.75 x 85 pF = 149 pF > 145, the 3.3 V CD(off))
SWITCH_I_MAX_A = 0.47     # ADG1608: "up to 470 mA continuous current" (front page; the design note's 3.3 V table: 126 mA)
MFRC522_TX_TYP_A = 0.060  # MFRC522 data sheet rev. 3.9, Table 153 (p. 76): IDD(TVDD) typ 60 mA,
MFRC522_TX_MAX_A = 0.100  # max 100 mA (Table 150's limiting values give no current: this is the limit)
MFRC522_TX_ROUT_OHM = 5.0 # TX1/TX2 driver output resistance: MFRC522 data sheet rev. 3.9,
                          # Table 153 (pp. 75-76), pins TX1/TX2 at 3 V: VOH >= VTVDD - 0.4 V
                          # and VOL <= 0.4 V at 80 mA (0.15 V at 32 mA): 0.4 V / 80 mA = 5 Ohm
                          # at most (8 Ohm at 2.5 V). The interlock's margin does not hang
                          # on it (47 Ohm beside)
# The readers' interlock (issue 37 M10), decided by simulation (rfsim.py):
# a resistor in each TX line, between the TX pin and L0. With the switch open
# the drivers see L0 in series with the node capacitance near resonance (a few
# Ohm): this resistor bounds that current whatever the enable does, for any
# time, without firmware or a gated supply; in the match it sits beside a
# ~300 Ohm half-port and sets the drive level, so the match's branch
# reactance can leave C1 room (M8) at a small cost in power (figures.md).
TX_SERIES_OHM = 47.0      # E24, 0603 thick film, one per TX line
# The matching's margin (M8): the coil's real inductance may be +-15 % off the
# formula's; every coil's C1 must retune it with one 0603 C0G part (the second
# position stays free for a trim), and with the nominal parts fitted the
# field and the drivers' current stay inside their limits at either end.
L_MARGIN = 0.15
C1_RETUNE_MAX_F = 10e-9   # the largest 0603 C0G 50 V part (orderable.C0G_MAX_F)
# The RX pin's carrier (m6). The RX divider (R1 1 k, R2 2.2 k to VMID, CRX
# 1 nF from the EMC filter's output: AN1445's receive circuit) sets it.
# MFRC522 data sheet rev. 3.9, Table 153 (p. 75) and Figure 24 (p. 77), pin
# RX: input voltage range 100 mV to 4 V peak-to-peak (typical), the pin
# clamped by internal diodes to AVSS and AVDD (Vi -1 V..VDDA + 1 V); Ci 10 pF,
# Ri 350 Ohm typical. The design keeps the carrier inside the rails round
# VMID (AVDD peak-to-peak, stricter than 4 V) and at least 5 times the
# 100 mV floor, so the tag's load modulation (a few per cent of the carrier)
# stays above the receiver's 5 mV sensitivity.
RX_MAX_VPP = 3.3
RX_MIN_VPP = 0.5
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

# -- the bus across the nine boards (boardgen/bussim.py simulates it with ngspice) ----
# SCK, MOSI, LATCH leave the controller's 74LVC541A (three channels to the ribbon, three
# spare ones to its own 595); each rank board re-drives them through two Schmitt
# channels (2 x 74LVC3G17: one to its own loads, one to the next ribbon); MISO and
# CHAIN_RET come back. 4 MHz: pins.NFC_BAUD.
BUS_SERIES_OHM = 68.0     # series source termination at EVERY bus driver output (each
                          # 541 channel, each Schmitt channel, each MISO buffer, the
                          # last QH') whose ribbon wire lies between two grounds: Z0
                          # 105 Ohm less the LVC driver's own 10-23 Ohm, one E12 step
                          # lower for the boards' load capacitance: the ngspice sweep's
                          # smallest clean value (figures.md)
BUS_SERIES_GS_OHM = 100.0 # the same where the wire has one ground beside it (Z0 159
                          # Ohm): LATCH simulated at 82-150 Ohm, 0.15 V overshoot here
BUS_VCC_V = 3.3
RIBBON_SEGMENT_MM = 100.0 # one ribbon a board: 3M 3365/40, 100 mm (bom.py)
RIBBON_Z0_GSG_OHM = 105.0 # 3M 3365 series data sheet: 105 Ohm, a wire between two
RIBBON_NS_PER_FT = 1.4    # grounds (G-S-G), 1.4 ns/ft; one ground beside or none:
                          # bussim.ribbon_line scales Z0 by the wires' loop inductance
RIBBON_WIRE_DIA_MM = 0.38 # 28 AWG 7/36 stranded: 0.38 mm over the strands
TRACE_WIDTH_MM = 0.2      # the bus's tracks on the rank board (rank.kicad_pcb), microstrip
FR4_ER = 4.5              # over the 1.6 mm board to the other side's GND pour
LVC_ROUT_MAX_OHM = 23.0   # 74LVC541A, 74LVC1G17/3G17, 1G125: VOL <= 0.55 V at 24 mA,
                          # VCC = 3.0 V (their data sheets): 0.55 / 0.024
LVC_ROUT_FAST_OHM = 10.0  # the strong corner: ASSUMED (no data sheet bounds it below)
LVC_EDGE_NS = (1.0, 3.0)  # LVC output edges 10-90 %: 1 ns strong, 3 ns weak corner
LVC_TPD_NS = (1.0, 4.6)   # SN74LVC1G17 / 3G17 tpd min-max at 3.3 V +-0.3 V (TI SCES351)
LVC541_TPD_NS = (1.0, 4.8)  # SN74LVC541A tpd A to Y at 3.3 V +-0.3 V (TI SCAS298)
LVC541_SKEW_NS = 1.0      # its output-to-output skew tsk(o) (same data sheet)
LVC125_TPD_NS = (1.0, 4.5)  # SN74LVC1G125 / 1G126 tpd at 3.3 V +-0.3 V (TI SCES223/224)
SCHMITT_VT_POS_V = (1.50, 1.87)  # SN74LVC1G17 VT+ min-max at VCC = 3 V (TI SCES351)
SCHMITT_VT_NEG_V = (0.84, 1.19)  # VT- min-max, same table
LVC_CI_PF = 4.0           # an LVC input's capacitance, typ (SN74LVC1G17: Ci 4 pF)
HC595_CI_PF = 3.5         # NXP 74HC595 data sheet: CI 3.5 pF
HC595_VIL_V = 0.94        # NXP 74HC595: VIL max / VIH min 0.5 / 1.5 V at VCC = 2 V and
HC595_VIH_V = 2.36        # 1.35 / 3.15 V at 4.5 V, interpolated to 3.3 V; no hysteresis
MFRC522_CI_PF = 5.0       # ASSUMED: the MFRC522 data sheet gives no SPI input capacitance
MFRC522_TSU_NS = 25.0     # NXP MFRC522 SPI timing: MOSI setup / hold to SCK rising,
MFRC522_TH_NS = 25.0
MFRC522_TOUT_NS = 25.0    # and SCK falling to MISO valid
LVC595_TSU_NS = 5.0       # ASSUMED LVC-class shift register (74LVC595A): SER setup /
LVC595_TH_NS = 2.0        # hold to SHCP, and SHCP to QH' max; replace with the data
LVC595_TCO_NS = 8.0       # sheet of the part ordered; SHCP to QH' min: an LVC
LVC595_TCO_MIN_NS = 1.0   # gate's (SN74LVC1G17 tpd min), ASSUMED
PICO_CI_PF = 5.0          # ASSUMED RP2040 pad capacitance
PICO_TSU_NS = 16.0        # ASSUMED: 2 clk_peri cycles (125 MHz) of PL022 input sync
PAD_PF = 1.0              # each load's pad, via and package pin beyond its Ci: assumed
