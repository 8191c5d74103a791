"""A room's game, as each client keeps it: the engine arbitrates every
message, numbered actions are applied once, the rest refused with a reason.

    room = Room("friday", secret="oak tree 7", side=LIGHT, client="board-1")
    payload = room.act("W@d4")            # our seat's action: publish it (QoS 1)
    code, line = room.receive(topic, payload)   # every message of the room

receive() answers one of
    APPLIED   the game moved on (an action, or a state that was ahead)
    SAME      nothing new: a repeat (QoS 1 delivers twice), our own echo
    REFUSED   line says why (malformed, oversized, bad signature, wrong
              number, not that seat's turn, illegal, another game); the
              game is intact
    BEHIND    a state that lacks actions we have: publish ours (state())
    NOTED     a seat's claim or a client's presence changed
A room with no secret is a spectator's: it checks all but signatures, and
cannot act. Room(start=None) takes the start from the first state it reads
(a late joiner, a spectator, a client's own copy read back).

What a seated client owes the room, since a stranger can publish anything
on a broker without ACL, is in `due` (bits, set by receive(); the client
publishes them, no more often than its own rule allows, and clears them):
    DUE_STATE     our state: the room's retained one is gone (an empty
                  publish), one we cannot verify replaced it, it lacks
                  actions we have, or someone asks for the game
    DUE_SEAT      our seat's claim: it was taken off, or one we cannot
                  verify was put over it
    DUE_PRESENCE  our presence: said offline (a will of ours delivered
                  late, a stranger) while we are here
"""
from vortex.engine.defs import LIGHT, DARK, const
from vortex.engine.position import Position, UNDECIDED
from vortex.engine.notation import action_text
from vortex.online import sign, protocol as p
from vortex.online.protocol import ProtocolError, SIDES, WATCH

APPLIED = const(0)
SAME = const(1)
REFUSED = const(2)
BEHIND = const(3)
NOTED = const(4)
CODES = ("applied", "same", "refused", "behind", "noted")
DUE_STATE = const(1)
DUE_SEAT = const(2)
DUE_PRESENCE = const(4)


class Actions:
    """A game's actions read as notation from the engine's codes (the
    position's own stack: a long game's 1,500 strings would cost a board
    tens of KB): len(), [i], iteration, == a list of texts."""

    def __init__(self, codes):
        self.codes = codes

    def __len__(self):
        return len(self.codes)

    def __getitem__(self, i):
        return action_text(self.codes[i])

    def __iter__(self):
        for a in self.codes:
            yield action_text(a)

    def __eq__(self, other):
        return len(self) == len(other) and all(self[i] == other[i] for i in range(len(self)))

    def __repr__(self):
        return "Actions(%r)" % [t for t in self]


