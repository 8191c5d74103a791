"""Keys scanned by CircuitPython's keypad module, seen as the app sees the
MicroPython drivers: the reed matrix's `.cells` and `scan(now)`
(vortex.hal.reed.ReedMatrix), the buttons' raw bits (main.py's
read_buttons).

keypad scans in C, in the background, every `interval` seconds, and queues
each change as an event; scan() drains the queue into .cells. So the reeds
are sampled at their pace however long a pass of the main loop takes (a
save, the AI's thinking), and a pass costs nothing when nothing moved.

    reeds = Keys(keypad.KeyMatrix(rows, cols, columns_to_anodes=False,
                                  interval=0.005), 64, keypad.Event())
    if reeds.scan(now):      # .cells: bytearray(64), 1 = a magnet closes the reed
        ...

Debounce: a reed bounces for under a millisecond, so sampling every
DEBOUNCE_MS (5 ms) sees each change once, within 5 ms (a sample taken
during the bounce reads the old state or the new one; the next reads the
new). keypad's debounce_threshold stays 1: that keeps reset() exact, below.

Allocates nothing: one keypad.Event is filled again and again (get_into).
"""
from vortex.app import buttons as btn


class Keys:
    """Keys(scanner, n, event): `.cells` (bytearray(n), 1 = pressed) and
    scan(now=0) -> True if a cell changed. scanner: a keypad scanner
    (KeyMatrix, Keys) built with debounce_threshold=1; event: an Event to
    reuse. The scanner is reset() here, so that what is pressed already
    (the pieces on the board at power-on) is reported: keypad starts by
    taking every key as released and counting from there."""

    def __init__(self, scanner, n, event):
        self.cells = bytearray(n)
        self._scanner = scanner
        self._events = scanner.events
        self._ev = event
        self._fresh = bytearray(n)
        self._resync()

    def scan(self, now=0):
        """Apply the queued events; True if a cell changed (perhaps back)."""
        events = self._events
        if events.overflowed:
            # Events were dropped (a queue left unread too long): start again
            # from what the keys read now.
            return self._resync()
        ev = self._ev
        cells = self.cells
        changed = False
        while events.get_into(ev):
            v = 1 if ev.pressed else 0
            if cells[ev.key_number] != v:
                cells[ev.key_number] = v
                changed = True
        return changed

    def _resync(self):
        # reset() scans at once: with a threshold of 1, every key pressed now
        # is queued by the time it returns, and nothing else is.
        events = self._events
        events.clear()
        self._scanner.reset()
        fresh = self._fresh
        for i in range(len(fresh)):
            fresh[i] = 0
        ev = self._ev
        while events.get_into(ev):
            fresh[ev.key_number] = 1 if ev.pressed else 0
        changed = fresh != self.cells
        self.cells[:] = fresh
        return changed


def reed_matrix(row_pins, col_pins, debounce_ms):
    """The 8x8 reed matrix (rows: ranks 1-8, columns: files a-h) on keypad:
    key row * 8 + column is the cell, as vortex.hal.reed numbers it."""
    import keypad
    # The matrix's diodes have their anodes on the rows (hardware/README.md,
    # hardware/boardgen/schematic.py: D.A on REED_ROWn, D.K to the reed, the
    # reed to the column, 10 k pull-downs on the columns). So a row is driven
    # high and a closed reed pulls its column up: columns_to_anodes=False
    # (keypad: rows idle as inputs pulled down, the driven row high,
    # columns pulled down). The other orientation would drive the columns
    # low and pull the rows up, and their 10 k pull-downs would hold every
    # idle column low: every closed reed of a row would read on all scans.
    matrix = keypad.KeyMatrix(row_pins, col_pins, columns_to_anodes=False,
                              interval=debounce_ms / 1000, max_events=64)
    return Keys(matrix, len(row_pins) * len(col_pins), keypad.Event())


def buttons(a_pin, b_pin):
    """The buttons (to ground, internal pull-ups) as main.py's buttons():
    a function returning the raw bits btn.A, btn.B. keypad's 20 ms interval
    is its own default for buttons, which bounce longer than reeds."""
    import keypad
    keys = Keys(keypad.Keys((a_pin, b_pin), value_when_pressed=False, pull=True,
                            interval=0.020, max_events=8), 2, keypad.Event())
    cells = keys.cells

    def state():
        keys.scan()
        return (btn.A if cells[0] else 0) | (btn.B if cells[1] else 0)
    return state
