"""What every part of a game under way shares (spec/protocol.md, "The session"): the genesis,
the seats and their keys, the seats this node writes for, the log it holds and the ledger
that log leads to, the acks counted over it, the spectators it serves, and how to reach them
all. `Play` (protocol/session/play.py) is a `Table`; the parts of the game that hold their
own state — acks (acks.py), catch-up (catchup.py), endings (endings.py, claims.py),
liveness (liveness.py) — are each given the table they work on. The read-only surface the
session shows (`position`, `acked`, `connection` ...) reads the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.protocol.log import Entry, Identity, Ledger, SeatSecrets, SignedGenesis
from peerboard.protocol.session.author import Author
from peerboard.protocol.session.authors import Authors
from peerboard.protocol.session.confirmation import Confirmations
from peerboard.protocol.session.effects import Effects, Send
from peerboard.protocol.session.events import Event
from peerboard.protocol.session.messages import Beat, Message
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.surface import ChanceRecord, MoveList, MoveRecord, Phase, Position


@dataclass(frozen=True)
class Referee:
    """What a game asks of the session that referees it: the phase it is in, a milestone
    reached (the game ended), a halt (a desync, an equivocation), and a sender's fault (said,
    and counted against it). The session alone moves the phase and keeps the strikes."""

    phase: Callable[[], Phase]
    reach: Callable[[Milestone], None]  # the game ended
    halt: Callable[[Event], Effects]  # a desync or an equivocation: the session halts
    reject: Callable[[bytes, str], Effects]  # the sender's fault: said, and counted against it


class Table:
    """One node's view of a game from its genesis on: the state its parts share."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
                 genesis: SignedGenesis, addrs: tuple[str, ...], ledger: Ledger, seat: int | None,
                 spectators: Mapping[bytes, str], referee: Referee, may_watch: Callable[[bytes], bool]):
        g = genesis.terms
        self.may_watch = may_watch
        self.identity = identity
        self.key = identity.public_key
        self.random = random
        self.referee = referee
        self.genesis = genesis
        self.addrs = addrs
        self.seat = seat  # None: a spectator
        #: the seats this node writes for: its own, and those it runs taken over
        self.authors = Authors(seat, identity, None if seat is None or secrets is None else Author(seat, secrets))
        #: the local seat's author (`authors.own`, kept here too: it is asked for at every
        #: step): None for a spectator, or once the seat is gone for good (`gone_for_good`)
        self.author: Author | None = self.authors.own
        self.seats: dict[bytes, int] = {s.key: i for i, s in enumerate(g.seats)}  # seat key -> seat
        self.seat_keys: tuple[bytes, ...] = tuple(s.key for s in g.seats)  # by seat
        #: the log held, the ledger it leads to, the ledger at each seq not yet confirmed, and
        #: the one at the last confirmed entry
        self.entries: list[Entry] = []
        self.ledger = ledger
        self.ledgers: dict[int, Ledger] = {}
        self.confirmed_ledger = ledger
        self.acks = Confirmations(len(g.seats), seat)
        self.moves = MoveList(ledger.game)
        self.spectators: dict[bytes, str] = dict(spectators)
        self.broadcast_keys: list[bytes] | None = None
        self._options: Mapping[str, Any] | None = None

    @property
    def players(self) -> int:
        return len(self.seat_keys)

    def gone_for_good(self) -> None:
        """The local seat is claimed: it writes nothing more, and watches the rest as a spectator."""
        self.authors.own = self.author = None

    # -- reaching the others ------------------------------------------------------------------------

    def peers(self) -> list[bytes]:
        """Everyone a broadcast goes to: the other seats and the spectators this node serves."""
        if self.broadcast_keys is None:  # worked out again once the spectators change
            keys = list(self.seats) + list(self.spectators)
            self.broadcast_keys = [k for k in dict.fromkeys(keys) if k != self.key]
        return self.broadcast_keys

    def broadcast(self, message: Message) -> Effects:
        data = message.to_bytes()
        return [Send(k, data) for k in self.peers()]

    def send_seats(self, message: Message) -> Effects:
        """`message` to every other seat (not to the spectators)."""
        data = message.to_bytes()
        return [Send(k, data) for k in self.seat_keys if k != self.key]

    def beat(self) -> bytes:
        head = self.entries[-1].hash if self.entries else self.genesis.hash
        return Beat(len(self.entries), head).to_bytes()

    # -- who holds which seat ---------------------------------------------------------------------------

    def node_of(self, seat: int) -> bytes:
        """The key of the node that holds seat `seat` now: its own, or, taken over, its
        runner's (spec/protocol.md, "Takeover")."""
        for taken, _, runner in self.ledger.taken:  # (`authors.node_of`, without its call: every ack asks)
            if taken == seat:
                return self.seat_keys[runner]
        return self.seat_keys[seat]

    def key_at(self, seq: int, seat: int) -> bytes:
        """The key seat `seat` signs entry `seq` with: its genesis key, or its takeover's."""
        key = self.seat_keys[seat]
        for taken, at, _ in self.ledger.taken:
            if taken == seat and seq > at:
                key = self.ledger.keys[seat]
        return key

    def silent(self) -> set[int]:
        """The seats whose acks do not count (`is_silent`)."""
        return {seat for seat in range(self.players) if self.is_silent(seat)}

    def is_silent(self, seat: int) -> bool:
        """Whether seat `seat`'s acks do not count: gone for good, claimed with a takeover
        due, or taken over (its runner acks as itself)."""
        ledger = self.ledger
        return seat in ledger.gone or seat in ledger.taken_seats or (ledger.pending is not None and ledger.pending[0] == seat)

    # -- the read-only surface ------------------------------------------------------------------------

    refused_for_now = None  # (the table has formed)

    @property
    def game_name(self) -> str:
        return self.genesis.terms.game

    @property
    def log_length(self) -> int:
        return len(self.entries)

    @property
    def confirmed_seq(self) -> int:
        return self.acks.confirmed

    @property
    def genesis_hash(self) -> bytes:
        return self.genesis.hash

    @property
    def options_resolved(self) -> Mapping[str, Any]:
        if self._options is None:
            g = self.genesis.terms
            self._options = engines.get(g.game).resolve_options(len(g.seats), g.options)
        return self._options

    @property
    def table(self) -> bytes:
        return self.genesis.terms.table

    def known_seats(self) -> tuple[tuple[int, str, bytes, str], ...]:
        """(index, name, key, address) of every seat, from the genesis."""
        addrs = self.addrs
        return tuple((i, s.name, s.key, addrs[i] if i < len(addrs) else "")
                     for i, s in enumerate(self.genesis.terms.seats))

    def acked(self, index: int) -> int:
        return self.acks.acked[index] if 0 <= index < len(self.acks.acked) else 0

    def position(self, confirmed: bool) -> Position:
        ledger = self.confirmed_ledger if confirmed else self.ledger
        live = self.referee.phase() is Phase.PLAYING and not ledger.finished
        return Position(ledger.next_seq - 1, ledger.state, ledger.entitled() if live else None)

    def options_for(self, kind: str) -> tuple[Any, ...]:
        author = self.author
        assert author is not None  # (asked only of a seat that must decide)
        return author.options(self.ledger, kind)

    def move_records(self) -> tuple[MoveRecord, ...]:
        return self.moves.records(self.acks.confirmed)

    def chance_records(self) -> tuple[ChanceRecord, ...]:
        return self.moves.chance_records()
