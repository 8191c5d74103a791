"""The board's design as code: dimensions, physics, the NFC front-end
model, the schematic (SKiDL), the parts list and the drawings.

tools/hardware.py regenerates every file of hardware/generated/ from here.
Nothing in this package runs on the board.
"""
