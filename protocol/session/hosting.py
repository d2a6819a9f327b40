"""The host's side of a forming table (spec/protocol.md, "Forming a table", "Private
tables"): it gives the seats and keeps them leased, checks a private table's knocks (and
backs off wrong codes: protocol/session/guesses.py), admits the spectators its node admits,
proposes the genesis once the table is full of live nodes, withdraws a proposal that lost a
seat, and hands every seat the genesis once it holds every signature. What it shares with a
joiner's side is protocol/session/forming.py's `Forming`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import Rejected, SeatFreed, SeatTaken
from peerboard.protocol.session.guesses import Guesses
from peerboard.protocol.log import ENDS_TOGETHER, Genesis, Identity, NO_TAKEOVER, REVEALS_TOGETHER, SeatRecord, fingerprint
from peerboard.protocol.session.forming import MAX_WATCHERS, PROVEN_KEPT, SEAT_LEASE, SIGN_WITHIN, Lease, Forming
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.refusals import (
    CODES_WAIT, FULL, NOT_WATCHING, PRIVATE, REMATCH_ONLY, REMOVED, WRONG_CODE,
)
from peerboard.protocol.session.messages import Hello, Leave, MessageError, Propose, Refuse, Welcome
from peerboard.protocol.session.surface import LocalError, SeatInfo
from peerboard.protocol.session.tablecode import knock


@dataclass
class Hosting(Forming):
    """The host's side: it gives the seats (seat 0 is its own, unless the table is a
    rematch with its seats in a given order), keeps them leased, and proposes the genesis
    once the table is full of live nodes."""

    #: each seat's lease, by seat (None: free); `seat` is the host's own
    leases: list[Lease | None] = field(default_factory=list)
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
        hosting.leases = [None] * players
        hosting.leases[seat] = Lease(local, now, answered=True)
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
        return tuple((i, c.hello.name, c.key, c.hello.addr) for i, c in enumerate(self.leases) if c is not None)

    def _dealing_with(self) -> list[bytes]:
        return super()._dealing_with() if self.proposal is not None else [c.key for c in self.leases if c is not None]

    def heard_from(self, sender: bytes, now: float) -> Effects:
        """A message came from `sender`: it renews that node's lease."""
        for lease in self.leases:
            if lease is not None and lease.key == sender:
                lease.heard = now
                lease.answered = True  # (the hello that takes a seat comes before its lease)
        if sender in self.watchers_heard:
            self.watchers_heard[sender] = now
        return []

    def after_message(self, now: float) -> Effects:
        """A table full of live seats is proposed, whatever message showed the last one alive."""
        return self.propose_when_full(now)

    def _taken(self, index: int, lease: Lease) -> SeatTaken:
        h = lease.hello
        mine = h.key == self.key
        return SeatTaken(SeatInfo(index, h.name, fingerprint(h.key), h.key, "you" if mine else "connected",
                                  None if mine else lease.heard, h.addr))

    def _seat_of(self, key: bytes) -> int | None:
        return next((i for i, c in enumerate(self.leases) if c is not None and c.key == key), None)

    # -- seats asked for -------------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> Effects:
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
        free = [i for i, c in enumerate(self.leases) if c is None]
        if not free:
            return [Send(sender, Refuse(FULL).to_bytes())]
        self.spectators.pop(sender, None)  # (a spectator asking for a seat after all)
        self.watchers_heard.pop(sender, None)
        index = next((i for i in free if self.previous[i] == sender), None)  # its old seat, if free
        if index is None:
            if self.order is not None:  # (a rematch's seat is its key's: never another's)
                return [Send(sender, Refuse(REMATCH_ONLY).to_bytes())]
            index = free[0]
        lease = self.leases[index] = Lease(m, now)
        self.previous[index] = sender
        return [self._taken(index, lease), Send(sender, Welcome(index, self.players).to_bytes())]

    def _code(self, sender: bytes, m: Hello, now: float) -> Effects:
        """A private table: the refusal of a hello whose knock is missing or wrong, or that
        comes while codes are not checked (spec/protocol.md, "Private tables"); [] if the
        knock is right. A wrong one is told to the host with the count so far."""
        if m.knock is None:
            return [Send(sender, Refuse(PRIVATE).to_bytes())]
        source = self.source or fingerprint(sender)
        wait = self.guesses.wait(source, now)
        if wait > 0:  # not checked, right or wrong: the guesser learns nothing
            return [Send(sender, Refuse(f"{CODES_WAIT} {wait:.0f} s").to_bytes())]
        assert self.stretched is not None  # (asked only at a private table: `on_hello`)
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

    def _again(self, index: int, m: Hello, now: float) -> Effects:
        """A hello from a node holding a seat: a repeat (it missed our answer or the
        proposal), or a new hello — its node restarted, with new commitments."""
        lease = self.leases[index]
        assert lease is not None  # (`index` is the seat this node holds)
        if lease.hello == m:
            if self.proposal is not None:
                return [Send(m.key, Propose(self.proposal, self.addrs).to_bytes())]
            return [Send(m.key, Welcome(index, self.players).to_bytes())]
        lease.hello = m
        effects: Effects = [self._taken(index, lease), Send(m.key, Welcome(index, self.players).to_bytes())]
        if self.proposal is not None:
            effects += self._withdraw()  # it misstates that seat now; proposed anew at once
        return effects

    def _watcher(self, sender: bytes, m: Hello, now: float) -> Effects:
        if sender not in self.spectators and len(self.spectators) >= MAX_WATCHERS:
            return [Send(sender, Refuse(f"this table takes at most {MAX_WATCHERS} spectators before it "
                                        f"starts").to_bytes())]
        self.spectators[sender] = m.addr
        self.watchers_heard[sender] = now
        return [Send(sender, Welcome(-1, self.players).to_bytes())]

    def on_welcome(self, sender: bytes, m: Welcome, now: float) -> Effects:
        raise MessageError("welcome: not from the host")

    def on_refuse(self, sender: bytes, m: Refuse, now: float) -> Effects:
        raise MessageError("refuse: not from the host")

    # -- the proposal ----------------------------------------------------------------------------

    def propose_when_full(self, now: float) -> Effects:
        """While forming: propose once every seat is taken and every node holding one has
        been heard again since its hello."""
        if self.proposal is None and self.genesis is None and all(c is not None and c.answered for c in self.leases):
            return self._propose(now)
        return []

    def _propose(self, now: float) -> Effects:
        """Every seat is taken: the genesis, to every seat (and to this node itself)."""
        leases = [c for c in self.leases if c is not None]
        assert len(leases) == len(self.leases)  # (`propose_when_full`: every seat is taken)
        hellos = [c.hello for c in leases]
        genesis = Genesis(
            game=self.game, engine=engines.get(self.game).version, options=self.options,
            seats=tuple(SeatRecord(h.name, h.key, h.chain, h.seed) for h in hellos), table=self.table,
            patience=self.patience, takeover=self.takeover, reveals=REVEALS_TOGETHER, ends=ENDS_TOGETHER,
        )
        propose = Propose(genesis, tuple(h.addr for h in hellos))
        self.proposed_at = now
        data = propose.to_bytes()
        return [Send(h.key, data) for h in hellos if h.key != self.key] + self.on_propose(self.key, propose, now)

    def _free(self, index: int, why: str) -> Effects:
        """Seat `index` is free again (the proposal, if any, is the caller's to withdraw)."""
        lease = self.leases[index]
        assert lease is not None  # (the callers free a seat that is taken)
        self.leases[index] = None
        return [SeatFreed(index, lease.hello.name, fingerprint(lease.key), why)]

    def _withdraw(self) -> Effects:
        """The proposal no longer stands: forming again. Each remaining seat is welcomed
        anew, which tells it so; the signatures of the old proposal are void."""
        self.proposal, self.addrs, self.sigs = None, (), {}
        self.reached(Milestone.WITHDRAWN)
        return [Send(c.key, Welcome(i, self.players).to_bytes()) for i, c in enumerate(self.leases)
                if c is not None and i != self.seat]

    def remove(self, index: int) -> Effects:
        """The host removes the node holding seat `index`: it is refused, and so are its
        hellos from now on. LocalError saying why when there is no such seat to remove."""
        if index == self.seat:
            raise LocalError(f"Seat {index} is the host's own; leave the table to close it.")
        if not 0 <= index < self.players or self.leases[index] is None:
            taken = ", ".join(str(i) for i, c in enumerate(self.leases) if c is not None and i != self.seat) or "none"
            raise LocalError(f"Seat {index} is not taken by anyone (seats taken besides yours: {taken}).")
        lease = self.leases[index]
        assert lease is not None  # (just above)
        key = lease.key
        self.banned.add(key)
        effects = self._free(index, "removed") + [Send(key, Refuse(REMOVED).to_bytes())]
        return effects + (self._withdraw() if self.proposal is not None else [])

    # -- time and leaving ------------------------------------------------------------------------

    def tick(self, now: float) -> Effects:
        """Free the seats whose lease ran out: silent too long, or (once proposed) no
        signature in time; forget silent spectators; propose if the table is full."""
        effects: Effects = []
        for i, lease in enumerate(self.leases):
            if i == self.seat or lease is None:
                continue
            silent = now - lease.heard > SEAT_LEASE
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

    def on_leave(self, sender: bytes, m: Leave, now: float) -> Effects:
        """A node leaving cleanly: its seat is free at once, a spectator is served no more."""
        self.spectators.pop(sender, None)
        self.watchers_heard.pop(sender, None)
        index = self._seat_of(sender)
        if index is None or index == self.seat:
            return []
        return self._free(index, "left") + (self._withdraw() if self.proposal is not None else [])
