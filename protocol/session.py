"""The consensus session: one node's side of a game, sans-IO (spec/protocol.md).

Feed it what arrives — `receive(sender, data, now)` — what the local player decides —
`submit(actions, now)` — and the passing of time — `tick(now)`; each returns the effects for
the node to carry out in order (protocol/effects.py), which `EffectRunner` does, handing the
session's own steps back through `follow`. It never touches a socket, a file or a clock.

Whose fault: nothing a peer sends makes the session raise. Bytes that do not decode or fit
their schema, a message that makes no sense where the session stands, an entry the chain
refuses (an illegal action, a bad signature) are the sender's: a `Rejected` event with the
reason, and a strike. Anything else that goes wrong inside is ours — a bug of the engine or
of the session: it halts with an `InternalFault`, blames nobody, and hands the node the
traceback to keep.

Its `phase` says which messages it takes (`_TABLE`: phase by message class). FORMING and
SIGNING, the table forms (protocol/forming.py). PLAYING, it accepts an entry only when the
chain accepts it (signature, position, entitlement, legality), stores it, acks it with the
state hash, confirms it once every seat's ack agrees (protocol/confirmation.py), writes its
own seat's entries (reveals, commitments, the audit, the result) by itself, gossips heads and
serves missing entries. OVER, it still confirms and serves. HALTED — a desync, an
equivocation, or an internal fault — it takes nothing more.

Everything above the session reads the game through its read-only surface (`phase`,
`seats`, `position()`, `legal_actions()` ...: spec/protocol.md, "The session's public surface").
"""
from __future__ import annotations

import traceback
from typing import Any, Callable, Iterable, Mapping

from peerboard import engines
from peerboard.protocol.author import Author, Write
from peerboard.protocol.chain import ChainError, GameChain
from peerboard.protocol.confirmation import Confirmations
from peerboard.protocol.effects import NextStep, Send, Store, StoreChoice, StoreGenesis, Sync, TakeOwnEntry, Unstore
from peerboard.protocol.events import (  # re-exported: the session's events are part of its surface
    Accepted, Confirmed, Desync, Equivocation, Event, GameOver, GameStarted, InternalFault, PeerAway, PeerBack,
    PeerLeft, PeerMoved, PeersKnown, Refused, Rejected, Seated, SeatFreed, SeatTaken, YourTurn,
)
from peerboard.protocol.forming import Forming
from peerboard.protocol.identity import Identity, fingerprint, verify
from peerboard.protocol.messages import (
    MESSAGE_CLASSES, Ack, Beat, EntryMessage, GenesisMessage, Hello, Leave, Message, MessageError, Proof, Propose,
    Refuse, Sign, Want, Welcome, decode_message,
)
from peerboard.protocol.records import Entry, SignedGenesis, make_entry
from peerboard.protocol.schema import MAX_ACTIONS_PER_ENTRY, NONCE_BYTES, is_action
from peerboard.protocol.secrets import SeatSecrets
from peerboard.protocol.surface import LocalError, MoveList, MoveRecord, Phase, Position, SeatInfo
from peerboard.protocol.tablecode import knock, stretched

__all__ = [
    "Session", "Phase", "SeatInfo", "Position", "MoveRecord", "LocalError",
    "Event", "Seated", "SeatTaken", "SeatFreed", "PeersKnown", "GameStarted", "Accepted", "Confirmed", "YourTurn",
    "PeerAway", "PeerBack", "PeerLeft", "PeerMoved", "Desync", "Equivocation", "InternalFault", "GameOver",
    "Rejected", "Refused",
]

BEAT_EVERY = 1.0  # seconds between heartbeats (each carries the head)
AWAY_AFTER = 5.0  # a seat silent this long is shown as away
BATCH = 64  # entries served per request
AHEAD_WINDOW = 256  # entries buffered beyond the next expected one
STRIKES_TO_IGNORE = 50  # a peer that sent this many bad messages is no longer read

Handler = Callable[["Session", bytes, Any, float], list]


# -- the session ---------------------------------------------------------------------------------


