"""The virtual board: a physical truth (which piece and tile lies where, what
the hands hold) that produces the sensor readings the firmware sees.

The firmware's own debouncer and tile-read scheduler run on top of it, so
what is simulated is only the physics: reed contacts (with optional bounce)
and NFC tags answering under the coil their rank's reader has switched in
(with optional misreads).

Runs on CPython and on the MicroPython unix port (firmware/ on sys.path), so
whole games can be played through it under both.
"""
from vortex.engine.defs import (NO_TILE, TRAVELLER, AWAKENED, PIECE_LETTERS, SIDE_NAMES,
                                KIND_NAMES, cell_name)
from vortex.engine.codes import piece_side, piece_kind
from vortex.engine.notation import parse_cell
from vortex.hal.debounce import Debouncer
from vortex.hal.tiles import TileScanner
from vortex.hal.buzzer import Buzzer
from vortex.app.sounds import NOTES, NAMES as SOUND_NAMES
from vortex import tag
from vortex.tag import OK, NOTAG, ERR
from vortex.ai.rng import Rng


FOREIGN = 255  # a tile whose tag answers but is not ours (or is corrupt)

class PhysicsError(ValueError):
    """A physical operation that cannot happen (an empty hand, a full cell)."""


class VirtualFrontEnd:
    """The front end's switches (hal.frontend's coil/flush): rank r's reader
    reaches the coil of file coils[r] (255: none)."""

    def __init__(self, ranks=8):
        self.coils = bytearray(b"\xff" * ranks)

    def coil(self, rank, f):
        self.coils[rank] = 255 if f < 0 else f

    def flush(self):
        pass


class VirtualReader:
    """Rank r's NFC reader (hal.tiles' reader interface): it meets the
    truth's tag under the coil its rank's switch connects, if any; a read
    ends at the first step() after begin()."""

    def __init__(self, board, rank):
        self.board = board
        self.rank = rank
        self._st = NOTAG

    def begin(self, out, slot=-1):
        """Fill out with the tag's user pages: OK, NOTAG, or ERR (a garbled frame)."""
        b = self.board
        f = b.front.coils[self.rank]
        terrain = b.tiles[self.rank * 8 + f] if f != 255 else 0
        if not terrain:
            self._st = NOTAG
        elif b.misread and b.rng.below(1000) < b.misread:
            # The tag did not answer this time, or its frame came garbled.
            self._st = NOTAG if b.rng.below(2) else ERR
        else:
            if terrain == FOREIGN:
                for i in range(16):
                    out[i] = 0      # answers, but holds no tile of ours
            else:
                tag.encode_into(out, terrain, b.serials[self.rank * 8 + f])
            self._st = OK

    due = None               # no clock: look at every poll

    def step(self, now=None):
        return self._st


class VirtualBuzzer(Buzzer):
    """The piezo buzzer: the firmware's own player (vortex.hal.buzzer) on a
    virtual PWM (itself: freq() and duty_u16()), heard by the tests and the
    simulators. count: the sounds started so far; played: (ms, sound name,
    volume) of the last ones; tones: (ms, Hz, duty) of the last changes of
    what it sounds (0 Hz: silent)."""

    def __init__(self):
        self.now = 0
        self.hz = 0
        self.count = 0
        self.played = []
        self.tones = []
        Buzzer.__init__(self, self, NOTES)

    def play(self, sound, volume, now):
        self.now = now
        self.count += 1
        self.played.append((now, SOUND_NAMES[sound], volume))
        del self.played[:-32]
        Buzzer.play(self, sound, volume, now)

    def tick(self, now):
        self.now = now
        Buzzer.tick(self, now)

    # The PWM's side.
    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, duty):
        tones = self.tones
        hz = self.hz if duty else 0
        if (hz, duty) != (tones[-1][1:] if tones else (0, 0)):
            tones.append((self.now, hz, duty))
            del tones[:-64]


