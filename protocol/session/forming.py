"""Forming a table: the handshake before the genesis (spec/protocol.md, "Forming a table").

The host hands out seats to the nodes that say `hello` and answers each with `welcome` (or
`refuse`). A seat is *leased*: its node keeps it by being heard (its hello, repeated every
`REPEAT_EVERY` seconds, and its beat every second); a seat silent for `SEAT_LEASE` seconds
is freed, a clean `leave` frees it at once, and the host may remove it. The same key coming
back takes its seat again (its old seat if that is still free). Once every seat is taken,
and every joiner's node has been heard again since its hello took the seat (a key that
said hello once and vanished never gets a table proposed), the host proposes the genesis.
Every seat checks that the proposal states its own seat exactly as it asked, signs it and
sends its signature to the host; the host, holding every signature, has the genesis and
hands it to every seat. A seat that goes silent, leaves or is removed before the host has
every signature — or whose signature has not come `SIGN_WITHIN` seconds after the proposal
— is freed, and the host withdraws the proposal: it welcomes each remaining seat again
(a `welcome` while signing means "forming again") and proposes anew once the table is full.
Only the host completes a genesis, so a withdrawn proposal can never become a game.

A private table needs a code: the joiner's hello carries a knock proving it knows the code
(protocol/session/tablecode.py); the code itself never travels. Wrong codes cost the guesser time:
the host checks knocks less often the more wrong ones came (protocol/session/guesses.py). Two
refusals are for now — the table full while it forms, codes not checked now — and a joiner
told one asks again for a while before it takes it as final.

`Hosting` is the host's side of that, `Joining` a joiner's (a seat's or a spectator's); each
is the data of a session's FORMING and SIGNING phases. The session hands it the forming
messages, is told when a proposal stands or is withdrawn (`reached`), and takes the finished
genesis from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.engines import OptionError
from peerboard.protocol.session.effects import Send
from peerboard.protocol.session.events import PeersKnown, Refused, Rejected, Seated, SeatFreed, SeatTaken
from peerboard.protocol.session.guesses import TOTAL_MOST, Guesses
from peerboard.protocol.log import (
    ENDS_TOGETHER, Genesis, Identity, NO_TAKEOVER, PROTOCOL_VERSION, REVEALS_TOGETHER, Seat, SignedGenesis,
    fingerprint, verify,
)
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.messages import Beat, GenesisMessage, Hello, Leave, MessageError, Propose, Refuse, Sign, Want, Welcome
from peerboard.protocol.session.surface import LocalError, SeatInfo
from peerboard.protocol.session.tablecode import knock

#: seconds between repeats of what a forming node said (a lost hello, a lost signature)
REPEAT_EVERY = 2.0
#: seconds of silence after which the host frees a seat (or forgets a spectator) while the
#: table forms: three repeats of the hello, six beats
SEAT_LEASE = 6.0
#: seconds after the proposal within which every seat's signature must have come
SIGN_WITHIN = 6.0
#: spectators a forming table takes (each is sent the genesis when the game starts)
MAX_WATCHERS = 32

PRIVATE = "this table is private: ask its host for the code"
WRONG_CODE = "that is not this private table's code: ask its host for it"
#: the seats are all taken, for now: a joiner asks again until a seat held by a silent node
#: is freed (`FULL_PATIENCE`)
FULL = "the table is full"
#: the host checks no code now (too many wrong ones): a joiner asks again (`CODES_PATIENCE`)
CODES_WAIT = "too many wrong codes were tried at this table: it checks codes again in"
#: how long a joiner refused for now goes on asking: a seat's lease and two repeats of the
#: hello (a seat taken by a node that then went silent is free by then); the longest wait
#: for a code check and two repeats
FULL_PATIENCE = SEAT_LEASE + 3 * REPEAT_EVERY
CODES_PATIENCE = TOTAL_MOST + 3 * REPEAT_EVERY
#: the refusals for now: a reason that is one of these, or one and more words after a space
FOR_NOW = ((FULL, FULL_PATIENCE), (CODES_WAIT, CODES_PATIENCE))
#: the game has started: no seat will be free again
STARTED = f"{FULL}: its game has started"
#: keys remembered as having given a private table's code (their repeated hellos are not
#: checked again, so a wait for codes never refuses a seat already taken)
PROVEN_KEPT = 1024
REMOVED = "the host removed this node from the table"
REMATCH_ONLY = "this table is a rematch: only the seats of the game before play at it"
CLOSED = "the host closed the table"
NOT_WATCHING = ("this table does not admit this node's key to watch: a player must admit it with "
                "--spectator KEY (`peerboard key` prints it) or --spectators-any")

_NO_HEAD = Beat(0, bytes(32)).to_bytes()  # a forming node's beat: it holds no log yet


@dataclass
class Claim:
    """A seat taken at a forming table, as its host keeps it: the hello that took it (the
    latest, if its node said another), when its node was last heard, and whether it has
    been heard again since that hello."""

    hello: Hello
    heard: float  # session time its node was last heard from
    answered: bool = False

    @property
    def key(self) -> bytes:
        return self.hello.key


@dataclass
class Forming:
    """One node's side of a forming table, what the host and a joiner share: the proposal
    and its signatures. `genesis` is set once the table is formed; from then on the session
    plays the game and this object is done."""

    identity: Identity
    #: what this node says in its hello (its role, name, commitments, address and knock)
    local: Hello
    host: bytes
    players: int  # a joiner learns it from the welcome (0 until then)
    options: Mapping[str, Any]
    #: told each milestone of forming as it happens (the session moves its phase by it)
    reached: Callable[[Milestone], None]
    #: spectators' keys and where they listen
    spectators: dict[bytes, str] = field(default_factory=dict)
    seat: int | None = None  # this node's seat once it has one
    proposal: Genesis | None = None
    addrs: tuple[str, ...] = ()
    sigs: dict[int, bytes] = field(default_factory=dict)
    genesis: SignedGenesis | None = None
    repeat_at: float = 0.0
    #: where the message being handled came from: its network address as the node saw it
    #: (the session sets it; "" when not known)
    source: str = ""
    #: a joiner's last refusal for now from the host, while it asks again
    refused_for_now: str | None = None
    _resolved: Mapping[str, Any] | None = field(default=None, repr=False)
    _resolved_for: Genesis | None = field(default=None, repr=False)

    @property
    def key(self) -> bytes:
        return self.local.key

    @property
    def game(self) -> str:
        return self.local.game

    @property
    def table(self) -> bytes:
        return self.local.table

    #: whether this side hands the complete genesis to every seat (the host, who completes it)
    hands_out_genesis = False

    def known_seats(self) -> tuple[tuple[int, str, bytes, str], ...]:
        """(index, name, key, address) of each seat known so far: the proposal's."""
        if self.proposal is None:
            return ()
        return tuple((i, s.name, s.key, a) for i, (s, a) in enumerate(zip(self.proposal.seats, self.addrs)))

    def peers(self) -> list[bytes]:
        """Whom a broadcast goes to while the table forms."""
        return [k for k in dict.fromkeys(self._dealing_with() + list(self.spectators)) if k != self.key]

    def _dealing_with(self) -> list[bytes]:
        """The seats this node deals with (its own key may be among them)."""
        return [s.key for s in self.proposal.seats] if self.proposal is not None else []

    def heard_from(self, sender: bytes, now: float) -> list:
        """A message came from `sender` (the host renews that node's lease)."""
        return []

    def after_message(self, now: float) -> list:
        """What follows from a message just taken, whichever it was (the host may propose)."""
        return []

    def beat(self) -> bytes:
        return _NO_HEAD

    # -- the read-only surface: no game yet -----------------------------------------------------

    @property
    def options_resolved(self) -> Mapping[str, Any]:
        """The proposal's options with every default filled in ({} before a proposal)."""
        g = self.proposal
        if g is None:
            return {}
        if self._resolved_for is not g:
            self._resolved, self._resolved_for = engines.get(g.game).resolve_options(len(g.seats), g.options), g
        return self._resolved

    @property
    def game_name(self) -> str:
        return self.local.game

    log_length = 0
    confirmed_seq = 0
    genesis_hash = None
    result = None

    def connection(self, index: int) -> str:
        return "connected"

    def acked(self, index: int) -> int:
        return 0

    def position(self, confirmed: bool) -> None:
        return None

    def move_records(self) -> tuple:
        return ()

    def chance_records(self) -> tuple:
        return ()

    # -- the proposal and the signatures -----------------------------------------------------

    def on_propose(self, sender: bytes, m: Propose, now: float) -> list:
        if self.proposal == m.genesis:
            return []  # a repeat of what this node already signed
        if sender != self.host:
            raise MessageError("propose: not expected from this sender now")
        g = m.genesis
        mine = [i for i, s in enumerate(g.seats) if s.key == self.key]
        if len(mine) != 1 or self.local.role != "seat":
            raise MessageError("propose: this node has no seat in it")
        seat = mine[0]
        s, asked = g.seats[seat], self.local
        if (s.name, s.chain, s.seed) != (asked.name, asked.chain, asked.seed) or (g.table, g.game) != (self.table, self.game):
            raise MessageError("propose: the proposal misstates this node's seat")
        if g.protocol != PROTOCOL_VERSION or len(m.addrs) != len(g.seats):
            raise MessageError("propose: bad version or addresses")
        try:
            engine = engines.get(g.game)
            engine.new_game(len(g.seats), g.options)
        except OptionError as exc:
            raise MessageError(f"propose: {exc}") from None
        if g.engine != engine.version:
            raise MessageError(f"propose: {g.game} engine version {g.engine}; this node has version {engine.version}")
        if g.takeover is not None and len(g.seats) < 3:
            raise MessageError("propose: a takeover strategy at a table of two seats (no verifier takes that genesis)")
        self.proposal, self.addrs, self.seat, self.players = g, m.addrs, seat, len(g.seats)
        self.reached(Milestone.PROPOSED)
        message = g.signing_bytes()
        # signatures that came before the proposal count if they sign this one
        self.sigs = {i: sig for i, sig in self.sigs.items() if i < len(g.seats) and verify(g.seats[i].key, message, sig)}
        sign = Sign(seat, self.identity.sign(message))
        effects: list = [PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, m.addrs))), Seated(seat, len(g.seats))]
        return effects + self._signed(g, m.addrs, sign) + self.on_sign(self.key, sign, now)

    def _signed(self, g: Genesis, addrs: tuple[str, ...], sign: Sign) -> list:
        """What follows this node's own signature of proposal `g`, besides keeping it."""
        return []

    def on_sign(self, sender: bytes, m: Sign, now: float) -> list:
        g = self.proposal
        if g is None:
            # a seat's signature may outrun the proposal; keep it until the proposal comes
            self.sigs[m.seat] = m.sig
            return []
        if not m.seat < len(g.seats) or g.seats[m.seat].key != sender:
            raise MessageError("sign: the sender does not hold that seat")
        if not verify(sender, g.signing_bytes(), m.sig):
            raise MessageError("sign: bad genesis signature")
        self.sigs[m.seat] = m.sig
        if len(self.sigs) == len(g.seats):
            self.genesis = SignedGenesis(g, tuple(self.sigs[i] for i in range(len(g.seats))))
        return []

    def on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> list:
        """The whole signed genesis: every seat gets it from the host once the host has
        every signature; a spectator, or a seat that missed it, from a node that has it."""
        g = m.genesis.terms
        if g.table != self.table:
            raise MessageError("genesis: not the table this node asked for")
        if m.genesis.bad_signers():
            raise MessageError("genesis: not signed by every seat")
        if self.local.role == "seat" and self.key not in {s.key for s in g.seats}:
            raise MessageError("genesis: this node has no seat in it")
        self.genesis, self.addrs = m.genesis, m.addrs
        return [Send(sender, Want(1).to_bytes())]  # and the entries written since


