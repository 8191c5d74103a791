"""The board's logic, pure: sensor snapshots and time in, LED frames and
committed actions out (board.py). No `machine` here: the hal drives it on
the RP2040, host_sim's virtual board on a desktop."""
