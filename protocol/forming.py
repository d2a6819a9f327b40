"""Forming a table: the handshake before the genesis (spec/protocol.md, "Forming a table").

The host hands out seats to the nodes that say `hello`, in the order they come, and answers
each with `welcome` (or `refuse`); once every seat is taken it proposes the genesis. Every
seat checks that the proposal states its own seat exactly as it asked, signs it and sends
its signature to every seat; a node that holds every signature has the genesis, and the
session (protocol/session.py) starts the game with it. A spectator is welcomed with seat -1
and gets the genesis once the game starts. Lost messages are repaired by repetition (`tick`).

`Forming` is one node's side of that, for the host and for a joiner alike; the session
hands it the forming messages and takes the finished genesis from it. The host keeps each
seat taken as a `Claim`, with when its node was last heard (what a lease on the seat would
go by).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import engines
from engines import OptionError
from protocol.effects import Send
from protocol.events import PeersKnown, Refused, Seated
from protocol.identity import Identity, verify
from protocol.messages import GenesisMessage, Hello, Leave, MessageError, Propose, Refuse, Sign, Want, Welcome
from protocol.records import Genesis, Seat, SignedGenesis
from protocol.schema import PROTOCOL_VERSION

#: seconds between repeats of what a forming node said (a lost hello, a lost signature)
REPEAT_EVERY = 2.0


@dataclass
class Claim:
    """A seat taken at a forming table, as its host keeps it."""

    hello: Hello
    heard: float  # session time its node was last heard from

    @property
    def key(self) -> bytes:
        return self.hello.key


@dataclass
class Forming:
    """One node's side of a forming table: the host's (it gives the seats and proposes) or
    a joiner's (a seat or a spectator asking the host). `genesis` is set once the table is
    formed; from then on the session plays the game and this object is done."""

    identity: Identity
    #: what this node says in its hello (its role, name, commitments and address)
    local: Hello
    host: bytes
    players: int  # a joiner learns it from the welcome (0 until then)
    options: Mapping[str, Any]
    #: the host's: every seat taken, in seat order (seat 0 is the host's own)
    claims: list[Claim] = field(default_factory=list)
    #: spectators' keys and where they listen
    spectators: dict[bytes, str] = field(default_factory=dict)
    seat: int | None = None  # this node's seat once it has one
    proposal: Genesis | None = None
    addrs: tuple[str, ...] = ()
    sigs: dict[int, bytes] = field(default_factory=dict)
    genesis: SignedGenesis | None = None
    repeat_at: float = 0.0

    @classmethod
    def open(cls, identity: Identity, local: Hello, players: int, options: Mapping[str, Any], now: float) -> "Forming":
        """The host's table, with its own seat 0 taken."""
        forming = cls(identity, local, local.key, players, dict(options), seat=0, repeat_at=now)
        forming.claims.append(Claim(local, now))
        return forming

    @classmethod
    def ask(cls, identity: Identity, local: Hello, host: bytes, now: float) -> "Forming":
        """A joiner's side: it has said hello to `host` and waits for the answer."""
        return cls(identity, local, host, 0, {}, repeat_at=now)

    @property
    def key(self) -> bytes:
        return self.local.key

    @property
    def hosting(self) -> bool:
        return self.host == self.key

    @property
    def game(self) -> str:
        return self.local.game

    @property
    def table(self) -> bytes:
        return self.local.table

    def seats(self) -> tuple[tuple[str, bytes], ...]:
        """(name, key) of each seat known so far: the proposal's, else the seats the host
        has given (a joiner knows none before the proposal)."""
        if self.proposal is not None:
            return tuple((s.name, s.key) for s in self.proposal.seats)
        return tuple((c.hello.name, c.key) for c in self.claims)

    def peers(self) -> list[bytes]:
        """Whom a broadcast goes to while the table forms (this node's own key included)."""
        if self.proposal is not None:
            keys = [s.key for s in self.proposal.seats]
        elif self.hosting:
            keys = [c.key for c in self.claims]
        else:
            keys = [self.host]
        return keys + list(self.spectators)

    def heard(self, sender: bytes, now: float) -> None:
        for claim in self.claims:
            if claim.key == sender:
                claim.heard = now

    # -- the host's side ---------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        if not self.hosting:
            raise MessageError("hello: this node is not hosting a table")
        if m.table != self.table or m.game != self.game:
            return [Send(sender, Refuse(f"this table plays {self.game}, not {m.game}").to_bytes())]
        if m.role == "spectator":
            self.spectators[sender] = m.addr
            return [Send(sender, Welcome(-1, self.players).to_bytes())]
        for i, claim in enumerate(self.claims):
            if claim.key == sender:  # asked again: it missed our answer (or the proposal)
                effects = [Send(sender, Welcome(i, self.players).to_bytes())]
                if self.proposal is not None:
                    effects.append(Send(sender, Propose(self.proposal, self.addrs).to_bytes()))
                return effects
        if len(self.claims) >= self.players:
            return [Send(sender, Refuse("the table is full").to_bytes())]
        self.claims.append(Claim(m, now))
        effects: list = [Send(sender, Welcome(len(self.claims) - 1, self.players).to_bytes())]
        if len(self.claims) == self.players:
            effects += self._propose(now)
        return effects

    def _propose(self, now: float) -> list:
        """Every seat is taken: the genesis, to every seat (and to this node itself)."""
        hellos = [c.hello for c in self.claims]
        genesis = Genesis(
            game=self.game, engine=engines.get(self.game).version, options=self.options,
            seats=tuple(Seat(h.name, h.key, h.chain, h.seed) for h in hellos), table=self.table,
        )
        propose = Propose(genesis, tuple(h.addr for h in hellos))
        data = propose.to_bytes()
        return [Send(h.key, data) for h in hellos[1:]] + self.on_propose(self.key, propose, now)

    # -- a joiner's side ---------------------------------------------------------------------

    def on_welcome(self, sender: bytes, m: Welcome, now: float) -> list:
        if sender != self.host:
            raise MessageError("welcome: not from the host")
        self.seat = None if m.seat < 0 else m.seat
        self.players = m.players
        return [Seated(m.seat, m.players)]

    def on_refuse(self, sender: bytes, m: Refuse, now: float) -> list:
        if sender != self.host:
            raise MessageError("refuse: not from the host")
        return [Refused(m.reason)]

    # -- every seat: the proposal and the signatures ------------------------------------------

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
        self.proposal, self.addrs, self.seat, self.players = g, m.addrs, seat, len(g.seats)
        message = g.signing_bytes()
        # signatures that came before the proposal count if they sign this one
        self.sigs = {i: sig for i, sig in self.sigs.items() if i < len(g.seats) and verify(g.seats[i].key, message, sig)}
        sign = Sign(seat, self.identity.sign(message))
        effects: list = [PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, m.addrs))), Seated(seat, len(g.seats))]
        data = sign.to_bytes()
        effects += [Send(s.key, data) for s in g.seats if s.key != self.key]
        return effects + self.on_sign(self.key, sign, now)

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
        """The whole signed genesis: a seat that missed a signature, or a spectator, gets
        it from a node that has it."""
        g = m.genesis.genesis
        if g.table != self.table:
            raise MessageError("genesis: not the table this node asked for")
        if m.genesis.bad_signers():
            raise MessageError("genesis: not signed by every seat")
        if self.local.role == "seat" and self.key not in {s.key for s in g.seats}:
            raise MessageError("genesis: this node has no seat in it")
        self.genesis, self.addrs = m.genesis, m.addrs
        return [Send(sender, Want(1).to_bytes())]  # and the entries written since

    # -- time ---------------------------------------------------------------------------------

    def tick(self, now: float) -> list:
        """Say again what this node said, in case it was lost: a hello to the host, its
        genesis signature to every seat."""
        if now < self.repeat_at:
            return []
        self.repeat_at = now + REPEAT_EVERY
        effects: list = []
        if not self.hosting:
            effects.append(Send(self.host, self.local.to_bytes()))
        if self.proposal is not None and self.seat in self.sigs:
            sign = Sign(self.seat, self.sigs[self.seat]).to_bytes()
            effects += [Send(s.key, sign) for s in self.proposal.seats if s.key != self.key]
        return effects

    def on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        """A node leaving cleanly: a spectator is served no more."""
        self.spectators.pop(sender, None)
        return []
