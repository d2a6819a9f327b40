"""What a session asks of its node, as plain data, and the one runner that carries it out
(spec/protocol.md, "Effects").

Every input of a session returns a list of effects to carry out **in order**: `Send` bytes to
a peer; `Store` an entry (append it, and fsync *before* any later effect unless it says
`sync=False`); `Sync` (fsync what was appended); `Unstore` (take back the last entry
appended); `StoreGenesis`; `StoreChoice`; `StoreClaim`; `NextGame` (a rematch begins: the node
starts the next game's session); and events for the client. Two effects hand work
back to the session: `TakeOwnEntry` right where it stands (after the effects before it), and
`NextStep` once the messages already waiting have been taken.

`EffectRunner` is the one interpreter of that list, deferral included. The node
(node/loop.py) and the simulated network (tests/support/simnet.py) each give it their I/O as an
`EffectIO`, so a simulated game runs exactly the path a real one does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, TypeAlias, Union

from peerboard.engines import Action
from peerboard.protocol.log import Entry, Ledger, SignedGenesis
from peerboard.protocol.session.events import Event

#: the session's next step waits for at most this many polls that found input waiting
IDLE_AFTER_POLLS = 4


@dataclass(frozen=True)
class Send:
    to: bytes  # the peer's public key
    data: bytes


@dataclass(frozen=True)
class Store:
    """Append `entry` to the game's log and fsync before any later effect is carried out;
    with `sync=False` only append (written, so it outlives this process, but not yet on the
    disk: a `Sync` follows)."""

    entry: Entry
    sync: bool = True


@dataclass(frozen=True)
class Sync:
    """Fsync what was appended before any later effect is carried out."""


@dataclass(frozen=True)
class Unstore:
    """Take back `entry`, the last one appended: the local seat's own move, written and
    sent before it was re-run, that the re-run refused; never acked."""

    entry: Entry


@dataclass(frozen=True)
class SetAside:
    """Take back the last entries appended, from `entries[0]` on — the claimed seat's own,
    never accepted by any other seat, replaced by the claim of that seat — keeping them in a
    file beside the log first (spec/protocol.md, "Endings")."""

    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class StoreGenesis:
    genesis: SignedGenesis
    addrs: tuple[str, ...]


@dataclass(frozen=True)
class StoreChoice:
    """Keep the local seat's committed secret choice (and nonce) across a crash."""

    actions: tuple[Action, ...]  # (actions are tuples: spec/engine-contract.md)
    nonce: bytes


@dataclass(frozen=True)
class StoreClaim:
    """Keep, before it is sent, that the local seat signed the claim of seat `gone` at entry
    `seq` after `prev` (protocol/session/claims.py: a restarted seat must remember it)."""

    gone: int
    seq: int
    prev: bytes


@dataclass(frozen=True)
class NextGame:
    """Every seat said yes to a rematch, and the new table is `table` (spec/protocol.md,
    "Rematch"): this node's game is over here, and its next one begins — the node starts
    the session `Session.next_game` gives it (this node hosts the new table when `host` is
    its own key; otherwise it joins it at `host`'s node, last heard at `address`)."""

    table: bytes
    host: bytes
    address: str


@dataclass(frozen=True)
class TakeOwnEntry:
    """The local seat's `entry` is written and sent: hand it back to the session right here
    (`Session.follow`), which takes it into its ledger — `checked`, the ledger it ends, when it
    was checked before it left — then has it fsynced and acks it."""

    entry: Entry
    checked: Ledger | None


@dataclass(frozen=True)
class NextStep:
    """The session's own next step — an entry its seat owes by itself, or the prompt for a
    decision: hand it back to the session (`Session.follow`) once the messages already
    waiting have been taken, so the stores and acks before it leave first, the acks that
    arrived meanwhile confirm first, and no peer waits for it. Once is enough: the session
    looks at where the game stands then."""


#: what a session hands its node: something to do, or an event to tell the client
Effect: TypeAlias = Union[Send, Store, Sync, Unstore, SetAside, StoreGenesis, StoreChoice, StoreClaim, NextGame, TakeOwnEntry,
               NextStep, Event]
#: the session's own work, handed back to it (`Session.follow`)
Step: TypeAlias = Union[TakeOwnEntry, NextStep]
#: what every input of a session returns: effects to carry out in order
Effects: TypeAlias = list[Effect]


class EffectIO(Protocol):
    """The I/O a runner carries effects out with (node/loop.py; tests/support/simnet.py)."""

    def send(self, to: bytes, data: bytes) -> None: ...

    def store(self, entry: Entry, sync: bool) -> None: ...

    def sync(self) -> None: ...

    def unstore(self, entry: Entry) -> None: ...

    def set_aside(self, entries: tuple[Entry, ...]) -> None: ...

    def store_genesis(self, genesis: SignedGenesis, addrs: tuple[str, ...]) -> None: ...

    def store_choice(self, actions: tuple[Action, ...], nonce: bytes) -> None: ...

    def store_claim(self, gone: int, seq: int, prev: bytes) -> None: ...

    def next_game(self, table: bytes, host: bytes, address: str) -> None: ...

    def event(self, event: Event) -> None: ...


class EffectRunner:
    """Carries out one session's effects in order through `io`, handing the session's own
    steps back to it through `follow` (`Session.follow`). A `NextStep` waits until `polled`
    says the input waiting has been taken (or `IDLE_AFTER_POLLS` polls found more)."""

    def __init__(self, follow: Callable[[Step], Effects], io: EffectIO):
        self.follow = follow
        self.io = io
        self._deferred: list[NextStep] = []
        self._waited = 0
        #: whether a step waits for the input to be taken (then the node polls without
        #: waiting): a field, not a property, as the node asks after every message
        self.pending = False

    def carry_out(self, effects: Effects) -> None:
        """Carry out `effects` in order (a `TakeOwnEntry` at once, a `NextStep` later: `polled`)."""
        io = self.io
        # (an isinstance chain, the commonest first: a match statement of class patterns
        # costs twice as much, and this runs for every effect of every message)
        for effect in effects:
            if isinstance(effect, Send):
                io.send(effect.to, effect.data)
            elif isinstance(effect, Event):
                io.event(effect)
            elif isinstance(effect, Store):
                io.store(effect.entry, effect.sync)
            elif isinstance(effect, Sync):
                io.sync()
            elif isinstance(effect, TakeOwnEntry):
                self.carry_out(self.follow(effect))
            elif isinstance(effect, NextStep):
                if effect not in self._deferred:
                    self._deferred.append(effect)
                    self.pending = True
            elif isinstance(effect, Unstore):
                io.unstore(effect.entry)
            elif isinstance(effect, SetAside):
                io.set_aside(effect.entries)
            elif isinstance(effect, StoreGenesis):
                io.store_genesis(effect.genesis, effect.addrs)
            elif isinstance(effect, StoreChoice):
                io.store_choice(effect.actions, effect.nonce)
            elif isinstance(effect, StoreClaim):
                io.store_claim(effect.gone, effect.seq, effect.prev)
            elif isinstance(effect, NextGame):
                io.next_game(effect.table, effect.host, effect.address)
            else:
                raise TypeError(f"{effect!r} is not an effect")

    def polled(self, busy: bool) -> None:
        """The node took what input there was (`busy`: there was some): the deferred steps
        run now, unless more input may be waiting and they have not waited long enough."""
        if not self._deferred:
            return
        self._waited += 1
        if busy and self._waited <= IDLE_AFTER_POLLS:
            return
        steps, self._deferred, self._waited, self.pending = self._deferred, [], 0, False
        for step in steps:
            self.carry_out(self.follow(step))