@dataclass
class Hosting(Forming):
    """The host's side: it gives the seats (seat 0 is its own, unless the table is a
    rematch with its seats in a given order), keeps them leased, and proposes the genesis
    once the table is full of live nodes."""

    #: each seat's claim, by seat (None: free); `seat` is the host's own
    claims: list[Claim | None] = field(default_factory=list)
    #: the key that last held each seat (a key coming back gets its old seat)
    previous: list[bytes | None] = field(default_factory=list)
    #: keys it removed (their hellos are refused from then on)
    banned: set[bytes] = field(default_factory=set)
    #: a private table: its code stretched (protocol/session/tablecode.py); None: open
    stretched: bytes | None = None
    #: when each spectator was last heard
    watchers_heard: dict[bytes, float] = field(default_factory=dict)
    proposed_at: float = 0.0
    #: whether a spectator with that key is admitted (refused at once if not: it is sent
    #: no genesis, no entry)
    may_watch: Callable[[bytes], bool] = lambda key: True
    #: the wrong codes given to a private table, and the back-off they earned
    guesses: Guesses = field(default_factory=Guesses)
    #: keys that gave the right code (newest last)
    proven: dict[bytes, None] = field(default_factory=dict)
    #: a rematch: the key of each seat, in seat order (any other key is refused); None: open
    order: tuple[bytes, ...] | None = None

    @classmethod
    def open(cls, identity: Identity, local: Hello, players: int, options: Mapping[str, Any], now: float,
             reached: Callable[[Milestone], None], stretched: bytes | None = None,
             may_watch: Callable[[bytes], bool] | None = None,
             order: tuple[bytes, ...] | None = None, patience: int | None = None,
             takeover: str | None = None) -> "Hosting":
        """The host's table, with its own seat taken: seat 0, or, for a rematch whose seats
        are the keys `order` in seat order, its key's place there; `patience`: the seconds a seat may be away before the
        others may claim it (in the genesis: spec/protocol.md, "Endings"); `takeover`: the bot strategy
        that plays a claimed seat at three or more seats (in the genesis: "Takeover"; None or "none": none)."""
        seat = 0 if order is None else order.index(local.key)
        hosting = cls(identity, local, local.key, players, dict(options), reached, seat=seat, repeat_at=now,
                      stretched=stretched, order=order)
        hosting.patience = patience
        hosting.takeover = takeover if players >= 3 and takeover != NO_TAKEOVER else None
        if may_watch is not None:
            hosting.may_watch = may_watch
        hosting.claims = [None] * players
        hosting.claims[seat] = Claim(local, now, answered=True)
        hosting.previous = list(order) if order is not None else [local.key] + [None] * (players - 1)
        return hosting

    hands_out_genesis = True
    patience: int | None = None
    takeover: str | None = None

    @property
    def options_resolved(self) -> Mapping[str, Any]:
        """The options with every default filled in."""
        if self._resolved is None:  # (its proposal has these options, and this many seats)
            self._resolved = engines.get(self.game).resolve_options(self.players, self.options)
        return self._resolved

    def known_seats(self) -> tuple[tuple[int, str, bytes, str], ...]:
        """(index, name, key, address) of each seat known so far: the proposal's, else the
        seats given, in seat order (a freed seat leaves a gap)."""
        if self.proposal is not None:
            return super().known_seats()
        return tuple((i, c.hello.name, c.key, c.hello.addr) for i, c in enumerate(self.claims) if c is not None)

    def _dealing_with(self) -> list[bytes]:
        return super()._dealing_with() if self.proposal is not None else [c.key for c in self.claims if c is not None]

    def heard_from(self, sender: bytes, now: float) -> list:
        """A message came from `sender`: it renews that node's lease."""
        for claim in self.claims:
            if claim is not None and claim.key == sender:
                claim.heard = now
                claim.answered = True  # (the hello that takes a seat comes before its claim)
        if sender in self.watchers_heard:
            self.watchers_heard[sender] = now
        return []

    def after_message(self, now: float) -> list:
        """A table full of live seats is proposed, whatever message showed the last one alive."""
        return self.propose_when_full(now)

    def _taken(self, index: int, claim: Claim) -> SeatTaken:
        h = claim.hello
        mine = h.key == self.key
        return SeatTaken(SeatInfo(index, h.name, fingerprint(h.key), h.key, "you" if mine else "connected",
                                  None if mine else claim.heard, h.addr))

    def _seat_of(self, key: bytes) -> int | None:
        return next((i for i, c in enumerate(self.claims) if c is not None and c.key == key), None)

    # -- seats asked for -------------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        if sender == self.key:
            raise MessageError("hello: from this node's own key")
        if m.table != self.table or m.game != self.game:
            return [Send(sender, Refuse(f"this table plays {self.game}, not {m.game}").to_bytes())]
        if sender in self.banned:
            return [Send(sender, Refuse(REMOVED).to_bytes())]
        if self.order is not None and sender not in self.order and m.role == "seat":
            return [Send(sender, Refuse(REMATCH_ONLY).to_bytes())]
        if self.stretched is not None and sender not in self.proven:
            refused = self._code(sender, m, now)
            if refused:
                return refused
        index = self._seat_of(sender)
        if m.role == "spectator":
            if not self.may_watch(sender):
                return [Send(sender, Refuse(NOT_WATCHING).to_bytes())]
            effects = [] if index is None else self._free(index, "left")
            if effects and self.proposal is not None:
                effects += self._withdraw()
            return effects + self._watcher(sender, m, now)
        if index is not None:
            return self._again(index, m, now)
        free = [i for i, c in enumerate(self.claims) if c is None]
        if not free:
            return [Send(sender, Refuse(FULL).to_bytes())]
        self.spectators.pop(sender, None)  # (a spectator asking for a seat after all)
        self.watchers_heard.pop(sender, None)
        index = next((i for i in free if self.previous[i] == sender), None)  # its old seat, if free
        if index is None:
            if self.order is not None:  # (a rematch's seat is its key's: never another's)
                return [Send(sender, Refuse(REMATCH_ONLY).to_bytes())]
            index = free[0]
        claim = self.claims[index] = Claim(m, now)
        self.previous[index] = sender
        return [self._taken(index, claim), Send(sender, Welcome(index, self.players).to_bytes())]

    def _code(self, sender: bytes, m: Hello, now: float) -> list:
        """A private table: the refusal of a hello whose knock is missing or wrong, or that
        comes while codes are not checked (spec/protocol.md, "Private tables"); [] if the
        knock is right. A wrong one is told to the host with the count so far."""
        if m.knock is None:
            return [Send(sender, Refuse(PRIVATE).to_bytes())]
        source = self.source or fingerprint(sender)
        wait = self.guesses.wait(source, now)
        if wait > 0:  # not checked, right or wrong: the guesser learns nothing
            return [Send(sender, Refuse(f"{CODES_WAIT} {wait:.0f} s").to_bytes())]
        if m.knock == knock(self.stretched, sender):
            self.proven[sender] = None
            if len(self.proven) > PROVEN_KEPT:
                del self.proven[next(iter(self.proven))]
            return []
        g = self.guesses
        g.missed(source, now)
        told = Rejected(fingerprint(sender), f"a wrong code for this private table from {source} ({g.wrong} wrong "
                                             f"codes so far, {g.from_source(source)} from there); codes are "
                                             f"checked again in {g.wait(source, now):.0f} s")
        return [told, Send(sender, Refuse(WRONG_CODE).to_bytes())]

    def _again(self, index: int, m: Hello, now: float) -> list:
        """A hello from a node holding a seat: a repeat (it missed our answer or the
        proposal), or a new hello — its node restarted, with new commitments."""
        claim = self.claims[index]
        if claim.hello == m:
            if self.proposal is not None:
                return [Send(m.key, Propose(self.proposal, self.addrs).to_bytes())]
            return [Send(m.key, Welcome(index, self.players).to_bytes())]
        claim.hello = m
        effects: list = [self._taken(index, claim), Send(m.key, Welcome(index, self.players).to_bytes())]
        if self.proposal is not None:
            effects += self._withdraw()  # it misstates that seat now; proposed anew at once
        return effects

    def _watcher(self, sender: bytes, m: Hello, now: float) -> list:
        if sender not in self.spectators and len(self.spectators) >= MAX_WATCHERS:
            return [Send(sender, Refuse(f"this table takes at most {MAX_WATCHERS} spectators before it "
                                        f"starts").to_bytes())]
        self.spectators[sender] = m.addr
        self.watchers_heard[sender] = now
        return [Send(sender, Welcome(-1, self.players).to_bytes())]

    def on_welcome(self, sender: bytes, m: Welcome, now: float) -> list:
        raise MessageError("welcome: not from the host")

    def on_refuse(self, sender: bytes, m: Refuse, now: float) -> list:
        raise MessageError("refuse: not from the host")

    # -- the proposal ----------------------------------------------------------------------------

    def propose_when_full(self, now: float) -> list:
        """While forming: propose once every seat is taken and every node holding one has
        been heard again since its hello."""
        if self.proposal is None and self.genesis is None and all(c is not None and c.answered for c in self.claims):
            return self._propose(now)
        return []

    def _propose(self, now: float) -> list:
        """Every seat is taken: the genesis, to every seat (and to this node itself)."""
        hellos = [c.hello for c in self.claims]
        genesis = Genesis(
            game=self.game, engine=engines.get(self.game).version, options=self.options,
            seats=tuple(Seat(h.name, h.key, h.chain, h.seed) for h in hellos), table=self.table,
            patience=self.patience, takeover=self.takeover, reveals=REVEALS_TOGETHER, ends=ENDS_TOGETHER,
        )
        propose = Propose(genesis, tuple(h.addr for h in hellos))
        self.proposed_at = now
        data = propose.to_bytes()
        return [Send(h.key, data) for h in hellos if h.key != self.key] + self.on_propose(self.key, propose, now)

    def _free(self, index: int, why: str) -> list:
        """Seat `index` is free again (the proposal, if any, is the caller's to withdraw)."""
        claim = self.claims[index]
        self.claims[index] = None
        return [SeatFreed(index, claim.hello.name, fingerprint(claim.key), why)]

    def _withdraw(self) -> list:
        """The proposal no longer stands: forming again. Each remaining seat is welcomed
        anew, which tells it so; the signatures of the old proposal are void."""
        self.proposal, self.addrs, self.sigs = None, (), {}
        self.reached(Milestone.WITHDRAWN)
        return [Send(c.key, Welcome(i, self.players).to_bytes()) for i, c in enumerate(self.claims)
                if c is not None and i != self.seat]

    def remove(self, index: int) -> list:
        """The host removes the node holding seat `index`: it is refused, and so are its
        hellos from now on. LocalError saying why when there is no such seat to remove."""
        if index == self.seat:
            raise LocalError(f"Seat {index} is the host's own; leave the table to close it.")
        if not 0 <= index < self.players or self.claims[index] is None:
            taken = ", ".join(str(i) for i, c in enumerate(self.claims) if c is not None and i != self.seat) or "none"
            raise LocalError(f"Seat {index} is not taken by anyone (seats taken besides yours: {taken}).")
        key = self.claims[index].key
        self.banned.add(key)
        effects = self._free(index, "removed") + [Send(key, Refuse(REMOVED).to_bytes())]
        return effects + (self._withdraw() if self.proposal is not None else [])

    # -- time and leaving ------------------------------------------------------------------------

    def tick(self, now: float) -> list:
        """Free the seats whose lease ran out: silent too long, or (once proposed) no
        signature in time; forget silent spectators; propose if the table is full."""
        effects: list = []
        for i, claim in enumerate(self.claims):
            if i == self.seat or claim is None:
                continue
            silent = now - claim.heard > SEAT_LEASE
            unsigned = self.proposal is not None and i not in self.sigs and now - self.proposed_at > SIGN_WITHIN
            if silent or unsigned:
                effects += self._free(i, "silent")
        if effects and self.proposal is not None:
            effects += self._withdraw()
        for key, heard in list(self.watchers_heard.items()):
            if now - heard > SEAT_LEASE:
                del self.watchers_heard[key]
                self.spectators.pop(key, None)
        return effects + self.propose_when_full(now)

    def on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        """A node leaving cleanly: its seat is free at once, a spectator is served no more."""
        self.spectators.pop(sender, None)
        self.watchers_heard.pop(sender, None)
        index = self._seat_of(sender)
        if index is None or index == self.seat:
            return []
        return self._free(index, "left") + (self._withdraw() if self.proposal is not None else [])


