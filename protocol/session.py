"""The consensus session: one node's side of a game, sans-IO (spec/protocol.md).

Feed it what arrives — `receive(sender, data, now)` — what the local player decides —
`submit(actions, now)` — and the passing of time — `tick(now)`; each returns the effects for
the node to carry out **in order**: `Send` bytes to a peer, `Store` an entry (append it, and
fsync *before* carrying out any effect after it unless it says `sync=False`), `Sync` (fsync
what was appended), `Unstore` (take back the last entry appended), `StoreGenesis`,
`StoreChoice`, `Then` (call its `work()` and carry out what that returns), and `Event`s for
the client. It never touches a socket, a file or a clock, and nothing a peer sends can make
it raise: bad input becomes a `Rejected` event with the reason.

The session forms the table (hello, propose, sign), then keeps the game's chain: it accepts
an entry only when the chain accepts it (signature, position, entitlement, legality), stores
it, acks it with the state hash, confirms it when every seat's ack agrees, halts with a report
on a differing hash or a proven equivocation, writes its own seat's entries (reveals,
commitments, the audit, the result) by itself, gossips heads and serves missing entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import engines
from engines import OptionError
from protocol.chain import ChainError, GameChain
from protocol.identity import Identity, fingerprint, verify
from protocol.messages import (
    Ack, Beat, EntryMessage, GenesisMessage, Hello, Leave, Message, MessageError, Proof, Propose,
    Refuse, Sign, Want, Welcome, decode_message,
)
from protocol.records import PROTOCOL_VERSION, Entry, Genesis, Seat, SignedGenesis, make_entry
from protocol.secrets import SeatSecrets, choice_digest, node_entropy

BEAT_EVERY = 1.0  # seconds between heartbeats (each carries the head)
AWAY_AFTER = 5.0  # a seat silent this long is shown as away
BATCH = 64  # entries served per request
AHEAD_WINDOW = 256  # entries buffered beyond the next expected one
STRIKES_TO_IGNORE = 50  # a peer that sent this many bad messages is no longer read


# -- effects -----------------------------------------------------------------------------------


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
    sent before it was re-run (`Session._write`), that the re-run refused; never acked."""

    entry: Entry


@dataclass(frozen=True)
class StoreGenesis:
    genesis: SignedGenesis
    addrs: tuple[str, ...]


@dataclass(frozen=True)
class Then:
    """Call `work()` and carry out the effects it returns right here, in order — or, if
    `idle`, once the messages already waiting have been taken (the node may do it in place
    too). The session's own next step — an entry its seat owes by itself, or the prompt for
    a decision — comes `idle`, so the stores and acks before it leave first, the acks that
    arrived meanwhile confirm first, and no peer waits for it."""

    work: Callable[[], list]
    idle: bool = False


@dataclass(frozen=True)
class StoreChoice:
    """Keep the local seat's committed secret choice (and nonce) across a crash."""

    actions: tuple
    nonce: bytes


class Event:
    """Something the client (or the person) should know."""


@dataclass(frozen=True)
class Seated(Event):
    seat: int  # -1: watching as a spectator
    players: int


@dataclass(frozen=True)
class PeersKnown(Event):
    """Where every seat listens (the node connects to them)."""

    peers: tuple[tuple[bytes, str], ...]


@dataclass(frozen=True)
class GameStarted(Event):
    genesis: SignedGenesis


@dataclass(frozen=True)
class Accepted(Event):
    seq: int
    entry: Entry


@dataclass(frozen=True)
class Confirmed(Event):
    seq: int
    state: bytes


@dataclass(frozen=True)
class YourTurn(Event):
    """The local seat must decide: `kind` "move", or "commit" for a secret choice."""

    seat: int
    kind: str
    legal: tuple


@dataclass(frozen=True)
class PeerAway(Event):
    seat: int


@dataclass(frozen=True)
class PeerBack(Event):
    seat: int


@dataclass(frozen=True)
class PeerLeft(Event):
    seat: int


@dataclass(frozen=True)
class Desync(Event):
    """Seats acked different state hashes after one entry: the game halts."""

    seq: int
    hashes: tuple[tuple[int, bytes], ...]