class Room:
    def __init__(self, name, start=None, secret=None, side=WATCH, client="watcher"):
        self.name = p.check_name(name)
        self.client = p.check_client(client)
        self.side = side
        self.keys = None
        if secret:
            self.keys = (sign.seat_key(secret, name, LIGHT), sign.seat_key(secret, name, DARK))
        elif side != WATCH:
            raise ProtocolError("a seat needs the room's secret")
        self.start = None
        self.first = LIGHT
        self.pos = None
        self._words = bytearray()
        self.actions = Actions([])  # the game's actions in notation, action n at [n - 1]
        self.seats = [None, None]  # (client, proof) of each seat's claim
        self.present = {}  # client -> role (LIGHT, DARK, WATCH) while online
        self.replay_max = 0  # 0: a state's new actions all at once; else this many a more()
        self._replay = None  # [Words, the next index, sender]: a state being replayed
        self.due = 0  # DUE_* bits: what we owe the room (the module's doc)
        if start is not None:
            self.begin(start)

    def begin(self, start, actions=()):
        """Start the room's game from a position, and the engine's action
        codes played from it (a new room's first player, with the game its
        board has: each checked); the room's first state does this for a
        late joiner. ProtocolError if it is not a game."""
        try:
            pos = Position(start)
        except ValueError as e:
            raise ProtocolError("start: %s" % e)
        first = pos.side
        for a in actions:
            if not pos.is_legal(a):
                raise ProtocolError("action %d: %s" % (len(pos.stack) + 1, pos.why_illegal(a)))
            pos.push(a)
        self.pos = pos
        self._replay = None
        self.start = start
        self.first = first  # the side of action 1
        self.actions = Actions(pos.stack)
        self._words = bytearray()  # the actions as the state writes them: " W@d4 F@e5"
        for a in pos.stack:
            self._wrote(action_text(a))
        return pos

    # --- what we say ----------------------------------------------------------------
    def number(self):
        """Actions in the game so far; the next is number() + 1."""
        return len(self.actions)

    def act(self, text):
        """Our seat's action: applied here, and its payload returned for the
        action topic; ProtocolError or the engine's ValueError if refused."""
        if self.keys is None or self.side == WATCH:
            raise ProtocolError("a spectator cannot act")
        if self.pos is None:
            raise ProtocolError("the game has not started: no state yet")
        if self._replay is not None:
            raise ProtocolError("the room's game is still being replayed")
        if self.pos.side != self.side:
            raise ProtocolError("not your turn: %s to act" % SIDES[self.pos.side])
        if self.pos.outcome() is not None:
            raise ProtocolError("the game is over")
        a = self.pos.parse_action(text)  # NotationError or IllegalAction
        self.pos.push(a)
        text = action_text(a)
        self._wrote(text)
        return p.action_message(self.name, len(self.actions), self.side, text, self.client,
                                self.keys[self.side])

    def side_of(self, number):
        """The side that plays action `number` (every action passes the turn)."""
        return self.first ^ ((number - 1) & 1)

    def message(self, number):
        """Our action `number` again, as act() made it: sent once more after
        a reconnection, in case the broker never had it (a repeat is SAME)."""
        side = self.side_of(number)
        if self.keys is None or side != self.side:
            raise ProtocolError("action %d is not ours to send" % number)
        return p.action_message(self.name, number, side, self.actions[number - 1], self.client,
                                self.keys[side])

    def state(self):
        """The retained state to publish (after each of our actions, and when
        a state BEHIND ours was read)."""
        if self.keys is None or self.side == WATCH:
            raise ProtocolError("a spectator publishes no state")
        return p.state_message(self.name, self.start, self._words, self.side, self.client,
                               self.keys[self.side])

    def written(self):
        """The game's actions as a state writes them (b" W@d4 F@e5"): bytes to
        keep (a client's copy of the room's game), not to change."""
        return self._words

    def _wrote(self, text):
        # An action played: its word for the state.
        self._words.append(32)
        self._words.extend(text.encode())

    def seat(self):
        """Our seat's retained claim."""
        if self.keys is None or self.side == WATCH:
            raise ProtocolError("a spectator holds no seat")
        return p.seat_message(self.client, self.keys[self.side])

    def presence(self):
        return p.presence_message(self.side)

    def ask(self):
        """An ask for the room's game, when we have none."""
        return p.ask_message(self.client)

    def seated(self):
        """Do we hold a seat (with its key)?"""
        return self.keys is not None and self.side != WATCH

    def outcome(self):
        return None if self.pos is None else self.pos.outcome()

    def opponent_online(self):
        """Is the client holding the other seat online? (None: unclaimed)."""
        if self.side == WATCH:
            return None
        claim = self.seats[self.side ^ 1]
        return None if claim is None else claim[0] in self.present

    def wait_for(self):
        """While we have no game: the seat whose holder may have it, (side,
        client, online), an online holder first; None when no other client
        holds a seat (its claim checked against the secret): then nobody
        can have played here, and the room is new."""
        found = None
        for side in (LIGHT, DARK):
            claim = self.seats[side]
            if claim is not None and claim[0] != self.client:
                online = claim[0] in self.present
                if found is None or online and not found[2]:
                    found = (side, claim[0], online)
        return found

    # --- what we hear ----------------------------------------------------------------
    def receive(self, topic, payload):
        """(code, line) for one message of the room (see the module's doc)."""
        if payload is None:
            payload = b""  # (some libraries' empty message)
        try:
            room, kind, arg = p.parse_topic(topic)
            if room != self.name:
                raise ProtocolError("topic %s is another room's" % topic[:60])
            if kind == p.ACTION:
                return self._action(payload)
            if kind == p.STATE:
                return self._state(payload)
            if kind == p.SEAT:
                return self._seat(arg, payload)
            if kind == p.ASK:
                p.read_ask(payload)
                self._owe_state()
                return SAME, ""
            return self._presence(arg, payload)
        except ValueError as e:  # ProtocolError, NotationError, IllegalAction
            return REFUSED, str(e)

    def _owe_state(self):
        # Our state to the room, when we hold a seat and a game to give.
        if self.seated() and self.pos is not None:
            self.due |= DUE_STATE

    def _check(self, side, signature, parts, what):
        if self.keys is not None and not sign.same(signature, sign.mac(self.keys[side], *parts)):
            raise ProtocolError("%s: bad signature for %s's seat" % (what, SIDES[side]))

    def _action(self, payload):
        number, side, text, sender, signature = p.read_action(payload)
        what = "action %d %s %s" % (number, SIDES[side], text)
        self._check(side, signature, (p.signed_action(self.name, number, side, text),), what)
        if self.pos is None:
            raise ProtocolError("%s: no state read yet, the game's start is unknown" % what)
        n = len(self.actions)
        if number <= n:
            if self.actions[number - 1] == text:
                return SAME, ""
            raise ProtocolError("%s: action %d is %s already" % (what, number,
                                                                 self.actions[number - 1]))
        if number > n + 1:
            if self._replay is not None:
                return SAME, ""  # a state is being replayed: it comes with the next state
            raise ProtocolError("%s: out of order, the next is %d" % (what, n + 1))
        pos = self.pos
        if pos.outcome() is not None:
            raise ProtocolError("%s: the game is over" % what)
        if side != pos.side:
            raise ProtocolError("%s: not %s's turn" % (what, SIDES[side]))
        try:
            a = pos.parse_action(text)
        except ValueError as e:
            raise ProtocolError("%s: %s" % (what, e))
        if action_text(a) != text:  # one spelling per action: a repeat compares equal
            raise ProtocolError("%s: written %s in the notation" % (what, action_text(a)))
        pos.push(a)
        self._wrote(text)
        return APPLIED, "%d %s %s" % (number, SIDES[side], text)

    def _state(self, payload):
        if not payload:  # the retained state taken off (an empty publish): ours goes back
            self._owe_state()
            return SAME, ""
        try:
            start, actions, side, sender, signature, body = p.read_state(payload)
            self._check(side, signature, (p.state_prefix(self.name), body), "state by " + sender)
        except ProtocolError:  # not the room's (a stranger's): ours goes back
            self._owe_state()
            raise
        pos = self.pos
        if pos is None:
            pos = self.begin(start)
        elif start != self.start:
            raise ProtocolError("state by %s: another game (its start differs)" % sender)
        # What we have: the game, or while a state is replayed, the whole of
        # that state (a shorter one read meanwhile must not cut it short).
        r = self._replay
        mine = self.actions if r is None else r[0]
        n, m = len(mine), len(actions)
        k = n if n < m else m
        if not self._agrees(actions, k):
            for i in range(k):  # (where, said in words)
                if actions[i] != mine[i]:
                    raise ProtocolError("state by %s: action %d is %s, here %s"
                                        % (sender, i + 1, actions[i], mine[i]))
        if m <= n:
            if m == n:
                return SAME, ""
            self._owe_state()
            return BEHIND, "state by %s: %d actions, here %d" % (sender, m, n)
        n = len(self.actions)  # played so far: the new ones from here
        if self.replay_max and m - n > self.replay_max:
            self._replay = [actions, n, sender]
            return self.more()
        self._replay = None
        for i in range(n, m):  # all or nothing: an illegal one takes back those before it
            text = actions[i]
            try:
                a = _next(pos, text)
            except ValueError as e:
                for _ in range(n, i):
                    pos.pop()
                raise ProtocolError("state by %s: action %d: %s" % (sender, i + 1, e))
            pos.push(a)
        for i in range(n, m):
            self._wrote(actions[i])
        return APPLIED, "state by %s: %d actions, %d new" % (sender, m, m - n)

    def replaying(self):
        """Is a state being replayed a few actions a call (replay_max)?"""
        return self._replay is not None

    def more(self):
        """The next replay_max actions of a state being replayed, each
        checked by the engine: (code, line), APPLIED while some were
        played, SAME when none is left. Those played stay (each legal, the
        state signed); an illegal one ends the replay, REFUSED, said."""
        r = self._replay
        pos = self.pos
        if r is None or pos is None:
            return SAME, ""
        actions, i, sender = r
        m = len(actions)
        end = i + self.replay_max if i + self.replay_max < m else m
        while i < end:
            text = actions[i]
            try:
                a = _next(pos, text)
            except ValueError as e:
                self._replay = None
                return REFUSED, "state by %s: action %d: %s (the %d before it are played)" % (
                    sender, i + 1, e, i)
            pos.push(a)
            self._wrote(text)
            i += 1
        r[1] = i
        if i == m:
            self._replay = None
            return APPLIED, "state by %s: %d actions, replayed" % (sender, m)
        return APPLIED, "state by %s: %d of %d actions replayed" % (sender, i, m)

    def _agrees(self, actions, k):
        # Are a state's first k actions (a protocol.Words) ours, or while a
        # state is replayed, that state's? Their bytes compared at C speed:
        # a long game's state comes after every action of the other seat.
        # Every state is written in one form (single spaces: read_state),
        # as are our words, so equal bytes that end where one of our words
        # ends are the same k actions.
        if k == 0:
            return True
        size = actions.at[2 * k - 1] - actions.begin
        r = self._replay
        if r is None:
            mine, begin, end = self._words, 0, len(self._words)
        else:
            mine, begin, end = r[0].data, r[0].begin, r[0].end
        cut = begin + size
        return (cut <= end and (cut == end or mine[cut] == 32)  # (views: no 10 KB copies)
                and memoryview(actions.data)[actions.begin:actions.begin + size]
                == memoryview(mine)[begin:cut])

    def _seat(self, side, payload):
        mine = side == self.side and self.seated()
        if not payload:
            self.seats[side] = None
            if mine:  # our claim taken off: it goes back
                self.due |= DUE_SEAT
            return NOTED, "%s's seat is free" % SIDES[side]
        try:
            client, proof = p.read_seat(payload)
            if self.keys is not None and proof != sign.proof(self.keys[side]):
                raise ProtocolError("%s's seat is held by %s with another secret"
                                    % (SIDES[side], client))
        except ProtocolError:
            if mine:  # a claim we cannot verify over ours: ours goes back
                self.due |= DUE_SEAT
            raise
        if self.seats[side] == (client, proof):
            return SAME, ""
        self.seats[side] = (client, proof)
        return NOTED, "%s's seat: %s" % (SIDES[side], client)

    def _presence(self, client, payload):
        online, role = p.read_presence(payload) if payload else (False, None)
        if client == self.client and role != self.side:
            self.due |= DUE_PRESENCE  # we are here, whatever was said
            return SAME, ""
        if online == (client in self.present) and self.present.get(client) == role:
            return SAME, ""
        if role is None:
            self.present.pop(client, None)
            return NOTED, "%s offline" % client
        self.present[client] = role
        return NOTED, "%s online as %s" % (client, p.ROLES[role])


def _next(pos, text):
    """The action a state's next word is in pos, checked by the engine and
    written as the notation writes it; ValueError (its reason) if not.
    (decided(), not outcome(): no move generation per action; a side left
    with no legal action has none to parse either.)"""
    if pos.decided() != UNDECIDED:
        raise ProtocolError("the game was over")
    a = pos.parse_action(text)
    if action_text(a) != text:
        raise ProtocolError("written %s in the notation" % action_text(a))
    return a
