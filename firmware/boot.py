"""CircuitPython's boot.py (only CircuitPython gets it: tools/build_mpy.py):
it runs once at power-on or reset, before USB starts, and decides who may
write CIRCUITPY, the board's flash drive.

- Normally the game: the board saves every action there (vortex/hal/cp/
  store.py), and a computer it is plugged into sees the drive read-only.
- Hold button A while plugging the board in (or while pressing reset): the
  drive is the computer's, as CircuitPython leaves it by default, to copy
  files onto (README: For makers); the game then runs without saving.

Either way, code.py (main.py) runs next, and the REPL is on the USB serial.
"""
import board
import digitalio
import storage

import pins

button = digitalio.DigitalInOut(getattr(board, "GP%d" % pins.BUTTON_A))
button.switch_to_input(pull=digitalio.Pull.UP)  # to ground: pressed reads False
held = not button.value
button.deinit()
if held:
    print("button A held: CIRCUITPY is the computer's; the game will not be saved")
else:
    storage.remount("/", readonly=False)