@dataclass(frozen=True)
class Equivocation(Event):
    """A seat signed two different entries for one seq: the game halts; `proof` shows it."""

    seat: int
    seq: int
    proof: Proof


@dataclass(frozen=True)
class GameOver(Event):
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    cheats: tuple[int, ...]


@dataclass(frozen=True)
class Rejected(Event):
    """A message or entry from a peer that was refused, and why (also counted against it)."""

    sender: str  # fingerprint
    reason: str


@dataclass(frozen=True)
class Refused(Event):
    """The host refused this node a place at the table."""

    reason: str


class LocalError(ValueError):
    """The local player asked for something the protocol or the rules do not allow now."""


Effect = Send | Store | Sync | Unstore | StoreGenesis | StoreChoice | Then | Event


# -- the session -------------------------------------------------------------------------------


@dataclass
class _Forming:
    """The table before its genesis: who asked for seats (host), the proposal (everyone)."""

    game: str
    players: int
    options: dict
    table: bytes
    hellos: list[Hello] = field(default_factory=list)
    proposal: Genesis | None = None
    addrs: tuple[str, ...] = ()
    sigs: dict[int, bytes] = field(default_factory=dict)
    host: bytes = b""


class Session:
    """One node's consensus session. Build it with `host`, `join` or `resume`."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
                 random: Callable[[int], bytes], now: float):
        self.identity = identity
        self.key = identity.public_key
        self.secrets = secrets
        self.name = name
        self.addr = addr
        self.random = random
        self.forming: _Forming | None = None
        self.genesis: SignedGenesis | None = None
        self.addrs: tuple[str, ...] = ()
        self.chain: GameChain | None = None
        self.seat: int | None = None  # None: spectator (or not yet seated)
        self.entries: list[Entry] = []
        self.ahead: dict[int, Entry] = {}
        self.state_hashes: list[bytes] = []  # my state hash after each entry
        # Acks are cumulative: an ack of seq s with our entry hash there vouches for the
        # whole chain up to s. `acked[seat]` is the highest such seq per seat; seq s is
        # confirmed once every seat's is at least s. Acks for entries not yet here wait.
        self.acked: list[int] = []
        self.early_acks: dict[int, dict[int, tuple[bytes, bytes]]] = {}
        self.ack_states: dict[int, dict[int, bytes]] = {}  # for the desync report
        self.confirmed = 0
        self.choice: tuple[tuple, bytes] | None = None
        self.spectators: dict[bytes, str] = {}
        self._seats: dict[bytes, int] = {}  # seat key -> seat, once the genesis is known
        self.heard: dict[bytes, float] = {}
        self.away: set[int] = set()
        self.strikes: dict[bytes, int] = {}
        self.halted: Event | None = None
        self.over = False
        self.next_beat = now
        self._asked: dict[bytes, float] = {}  # peer -> when we last asked it for entries
        self._repeat_at = now  # when a forming table repeats its hello and signature
        self._prompted: tuple[int, str] | None = None
        self._offered: tuple[int, frozenset] = (0, frozenset())  # (seq, the legal moves prompted there)
        self._unheard: set[bytes] = set()  # resumed: seats whose head this node has not heard yet

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def host(cls, identity: Identity, secrets: SeatSecrets, name: str, addr: str, game: str, players: int,
             options: Mapping[str, Any], table: bytes, random: Callable[[int], bytes], now: float) -> "Session":
        """Open a table as seat 0; OptionError for a bad game, player count or option."""
        engine = engines.get(game)
        engine.new_game(players, options)
        session = cls(identity, secrets, name, addr, random, now)
        session.forming = _Forming(game, players, dict(options), table, host=session.key)
        session.forming.hellos.append(session._hello("seat", table, game))
        session.seat = 0
        return session

    @classmethod
    def join(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str, host_key: bytes,
             table: bytes, game: str, random: Callable[[int], bytes], now: float) -> tuple["Session", list]:
        """Ask `host_key`'s table for a seat (with secrets) or to watch (without)."""
        session = cls(identity, secrets, name, addr, random, now)
        session.forming = _Forming(game, 0, {}, table, host=host_key)
        role = "seat" if secrets is not None else "spectator"
        return session, [Send(host_key, session._hello(role, table, game).to_bytes())]

    @classmethod
    def resume(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
               genesis: SignedGenesis, addrs: tuple[str, ...], entries: Iterable[Entry],
               choice: tuple[tuple, bytes] | None, random: Callable[[int], bytes], now: float) -> tuple["Session", list]:
        """A node restarted from its stored log: it re-checks every entry, then catches up
        from its peers. ChainError if the stored log does not check out."""
        session = cls(identity, secrets, name, addr, random, now)
        if secrets is not None:
            session.seat = next((i for i, s in enumerate(genesis.genesis.seats) if s.key == session.key), None)
        effects = session._start(genesis, addrs, resumed=True)
        entries = list(entries)
        for i, entry in enumerate(entries):
            last = i == len(entries) - 1
            try:
                # every entry but the last was checked before the next one was written
                session.chain = session.chain.check(entry, signatures=last)
            except ChainError as exc:
                if not last:
                    raise
                # our own move, written before it was re-run, then the process died: never acked
                effects += [Unstore(entry), Rejected("this node's own log", f"its last entry, seq {exc.seq}, was never "
                                                                            f"checked and does not check out ({exc.why}): dropped")]
                break
            session.entries.append(entry)
            session.state_hashes.append(session.chain.game.state_hash(session.chain.state))
        session.choice = choice
        # what was stored was acked before the crash; confirmation goes on from here
        session.confirmed = len(session.entries)
        session.acked = [len(session.entries)] * session.chain.seats
        if session.seat is not None:
            # Its last entry may have left before its fsync and been lost with the machine:
            # it writes nothing until every other seat has told it its head and it holds
            # that much, so it can never sign a second, different entry for one seq.
            session._unheard = {k for k in session._seats if k != session.key}
        effects += [Send(k, Want(len(session.entries) + 1).to_bytes()) for k in session._peers()]
        effects += session._my_turn()
        return session, effects

    def _hello(self, role: str, table: bytes, game: str) -> Hello:
        s = self.secrets
        chain, seed = (s.chain_tip, s.commitments()["seed"]) if s is not None else (bytes(32), bytes(32))
        return Hello(table, game, self.name, self.key, role, chain, seed, self.addr)

    # -- the three inputs ---------------------------------------------------------------------------

    def receive(self, sender: bytes, data: bytes, now: float) -> list:
        """A message from the peer with public key `sender` (authenticated by the transport)."""
        if self.strikes.get(sender, 0) >= STRIKES_TO_IGNORE:
            return []
        effects: list = self._heard(sender, now)
        try:
            message = decode_message(data)
        except MessageError as exc:
            return effects + self._reject(sender, str(exc))
        handler = getattr(self, f"_on_{message.kind}")
        try:
            return effects + handler(sender, message, now)
        except MessageError as exc:
            return effects + self._reject(sender, str(exc))
        except (TypeError, ValueError, KeyError, IndexError, OverflowError) as exc:
            # a value the schema let through but the game cannot take (a float option, a
            # huge number): still the sender's fault, never ours to crash on
            return effects + self._reject(sender, f"{message.kind}: unusable value ({type(exc).__name__})")

    def submit(self, actions: list | tuple, now: float) -> list:
        """The local player's decision: actions for a move, or the one action of a secret
        choice (committed now, revealed when the rules call for it). LocalError if not allowed."""
        if self.chain is None or self.seat is None:
            raise LocalError("There is no game in progress at this seat.")
        if self.halted is not None:
            raise LocalError("The game is halted.")
        seat, kind = self.chain.entitled()
        if seat != self.seat or kind not in ("move", "commit"):
            raise LocalError(f"It is not your turn: seat {seat} must write a {kind} entry.")
        actions = tuple(tuple(a) for a in actions)
        if not actions:
            raise LocalError("Nothing to submit.")
        game, state = self.chain.game, self.chain.state
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in game.choices_for(state, seat):
                raise LocalError("That is not one of your choices here.")
            nonce = self.random(16)
            self.choice = (actions, nonce)
            return [StoreChoice(actions, nonce)] + self._write("commit", {"digest": choice_digest(actions, nonce)})
        if self.choice is not None and game.secret_choice(state):
            raise LocalError("Your committed choice is revealed automatically.")
        offered = len(actions) == 1 and self._offered[0] == self.chain.next_seq and actions[0] in self._offered[1]
        try:
            return self._write("move", {"actions": list(actions), "nonce": None}, offered)
        except ChainError as exc:
            raise LocalError(exc.why) from None

    def tick(self, now: float) -> list:
        """Time passed: heartbeats (with the head), away peers, retries for missing entries."""
        effects: list = []
        if now >= self.next_beat:
            self.next_beat = now + BEAT_EVERY
            beat = self._beat()
            effects += [Send(k, beat) for k in self._peers()]
            if self.entries and self.seat is not None and self.halted is None:
                # acks are sent once; repeating the latest now and then repairs lost ones
                effects += self._ack(self.entries[-1], self.state_hashes[-1])
        if self.genesis is not None:
            for seat, s in enumerate(self.genesis.genesis.seats):
                if s.key == self.key or seat in self.away:
                    continue
                # a seat never heard from at all is timed from the first tick
                if now - self.heard.setdefault(s.key, now) > AWAY_AFTER:
                    self.away.add(seat)
                    effects.append(PeerAway(seat))
        elif self.forming is not None and now >= self._repeat_at:
            # The table is not formed yet and messages may have been lost: say again what
            # this node said (a hello to the host, its genesis signature to every seat).
            self._repeat_at = now + 2 * BEAT_EVERY
            f = self.forming
            if f.host != self.key:
                role = "seat" if self.secrets is not None else "spectator"
                effects.append(Send(f.host, self._hello(role, f.table, f.game).to_bytes()))
            if f.proposal is not None and self.seat in f.sigs:
                sign = Sign(self.seat, f.sigs[self.seat]).to_bytes()
                effects += [Send(s.key, sign) for s in f.proposal.seats if s.key != self.key]
        return effects

    def leave(self) -> list:
        return [Send(k, Leave().to_bytes()) for k in self._peers()]

    # -- bookkeeping ------------------------------------------------------------------------------------

    def _peers(self) -> list[bytes]:
        """Everyone a broadcast goes to: the other seats (or, while the table forms, whoever
        this node deals with) and the spectators it serves."""
        f = self.forming
        if self.genesis is not None:
            keys = list(self._seats)
        elif f is None:
            keys = []
        elif f.proposal is not None:
            keys = [s.key for s in f.proposal.seats]
        elif f.host == self.key:
            keys = [h.key for h in f.hellos]
        else:
            keys = [f.host]
        keys += self.spectators
        return [k for k in dict.fromkeys(keys) if k != self.key]

    def _seat_of(self, key: bytes) -> int | None:
        return self._seats.get(key)

    def _heard(self, sender: bytes, now: float) -> list:
        self.heard[sender] = now
        seat = self._seat_of(sender)
        if seat is not None and seat in self.away:
            self.away.discard(seat)
            return [PeerBack(seat)]
        return []

    def _reject(self, sender: bytes, reason: str) -> list:
        self.strikes[sender] = self.strikes.get(sender, 0) + 1
        return [Rejected(fingerprint(sender) if len(sender) == 32 else "?", reason)]

    def _broadcast(self, message: Message) -> list:
        data = message.to_bytes()
        return [Send(k, data) for k in self._peers()]

    # -- forming the table ---------------------------------------------------------------------------

    def _on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        if self.genesis is not None:  # the game runs: a spectator (or a seat that lost its genesis)
            if m.role == "spectator":
                self.spectators[sender] = m.addr
            elif self._seat_of(sender) is None:
                return [Send(sender, Refuse("the table is full").to_bytes())]
            return [Send(sender, GenesisMessage(self.genesis, self.addrs).to_bytes())]
        f = self.forming
        if f is None or f.host != self.key:
            raise MessageError("hello: this node is not hosting a table")
        if m.table != f.table or m.game != f.game:
            return [Send(sender, Refuse(f"this table plays {f.game}, not {m.game}").to_bytes())]
        if m.role == "spectator":
            self.spectators[sender] = m.addr
            return [Send(sender, Welcome(-1, f.players).to_bytes())]
        for i, h in enumerate(f.hellos):
            if h.key == sender:  # asked again: it missed our answer (or the proposal)
                effects = [Send(sender, Welcome(i, f.players).to_bytes())]
                if f.proposal is not None:
                    effects.append(Send(sender, Propose(f.proposal, f.addrs).to_bytes()))
                return effects
        if len(f.hellos) >= f.players:
            return [Send(sender, Refuse("the table is full").to_bytes())]
        f.hellos.append(m)
        effects: list = [Send(sender, Welcome(len(f.hellos) - 1, f.players).to_bytes())]
        if len(f.hellos) == f.players:
            engine = engines.get(f.game)
            genesis = Genesis(
                game=f.game, engine=engine.version, options=f.options,
                seats=tuple(Seat(h.name, h.key, h.chain, h.seed) for h in f.hellos), table=f.table,
            )
            propose = Propose(genesis, tuple(h.addr for h in f.hellos))
            effects += [Send(h.key, propose.to_bytes()) for h in f.hellos[1:]]
            effects += self._on_propose(self.key, propose, now)
        return effects

    def _on_welcome(self, sender: bytes, m: Welcome, now: float) -> list:
        if self.genesis is not None:
            return []  # an answer to a repeated hello
        if self.forming is None or sender != self.forming.host:
            raise MessageError("welcome: not from the host")
        self.seat = None if m.seat < 0 else m.seat
        self.forming.players = m.players
        return [Seated(m.seat, m.players)]

    def _on_refuse(self, sender: bytes, m: Refuse, now: float) -> list:
        if self.forming is None or sender != self.forming.host:
            raise MessageError("refuse: not from the host")
        return [Refused(m.reason)]

    def _on_propose(self, sender: bytes, m: Propose, now: float) -> list:
        f = self.forming
        if self.genesis is not None or (f is not None and f.proposal == m.genesis):
            return []  # a repeat of what this node already signed
        if f is None or sender != f.host:
            raise MessageError("propose: not expected from this sender now")
        g = m.genesis
        mine = [i for i, s in enumerate(g.seats) if s.key == self.key]
        if len(mine) != 1 or self.secrets is None:
            raise MessageError("propose: this node has no seat in it")
        seat = mine[0]
        expected = self._hello("seat", f.table, f.game)
        s = g.seats[seat]
        if (s.name, s.chain, s.seed) != (expected.name, expected.chain, expected.seed) or g.table != f.table:
            raise MessageError("propose: the proposal misstates this node's seat")
        if g.protocol != PROTOCOL_VERSION or len(m.addrs) != len(g.seats):
            raise MessageError("propose: bad version or addresses")
        try:
            engines.get(g.game).new_game(len(g.seats), g.options)
        except OptionError as exc:
            raise MessageError(f"propose: {exc}") from None
        f.proposal, f.addrs, self.seat = g, m.addrs, seat
        f.sigs = {i: sig for i, sig in f.sigs.items() if verify(g.seats[i].key, g.signing_bytes(), sig)}
        sign = Sign(seat, self.identity.sign(g.signing_bytes()))
        effects: list = [PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, m.addrs))), Seated(seat, len(g.seats))]
        effects += [Send(s.key, sign.to_bytes()) for s in g.seats if s.key != self.key]
        return effects + self._on_sign(self.key, sign, now)

    def _on_sign(self, sender: bytes, m: Sign, now: float) -> list:
        f = self.forming
        if self.genesis is not None:  # a seat still collecting signatures: hand it the genesis
            if self._seat_of(sender) is None or now - self._asked.get(sender, -1e9) < BEAT_EVERY:
                return []
            self._asked[sender] = now
            return [Send(sender, GenesisMessage(self.genesis, self.addrs).to_bytes())]
        if f is None or f.proposal is None:
            # a seat's signature may outrun the proposal; keep it until the proposal comes
            if f is not None:
                f.sigs[m.seat] = m.sig
            return []
        g = f.proposal
        if not (0 <= m.seat < len(g.seats)) or g.seats[m.seat].key != sender:
            raise MessageError("sign: the sender does not hold that seat")
        if not verify(sender, g.signing_bytes(), m.sig):
            raise MessageError("sign: bad genesis signature")
        f.sigs[m.seat] = m.sig
        if len(f.sigs) < len(g.seats):
            return []
        signed = SignedGenesis(g, tuple(f.sigs[i] for i in range(len(g.seats))))
        return self._start(signed, f.addrs)

    def _on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> list:
        if self.genesis is not None:
            if m.genesis.hash != self.genesis.hash:
                raise MessageError("genesis: a different game")
            return []
        f = self.forming
        if f is None or m.genesis.genesis.table != f.table:
            raise MessageError("genesis: not the table this node asked for")
        if m.genesis.bad_signers():
            raise MessageError("genesis: not signed by every seat")
        mine = [i for i, s in enumerate(m.genesis.genesis.seats) if s.key == self.key]
        if mine and self.secrets is not None:
            self.seat = mine[0]
        effects = self._start(m.genesis, m.addrs)
        return effects + [Send(sender, Want(1).to_bytes())]

    def _start(self, genesis: SignedGenesis, addrs: tuple[str, ...], resumed: bool = False) -> list:
        """The game begins here (or, `resumed`, begins again from the stored genesis)."""
        known = {}
        if self.seat is not None and self.secrets is not None:
            known = {self.seat: self.secrets.seed}
        try:
            self.chain = GameChain.start(genesis, known)
        except ChainError as exc:
            raise MessageError(f"genesis: {exc.why}") from None
        self.genesis, self.addrs = genesis, addrs
        self._seats = {s.key: i for i, s in enumerate(genesis.genesis.seats)}
        self.forming = None
        self.acked = [0] * len(genesis.genesis.seats)
        effects: list = [] if resumed else [StoreGenesis(genesis, addrs)]
        effects += [Send(k, GenesisMessage(genesis, addrs).to_bytes()) for k in self.spectators]
        effects.append(PeersKnown(tuple((s.key, a) for s, a in zip(genesis.genesis.seats, addrs))))
        effects.append(GameStarted(genesis))
        return effects if resumed else effects + self._my_turn()

    # -- the game ---------------------------------------------------------------------------------------

    def _on_entry(self, sender: bytes, m: EntryMessage, now: float) -> list:
        if self.chain is None:
            return []  # the game starts here soon (the genesis is late); catch-up repairs this
        entry = m.entry
        have = len(self.entries)
        if entry.seq <= have:
            return self._compare(sender, entry)
        if entry.seq > have + 1:
            if entry.seq <= have + AHEAD_WINDOW and entry.seq not in self.ahead:
                self.ahead[entry.seq] = entry
            return self._ask(sender, have + 1, now)
        effects = self._accept(sender, entry)
        while self.halted is None and len(self.entries) + 1 in self.ahead:
            effects += self._accept(sender, self.ahead.pop(len(self.entries) + 1))
        # the local seat's own next step comes last, after every store and ack of these entries
        return effects + [Then(self._my_turn, idle=True)]

    def _ask(self, peer: bytes, seq: int, now: float) -> list:
        if now - self._asked.get(peer, -1e9) < BEAT_EVERY / 2:
            return []
        self._asked[peer] = now
        return [Send(peer, Want(seq).to_bytes())]

    def _compare(self, sender: bytes, entry: Entry) -> list:
        """An entry for a seq already held: a duplicate, or proof of equivocation."""
        mine = self.entries[entry.seq - 1]
        if entry.hash == mine.hash:
            return []
        seats = self.genesis.genesis.seats
        if entry.seat == mine.seat and verify(seats[entry.seat].key, entry.signing_bytes(), entry.sig):
            return self._halt_equivocation(Proof(mine, entry))
        raise MessageError(f"entry: a different seq {entry.seq} not signed by its author")

    def _halt_equivocation(self, proof: Proof) -> list:
        if self.halted is not None:
            return []
        self.halted = Equivocation(proof.first.seat, proof.first.seq, proof)
        return [self.halted] + self._broadcast(proof)

    def _accept(self, sender: bytes, entry: Entry) -> list:
        """Take the next entry from a peer: check it, store it, pass it on to our
        spectators, ack it."""
        if self.halted is not None:
            return []
        try:
            checked = self.chain.check(entry)
        except ChainError as exc:
            # A refused entry can never be accepted by an honest node, so it cannot
            # split the table: it is no evidence of equivocation, only a strike.
            return self._reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self._append(entry, checked)
        effects: list = [Store(entry)]
        relay = [k for k in self.spectators if k != sender]
        if relay:
            data = EntryMessage(entry).to_bytes()
            effects += [Send(k, data) for k in relay]
        return effects + self._stored(entry, checked)

    def _append(self, entry: Entry, chain: GameChain) -> None:
        self.chain = chain
        self.entries.append(entry)
        if entry.kind == "move" and entry.seat == self.seat and entry.body["nonce"] is not None:
            self.choice = None  # revealed

    def _stored(self, entry: Entry, chain: GameChain) -> list:
        """`entry` is on disk here, `chain` the chain it ends: ack it with the state hash,
        take the acks that were waiting for it, confirm what that confirms."""
        state_hash = chain.game.state_hash(chain.state)
        self.state_hashes.append(state_hash)
        effects = self._ack(entry, state_hash)
        for seat, (entry_hash, state) in sorted(self.early_acks.pop(entry.seq, {}).items()):
            effects += self._take_ack(seat, entry.seq, entry_hash, state)
        effects += self._advance_confirmed()
        effects.append(Accepted(entry.seq, entry))
        if chain.finished and not self.over:
            self.over = True
            g, s = chain.game, chain.state
            effects.append(GameOver(tuple(g.winners(s)), tuple(g.scores(s)), tuple(chain.cheats)))
        return effects

    def _ack(self, entry: Entry, state_hash: bytes) -> list:
        if self.seat is None:
            return []
        ack = Ack(self.seat, entry.seq, entry.hash, state_hash)
        self.acked[self.seat] = max(self.acked[self.seat], entry.seq)
        self.ack_states.setdefault(entry.seq, {})[self.seat] = state_hash
        return self._broadcast(ack)

    def _on_ack(self, sender: bytes, m: Ack, now: float) -> list:
        if self.genesis is None:
            return []  # the genesis is late here; acks are repeated
        seats = self.genesis.genesis.seats
        if not 0 <= m.seat < len(seats) or seats[m.seat].key != sender:
            raise MessageError(f"ack: a forged ack (the sender does not hold seat {m.seat})")
        if m.seq > len(self.entries):
            if m.seq > len(self.entries) + AHEAD_WINDOW:
                raise MessageError("ack: far beyond this node's log")
            self.early_acks.setdefault(m.seq, {})[m.seat] = (m.entry, m.state)
            return self._ask(sender, len(self.entries) + 1, now)
        effects = self._take_ack(m.seat, m.seq, m.entry, m.state)
        if m.entry != self.entries[m.seq - 1].hash:
            effects += [Send(sender, Want(m.seq).to_bytes())]  # a fork: fetch its entry (proof)
        return effects + self._advance_confirmed()

    def _take_ack(self, seat: int, seq: int, entry_hash: bytes, state: bytes) -> list:
        if self.halted is not None or entry_hash != self.entries[seq - 1].hash:
            return []
        if seq > self.confirmed:
            self.ack_states.setdefault(seq, {})[seat] = state
        if state != self.state_hashes[seq - 1]:
            hashes = dict(self.ack_states.get(seq, {}))
            hashes[seat] = state
            if self.seat is not None:
                hashes[self.seat] = self.state_hashes[seq - 1]
            self.halted = Desync(seq, tuple(sorted(hashes.items())))
            return [self.halted]
        self.acked[seat] = max(self.acked[seat], seq)
        return []

    def _advance_confirmed(self) -> list:
        if self.halted is not None:
            return []
        upto = min(min(self.acked), len(self.entries))
        effects = []
        while self.confirmed < upto:
            self.confirmed += 1
            self.ack_states.pop(self.confirmed, None)
            effects.append(Confirmed(self.confirmed, self.state_hashes[self.confirmed - 1]))
        return effects

    def _on_beat(self, sender: bytes, m: Beat, now: float) -> list:
        if self.chain is None:
            return []
        if m.seq > len(self.entries):
            return self._ask(sender, len(self.entries) + 1, now)
        if sender in self._unheard:
            self._unheard.discard(sender)
            if not self._unheard:
                return [Then(self._my_turn, idle=True)]
        return []

    def _on_want(self, sender: bytes, m: Want, now: float) -> list:
        if self.genesis is None:
            return []
        batch = self.entries[m.seq - 1 : m.seq - 1 + BATCH]
        # the head last, so a node catching up knows at once whether it has it all
        return [Send(sender, EntryMessage(e).to_bytes()) for e in batch] + [Send(sender, self._beat())]

    def _beat(self) -> bytes:
        head = self.entries[-1].hash if self.entries else (self.genesis.hash if self.genesis else bytes(32))
        return Beat(len(self.entries), head).to_bytes()

    def _on_proof(self, sender: bytes, m: Proof, now: float) -> list:
        if self.genesis is None:
            raise MessageError("proof: no game has started here")
        a, b = m.first, m.second
        seats = self.genesis.genesis.seats
        if a.seq != b.seq or a.seat != b.seat or a.hash == b.hash or not 0 <= a.seat < len(seats):
            raise MessageError("proof: not two different entries of one seat for one seq")
        key = seats[a.seat].key
        if not (verify(key, a.signing_bytes(), a.sig) and verify(key, b.signing_bytes(), b.sig)):
            raise MessageError("proof: a signature does not verify")
        return self._halt_equivocation(m)

    def _on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        seat = self._seat_of(sender)
        self.spectators.pop(sender, None)
        return [PeerLeft(seat)] if seat is not None else []

    # -- writing the local seat's entries ----------------------------------------------------------

    def _write(self, kind: str, body: dict, offered: bool = False) -> list:
        """Sign, store and send the local seat's next entry. It is checked against the
        chain first (ChainError before anything is sent) — unless it is a single action from
        the legal list this seat was `offered`, which applies by the engine contract
        (engines/testing.py checks it): that one leaves first and is re-run after."""
        entry = make_entry(self.identity, self.chain.next_seq, self.chain.head, self.seat, kind, body)
        # (our own signature needs no verifying)
        checked = None if offered else self.chain.check(entry, signatures=False)
        # The entry leaves before its fsync, so the peers' checks and fsyncs run while ours
        # does; it is written first, so a crashed process still has it, and the author acks
        # it only once it is on disk. A machine that lost it before the fsync learns it back
        # from its peers: a resumed seat writes nothing until it has heard every seat's head
        # (`resume`), so it never signs another entry there.
        data = EntryMessage(entry).to_bytes()
        return ([Store(entry, sync=False)] + [Send(k, data) for k in self._peers()]
                + [Then(lambda: self._sent(entry, checked)), Then(self._my_turn, idle=True)])

    def _sent(self, entry: Entry, checked: GameChain | None) -> list:
        """Our entry is written and on its way: take it into the chain, then wait for its
        fsync and ack it."""
        if checked is None:
            try:
                checked = self.chain.check(entry, signatures=False)
            except ChainError as exc:  # the engine offered an action it cannot apply
                self._prompted = None  # ask again; the peers refuse that entry too
                return [Unstore(entry), Rejected(fingerprint(self.key), f"this seat's own move was refused: "
                                                                        f"{exc.why} (an engine fault)")]
        self._append(entry, checked)
        return [Sync()] + self._stored(entry, checked)

    def _my_turn(self) -> list:
        """Write what the local seat owes by itself, or tell the client it must decide."""
        if (self.chain is None or self.seat is None or self.halted is not None or self.chain.finished
                or self._unheard):
            return []
        seat, kind = self.chain.entitled()
        if seat != self.seat:
            return []
        chain, secrets = self.chain, self.secrets
        if kind == "reveal":
            return self._write(kind, {"value": secrets.reveal(chain.chain_used[seat] + 1)})
        if kind == "chance":
            entropy, index = chain.run
            outcome = chain.game.sample_chance(chain.state, node_entropy(entropy, index, secrets.seed))
            return self._write(kind, {"outcome": outcome})
        if kind == "audit":
            return self._write(kind, {"seed": secrets.seed})
        if kind == "result":
            return self._write(kind, chain.result_body())
        if kind == "move" and self.choice is not None and chain.game.secret_choice(chain.state):
            actions, nonce = self.choice
            return self._write(kind, {"actions": list(actions), "nonce": nonce})
        if self._prompted == (chain.next_seq, kind):
            return []
        self._prompted = (chain.next_seq, kind)
        game, state = chain.game, chain.state
        legal = tuple(game.choices_for(state, seat) if kind == "commit" else game.legal_actions(state))
        if kind == "move":
            self._offered = (chain.next_seq, frozenset(legal))
        return [YourTurn(seat, kind, legal)]