@dataclass
class Joining(Forming):
    """A joiner's side: a seat or a spectator asking the host, told its seat by the
    `welcome`, signing the proposal; it repeats what it said until the game starts."""

    @classmethod
    def ask(cls, identity: Identity, local: Hello, host: bytes, now: float,
            reached: Callable[[Milestone], None]) -> "Joining":
        """It has said hello to `host` and waits for the answer."""
        return cls(identity, local, host, 0, {}, reached, repeat_at=now)

    #: while the host refuses this node for now, this node asks again until then
    asking_until: float | None = None

    def _dealing_with(self) -> list[bytes]:
        return super()._dealing_with() if self.proposal is not None else [self.host]

    def remove(self, index: int) -> list:
        raise LocalError("Only the host of a table can remove a seat.")

    def on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        raise MessageError("hello: this node is not hosting a table")

    def on_welcome(self, sender: bytes, m: Welcome, now: float) -> list:
        if sender != self.host:
            raise MessageError("welcome: not from the host")
        if self.proposal is not None:
            # the host withdrew its proposal (a seat was freed): forming again
            self.proposal, self.addrs, self.sigs = None, (), {}
            self.repeat_at = now
            self.reached(Milestone.WITHDRAWN)
        self.seat = None if m.seat < 0 else m.seat
        self.players = m.players
        self.refused_for_now = self.asking_until = None
        return [Seated(m.seat, m.players)]

    def on_refuse(self, sender: bytes, m: Refuse, now: float) -> list:
        """A refusal; one for now (the table full, codes not checked now) is said once and
        the hello repeated until a welcome, or until its patience runs out (`tick`)."""
        if sender != self.host:
            raise MessageError("refuse: not from the host")
        patience = next((p for reason, p in FOR_NOW if m.reason == reason or m.reason.startswith(reason + " ")), None)
        if patience is None:
            return [Refused(m.reason)]
        self.refused_for_now = m.reason
        if self.asking_until is None:
            self.asking_until = now + patience
            return [Refused(m.reason, again=patience)]
        return []

    def _signed(self, g: Genesis, addrs: tuple[str, ...], sign: Sign) -> list:
        # what this joiner learns of the table: every seat, from the proposal
        taken = [SeatTaken(SeatInfo(i, x.name, fingerprint(x.key), x.key, "you" if x.key == self.key else "connected",
                                    None, a))
                 for i, (x, a) in enumerate(zip(g.seats, addrs))]
        # the host alone completes the genesis (so a withdrawn proposal never becomes a game)
        return taken + [Send(self.host, sign.to_bytes())]

    def tick(self, now: float) -> list:
        """It says again what it said, in case it was lost: its hello to the host and, once
        proposed, its signature."""
        if self.asking_until is not None and now >= self.asking_until:
            # refused for now for as long as it was worth asking: refused
            reason, self.refused_for_now, self.asking_until = self.refused_for_now, None, None
            return [Refused(reason)]
        if now < self.repeat_at:
            return []
        self.repeat_at = now + REPEAT_EVERY
        # the hello, even once proposed: a host that withdrew its proposal answers it with
        # a welcome, so a seat that missed the withdrawal learns of it
        effects = [Send(self.host, self.local.to_bytes())]
        if self.proposal is not None and self.seat in self.sigs:
            effects.append(Send(self.host, Sign(self.seat, self.sigs[self.seat]).to_bytes()))
        return effects

    def on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        """The host leaving closes the table; a spectator is served no more."""
        self.spectators.pop(sender, None)
        return [Refused(CLOSED)] if sender == self.host else []