class Session:
    """One node's consensus session. Build it with `host`, `join` or `resume`."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
                 random: Callable[[int], bytes], now: float):
        self._identity = identity
        self._key = identity.public_key
        self._secrets = secrets
        self._name = name
        self._addr = addr
        self._random = random
        self._phase = Phase.FORMING
        self._forming: Forming | None = None
        self._genesis: SignedGenesis | None = None
        self._addrs: tuple[str, ...] = ()
        self._chain: GameChain | None = None
        self._seat: int | None = None  # None: spectator (or not seated yet)
        self._seats: dict[bytes, int] = {}  # seat key -> seat, once the genesis is known
        self._seat_keys: tuple[bytes, ...] = ()  # by seat
        self._entries: list[Entry] = []
        self._ahead: dict[int, Entry] = {}
        self._acks: Confirmations | None = None
        self._chains: dict[int, GameChain] = {}  # the chain at each seq not yet confirmed
        self._confirmed_chain: GameChain | None = None
        self._author: Author | None = None  # the local seat's, once it has one
        self._spectators: dict[bytes, str] = {}
        self._broadcast_keys: list[bytes] | None = None
        self._heard: dict[bytes, float] = {}
        self._silent_since: dict[bytes, float] = {}  # seats never heard: timed from the first tick
        self._away: set[int] = set()
        self._left: set[int] = set()
        self._strikes: dict[bytes, int] = {}
        self._halt: Event | None = None
        self._result: GameOver | None = None
        self._next_beat = now
        self._asked: dict[bytes, float] = {}  # peer -> when we last asked it for entries
        self._moves: MoveList | None = None
        self._resolved: tuple[Any, Mapping[str, Any]] = (None, {})
        self._private = False

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def host(cls, identity: Identity, secrets: SeatSecrets, name: str, addr: str, game: str, players: int,
             options: Mapping[str, Any], table: bytes, random: Callable[[int], bytes], now: float,
             code: str | None = None) -> "Session":
        """Open a table as seat 0 — a private one, that a joiner needs `code` for, if given
        (protocol/tablecode.py); OptionError for a bad game, player count or option,
        ValueError for a code that cannot be one."""
        engines.get(game).new_game(players, options)
        session = cls(identity, secrets, name, addr, random, now)
        code_key = None if code is None else stretched(code, identity.public_key, table)
        session._forming = Forming.open(identity, session._hello("seat", table, game), players, options, now, code_key)
        session._private = code is not None
        return session

    @classmethod
    def join(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str, host_key: bytes,
             table: bytes, game: str, random: Callable[[int], bytes], now: float,
             code: str | None = None) -> tuple["Session", list]:
        """Ask `host_key`'s table for a seat (with secrets) or to watch (without); with the
        `code` of a private table, if given (ValueError for a code that cannot be one)."""
        session = cls(identity, secrets, name, addr, random, now)
        proof = None if code is None else knock(stretched(code, host_key, table), identity.public_key)
        hello = session._hello("seat" if secrets is not None else "spectator", table, game, proof)
        session._forming = Forming.ask(identity, hello, host_key, now)
        session._private = code is not None
        return session, [Send(host_key, hello.to_bytes())]

    @classmethod
    def resume(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
               genesis: SignedGenesis, addrs: tuple[str, ...], entries: Iterable[Entry],
               choice: tuple[tuple, bytes] | None, random: Callable[[int], bytes], now: float) -> tuple["Session", list]:
        """A node restarted from its stored log: it re-checks every entry, then catches up
        from its peers. ChainError if the stored log does not check out; a fault of our own
        on the way halts the session (`InternalFault`) instead."""
        session = cls(identity, secrets, name, addr, random, now)
        try:
            return session, session._resume(genesis, addrs, list(entries), choice)
        except ChainError:
            raise
        except Exception as exc:
            return session, session._fault("re-checking the stored log", exc)

    def _resume(self, genesis: SignedGenesis, addrs: tuple[str, ...], entries: list[Entry],
                choice: tuple[tuple, bytes] | None) -> list:
        effects = self._start(genesis, addrs, resumed=True)
        hashes = []
        for i, entry in enumerate(entries):
            last = i == len(entries) - 1
            try:
                # every entry but the last was checked before the next one was written
                chain = self._chain.check(entry, signatures=last)
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
        self._acks = Confirmations(len(self._seats), self._seat, len(hashes), hashes)
        self._chains.clear()
        self._confirmed_chain = self._chain
        if self._chain.finished:
            self._game_over()
        if self._author is not None:
            self._author.choice = choice
            # Its last entry may have left before its fsync and been lost with the machine:
            # it writes nothing until every other seat has told it its head and it holds
            # that much, so it can never sign a second, different entry for one seq.
            self._author.unheard = {k for k in self._seats if k != self._key}
        if self._seat is not None and self._seat < len(addrs) and addrs[self._seat] != self._addr:
            # it listens somewhere else now (`resume --bind`): its hello tells every seat
            g = genesis.genesis
            hello = self._hello("seat", g.table, g.game).to_bytes()
            effects += [Send(k, hello) for k in self._seat_keys if k != self._key]
        want = Want(len(self._entries) + 1).to_bytes()
        return effects + [Send(k, want) for k in self._peers()] + self._my_turn()

    def _hello(self, role: str, table: bytes, game: str, proof: bytes | None = None) -> Hello:
        s = self._secrets
        chain, seed = (s.chain_tip, s.commitments()["seed"]) if s is not None else (bytes(32), bytes(32))
        return Hello(table, game, self._name, self._key, role, chain, seed, self._addr, proof)

    # -- the inputs -------------------------------------------------------------------------------

    def receive(self, sender: bytes, data: bytes, now: float) -> list:
        """A message from the peer with public key `sender` (authenticated by the transport)."""
        if self._strikes.get(sender, 0) >= STRIKES_TO_IGNORE:
            return []
        effects: list = self._heard_from(sender, now)
        try:
            message = decode_message(data)
        except MessageError as exc:
            return effects + self._reject(sender, str(exc))
        handler = _TAKES[self._phase][type(message)]
        try:
            effects += handler(self, sender, message, now)
        except MessageError as exc:
            effects += self._reject(sender, str(exc))
        except Exception as exc:  # not the sender's doing: ours
            return effects + self._fault(f"handling the {message.kind} message just received", exc)
        if self._forming is not None and self._forming.hosting:
            try:  # a table full of live seats is proposed (whatever message showed the last one alive)
                effects += self._formed(self._forming.settle(now))
            except Exception as exc:
                return effects + self._fault("proposing the table", exc)
        return effects

    def submit(self, actions: list | tuple, now: float) -> list:
        """The local player's decision: actions for a move (several: a planned turn, one
        entry), or the one action of a secret choice (committed now, revealed when the rules
        call for it). LocalError if it is not allowed now."""
        kind = self._decision()
        if not isinstance(actions, (list, tuple)) or not all(is_action(a) for a in actions):
            raise LocalError("A decision is a list of actions (tuples of text, numbers, booleans or None).")
        actions = tuple(actions)
        if not 1 <= len(actions) <= MAX_ACTIONS_PER_ENTRY:
            raise LocalError(f"A decision holds 1 to {MAX_ACTIONS_PER_ENTRY} actions.")
        try:
            return self._submit(kind, actions)
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("writing the local seat's decision", exc)

    def tick(self, now: float) -> list:
        """Time passed: heartbeats (with the head), away peers, retries for missing entries."""
        try:
            return self._tick(now)
        except Exception as exc:
            return self._fault("keeping time", exc)

    def follow(self, step: TakeOwnEntry | NextStep) -> list:
        """Work the session left for later (the effect runner hands it back)."""
        if not isinstance(step, (TakeOwnEntry, NextStep)):
            raise TypeError(f"{step!r} is no step of a session")
        try:
            if isinstance(step, TakeOwnEntry):
                return self._take_own(step.entry, step.checked)
            return self._my_turn()
        except Exception as exc:
            return self._fault("taking its own next step", exc)

    def leave(self) -> list:
        """This node leaves (cleanly: its peers are told)."""
        data = Leave().to_bytes()
        return [Send(k, data) for k in self._peers()]

    def remove_seat(self, index: int, now: float) -> list:
        """The host removes the node holding seat `index` before the game starts: the seat
        is free again (`SeatFreed`, why "removed"), that node is refused and its hellos are
        refused from now on; a proposal already sent is withdrawn. LocalError saying why
        when this node hosts no forming table or no one holds that seat."""
        if self._forming is None or self._phase not in (Phase.FORMING, Phase.SIGNING):
            raise LocalError("Seats can only be removed before the game starts.")
        return self._formed(self._forming.remove(index))

    # -- the read-only surface ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def game_name(self) -> str:
        return self._genesis.genesis.game if self._genesis is not None else self._forming.game

    @property
    def game(self) -> engines.Game:
        return engines.get(self.game_name)

    @property
    def options(self) -> Mapping[str, Any]:
        """The game's options with every default filled in ({} for a joiner until the proposal)."""
        f = self._forming
        if self._genesis is not None:
            source: Any = self._genesis.genesis
            players, given = len(source.seats), source.options
        elif f.proposal is not None:
            source = f.proposal
            players, given = len(source.seats), source.options
        elif f.hosting:
            source, players, given = f, f.players, f.options
        else:
            return {}
        if self._resolved[0] is not source:
            self._resolved = (source, self.game.resolve_options(players, given))
        return self._resolved[1]

    @property
    def players(self) -> int:
        """Seats at the table (0 for a joiner until it is welcomed)."""
        if self._genesis is not None:
            return len(self._genesis.genesis.seats)
        return self._forming.players

    @property
    def private(self) -> bool:
        """The table needs a code (a joiner: it was given one)."""
        return self._private

    @property
    def local_seat(self) -> int | None:
        """This node's seat; None for a spectator, or before it has one."""
        return self._seat if self._forming is None else self._forming.seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seat: while the table forms, the seats taken so far, in seat order (a freed
        seat leaves a gap: read each one's `index`; a joiner knows them from the proposal);
        then the genesis's."""
        if self._genesis is not None:
            addrs = self._addrs
            known = tuple((i, s.name, s.key, addrs[i] if i < len(addrs) else "")
                          for i, s in enumerate(self._genesis.genesis.seats))
        else:
            known = self._forming.seats()
        return tuple(self._seat_info(*seat) for seat in known)

    def _seat_info(self, index: int, name: str, key: bytes, address: str) -> SeatInfo:
        if key == self._key:
            return SeatInfo(index, name, fingerprint(key), key, "you", None, address)
        connection = "left" if index in self._left else "away" if index in self._away else "connected"
        return SeatInfo(index, name, fingerprint(key), key, connection, self._heard.get(key), address)

    def acked(self, index: int) -> int:
        """The last seq seat `index` has acknowledged holding (with our entry there); 0
        before the genesis."""
        if self._acks is None or not 0 <= index < len(self._acks.acked):
            return 0
        return self._acks.acked[index]

    @property
    def spectators(self) -> tuple[bytes, ...]:
        """The keys of the spectators this node serves."""
        return tuple(self._spectators if self._forming is None else self._forming.spectators)

    @property
    def log_length(self) -> int:
        """Entries after the genesis held here."""
        return len(self._entries)

    @property
    def confirmed_seq(self) -> int:
        return 0 if self._acks is None else self._acks.confirmed

    def position(self, confirmed: bool = False) -> Position | None:
        """Where the game stands at the head (or at the last confirmed entry), as this seat
        sees it; None before the genesis."""
        chain = self._confirmed_chain if confirmed else self._chain
        if chain is None:
            return None
        live = self._phase is Phase.PLAYING and not chain.finished
        return Position(chain.next_seq - 1, chain.state, chain.entitled() if live else None)

    def decision_kind(self) -> str | None:
        """"move" or "commit" when the local seat must decide now, else None."""
        try:
            return self._decision()
        except LocalError:
            return None

    def legal_actions(self) -> tuple:
        """The local seat's options now: its legal moves, or its secret choice's candidates;
        () when the decision is not the local seat's."""
        kind = self.decision_kind()
        return () if kind is None else self._author.options(self._chain, kind)

    @property
    def moves(self) -> tuple[MoveRecord, ...]:
        """Every accepted move entry, in order, with its actions in the game's notation."""
        return () if self._moves is None else self._moves.records(self.confirmed_seq)

    @property
    def result(self) -> GameOver | None:
        return self._result

    @property
    def halt(self) -> Event | None:
        """Why the game halted here (Desync, Equivocation or InternalFault), else None."""
        return self._halt

    @property
    def table_id(self) -> bytes:
        return self._genesis.genesis.table if self._genesis is not None else self._forming.table

    @property
    def genesis_hash(self) -> bytes | None:
        return None if self._genesis is None else self._genesis.hash

    # -- whose fault --------------------------------------------------------------------------------

    def _reject(self, sender: bytes, reason: str) -> list:
        """The sender's fault: said, and counted against it."""
        self._strikes[sender] = self._strikes.get(sender, 0) + 1
        return [Rejected(fingerprint(sender) if len(sender) == 32 else "?", reason)]

    def _fault(self, doing: str, exc: Exception) -> list:
        """Our own: the game halts here, nobody is blamed, the node keeps the details."""
        what = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        details = "".join(traceback.format_exception(exc))
        return self._halt_with(InternalFault(f"internal error while {doing} ({what})", details=details))

    def _halt_with(self, event: Event) -> list:
        self._halt = event
        self._phase = Phase.HALTED
        return [event]

    # -- bookkeeping ------------------------------------------------------------------------------------

    def _peers(self) -> list[bytes]:
        """Everyone a broadcast goes to: the other seats (or, while the table forms, whoever
        this node deals with) and the spectators it serves."""
        if self._broadcast_keys is not None:
            return self._broadcast_keys
        if self._forming is not None:
            keys = self._forming.peers()
        else:
            keys = list(self._seats) + list(self._spectators)
        peers = [k for k in dict.fromkeys(keys) if k != self._key]
        if self._forming is None:
            self._broadcast_keys = peers  # until the spectators change
        return peers

    def _broadcast(self, message: Message) -> list:
        data = message.to_bytes()
        return [Send(k, data) for k in self._peers()]

    def _heard_from(self, sender: bytes, now: float) -> list:
        self._heard[sender] = now
        if self._forming is not None:
            self._forming.heard(sender, now)
            return []
        seat = self._seats.get(sender)
        if seat is not None and (seat in self._away or seat in self._left):
            self._away.discard(seat)
            self._left.discard(seat)
            return [PeerBack(seat)]
        return []

    def _tick(self, now: float) -> list:
        if self._phase is Phase.HALTED:
            return []
        effects: list = []
        if now >= self._next_beat:
            self._next_beat = now + BEAT_EVERY
            beat = self._beat()
            effects += [Send(k, beat) for k in self._peers()]
            if self._entries and self._seat is not None:
                # acks are sent once; repeating the latest now and then repairs lost ones
                effects += self._ack(self._entries[-1], self._acks.hashes[-1][1])
        if self._forming is not None:
            f = self._forming
            return effects + self._formed(f.tick(now) + f.settle(now))
        for key, seat in self._seats.items():
            if key == self._key or seat in self._away or seat in self._left:
                continue
            heard = self._heard.get(key)
            if heard is None:
                heard = self._silent_since.setdefault(key, now)
            if now - heard > AWAY_AFTER:
                self._away.add(seat)
                effects.append(PeerAway(seat))
        return effects

    # -- forming the table (protocol/forming.py) ----------------------------------------------------

    def _formed(self, effects: list) -> list:
        """After the forming handshake took a message: the game starts once it has its genesis."""
        f = self._forming
        if f.genesis is None:
            self._phase = Phase.FORMING if f.proposal is None else Phase.SIGNING
            return effects
        try:
            return effects + self._start(f.genesis, f.addrs)
        except ChainError as exc:
            f.genesis = None
            raise MessageError(f"genesis: {exc.why}") from None

    def _start(self, genesis: SignedGenesis, addrs: tuple[str, ...], resumed: bool = False) -> list:
        """The game begins here (or, `resumed`, begins again from the stored genesis)."""
        g = genesis.genesis
        mine = [i for i, s in enumerate(g.seats) if s.key == self._key]
        seat = mine[0] if mine and self._secrets is not None else None
        chain = GameChain.start(genesis, {} if seat is None else {seat: self._secrets.seed})
        self._genesis, self._addrs, self._chain, self._confirmed_chain = genesis, addrs, chain, chain
        self._seat = seat
        self._author = None if seat is None else Author(seat, self._secrets)
        self._moves = MoveList(chain.game)
        self._seats = {s.key: i for i, s in enumerate(g.seats)}
        self._seat_keys = tuple(s.key for s in g.seats)
        hosted = self._forming is not None and self._forming.hosting
        if self._forming is not None:
            self._spectators.update(self._forming.spectators)
            self._forming = None
        self._broadcast_keys = None
        self._acks = Confirmations(len(g.seats), seat)
        self._phase = Phase.PLAYING
        effects: list = [] if resumed else [StoreGenesis(genesis, addrs)]
        data = GenesisMessage(genesis, addrs).to_bytes()
        # the host, holding every signature, hands the genesis to every seat at once
        effects += [Send(k, data) for k in (self._seat_keys if hosted else ()) if k != self._key]
        effects += [Send(k, data) for k in self._spectators]
        effects.append(PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, addrs))))
        effects.append(GameStarted(genesis))
        return effects if resumed else effects + self._my_turn()

    # -- the game: messages ------------------------------------------------------------------------------

    def _on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        """A spectator joining late, or a seat that lost its genesis or listens somewhere
        else now (it resumed on another address)."""
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        effects: list = []
        if m.role == "spectator":
            self._spectators[sender] = m.addr
            self._broadcast_keys = None
        elif sender not in self._seats:
            return [Send(sender, Refuse("the table is full").to_bytes())]
        else:
            seat = self._seats[sender]
            addrs = list(self._addrs) + [""] * (len(self._seat_keys) - len(self._addrs))
            if m.table == self.table_id and m.addr and m.addr != addrs[seat]:
                addrs[seat] = m.addr
                self._addrs = tuple(addrs)
                effects.append(PeerMoved(seat, sender, m.addr))
        return effects + [Send(sender, GenesisMessage(self._genesis, self._addrs).to_bytes())]

    def _on_sign(self, sender: bytes, m: Sign, now: float) -> list:
        """A seat still collecting signatures: hand it the genesis."""
        if sender not in self._seats or now - self._asked.get(sender, -1e9) < BEAT_EVERY:
            return []
        self._asked[sender] = now
        return [Send(sender, GenesisMessage(self._genesis, self._addrs).to_bytes())]

    def _on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> list:
        if m.genesis.hash != self._genesis.hash:
            raise MessageError("genesis: a different game")
        return []

    def _on_entry(self, sender: bytes, m: EntryMessage, now: float) -> list:
        entry = m.entry
        have = len(self._entries)
        if entry.seq <= have:
            return self._compare(sender, entry)
        if entry.seq > have + 1:
            if entry.seq <= have + AHEAD_WINDOW and entry.seq not in self._ahead:
                self._ahead[entry.seq] = entry
            return self._ask(sender, have + 1, now)
        effects = self._accept(sender, entry)
        while self._phase is Phase.PLAYING and len(self._entries) + 1 in self._ahead:
            effects += self._accept(sender, self._ahead.pop(len(self._entries) + 1))
        # the local seat's own next step comes last, after every store and ack of these entries
        return effects + [NextStep()]

    def _on_ack(self, sender: bytes, m: Ack, now: float) -> list:
        keys = self._seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"ack: a forged ack (the sender does not hold seat {m.seat})")
        held = len(self._entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("ack: far beyond this node's log")
            self._acks.wait(m.seat, m.seq, m.entry, m.state)
            return self._ask(sender, held + 1, now)
        desync = self._acks.take(m.seat, m.seq, m.entry, m.state)
        if desync is not None:
            return self._halt_with(desync)
        effects = []
        if m.entry != self._entries[m.seq - 1].hash:
            effects.append(Send(sender, Want(m.seq).to_bytes()))  # a fork: fetch its entry (proof)
        return effects + self._advance()

    def _on_beat(self, sender: bytes, m: Beat, now: float) -> list:
        if m.seq > len(self._entries):
            return self._ask(sender, len(self._entries) + 1, now)
        author = self._author
        if author is not None and sender in author.unheard:
            author.unheard.discard(sender)
            if not author.unheard:
                return [NextStep()]
        return []

    def _on_want(self, sender: bytes, m: Want, now: float) -> list:
        batch = self._entries[m.seq - 1 : m.seq - 1 + BATCH]
        # the head last, so a node catching up knows at once whether it has it all
        return [Send(sender, EntryMessage(e).to_bytes()) for e in batch] + [Send(sender, self._beat())]

    def _on_proof(self, sender: bytes, m: Proof, now: float) -> list:
        a, b = m.first, m.second
        keys = self._seat_keys
        if a.seq != b.seq or a.seat != b.seat or a.hash == b.hash or not a.seat < len(keys):
            raise MessageError("proof: not two different entries of one seat for one seq")
        key = keys[a.seat]
        if not (verify(key, a.signing_bytes(), a.sig) and verify(key, b.signing_bytes(), b.sig)):
            raise MessageError("proof: a signature does not verify")
        return self._halt_equivocation(m)

    def _on_leave(self, sender: bytes, m: Leave, now: float) -> list:
        if self._spectators.pop(sender, None) is not None:
            self._broadcast_keys = None
        seat = self._seats.get(sender)
        if seat is None:
            return []
        self._left.add(seat)
        self._away.discard(seat)
        return [PeerLeft(seat)]

    # -- the game: entries in ------------------------------------------------------------------------

    def _ask(self, peer: bytes, seq: int, now: float) -> list:
        if now - self._asked.get(peer, -1e9) < BEAT_EVERY / 2:
            return []
        self._asked[peer] = now
        return [Send(peer, Want(seq).to_bytes())]

    def _beat(self) -> bytes:
        head = self._entries[-1].hash if self._entries else (self._genesis.hash if self._genesis else bytes(32))
        return Beat(len(self._entries), head).to_bytes()

    def _compare(self, sender: bytes, entry: Entry) -> list:
        """An entry for a seq already held: a duplicate, or proof of equivocation."""
        mine = self._entries[entry.seq - 1]
        if entry.hash == mine.hash:
            return []
        if entry.seat == mine.seat and verify(self._seat_keys[entry.seat], entry.signing_bytes(), entry.sig):
            return self._halt_equivocation(Proof(mine, entry))
        raise MessageError(f"entry: a different seq {entry.seq} not signed by its author")

    def _halt_equivocation(self, proof: Proof) -> list:
        if self._phase is Phase.HALTED:
            return []
        return self._halt_with(Equivocation(proof.first.seat, proof.first.seq, proof)) + self._broadcast(proof)

    def _accept(self, sender: bytes, entry: Entry) -> list:
        """Take the next entry from a peer: check it, store it, pass it on to our
        spectators, ack it."""
        try:
            checked = self._chain.check(entry)
        except ChainError as exc:
            # A refused entry can never be accepted by an honest node, so it cannot
            # split the table: it is no evidence of equivocation, only a strike.
            return self._reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self._append(entry, checked)
        effects: list = [Store(entry)]
        relay = [k for k in self._spectators if k != sender]
        if relay:
            data = EntryMessage(entry).to_bytes()
            effects += [Send(k, data) for k in relay]
        return effects + self._stored(entry, checked)

    def _append(self, entry: Entry, chain: GameChain) -> None:
        before = self._chain
        self._chain = chain
        self._chains[entry.seq] = chain
        self._entries.append(entry)
        if entry.kind == "move":
            self._moves.add(entry, before.state, self._acks.confirmed)
            if self._author is not None:
                self._author.taken(entry)

    def _stored(self, entry: Entry, chain: GameChain) -> list:
        """`entry` is on disk here, `chain` the chain it ends: ack it with the state hash,
        take the acks that were waiting for it, confirm what that confirms."""
        state_hash = chain.game.state_hash(chain.state)
        effects = self._ack(entry, state_hash)
        desync = self._acks.stored(entry.hash, state_hash)
        if desync is not None:
            return effects + self._halt_with(desync) + [Accepted(entry.seq, entry)]
        effects += self._advance()
        effects.append(Accepted(entry.seq, entry))
        if chain.finished:
            effects += self._game_over()
        return effects

    def _game_over(self) -> list:
        g, s = self._chain.game, self._chain.state
        self._result = GameOver(tuple(g.winners(s)), tuple(g.scores(s)), tuple(self._chain.cheats))
        self._phase = Phase.OVER
        return [self._result]

    def _ack(self, entry: Entry, state_hash: bytes) -> list:
        if self._seat is None:
            return []
        return self._broadcast(Ack(self._seat, entry.seq, entry.hash, state_hash))

    def _advance(self) -> list:
        confirmed = self._acks.advance()
        for event in confirmed:
            self._confirmed_chain = self._chains.pop(event.seq)
        return confirmed

    # -- the game: the local seat's entries ------------------------------------------------------------

    def _decision(self) -> str:
        """The kind of decision the local seat must make now; LocalError saying why there is none."""
        if self._phase is not Phase.PLAYING or self._author is None:
            if self._phase is Phase.HALTED:
                raise LocalError("The game is halted.")
            if self._phase is Phase.OVER:
                raise LocalError("The game is over.")
            raise LocalError("There is no game in progress at this seat.")
        return self._author.decision(self._chain)

    def _submit(self, kind: str, actions: tuple) -> list:
        chain, author = self._chain, self._author
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(chain, kind):
                raise LocalError("That is not one of your choices here.")
            nonce = self._random(NONCE_BYTES)
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
        chain = self._chain
        entry = make_entry(self._identity, chain.next_seq, chain.head, self._seat, kind, body)
        # (our own signature needs no verifying)
        checked = None if offered else chain.check(entry, signatures=False)
        # The entry leaves before its fsync, so the peers' checks and fsyncs run while ours
        # does; it is written first, so a crashed process still has it, and the author acks
        # it only once it is on disk. A machine that lost it before the fsync learns it back
        # from its peers: a resumed seat writes nothing until it has heard every seat's head
        # (`resume`), so it never signs another entry there.
        data = EntryMessage(entry).to_bytes()
        return ([Store(entry, sync=False)] + [Send(k, data) for k in self._peers()]
                + [TakeOwnEntry(entry, checked), NextStep()])

    def _take_own(self, entry: Entry, checked: GameChain | None) -> list:
        """Our entry is written and on its way: take it into the chain, then wait for its
        fsync and ack it."""
        if self._phase is not Phase.PLAYING:
            return []
        if checked is None:
            try:
                checked = self._chain.check(entry, signatures=False)
            except ChainError as exc:  # the engine offered an action it cannot apply
                self._author.ask_again()  # the peers refuse that entry too
                return [Unstore(entry), Rejected(fingerprint(self._key), f"this seat's own move was refused: "
                                                                         f"{exc.why} (an engine fault)")]
        self._append(entry, checked)
        return [Sync()] + self._stored(entry, checked)

    def _my_turn(self) -> list:
        """Write what the local seat owes by itself, or tell the client it must decide."""
        if self._phase is not Phase.PLAYING or self._author is None:
            return []
        step = self._author.next(self._chain)
        if isinstance(step, Write):
            return self._write(step.kind, step.body)
        return [] if step is None else [step]


# -- which messages each phase takes -------------------------------------------------------------


def _ignore(session: Session, sender: bytes, message: Message, now: float) -> list:
    """Taken and dropped: a late repeat, or something this phase has no use for."""
    return []


def _no_game(session: Session, sender: bytes, message: Message, now: float) -> list:
    raise MessageError(f"{message.kind}: no game has started here")


def _forming(step: Callable[[Forming, bytes, Any, float], list]) -> Handler:
    """A message for the forming handshake (protocol/forming.py)."""
    def handler(session: Session, sender: bytes, message: Message, now: float) -> list:
        return session._formed(step(session._forming, sender, message, now))
    return handler


S = Session
#: (spec/protocol.md, "Phases") each message class, and what each phase does with it
COLUMNS = (Phase.FORMING, Phase.SIGNING, Phase.PLAYING, Phase.OVER, Phase.HALTED)
_TABLE: dict[type[Message], tuple[Handler, ...]] = {
    #                FORMING                      SIGNING                      PLAYING         OVER            HALTED
    Hello:          (_forming(Forming.on_hello),   _forming(Forming.on_hello),   S._on_hello,    S._on_hello,    _ignore),
    Welcome:        (_forming(Forming.on_welcome), _forming(Forming.on_welcome), _ignore,        _ignore,        _ignore),
    Refuse:         (_forming(Forming.on_refuse),  _forming(Forming.on_refuse),  _ignore,        _ignore,        _ignore),
    Propose:        (_forming(Forming.on_propose), _forming(Forming.on_propose), _ignore,        _ignore,        _ignore),
    Sign:           (_forming(Forming.on_sign),    _forming(Forming.on_sign),    S._on_sign,     S._on_sign,     _ignore),
    GenesisMessage: (_forming(Forming.on_genesis), _forming(Forming.on_genesis), S._on_genesis,  S._on_genesis,  _ignore),
    EntryMessage:   (_ignore,                      _ignore,                      S._on_entry,    S._on_entry,    _ignore),
    Ack:            (_ignore,                      _ignore,                      S._on_ack,      S._on_ack,      _ignore),
    Beat:           (_ignore,                      _ignore,                      S._on_beat,     S._on_beat,     _ignore),
    Want:           (_ignore,                      _ignore,                      S._on_want,     S._on_want,     _ignore),
    Proof:          (_no_game,                     _no_game,                     S._on_proof,    S._on_proof,    _ignore),
    Leave:          (_forming(Forming.on_leave),   _forming(Forming.on_leave),   S._on_leave,    S._on_leave,    _ignore),
}
del S


def dispatch_table(table: Mapping[type[Message], tuple[Handler, ...]]) -> dict[Phase, dict[type[Message], Handler]]:
    """phase -> message class -> handler, from a table of rows; ImportError unless every
    message class of the protocol has a row with a handler for every phase (so a message
    class renamed or added without its row fails the moment this module loads)."""
    missing = sorted(c.__name__ for c in set(MESSAGE_CLASSES) - set(table))
    unknown = sorted(c.__name__ for c in set(table) - set(MESSAGE_CLASSES))
    short = sorted(c.__name__ for c, row in table.items() if len(row) != len(COLUMNS))
    if missing or unknown or short or set(COLUMNS) != set(Phase):
        raise ImportError(f"the session's table must give every message class a handler in every phase "
                          f"(no row: {missing}; not a message: {unknown}; not one handler per phase: {short})")
    return {phase: {cls: row[i] for cls, row in table.items()} for i, phase in enumerate(COLUMNS)}


_TAKES = dispatch_table(_TABLE)