class VirtualReeds:
    """The reed matrix (vortex.app.service's reeds): each scan reads a
    contact per cell from the truth, chattering for bounce_ms after a
    change, through the firmware's own debouncer."""

    def __init__(self, board):
        self.board = board
        self.raw = bytearray(64)  # the last scan, before the debounce
        self.debouncer = Debouncer(64)
        self.cells = self.debouncer.state  # debounced occupancy

    def scan(self, now):
        b = self.board
        raw = self.raw
        for c in range(64):
            v = 1 if b.pieces[c] else 0
            if b.bounce_ms and now - b.changed_at[c] < b.bounce_ms:
                v = b.rng.below(2)  # the contact chatters
            raw[c] = v
        self.debouncer.update(raw, now)


def piece_code(letter):
    """The engine code of a piece letter (T S H Light, t s h Dark)."""
    i = PIECE_LETTERS.find(letter) if len(letter) == 1 else -1
    if i <= 0:  # 0: the "." of an empty cell
        raise PhysicsError("%r is not a piece: T S H (Light) or t s h (Dark)" % letter)
    return i


class VirtualBoard:
    """pieces[64]: engine piece codes; tiles[64]: terrains; serials[64]: each
    tile's serial (1-255). hand: what the player holds, last taken last.
    tray[side]: the codes of that side's pieces set aside off the board
    (captured, or cleared away), so they can be put back after a takeback."""

    def __init__(self, seed=0, bounce_ms=0, misread=0):
        """bounce_ms: reed contacts chatter this long after a change;
        misread: per-mille chance that a tag read fails or comes back garbled."""
        self.pieces = bytearray(64)
        self.tiles = bytearray(64)
        self.serials = bytearray(64)
        self.hand = []  # ("piece", code) or ("tile", terrain, serial)
        self.tray = ([], [])  # Light's and Dark's pieces off the board
        self.rng = Rng(seed + 1)
        self.bounce_ms = bounce_ms
        self.misread = misread
        self._next_serial = 1
        self.changed_at = [-100000] * 64  # when each cell's piece last came or went
        self.reeds = VirtualReeds(self)
        self.front = VirtualFrontEnd()
        self.readers = [VirtualReader(self, r) for r in range(8)]
        self.scanner = TileScanner(self.readers, self.front, 0)
        self.buzzer = VirtualBuzzer()
        self.usb = None  # the USB-C source it is plugged into (host_sim.usb), once plugged

    @classmethod
    def from_position(cls, pos, **kw):
        """A board laid out as a Position says (tiles get fresh serials)."""
        b = cls(**kw)
        for c in range(64):
            b.pieces[c] = pos.pieces[c]
            if pos.tiles[c]:
                b.tiles[c] = pos.tiles[c]
                b.serials[c] = b._serial()
        return b

    def _serial(self):
        s = self._next_serial
        self._next_serial = s % 255 + 1
        return s

    # --- sensors, as the firmware sees them ---------------------------------
    # self.reeds: the reed matrix; self.scanner: the firmware's tile scanner
    # over the virtual reader (vortex.app.service's tiles).
    @property
    def occupancy(self):
        """The debounced occupancy the firmware sees."""
        return self.reeds.cells

    def sense(self, now):
        """One tick of the sensors: a reed scan and one tile read."""
        self.reeds.scan(now)
        self.scanner.poll(now)

    # --- hands ----------------------------------------------------------------
    def _cell(self, c):
        return parse_cell(c) if isinstance(c, str) else c

    def _touch(self, c, now):
        self.changed_at[c] = now

    def lift(self, cell, now=0):
        c = self._cell(cell)
        if not self.pieces[c]:
            raise PhysicsError("no piece on %s to lift" % cell_name(c))
        self.hand.append(("piece", self.pieces[c]))
        self.pieces[c] = 0
        self._touch(c, now)

    def place(self, cell, now=0):
        """Put down the piece taken last."""
        c = self._cell(cell)
        if self.pieces[c]:
            raise PhysicsError("%s already holds a piece" % cell_name(c))
        for i in range(len(self.hand) - 1, -1, -1):
            if self.hand[i][0] == "piece":
                self.pieces[c] = self.hand.pop(i)[1]
                self._touch(c, now)
                return
        raise PhysicsError("no piece in hand")

    def awaken(self, cell):
        """Turn the Traveller on a cell to its Awakened face."""
        c = self._cell(cell)
        if piece_kind(self.pieces[c]) != TRAVELLER:
            raise PhysicsError("no Traveller on %s to awaken" % cell_name(c))
        self.pieces[c] += AWAKENED - TRAVELLER

    def drop(self):
        """Set the piece taken last aside, into its side's tray (a captured piece)."""
        for i in range(len(self.hand) - 1, -1, -1):
            if self.hand[i][0] == "piece":
                p = self.hand.pop(i)[1]
                self.tray[piece_side(p)].append(p)
                return p
        raise PhysicsError("no piece in hand")

    def from_tray(self, piece, cell, now=0):
        """Put a piece (engine code or letter) from its side's tray on a cell."""
        p = piece_code(piece) if isinstance(piece, str) else piece
        c = self._cell(cell)
        tray = self.tray[piece_side(p)]
        if p not in tray:
            raise PhysicsError("no %s %s in the tray (%s)" % (
                SIDE_NAMES[piece_side(p)], KIND_NAMES[piece_kind(p)],
                self.tray_text() or "it is empty"))
        if self.pieces[c]:
            raise PhysicsError("%s already holds a piece" % cell_name(c))
        tray.remove(p)
        self.pieces[c] = p
        self._touch(c, now)

    def tray_text(self):
        """The tray in letters, e.g. 'Light T T, Dark h'; '' when empty."""
        return ", ".join("%s %s" % (SIDE_NAMES[side], " ".join(PIECE_LETTERS[p] for p in sorted(t)))
                         for side, t in enumerate(self.tray) if t)

    def lift_tile(self, cell, now=0):
        c = self._cell(cell)
        if self.pieces[c]:
            raise PhysicsError("lift the piece off %s first" % cell_name(c))
        if not self.tiles[c]:
            raise PhysicsError("no tile on %s" % cell_name(c))
        self.hand.append(("tile", self.tiles[c], self.serials[c]))
        self.tiles[c] = NO_TILE
        self.serials[c] = 0

    def place_tile(self, cell, now=0, which=-1):
        """Lay a tile from the hand (the one taken last, or hand index which)."""
        c = self._cell(cell)
        if self.tiles[c]:
            raise PhysicsError("%s already has a tile" % cell_name(c))
        if self.pieces[c]:
            raise PhysicsError("lift the piece off %s first" % cell_name(c))
        tiles = [i for i, h in enumerate(self.hand) if h[0] == "tile"]
        if not tiles:
            raise PhysicsError("no tile in hand")
        i = tiles[which]
        _, terrain, serial = self.hand.pop(i)
        self.tiles[c] = terrain
        self.serials[c] = serial

    def lay_new(self, terrain, cell, now=0):
        """Lay a fresh tile of a terrain from the pool on a cell."""
        c = self._cell(cell)
        if self.tiles[c]:
            raise PhysicsError("%s already has a tile" % cell_name(c))
        if self.pieces[c]:
            raise PhysicsError("lift the piece off %s first" % cell_name(c))
        self.tiles[c] = terrain
        self.serials[c] = self._serial()

    def arrange(self, pos, now=0):
        """Make the truth what a Position has (tiles and pieces), at once.
        The hand is emptied (its pieces go to the tray, its tiles to the
        box); pieces taken off go to the tray, pieces put on come from it
        (or from the box, if it has none of that kind)."""
        for h in self.hand:
            if h[0] == "piece":
                self.tray[piece_side(h[1])].append(h[1])
        self.hand[:] = []
        for c in range(64):
            old, new = self.pieces[c], pos.pieces[c]
            if old != new or self.tiles[c] != pos.tiles[c]:
                if old != new:
                    if old:
                        self.tray[piece_side(old)].append(old)
                    if new and new in self.tray[piece_side(new)]:
                        self.tray[piece_side(new)].remove(new)
                    self.pieces[c] = new
                if self.tiles[c] != pos.tiles[c]:
                    self.tiles[c] = pos.tiles[c]
                    self.serials[c] = self._serial() if pos.tiles[c] else 0
                self._touch(c, now)

    def text(self):
        """The truth as two notation fields (tiles and pieces)."""
        from vortex.engine.notation import board_text
        from vortex.engine.defs import TERRAIN_LETTERS, PIECE_LETTERS
        return "%s %s" % (board_text(self.tiles, TERRAIN_LETTERS),
                          board_text(self.pieces, PIECE_LETTERS))
