"""The game under way: a session's data and its handling of the game's messages from the
genesis on, phases PLAYING and OVER (spec/protocol.md, "The session").

It accepts an entry only when the chain accepts it (signature, position, entitlement,
legality), stores it, acks it with the state hash, confirms it once every seat's ack agrees
(protocol/confirmation.py), writes its own seat's entries (reveals, commitments, the audit,
the result) by itself, gossips heads and serves missing entries. Whatever moves the phase —
the end of the game, a halt — and a strike against a sender are the session's: `Keeper`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.protocol.author import Author, Write
from peerboard.protocol.chain import ChainError, GameChain
from peerboard.protocol.confirmation import Confirmations
from peerboard.protocol.effects import NextStep, Send, Store, StoreChoice, StoreGenesis, Sync, TakeOwnEntry, Unstore
from peerboard.protocol.events import (
    Accepted, Equivocation, Event, GameOver, GameStarted, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Rejected,
)
from peerboard.protocol.identity import Identity, fingerprint, verify
from peerboard.protocol.messages import (
    Ack, Beat, EntryMessage, GenesisMessage, Hello, Leave, Message, MessageError, Proof, Refuse, Sign, Want,
)
from peerboard.protocol.phases import Milestone
from peerboard.protocol.records import Entry, SignedGenesis, make_entry
from peerboard.protocol.schema import NONCE_BYTES
from peerboard.protocol.secrets import SeatSecrets
from peerboard.protocol.surface import ChanceRecord, LocalError, MoveList, MoveRecord, Phase, Position

BEAT_EVERY = 1.0  # seconds between heartbeats (each carries the head)
AWAY_AFTER = 5.0  # a seat silent this long is shown as away
BATCH = 64  # entries served per request
AHEAD_WINDOW = 256  # entries buffered beyond the next expected one


@dataclass(frozen=True)
class Keeper:
    """What a game asks of the session that holds it."""

    phase: Callable[[], Phase]
    reach: Callable[[Milestone], None]  # the game ended
    halt: Callable[[Event], list]  # a desync or an equivocation: the session halts
    reject: Callable[[bytes, str], list]  # the sender's fault: said, and counted against it


class Play:
    """One node's game from its genesis on. Build it with `start`."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
                 genesis: SignedGenesis, addrs: tuple[str, ...], chain: GameChain, seat: int | None,
                 spectators: Mapping[bytes, str], heard: dict[bytes, float], keeper: Keeper):
        g = genesis.terms
        self.identity = identity
        self.key = identity.public_key
        self.random = random
        self.keeper = keeper
        self.genesis = genesis
        self.addrs = addrs
        self.chain = chain
        self.confirmed_chain = chain
        self.seat = seat  # None: a spectator
        self.author = None if seat is None else Author(seat, secrets)
        self.seats: dict[bytes, int] = {s.key: i for i, s in enumerate(g.seats)}  # seat key -> seat
        self.seat_keys: tuple[bytes, ...] = tuple(s.key for s in g.seats)  # by seat
        self.entries: list[Entry] = []
        self.ahead: dict[int, Entry] = {}
        self.acks = Confirmations(len(g.seats), seat)
        self.chains: dict[int, GameChain] = {}  # the chain at each seq not yet confirmed
        self.moves = MoveList(chain.game)
        self.spectators: dict[bytes, str] = dict(spectators)
        self.broadcast_keys: list[bytes] | None = None
        self.heard = heard  # the session's: when each key was last heard, since it began
        self.silent_since: dict[bytes, float] = {}  # seats never heard: timed from the first tick
        self.away: set[int] = set()
        self.left: set[int] = set()
        self.asked: dict[bytes, float] = {}  # peer -> when we last asked it for entries
        self.result: GameOver | None = None  # once over
        self._options: Mapping[str, Any] | None = None

    @classmethod
    def start(cls, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
              genesis: SignedGenesis, addrs: tuple[str, ...], spectators: Mapping[bytes, str],
              heard: dict[bytes, float], keeper: Keeper) -> "Play":
        """The game of `genesis`; ChainError if the genesis cannot start one."""
        key = identity.public_key
        mine = [i for i, s in enumerate(genesis.terms.seats) if s.key == key]
        seat = mine[0] if mine and secrets is not None else None
        chain = GameChain.start(genesis, {} if seat is None else {seat: secrets.seed})
        return cls(identity, secrets, random, genesis, addrs, chain, seat, spectators, heard, keeper)

    def started(self, handed: list[bytes], resumed: bool) -> list:
        """The effects of the start: the genesis stored (unless `resumed` from it) and sent to
        the keys `handed` it and to the spectators; the peers and the start told."""
        g = self.genesis.terms
        effects: list = [] if resumed else [StoreGenesis(self.genesis, self.addrs)]
        data = GenesisMessage(self.genesis, self.addrs).to_bytes()
        effects += [Send(k, data) for k in handed if k != self.key]
        effects += [Send(k, data) for k in self.spectators]
        effects.append(PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, self.addrs))))
        effects.append(GameStarted(self.genesis))
        return effects

    def resume(self, entries: list[Entry], choice: tuple[tuple, bytes] | None, addr: str, hello: bytes) -> list:
        """Take back the stored `entries` (re-checked: ChainError unless they check out) and
        the secret choice committed; say `hello` to every seat if this node listens at
        `addr`, not where the genesis says."""
        effects: list = []
        hashes = []
        for i, entry in enumerate(entries):
            last = i == len(entries) - 1
            try:
                # every entry but the last was checked before the next one was written
                chain = self.chain.check(entry, signatures=last)
            except ChainError as exc:
                if not last:
                    raise
                # our own move, written before it was re-run, then the process died: never acked
                effects += [Unstore(entry), Rejected("this node's own log", f"its last entry, seq {exc.seq}, was never "
                                                                            f"checked and does not check out ({exc.why}): dropped")]
                break
            self._append(entry, chain)
            hashes.append((entry.hash, chain.game.state_hash(chain.state)))
        # what was stored was acked before the crash; confirmation goes on from here
        self.acks = Confirmations(len(self.seats), self.seat, len(hashes), hashes)
        self.chains.clear()
        self.confirmed_chain = self.chain
        if self.chain.finished:
            self._game_over()
        if self.author is not None:
            self.author.choice = choice
            # Its last entry may have left before its fsync and been lost with the machine:
            # it writes nothing until every other seat has told it its head and it holds
            # that much, so it can never sign a second, different entry for one seq.
            self.author.unheard = {k for k in self.seats if k != self.key}
        if self.seat is not None and self.seat < len(self.addrs) and self.addrs[self.seat] != addr:
            # it listens somewhere else now (`resume --bind`): its hello tells every seat
            effects += [Send(k, hello) for k in self.seat_keys if k != self.key]
        want = Want(len(self.entries) + 1).to_bytes()
        return effects + [Send(k, want) for k in self.peers()] + self.my_turn()

    # -- the read-only surface ------------------------------------------------------------------------

    @property
    def game_name(self) -> str:
        return self.genesis.terms.game

    @property
    def players(self) -> int:
        return len(self.seat_keys)

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

    def connection(self, index: int) -> str:
        return "left" if index in self.left else "away" if index in self.away else "connected"

    def acked(self, index: int) -> int:
        return self.acks.acked[index] if 0 <= index < len(self.acks.acked) else 0

    def position(self, confirmed: bool) -> Position:
        chain = self.confirmed_chain if confirmed else self.chain
        live = self.keeper.phase() is Phase.PLAYING and not chain.finished
        return Position(chain.next_seq - 1, chain.state, chain.entitled() if live else None)

    def options_for(self, kind: str) -> tuple:
        return self.author.options(self.chain, kind)

    def move_records(self) -> tuple[MoveRecord, ...]:
        return self.moves.records(self.acks.confirmed)

    def chance_records(self) -> tuple[ChanceRecord, ...]:
        return self.moves.chance_records()

    # -- bookkeeping ------------------------------------------------------------------------------------

    def peers(self) -> list[bytes]:
        """Everyone a broadcast goes to: the other seats and the spectators this node serves."""
        if self.broadcast_keys is None:  # worked out again once the spectators change
            keys = list(self.seats) + list(self.spectators)
            self.broadcast_keys = [k for k in dict.fromkeys(keys) if k != self.key]
        return self.broadcast_keys

    def broadcast(self, message: Message) -> list:
        data = message.to_bytes()
        return [Send(k, data) for k in self.peers()]

    def heard_from(self, sender: bytes, now: float) -> list:
        seat = self.seats.get(sender)
        if seat is not None and (seat in self.away or seat in self.left):
            self.away.discard(seat)
            self.left.discard(seat)
            return [PeerBack(seat)]
        return []

    def beat(self) -> bytes:
        head = self.entries[-1].hash if self.entries else self.genesis.hash
        return Beat(len(self.entries), head).to_bytes()

    def tick(self, now: float, beat: bool) -> list:
        """The beat just sent (`beat`) comes with the latest ack again; a seat silent too long is away."""
        effects: list = []
        if beat and self.entries and self.seat is not None:
            # acks are sent once; repeating the latest now and then repairs lost ones
            effects += self._ack(self.entries[-1], self.acks.hashes[-1][1])
        for key, seat in self.seats.items():
            if key == self.key or seat in self.away or seat in self.left:
                continue
            heard = self.heard.get(key)
            if heard is None:
                heard = self.silent_since.setdefault(key, now)
            if now - heard > AWAY_AFTER:
                self.away.add(seat)
                effects.append(PeerAway(seat))
        return effects

    # -- the game's messages ----------------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        """A spectator joining late, or a seat that lost its genesis or listens somewhere
        else now (it resumed on another address)."""
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        effects: list = []
        if m.role == "spectator":
            self.spectators[sender] = m.addr
            self.broadcast_keys = None
        elif sender not in self.seats:
            return [Send(sender, Refuse("the table is full").to_bytes())]
        else:
            seat = self.seats[sender]
            addrs = list(self.addrs) + [""] * (len(self.seat_keys) - len(self.addrs))
            if m.table == self.table and m.addr and m.addr != addrs[seat]:
                addrs[seat] = m.addr
                self.addrs = tuple(addrs)
                effects.append(PeerMoved(seat, sender, m.addr))
        return effects + [Send(sender, GenesisMessage(self.genesis, self.addrs).to_bytes())]

    def on_sign(self, sender: bytes, m: Sign, now: float) -> list:
        """A seat still collecting signatures: hand it the genesis."""
        if sender not in self.seats or now - self.asked.get(sender, -1e9) < BEAT_EVERY:
            return []
        self.asked[sender] = now
        return [Send(sender, GenesisMessage(self.genesis, self.addrs).to_bytes())]

    def on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> list:
        if m.genesis.hash != self.genesis.hash:
            raise MessageError("genesis: a different game")
        return []

    def on_entry(self, sender: bytes, m: EntryMessage, now: float) -> list:
        entry = m.entry
        have = len(self.entries)
        if entry.seq <= have:
            return self._compare(sender, entry)
        if entry.seq > have + 1:
            if entry.seq <= have + AHEAD_WINDOW and entry.seq not in self.ahead:
                self.ahead[entry.seq] = entry
            return self._ask(sender, have + 1, now)
        effects = self._accept(sender, entry)
        phase = self.keeper.phase
        while phase() is Phase.PLAYING and len(self.entries) + 1 in self.ahead:
            effects += self._accept(sender, self.ahead.pop(len(self.entries) + 1))
        # the local seat's own next step comes last, after every store and ack of these entries
        return effects + [NextStep()]

    def on_ack(self, sender: bytes, m: Ack, now: float) -> list:
        keys = self.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"ack: a forged ack (the sender does not hold seat {m.seat})")
        held = len(self.entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("ack: far beyond this node's log")
            self.acks.wait(m.seat, m.seq, m.entry, m.state)
            return self._ask(sender, held + 1, now)
        desync = self.acks.take(m.seat, m.seq, m.entry, m.state)
        if desync is not None:
            return self.keeper.halt(desync)
        effects = []
        if m.entry != self.entries[m.seq - 1].hash:
            effects.append(Send(sender, Want(m.seq).to_bytes()))  # a fork: fetch its entry (proof)
        return effects + self._advance()

    def on_beat(self, sender: bytes, m: Beat, now: float) -> list:
        if m.seq > len(self.entries):
            return self._ask(sender, len(self.entries) + 1, now)
        author = self.author
        if author is not None and sender in author.unheard:
            author.unheard.discard(sender)
            if not author.unheard:
                return [NextStep()]
        return []

    def on_want(self, sender: bytes, m: Want, now: float) -> list:
        batch = self.entries[m.seq - 1 : m.seq - 1 + BATCH]
        # the head last, so a node catching up knows at once whether it has it all
        return [Send(sender, EntryMessage(e).to_bytes()) for e in batch] + [Send(sender, self.beat())]

    def on_proof(self, sender: bytes, m: Proof, now: float) -> list:
        a, b = m.first, m.second
        keys = self.seat_keys
        if a.seq != b.seq or a.seat != b.seat or a.hash == b.hash or not a.seat < len(keys):
            raise MessageError("proof: not two different entries of one seat for one seq")
        key = keys[a.seat]
        if not (verify(key, a.signing_bytes(), a.sig) and verify(key, b.signing_bytes(), b.sig)):
            raise MessageError("proof: a signature does not verify")
        return self._halt_equivocation(m)

    def on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        if self.spectators.pop(sender, None) is not None:
            self.broadcast_keys = None
        seat = self.seats.get(sender)
        if seat is None:
            return []
        self.left.add(seat)
        self.away.discard(seat)
        return [PeerLeft(seat)]

    # -- entries in ---------------------------------------------------------------------------------------

    def _ask(self, peer: bytes, seq: int, now: float) -> list:
        if now - self.asked.get(peer, -1e9) < BEAT_EVERY / 2:
            return []
        self.asked[peer] = now
        return [Send(peer, Want(seq).to_bytes())]

    def _compare(self, sender: bytes, entry: Entry) -> list:
        """An entry for a seq already held: a duplicate, or proof of equivocation."""
        mine = self.entries[entry.seq - 1]
        if entry.hash == mine.hash:
            return []
        if entry.seat == mine.seat and verify(self.seat_keys[entry.seat], entry.signing_bytes(), entry.sig):
            return self._halt_equivocation(Proof(mine, entry))
        raise MessageError(f"entry: a different seq {entry.seq} not signed by its author")

    def _halt_equivocation(self, proof: Proof) -> list:
        if self.keeper.phase() is Phase.HALTED:
            return []
        return self.keeper.halt(Equivocation(proof.first.seat, proof.first.seq, proof)) + self.broadcast(proof)

    def _accept(self, sender: bytes, entry: Entry) -> list:
        """Take the next entry from a peer: check it, store it, pass it on to our
        spectators, ack it."""
        try:
            checked = self.chain.check(entry)
        except ChainError as exc:
            # A refused entry can never be accepted by an honest node, so it cannot
            # split the table: it is no evidence of equivocation, only a strike.
            return self.keeper.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self._append(entry, checked)
        effects: list = [Store(entry)]
        relay = [k for k in self.spectators if k != sender]
        if relay:
            data = EntryMessage(entry).to_bytes()
            effects += [Send(k, data) for k in relay]
        return effects + self._stored(entry, checked)

    def _append(self, entry: Entry, chain: GameChain) -> None:
        before = self.chain
        self.chain = chain
        self.chains[entry.seq] = chain
        self.entries.append(entry)
        if chain.outcomes and entry.kind != "audit":  # (the audit re-runs the whole game: no news)
            self.moves.add_chance(entry, chain.outcomes)
        if entry.kind == "move":
            self.moves.add(entry, before.state, self.acks.confirmed)
            if self.author is not None:
                self.author.taken(entry)

    def _stored(self, entry: Entry, chain: GameChain) -> list:
        """`entry` is on disk here, `chain` the chain it ends: ack it with the state hash,
        take the acks that were waiting for it, confirm what that confirms."""
        state_hash = chain.game.state_hash(chain.state)
        effects = self._ack(entry, state_hash)
        desync = self.acks.stored(entry.hash, state_hash)
        if desync is not None:
            return effects + self.keeper.halt(desync) + [Accepted(entry.seq, entry)]
        effects += self._advance()
        effects.append(Accepted(entry.seq, entry))
        if chain.finished:
            effects += self._game_over()
        return effects

    def _game_over(self) -> list:
        g, s = self.chain.game, self.chain.state
        self.result = GameOver(tuple(g.winners(s)), tuple(g.scores(s)), tuple(self.chain.cheats))
        self.keeper.reach(Milestone.ENDED)
        return [self.result]

    def _ack(self, entry: Entry, state_hash: bytes) -> list:
        if self.seat is None:
            return []
        return self.broadcast(Ack(self.seat, entry.seq, entry.hash, state_hash))

    def _advance(self) -> list:
        confirmed = self.acks.advance()
        for event in confirmed:
            self.confirmed_chain = self.chains.pop(event.seq)
        return confirmed

    # -- the local seat's entries -------------------------------------------------------------------------

    def submit(self, kind: str, actions: tuple) -> list:
        """The local seat's decision of `kind` (checked by `decision`)."""
        chain, author = self.chain, self.author
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(chain, kind):
                raise LocalError("That is not one of your choices here.")
            nonce = self.random(NONCE_BYTES)
            return [StoreChoice(actions, nonce)] + self._write("commit", author.commit(actions, nonce))
        try:
            return self._write("move", {"actions": list(actions), "nonce": None}, author.offered(chain, actions))
        except ChainError as exc:
            raise LocalError(exc.why) from None

    def _write(self, kind: str, body: dict, offered: bool = False) -> list:
        """Sign, store and send the local seat's next entry. It is checked against the
        chain first (ChainError before anything is sent) — unless it is a single action from
        the legal list this seat was `offered`, which applies by the engine contract
        (engines/testing.py checks it): that one leaves first and is re-run after."""
        chain = self.chain
        entry = make_entry(self.identity, chain.next_seq, chain.head, self.seat, kind, body)
        # (our own signature needs no verifying)
        checked = None if offered else chain.check(entry, signatures=False)
        # The entry leaves before its fsync, so the peers' checks and fsyncs run while ours
        # does; it is written first, so a crashed process still has it, and the author acks
        # it only once it is on disk. A machine that lost it before the fsync learns it back
        # from its peers: a resumed seat writes nothing until it has heard every seat's head
        # (`resume`), so it never signs another entry there.
        data = EntryMessage(entry).to_bytes()
        return ([Store(entry, sync=False)] + [Send(k, data) for k in self.peers()]
                + [TakeOwnEntry(entry, checked), NextStep()])

    def take_own(self, entry: Entry, checked: GameChain | None) -> list:
        """Our entry is written and on its way: take it into the chain, then wait for its
        fsync and ack it."""
        if self.keeper.phase() is not Phase.PLAYING:
            return []
        if checked is None:
            try:
                checked = self.chain.check(entry, signatures=False)
            except ChainError as exc:  # the engine offered an action it cannot apply
                self.author.ask_again()  # the peers refuse that entry too
                return [Unstore(entry), Rejected(fingerprint(self.key), f"this seat's own move was refused: "
                                                                        f"{exc.why} (an engine fault)")]
        self._append(entry, checked)
        return [Sync()] + self._stored(entry, checked)

    def my_turn(self) -> list:
        """Write what the local seat owes by itself, or tell the client it must decide."""
        if self.keeper.phase() is not Phase.PLAYING or self.author is None:
            return []
        step = self.author.next(self.chain)
        if isinstance(step, Write):
            return self._write(step.kind, step.body)
        return [] if step is None else [step]
