"""The game under way: a session's data and its handling of the game's messages from the
genesis on, phases PLAYING and OVER (spec/protocol.md, "The session").

It accepts an entry only when the ledger accepts it (signature, position, entitlement,
legality), stores it, acks it with the state hash, confirms it once every seat's ack agrees
(protocol/session/confirmation.py), writes its own seat's entries (reveals, commitments, the audit,
the result) by itself, gossips heads and serves missing entries. Whatever moves the phase —
the end of the game, a halt — and a strike against a sender are the session's: `Keeper`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from peerboard import engines
from peerboard.protocol.log import (
    DEFAULT_PATIENCE, MAX_CARRIED, Entry, Identity, Ledger, LedgerError, NONCE_BYTES, SeatSecrets, SignedGenesis,
    agree_statement, claim_statement, failures, fingerprint, fits_chain, gathered_part, make_entry,
    next_statement, resign_statement, takeover_body, takeover_secrets, verify,
)
from peerboard.protocol.session.acks import confirm_of, gathers
from peerboard.protocol.session.author import WAITING, Author, Write
from peerboard.protocol.session.claims import Gathering, Signed
from peerboard.protocol.session.confirmation import Confirmations
from peerboard.protocol.session.forming import NOT_WATCHING, STARTED
from peerboard.protocol.session.effects import (
    NextStep, Send, SetAside, Store, StoreChoice, StoreClaim, StoreGenesis, Sync, TakeOwnEntry, Unstore,
)
from peerboard.protocol.session.events import (
    Accepted, Claimable, Declined, Disputed, Ended, Ending, Equivocation, Event, GameOver, GameStarted, Offered,
    PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Rejected, TakenOver, TakeoverTurn, Unanswered, Woke, YourTurn,
)
from peerboard.protocol.session.messages import (
    Ack, Beat, Claim, Confirm, Decline, EntryMessage, GenesisMessage, Hello, Leave, Message, MessageError, Offer, Proof,
    Refuse, Resign,
    Sign, Want, ack_bytes,
)
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveList, MoveRecord, Phase, Position

#: the entries a gatherer writes from every seat's part, each part riding on that seat's ack
#: of the entry before (protocol/log/reveals.py, protocol/log/ends.py)
GATHERED = ("reveals", "audits", "results")
BEAT_EVERY = 1.0  # seconds between heartbeats (each carries the head)
AWAY_AFTER = 5.0  # a seat silent this long is shown as away
#: this node did not tick for this long: it was frozen (its process stopped, its computer
#: asleep), and the others' silence meanwhile is not theirs (spec/protocol.md, "Patience and claims")
FROZEN_AFTER = AWAY_AFTER
#: a resumed seat that has heard no head of another seat this long is told what that may mean
UNANSWERED_AFTER = 10.0
BATCH = 64  # entries served per request
AHEAD_WINDOW = 256  # entries buffered beyond the next expected one
#: seconds an entry that came early waits for the one before it before this node asks for
#: it: entries of different authors overtake each other, and the one missing is most often
#: on its way (asking at once would fetch it twice)
GAP_WAIT = 0.1


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
                 genesis: SignedGenesis, addrs: tuple[str, ...], ledger: Ledger, seat: int | None,
                 spectators: Mapping[bytes, str], heard: dict[bytes, float], keeper: Keeper,
                 may_watch: Callable[[bytes], bool] = lambda key: True):
        g = genesis.terms
        self.may_watch = may_watch
        self.identity = identity
        self.key = identity.public_key
        self.random = random
        self.keeper = keeper
        self.genesis = genesis
        self.addrs = addrs
        self.ledger = ledger
        self.confirmed_ledger = ledger
        self.seat = seat  # None: a spectator
        self.author = None if seat is None else Author(seat, secrets)
        self.seats: dict[bytes, int] = {s.key: i for i, s in enumerate(g.seats)}  # seat key -> seat
        self.seat_keys: tuple[bytes, ...] = tuple(s.key for s in g.seats)  # by seat
        self.entries: list[Entry] = []
        self.ahead: dict[int, Entry] = {}
        self.acks = Confirmations(len(g.seats), seat)
        self.ledgers: dict[int, Ledger] = {}  # the ledger at each seq not yet confirmed
        self.moves = MoveList(ledger.game)
        self.spectators: dict[bytes, str] = dict(spectators)
        self.broadcast_keys: list[bytes] | None = None
        self.heard = heard  # the session's: when each key was last heard, since it began
        self.silent_since: dict[bytes, float] = {}  # seats never heard: timed from the first tick
        self.away: set[int] = set()
        self.left: set[int] = set()
        self.asked: dict[bytes, float] = {}  # peer -> when we last asked it for entries
        self.result: GameOver | None = None  # once over
        #: resignations heard and not yet in the log: seat -> its signed statement; the seat
        #: entitled to the next entry carries one in (spec/protocol.md, "Endings")
        self.resignations: dict[int, bytes] = {}
        self.resigned = False  # the local seat resigned: its statement is repeated until it is in
        #: seconds a seat may be away before the others may claim it (the genesis's, or the default)
        self.patience: int = g.patience or DEFAULT_PATIENCE
        self.claimable_told: set[int] = set()  # seats told `Claimable` since they were last heard
        self.claimable_at = 0  # (at three or more seats) the entry they were told at
        #: offers that the game ends drawn or aborted at the next entry: how -> seat -> its
        #: signature, all for (`offers_at`, the head); they lapse when another entry is written
        self.offers: dict[str, dict[int, bytes]] = {}
        self.offers_at: int = 0
        #: the offers the local seat declined at `offers_at`: a repeat of one is answered with
        #: the decline again, never told again (spec/protocol.md, "Draws and aborts by agreement")
        self.declined: set[str] = set()
        #: claims at three or more seats being gathered (protocol/session/claims.py)
        self.gathering = Gathering()
        #: the seats this node plays taken over (spec/protocol.md, "Takeover"): seat -> (its
        #: identity, its author); worked out from the log and this seat's master secret
        self.takeovers: dict[int, tuple[Identity, Author]] = {}
        self._options: Mapping[str, Any] | None = None
        #: the last `confirm` this seat sent as an entry's author (three seats or more), and
        #: the acks repeated for an entry of ours confirmed before a restart: seq -> seat -> state
        self.last_confirm: Confirm | None = None
        #: the head this node found still waiting at its last beat (unconfirmed, or a round
        #: waiting for our value): our ack of it is said again only if it still waits at the next
        self.waiting_at_beat = 0
        #: an entry came early: (the seq missing before it, since when, who sent the early one)
        self.gap: tuple[int, float, bytes] | None = None
        self.regathered: dict[int, dict[int, bytes]] = {}
        #: confirms that came before their entry: seq -> (sender, confirm), taken once it is held
        self.early_confirms: dict[int, tuple[bytes, Confirm]] = {}
        #: this node's own presence (spec/protocol.md, "What a claim proves"): its last tick,
        #: since when it has run with no freeze, and when it took each entry it holds (None:
        #: before it was last started — a resumed node cannot tell how long it was down)
        self.last_tick: float | None = None
        self.present_since: float | None = None
        self.taken_at: list[float | None] = []
        self.heads_heard = 0  # the longest log a peer's beat has told of
        self.genesis_at: float | None = None  # (its first tick, for a game it started: not resumed)
        self.resumed = False
        #: a claim of the local seat, one seat's alone: whether this node has been here all along
        #: since it took the entry the claim follows (or wrote its own the claim displaced), and
        #: those entries of its own
        self.present_at_claim = False
        self.displaced: tuple[Entry, ...] = ()
        self.protesting = False  # our protest is written and on its way into the ledger
        self.unanswered_told = False  # (a resumed seat told that nobody answered yet)
        #: the protest of our claim a peer holds (seq, hash), once told (our log keeps our end)
        self.protest_told: tuple[int, bytes] | None = None

    @classmethod
    def start(cls, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
              genesis: SignedGenesis, addrs: tuple[str, ...], spectators: Mapping[bytes, str],
              heard: dict[bytes, float], keeper: Keeper,
              may_watch: Callable[[bytes], bool] = lambda key: True) -> "Play":
        """The game of `genesis`; LedgerError if the genesis cannot start one. A spectator
        is served only if `may_watch` admits its key."""
        key = identity.public_key
        mine = [i for i, s in enumerate(genesis.terms.seats) if s.key == key]
        seat = mine[0] if mine and secrets is not None else None
        ledger = Ledger.start(genesis, {} if seat is None else {seat: secrets.seed})
        return cls(identity, secrets, random, genesis, addrs, ledger, seat, spectators, heard, keeper, may_watch)

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
        return effects + self._genesis_value()

    def _genesis_value(self) -> list:
        """The genesis leaves the game at a reveal round (a shuffle, a layout): our value
        goes to its gatherer, seat 0, on an ack of seq 0 (the genesis), which carries
        nothing else."""
        if self.seat is None or self.entries:
            return []
        value = self._round_value(0)
        if value is None:
            return []
        state = self.ledger.game.state_hash(self.ledger.state)
        return [Send(self.seat_keys[value[0]], Ack(self.seat, 0, self.genesis.hash, state, value[2]).to_bytes())]

    def resume(self, entries: list[Entry], choice: tuple[tuple, bytes] | None, addr: str, hello: bytes,
               claim: tuple[int, int, bytes] | None = None) -> list:
        """Take back the stored `entries` (re-checked: LedgerError unless they check out), the
        secret choice committed and the claim statement signed last (gone, seq, prev); say
        `hello` to every seat if this node listens at `addr`, not where the genesis says."""
        effects: list = []
        hashes = []
        self.resumed = True
        for i, entry in enumerate(entries):
            last = i == len(entries) - 1
            try:
                # every entry but the last was checked before the next one was written
                ledger = self.ledger.check(entry, signatures=last)
            except LedgerError as exc:
                if not last:
                    raise
                # our own move, written before it was re-run, then the process died: never acked
                effects += [Unstore(entry), Rejected("this node's own log", f"its last entry, seq {exc.seq}, was never "
                                                                            f"checked and does not check out ({exc.why}): dropped")]
                break
            self._append(entry, ledger)
            hashes.append((entry.hash, ledger.game.state_hash(ledger.state)))
        # what was stored was acked before the crash; confirmation goes on from here
        self.acks = Confirmations(len(self.seats), self.seat, len(hashes), hashes)
        self.acks.gone = self._silent()
        self.ledgers.clear()
        self.confirmed_ledger = self.ledger
        if self.ledger.finished:
            self._game_over()
        if self.author is not None:
            self.author.choice = choice
            # Its last entry may have left before its fsync and been lost with the machine:
            # it writes nothing until every other seat has told it its head and it holds
            # that much, so it can never sign a second, different entry for one seq.
            # (a seat gone for good or taken over is not waited for: its node writes nothing more)
            silent = self._silent()
            self.author.unheard = {k for k, seat in self.seats.items() if k != self.key and seat not in silent}
            if claim is not None:
                self._signed_before(Signed(*claim))
            self._take_up()
        if self.seat is not None and self.seat < len(self.addrs) and self.addrs[self.seat] != addr:
            # it listens somewhere else now (`resume --bind`): its hello tells every seat
            effects += [Send(k, hello) for k in self.seat_keys if k != self.key]
        want = Want(len(self.entries) + 1).to_bytes()
        return effects + [Send(k, want) for k in self.peers()] + self._genesis_value() + self.my_turn()

    # -- the read-only surface ------------------------------------------------------------------------

    refused_for_now = None  # (the table has formed)

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
        if index in self.ledger.taken_seats:
            return "bot"  # taken over: a bot plays it, run by another seat's node
        return "left" if index in self.left else "away" if index in self.away else "connected"

    def acked(self, index: int) -> int:
        return self.acks.acked[index] if 0 <= index < len(self.acks.acked) else 0

    def position(self, confirmed: bool) -> Position:
        ledger = self.confirmed_ledger if confirmed else self.ledger
        live = self.keeper.phase() is Phase.PLAYING and not ledger.finished
        return Position(ledger.next_seq - 1, ledger.state, ledger.entitled() if live else None)

    def options_for(self, kind: str) -> tuple:
        return self.author.options(self.ledger, kind)

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
        if seat is not None and (seat in self.away or seat in self.left) and seat not in self.ledger.taken_seats:
            self.away.discard(seat)
            self.left.discard(seat)
            self.claimable_told.discard(seat)
            return [PeerBack(seat)]
        return []

    def away_for(self, index: int, now: float) -> float | None:
        """How long seat `index` has been silent, if it is away (or left); else None. (Counted
        from when this node was last frozen, if later: its own silence is not the seat's.)"""
        if index not in self.away and index not in self.left:
            return None
        key = self.seat_keys[index]
        heard = self.heard.get(key, self.silent_since.get(key))
        return None if heard is None else now - self._since(heard)

    def _since(self, heard: float) -> float:
        return heard if self.present_since is None else max(heard, self.present_since)

    def beat(self) -> bytes:
        head = self.entries[-1].hash if self.entries else self.genesis.hash
        return Beat(len(self.entries), head).to_bytes()

    def tick(self, now: float, beat: bool) -> list:
        """The beat just sent (`beat`) comes with the latest ack again; a seat silent too long is away."""
        effects: list = []
        if self.last_tick is not None and now - self.last_tick >= FROZEN_AFTER:
            # this node was frozen: the others heard nothing from it, and what it did not hear
            # from them meanwhile says nothing of them — their silence counts from now
            self.present_since = now
            effects.append(Woke(now - self.last_tick))
        elif self.present_since is None:
            self.present_since = now
            self.genesis_at = None if self.resumed else now
        self.last_tick = now
        author = self.author
        if (self.resumed and author is not None and author.unheard and not self.unanswered_told
                and now - self.present_since >= UNANSWERED_AFTER):
            self.unanswered_told = True
            effects.append(Unanswered(tuple(sorted(self.seats[k] for k in author.unheard)), now - self.present_since))
        gap = self.gap
        if gap is not None and gap[0] == len(self.entries) + 1 and self.ahead and now - gap[1] >= GAP_WAIT:
            effects += self._ask(gap[2], gap[0], now)
        if beat and not self.entries:
            effects += self._genesis_value()
        if beat and self.entries and self.seat is not None:
            # acks are sent once; repeating the latest now and then repairs lost ones (where
            # an author gathers them, only while the last entry is not confirmed here: the
            # author answers a repeat with its confirm)
            last = self.entries[-1]
            if not gathers(self.players):
                effects += self._ack(last, self.acks.hashes[-1][1])
            else:
                # (a confirm takes a round trip: an ack is said again only when its entry has
                # waited a whole beat; a round waiting for our value is waiting too)
                waiting = ((self.acks.confirmed < len(self.entries) and not self._mine(last.seat))
                           or self._round_value(last.seq) is not None)
                if waiting and self.waiting_at_beat == last.seq:
                    effects += self._ack(last, self.acks.hashes[-1][1])
                self.waiting_at_beat = last.seq if waiting else 0
        elif beat and self.entries and gathers(self.players):
            # a spectator acks nothing, so a lost confirm is not repaired by a repeated ack: when
            # the last entry has waited a whole beat unconfirmed here, it asks that entry's author
            # for it again, and the author's answer carries its confirm (`on_want`)
            last = self.entries[-1]
            waiting = self.acks.confirmed < len(self.entries)
            if waiting and self.waiting_at_beat == last.seq:
                effects += self._ask(self._node_of(last.seat), last.seq, now)
            self.waiting_at_beat = last.seq if waiting else 0
        if beat and self.resigned and self.ledger.may_end():
            # a lost statement is repaired by repetition, as a hello is
            effects += self._send_seats(Resign(self.seat, self.resignations[self.seat]))
        if beat and self.seat is not None and self.offers_at == self.ledger.next_seq:
            for how, sigs in sorted(self.offers.items()):
                if self.seat in sigs:  # our offer (or acceptance) stands: said again, for a lost one
                    effects += self._send_seats(Offer(self.seat, how, self.offers_at, self.ledger.head, sigs[self.seat]))
        if beat and self.author is not None:
            effects += self._claim_again()
        taken = self.ledger.taken_seats
        for key, seat in self.seats.items():
            if key == self.key or seat in self.away or seat in self.left or seat in taken:
                continue  # (a taken-over seat is as alive as its runner, which is counted as itself)
            heard = self.heard.get(key)
            if heard is None:
                heard = self.silent_since.setdefault(key, now)
            if now - self._since(heard) > AWAY_AFTER:
                self.away.add(seat)
                effects.append(PeerAway(seat))
        if self.author is not None and not self.author.unheard:
            if len(self.ledger.writers) > 2 and self.claimable_at != self.ledger.next_seq:
                # at three or more seats a claim is of one entry: told again at the next one
                self.claimable_told.clear()
                self.claimable_at = self.ledger.next_seq
            for seat in sorted(self.away | self.left):
                if seat in self.claimable_told or not self._may_sign_claim(seat):
                    continue
                away = self.away_for(seat, now)
                if away is not None and away >= self.patience:
                    self.claimable_told.add(seat)
                    effects.append(Claimable(seat, self.patience))
        return effects

    # -- the game's messages ----------------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> list:
        """A spectator joining late, or a seat that lost its genesis or listens somewhere
        else now (it resumed on another address)."""
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        effects: list = []
        if m.role == "spectator":
            if not self.may_watch(sender):
                # (a key that connected while the table formed, when any key may connect)
                return [Send(sender, Refuse(NOT_WATCHING).to_bytes())]
            self.spectators[sender] = m.addr
            self.broadcast_keys = None
        elif sender not in self.seats:
            return [Send(sender, Refuse(STARTED).to_bytes())]
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
        effects = [] if m.confirm is None else self.on_confirm(sender, m.confirm, now)  # (of the entry before it)
        if self.keeper.phase() is Phase.HALTED:
            return effects
        effects += self._on_entry(sender, m, now)
        if not self.early_confirms:
            return effects
        held = len(self.entries)
        for seq in sorted(s for s in self.early_confirms if s <= held):
            if self.keeper.phase() is Phase.HALTED:
                break
            early, confirm = self.early_confirms.pop(seq)
            try:
                effects += self.on_confirm(early, confirm, now)
            except MessageError as exc:
                effects += self.keeper.reject(early, str(exc))
        return effects

    def _on_entry(self, sender: bytes, m: EntryMessage, now: float) -> list:
        entry = m.entry
        have = len(self.entries)
        if entry.seq <= have:
            return self._compare(sender, entry)
        if entry.seq > have + 1:
            if entry.seq <= have + AHEAD_WINDOW and entry.seq not in self.ahead:
                self.ahead[entry.seq] = entry
            if self.gap is None or self.gap[0] != have + 1:
                self.gap = (have + 1, now, sender)
            if now - self.gap[1] < GAP_WAIT:
                return []  # (`tick` asks if it is still missing then)
            return self._ask(sender, have + 1, now)
        effects = self._accept(sender, entry)
        phase = self.keeper.phase
        while phase() is Phase.PLAYING and len(self.entries) + 1 in self.ahead:
            effects += self._accept(sender, self.ahead.pop(len(self.entries) + 1))
        # the local seat's own next step comes last, after every store and ack of these entries
        return effects + [NextStep()]

    def on_ack(self, sender: bytes, m: Ack, now: float) -> list:
        keys = self.seat_keys
        if not m.seat < len(keys) or sender not in (keys[m.seat], self._node_of(m.seat)):
            raise MessageError(f"ack: a forged ack (the sender does not hold seat {m.seat})")
        if self._is_silent(m.seat):
            # a seat gone for good or taken over: its acks count for nothing (its runner acks
            # as itself), but its runner's ack in its name carries its value for the round
            if (m.reveal is None and m.sig is None) or sender == keys[m.seat] or m.seq == 0:
                return []
            return [NextStep()] if self._gather(m) else []
        if m.seq == 0:  # (the genesis: only a value for the round it leaves the game at)
            if m.reveal is None or m.entry != self.genesis.hash:
                raise MessageError("ack: an ack of seq 0 carries a reveal for the genesis's round, and nothing else")
            return [NextStep()] if self._gather(m) else []
        if self.gathering.mine is not None and self.seat is not None:
            mine = self.gathering.mine
            released = self.gathering.acked(m.seat, m.seq, m.entry, self.seat, self.ledger.claim_signers(mine.gone))
            if released is not None:
                # a third seat took the entry held aside: our claim can never be whole
                entry, by = released
                return self.on_entry(by, EntryMessage(entry), now) + self.on_ack(sender, m, now)
        held = len(self.entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("ack: far beyond this node's log")
            self.acks.wait(m.seat, m.seq, m.entry, m.state)
            return self._ask(sender, held + 1, now)
        confirmed = self.acks.confirmed
        news = (m.reveal is not None or m.sig is not None) and self._gather(m)
        desync = self.acks.take(m.seat, m.seq, m.entry, m.state)
        if desync is not None:
            return self._told_desync(m.seq) + self.keeper.halt(desync)
        effects = []
        if m.entry != self.entries[m.seq - 1].hash:
            effects.append(Send(sender, Want(m.seq).to_bytes()))  # a fork: fetch its entry (proof)
        elif m.seq <= confirmed and gathers(self.players) and self._mine(self.entries[m.seq - 1].seat):
            effects += self._confirm_again(sender, m)
        effects += self._advance()  # (at three seats or more it writes the round, once whole)
        if news and not gathers(self.players):
            # a value of the round we gather: the round leaves the moment it is whole
            return effects + self.my_turn()
        return effects + ([NextStep()] if news else [])

    def _gather(self, m: Ack) -> bool:
        """A seat's part of the entry a seat this node plays gathers — its value for a reveal
        round, its seed for the audits, its signature of the result — on its ack of the entry
        before: whether it is news."""
        ledger = self.ledger
        if self.author is None or ledger.next_seq != m.seq + 1 or ledger.finished or m.entry != ledger.head:
            return False  # a repeat for an entry written already
        seat, kind = ledger.entitled()
        if kind not in GATHERED or not self._mine(seat):
            return False  # not ours to gather
        if kind == "reveals":
            if m.reveal is None:
                return False
            if not fits_chain(ledger, m.seat, m.reveal):
                raise MessageError(f"ack: seat {m.seat}'s reveal does not match its hash chain (a biased or forged reveal)")
            return self._author_of(seat).gather(ledger.next_seq, m.seat, m.reveal)
        part = m.sig if kind == "results" else m.reveal
        if part is None or m.seat not in ledger.writers:
            return False
        if not gathered_part(ledger, kind, m.seat, part):
            what = "signature of the result" if kind == "results" else "seed does not match its commitment: its"
            raise MessageError(f"ack: seat {m.seat}'s {what} is forged or false")
        return self._author_of(seat).gather(ledger.next_seq, m.seat, part)

    def _due_gathered(self) -> tuple[int, str] | None:
        """(its gatherer, its kind) when the next entry is gathered from every seat's part."""
        ledger = self.ledger
        if ledger.finished or not (ledger.together or ledger.ends_together):
            return None
        seat, kind = ledger.entitled()
        return (seat, kind) if kind in GATHERED else None

    def _part_of(self, seat: int, kind: str) -> bytes:
        """The part of seat `seat` (ours, or one this node runs) of the gathered entry due."""
        ledger = self.ledger
        if kind == "reveals":
            return self._author_of(seat).round_value(ledger)
        if kind == "audits":
            return self._author_of(seat).secrets.seed
        identity = self.identity if seat == self.seat else self.takeovers[seat][0]
        return identity.sign(next_statement(ledger))

    @staticmethod
    def _valued_ack(seat: int, seq: int, entry: bytes, state: bytes, kind: str, part: bytes) -> Ack:
        """An ack carrying seat `seat`'s part of the gathered entry of `kind` due next."""
        if kind == "results":
            return Ack(seat, seq, entry, state, sig=part)
        return Ack(seat, seq, entry, state, part)

    def _round_value(self, seq: int) -> tuple[int, str, bytes] | None:
        """(the gatherer, the kind, our part) when entry `seq` is the head and the next entry
        is gathered by another node (a reveal round, the audits, the results): our part rides
        on our ack of `seq` to it."""
        ledger, author = self.ledger, self.author
        if author is None or ledger.next_seq != seq + 1:
            return None
        due = self._due_gathered()
        if due is None or self._mine(due[0]) or (due[1] != "reveals" and self.seat not in ledger.writers):
            return None
        return due[0], due[1], self._part_of(self.seat, due[1])

    def _taken_values(self, seq: int, state_hash: bytes) -> list:
        """The values of the seats this node runs taken over, for the round another node
        gathers after entry `seq`: each in an ack in that seat's name, to the gatherer (the
        ack itself counts for nothing: the runner acks as itself)."""
        if not self.takeovers:
            return []
        value = self._round_value(seq)
        if value is None:
            return []
        head, to, kind = self.ledger.head, self._node_of(value[0]), value[1]
        return [Send(to, self._valued_ack(seat, seq, head, state_hash, kind, self._part_of(seat, kind)).to_bytes())
                for seat in sorted(self.takeovers) if kind == "reveals" or seat in self.ledger.writers]

    def _local_values(self) -> None:
        """Where a seat this node plays gathers the round due now, the values of the other
        seats this node plays go straight to it (they travel in no message)."""
        ledger = self.ledger
        if self.author is None or not (self.takeovers or (ledger.ends_together and ledger.over)):
            return  # (a round takes no local value but a taken-over seat's; the end takes ours too)
        try:
            due = self._due_gathered()
        except LedgerError:
            return
        if due is None or not self._mine(due[0]):
            return
        seat, kind = due
        gatherer = self._author_of(seat)
        if kind != "reveals":  # (the audits and the results take the gatherer's own part too)
            for other in [self.seat, *sorted(self.takeovers)]:
                if other in ledger.writers:
                    gatherer.gather(ledger.next_seq, other, self._part_of(other, kind))
            return
        for other in [self.seat, *sorted(self.takeovers)]:
            if other != seat:
                gatherer.gather(ledger.next_seq, other, self._author_of(other).round_value(ledger))

    def _mine(self, seat: int) -> bool:
        """Whether this node writes seat `seat`'s entries: its own seat, or one it runs."""
        return self.seat is not None and (seat == self.seat or seat in self.takeovers)

    def _author_of(self, seat: int) -> Author:
        return self.author if seat == self.seat else self.takeovers[seat][1]

    def _node_of(self, seat: int) -> bytes:
        """The key of the node that holds seat `seat` now: its own, or, taken over, its
        runner's (spec/protocol.md, "Takeover")."""
        for taken, _, runner in self.ledger.taken:
            if taken == seat:
                return self.seat_keys[runner]
        return self.seat_keys[seat]

    def on_confirm(self, sender: bytes, m: Confirm, now: float) -> list:
        """The author of entry `seq` holds every seat's ack of it: each state hash counts as
        that seat's ack (three seats or more: spec/protocol.md, "Confirmation")."""
        if len(m.states) != self.players:
            raise MessageError(f"confirm: it must carry one state hash (or nil) per seat, {self.players}")
        held = len(self.entries)
        if m.seq > held:
            if m.seq > held + AHEAD_WINDOW:
                raise MessageError("confirm: far beyond this node's log")
            # (kept until that entry is held: only then is it known whose entry it confirms)
            self.early_confirms[m.seq] = (sender, m)
            return self._ask(sender, held + 1, now)
        mine = self.entries[m.seq - 1]
        if self._node_of(mine.seat) != sender:
            raise MessageError(f"confirm: entry {m.seq} is seat {mine.seat}'s; only its author confirms it")
        if m.entry != mine.hash:
            return [Send(sender, Want(m.seq).to_bytes())]  # a fork: fetch its entry (proof)
        desync = self.acks.take_confirm(m.seq, m.entry, m.states, self.seat)
        if desync is not None:
            return self.keeper.halt(desync)
        # (an entry of ours it confirmed with it needs no confirm of ours: every seat has this one)
        return self._advance(announce=False)

    def _confirm_again(self, sender: bytes, m: Ack) -> list:
        """A seat repeats its ack of our entry confirmed here: it missed our confirm. After a
        restart there is none to repeat: one is gathered again from the repeated acks."""
        last = self.last_confirm
        if last is not None and last.seq >= m.seq:
            # (an ack that arrives after a later one of the same seat — reordered — needs no
            # answer: our confirm of that later entry went to it already)
            return [Send(sender, last.to_bytes())] if last.seq == m.seq else []
        states = self.regathered.setdefault(m.seq, {})
        states[m.seat] = m.state
        states[self.seat] = self.acks.hashes[m.seq - 1][1]
        if any(i not in states for i in range(self.players) if i not in self.acks.gone):
            return []
        self.last_confirm = confirm_of(m.seq, m.entry, states, self.players)
        self.regathered.clear()
        return self.broadcast(self.last_confirm)

    def _told_desync(self, seq: int) -> list:
        """Our entry's acks disagree: the author's confirm carries every state hash it holds,
        so every node sees the desync, not only the author (three seats or more)."""
        if self.seat is None or not gathers(self.players) or self.entries[seq - 1].seat != self.seat:
            return []
        states = self.acks.states_at(seq)
        states[self.seat] = self.acks.hashes[seq - 1][1]
        return self.broadcast(confirm_of(seq, self.entries[seq - 1].hash, states, self.players))

    def on_beat(self, sender: bytes, m: Beat, now: float) -> list:
        self.heads_heard = max(self.heads_heard, m.seq)
        if m.seq > len(self.entries):
            if self.ledger.protest is not None:
                # nothing follows our protest: the longer log is the claimer's end, written before
                # it heard the protest — it is told the protest instead (at most twice a second)
                return self._protest_to(sender, now)
            return self._ask(sender, len(self.entries) + 1, now)
        if self.protest_told is not None and m.seq >= self.protest_told[0] and sender in self.seats:
            return []  # (the claimed seat's copy forks at its protest: we know, and said so)
        if m.seq and m.head != self.entries[m.seq - 1].hash and sender in self.seats:
            # a fork: fetch its entry (a proof, if one seat signed both). Where acks go to
            # each entry's author alone, the seats' heads are how two halves of a table an
            # author split find each other (spec/protocol.md, "Equivocation")
            return self._ask(sender, m.seq, now)
        author = self.author
        if author is not None and sender in author.unheard:
            author.unheard.discard(sender)
            if not author.unheard:
                return [NextStep()]
        return []

    def on_want(self, sender: bytes, m: Want, now: float) -> list:
        batch = self.entries[m.seq - 1 : m.seq - 1 + BATCH]
        # the head last, so a node catching up knows at once whether it has it all
        effects = [Send(sender, EntryMessage(e).to_bytes()) for e in batch] + [Send(sender, self.beat())]
        last = self.last_confirm
        if last is not None and batch and m.seq <= last.seq <= batch[-1].seq:
            # our confirm of an entry it fetched goes with it: a spectator (which acks nothing)
            # asks again this way for the confirm it lost, and anyone catching up confirms sooner
            effects.append(Send(sender, last.to_bytes()))
        return effects

    def on_proof(self, sender: bytes, m: Proof, now: float) -> list:
        a, b = m.first, m.second
        keys = self.seat_keys
        if a.seq != b.seq or a.seat != b.seat or a.hash == b.hash or not a.seat < len(keys):
            raise MessageError("proof: not two different entries of one seat for one seq")
        key = self._key_at(a.seq, a.seat)
        if not (verify(key, a.signing_bytes(), a.sig) and verify(key, b.signing_bytes(), b.sig)):
            raise MessageError("proof: a signature does not verify")
        return self._halt_equivocation(m)

    def on_resign(self, sender: bytes, m: Resign, now: float) -> list:
        """A seat resigns: kept until the seat entitled to the next entry carries it in."""
        keys = self.seat_keys
        if not m.seat < len(keys) or not verify(keys[m.seat], resign_statement(self.genesis.hash, m.seat), m.sig):
            raise MessageError(f"resign: not signed by seat {m.seat}")
        if not self.ledger.may_end() or m.seat in self.resignations:
            return []
        self.resignations[m.seat] = m.sig
        return [NextStep()]

    def on_offer(self, sender: bytes, m: Offer, now: float) -> list:
        """A seat offers (or accepts) a draw or an abort at the next entry."""
        keys = self.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"offer: the sender does not hold seat {m.seat}")
        if not verify(sender, agree_statement(self.genesis.hash, m.how, m.seq, m.prev), m.sig):
            raise MessageError(f"offer: not signed by seat {m.seat}")
        ledger = self.ledger
        if m.seq != ledger.next_seq or m.prev != ledger.head or not ledger.may_end():
            return []  # lapsed (another entry came), or for a head this node has not reached: it is said again
        self._offers_here()
        if m.how in self.declined:
            # said again before the offerer heard our decline, or the decline was lost
            return [Send(sender, Decline(self.seat, m.how, m.seq).to_bytes())]
        sigs = self.offers.setdefault(m.how, {})
        if m.seat in sigs:
            return []
        sigs[m.seat] = m.sig
        told = [Offered(m.seat, m.how)] if self.seat is not None and self.seat not in sigs else []
        return told + [NextStep()]

    def on_decline(self, sender: bytes, m: Decline, now: float) -> list:
        keys = self.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender:
            raise MessageError(f"decline: the sender does not hold seat {m.seat}")
        if m.seq != self.ledger.next_seq or self.offers_at != m.seq or m.how not in self.offers:
            return []
        mine = self.seat in self.offers[m.how]
        del self.offers[m.how]
        return [Declined(m.seat, m.how)] if mine else []

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
        """An entry for a seq already held: a duplicate, the claim of the seat that wrote
        ours, an entry of a claimed seat that lost to its claim, the claimer's end where we
        protested or the protest where we wrote our end, or proof of equivocation."""
        mine = self.entries[entry.seq - 1]
        if entry.hash == mine.hash:
            return []
        if mine.kind == "protest" and entry.seat != mine.seat:
            return []  # the claimer's end, written before it heard our protest: nothing follows a protest
        if entry.kind == "protest" and entry.seq >= 2 and self.entries[entry.seq - 2].kind == "claim":
            return self._protested(sender, entry)
        if mine.kind == "claim" and entry.seat == mine.body["gone"]:
            return []  # written by the claimed seat before it learnt of the claim: it takes it back when it does
        if entry.kind == "claim" and mine.seat == entry.body["gone"]:
            return self._claimed_here(sender, entry)
        start = self._run_start()
        if entry.seat != mine.seat and entry.seq > start and self.entries[-1].seat == mine.seat:
            # ours there may be a run of one seat's entries the others never took (a claimed
            # seat's, come back): compare from where that run began
            return [Send(sender, Want(start).to_bytes())]
        if entry.seat == mine.seat and verify(self._key_at(entry.seq, entry.seat), entry.signing_bytes(), entry.sig):
            return self._halt_equivocation(Proof(mine, entry))
        raise MessageError(f"entry: a different seq {entry.seq} not signed by its author")

    def _halt_equivocation(self, proof: Proof) -> list:
        if self.keeper.phase() is Phase.HALTED:
            return []
        return self.keeper.halt(Equivocation(proof.first.seat, proof.first.seq, proof)) + self.broadcast(proof)

    def _accept(self, sender: bytes, entry: Entry) -> list:
        """Take the next entry from a peer: check it, store it, pass it on to our
        spectators, ack it — unless this seat signed a claim for its seq (then it is held:
        protocol/session/claims.py)."""
        if self.ledger.protest is not None or self.protesting:
            return []  # (the claimer's end, written before it heard the protest: nothing follows one)
        if self.gathering.holds(entry):
            return self._hold(sender, entry)
        try:
            checked = self.ledger.check(entry)
        except LedgerError as exc:
            if exc.failure == failures.PREV and self.entries:
                # our last entries may be a seat's that the others never took (a claimed
                # seat's own, come back): fetch from where that seat's run began, to compare
                return [Send(sender, Want(self._run_start()).to_bytes())]
            # A refused entry can never be accepted by an honest node, so it cannot
            # split the table: it is no evidence of equivocation, only a strike.
            return self.keeper.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self._append(entry, checked)
        # (passed on to our spectators after our ack: nobody's confirmation waits for them)
        relay = [k for k in self.spectators if k != sender]
        data = EntryMessage(entry).to_bytes() if relay else b""
        return [Store(entry)] + self._stored(entry, checked, [Send(k, data) for k in relay])

    def _append(self, entry: Entry, ledger: Ledger) -> None:
        before = self.ledger
        if entry.kind == "claim" and entry.body["gone"] == self.seat and not self.displaced:
            self.present_at_claim = self._present_since(entry.seq - 1)  # (since we took the entry it follows)
        # (taken live: this node had heard every seat's head and was not behind any: not a
        # catch-up after a restart, which cannot tell how long the node was down)
        live = (self.author is None or not self.author.unheard) and entry.seq >= self.heads_heard
        self.taken_at.append(self.last_tick if live else None)
        self.ledger = ledger
        self.ledgers[entry.seq] = ledger
        self.entries.append(entry)
        if ledger.outcomes and entry.kind not in ("audit", "audits"):  # (the audit re-runs the whole game: no news)
            self.moves.add_chance(entry, ledger.outcomes)
        if entry.kind == "move":
            self.moves.add(entry, before.state, self.acks.confirmed)
            if self.author is not None:
                self.author.taken(entry)
        elif entry.kind == "claim":
            self.acks.gone = self._silent()  # their acks no longer count
            if self.seat in ledger.gone or self.seat == entry.body["gone"]:
                self.author = None  # this seat is gone for good: it watches the rest as a spectator
        elif entry.kind == "takeover":
            self.acks.gone = self._silent()
            self.away.discard(entry.body["gone"])  # (as alive as its runner from now on)
            self.left.discard(entry.body["gone"])
            self._take_up()

    def _run_start(self) -> int:
        """The seq of the first of the last entries held that one seat wrote in a row."""
        last = self.entries[-1].seat
        start = len(self.entries)
        while start > 1 and self.entries[start - 2].seat == last:
            start -= 1
        return start

    def _claimed_here(self, sender: bytes, entry: Entry) -> list:
        """A claim of the seat whose entries this node holds from that seq on: the other
        seats never took them (they signed the claim there instead), so they are taken back
        — kept aside in a file beside the log — and the claim goes in their place."""
        seq, gone = entry.seq, entry.body["gone"]
        replaced = self.entries[seq - 1:]
        if any(e.seat != gone for e in replaced):
            raise MessageError(f"entry: a claim of seat {gone} in place of other seats' entries")
        base = self._chain_at(seq - 1)
        try:
            checked = base.check(entry)
        except LedgerError as exc:
            return self.keeper.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self.entries = self.entries[:seq - 1]
        self.ledger = base
        self.ahead.clear()
        self.early_confirms.clear()
        self.ledgers = {s: c for s, c in self.ledgers.items() if s < seq}
        held = min(self.acks.confirmed, seq - 1)
        self.acks = Confirmations(len(self.seat_keys), self.seat, held, self.acks.hashes[:seq - 1])
        if self.acks.confirmed == seq - 1 or held not in self.ledgers:
            self.confirmed_ledger = base
        self.moves.drop_from(seq)
        if self.author is not None:
            self.author.choice = None
        effects: list = [SetAside(tuple(replaced))]
        # our evidence, if we protest the claim: were we here all along since we wrote it?
        self.present_at_claim = self._present_since(seq)
        self.displaced = tuple(replaced)
        del self.taken_at[seq - 1:]
        self._append(entry, checked)
        effects.append(Store(entry))
        relay = [k for k in self.spectators if k != sender]
        if relay:
            data = EntryMessage(entry).to_bytes()
            effects += [Send(k, data) for k in relay]
        return effects + self._stored(entry, checked) + [NextStep()]

    def _chain_at(self, seq: int) -> Ledger:
        """The ledger as it stood after entry `seq` (worked out again from the genesis when
        it is no longer kept)."""
        if seq in self.ledgers:
            return self.ledgers[seq]
        known = {i: s for i, s in enumerate(self.ledger.known) if s is not None}
        ledger = Ledger.start(self.genesis, known)
        for entry in self.entries[:seq]:
            ledger = ledger.check(entry, signatures=False)
        return ledger

    def _stored(self, entry: Entry, ledger: Ledger, relay: list = ()) -> list:
        """`entry` is on disk here, `ledger` the ledger it ends: ack it with the state hash
        (then pass it on: `relay`, the sends to our spectators), take the acks that were
        waiting for it, confirm what that confirms."""
        state_hash = ledger.game.state_hash(ledger.state)
        effects = self._ack(entry, state_hash)
        if relay:
            effects += relay
        desync = self.acks.stored(entry.hash, state_hash)
        if desync is not None:
            return effects + self._told_desync(entry.seq) + self.keeper.halt(desync) + [Accepted(entry.seq, entry)]
        effects += self._advance()
        effects.append(Accepted(entry.seq, entry))
        protest = self._protest_due(entry, ledger)
        if protest:  # (in place of being told we were claimed: we were not gone)
            effects += protest
        elif entry.kind in ("resign", "claim", "agree") and ledger.ending is not None and ledger.ending[2] == entry.seq:
            effects.append(Ended(self.ending()))
        if entry.kind == "protest":
            effects.append(self._disputed(entry, ledger))
        if entry.kind == "takeover":
            gone = entry.body["gone"]
            effects.append(TakenOver(gone, entry.seq, entry.seat, self.genesis.terms.takeover, you=gone == self.seat))
        if ledger.finished:
            effects += self._game_over()
        return effects

    def ending(self) -> Ending | None:
        """How the game ended otherwise than by its rules, if it did."""
        ledger = self.ledger
        if ledger.ending is None:
            return None
        how, seats, seq = ledger.ending
        return Ending(how, seats, seq, ledger.gone, ledger.protest)

    def _game_over(self) -> list:
        body = self.ledger.result_body()
        # (a game a protest ended is disputed: it has no winner, and no result entry)
        winners = () if self.ledger.protest is not None else tuple(body["winners"])
        self.result = GameOver(winners, tuple(body["scores"]), tuple(self.ledger.cheats), self.ending(),
                               self.ledger.taken)
        self.keeper.reach(Milestone.ENDED)
        return [self.result]

    # -- a claim one seat alone signed, disputed (spec/protocol.md, "What a claim proves") ---------------

    def _protest_due(self, entry: Entry, ledger: Ledger) -> list:
        """The local seat's protest of `entry`, a claim of it that one seat alone signed, when
        this node knows it was there: it holds entries of its own the claim displaced, or it
        has run with no freeze since it took the entry the claim follows (it was sending all
        along). [] otherwise: the claim stands, and the seat watches as a spectator."""
        if (entry.kind != "claim" or self.seat is None or entry.body["gone"] != self.seat
                or ledger.disputable != self.seat):
            return []
        displaced, self.displaced = self.displaced, ()
        if not self.present_at_claim:
            return []  # (restarted or frozen since: it cannot tell whether it was away, nor whether its entries left)
        self.protesting = True
        return self._write("protest", {"entries": [e.record() for e in displaced[:MAX_CARRIED]]})

    def _present_since(self, seq: int) -> bool:
        """Whether this node has run with no freeze and no restart since it was last in step
        with the table at or before entry `seq`: since the last of those entries it took live
        (at the head, not catching up) — or since the genesis it started from. It was sending
        its beats and acks all along since then, heard or not."""
        if self.present_since is None:
            return False
        for i in range(min(seq, len(self.taken_at)) - 1, -1, -1):
            if self.taken_at[i] is not None:
                return self.present_since <= self.taken_at[i]
        return self.genesis_at is not None and self.present_since <= self.genesis_at

    def _disputed(self, protest: Entry, ledger: Ledger) -> Disputed:
        claim = self.entries[protest.seq - 2]
        you = "claimed" if protest.seat == self.seat else "claimer" if claim.seat == self.seat else ""
        return Disputed(claim.seat, protest.seat, claim.seq, protest.seq, len(protest.body["entries"]), you)

    def _protested(self, sender: bytes, entry: Entry) -> list:
        """The claimed seat's protest of a claim we hold, where we hold more after the claim:
        the claimer's end, written at once. Our log stays as it is (nothing in it is taken
        back); the protest is checked and its news told, once."""
        if self.protest_told == (entry.seq, entry.hash):
            return []
        try:
            self._chain_at(entry.seq - 1).check(entry)
        except LedgerError as exc:
            return self.keeper.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self.protest_told = (entry.seq, entry.hash)
        claim = self.entries[entry.seq - 2]
        you = "claimer" if claim.seat == self.seat else ""
        return [Disputed(claim.seat, entry.seat, claim.seq, entry.seq, len(entry.body["entries"]), you)]

    def _protest_to(self, peer: bytes, now: float) -> list:
        """Our protest, again, to a peer whose log runs on past it (at most twice a second)."""
        if now - self.asked.get(peer, -1e9) < BEAT_EVERY / 2:
            return []
        self.asked[peer] = now
        return [Send(peer, EntryMessage(self.entries[self.ledger.protest - 1]).to_bytes())]

    def _send_seats(self, message: Message) -> list:
        data = message.to_bytes()
        return [Send(k, data) for k in self.seat_keys if k != self.key]

    def _ack(self, entry: Entry, state_hash: bytes) -> list:
        """Our ack of `entry`: at two seats to every peer; at more to its author alone, whose
        confirm carries it on (the author's own state hash travels in that confirm)."""
        if self.seat is None:
            return []
        value = self._round_value(entry.seq)
        # (our value goes to the round's gatherer alone: nobody else learns it before the
        # round's entry is written)
        if not gathers(self.players):
            plain = ack_bytes(self.seat, entry.seq, entry.hash, state_hash)
            if value is None:
                return [Send(k, plain) for k in self.peers()]
            gatherer = self.seat_keys[value[0]]
            valued = self._valued_ack(self.seat, entry.seq, entry.hash, state_hash, value[1], value[2]).to_bytes()
            return [Send(k, valued if k == gatherer else plain) for k in self.peers()]
        taken = self._taken_values(entry.seq, state_hash) if self.takeovers else []
        if self._mine(entry.seat):
            return taken
        if value is not None and value[0] == entry.seat:
            data = self._valued_ack(self.seat, entry.seq, entry.hash, state_hash, value[1], value[2]).to_bytes()
        else:
            data = ack_bytes(self.seat, entry.seq, entry.hash, state_hash)
        return [Send(self._node_of(entry.seat), data)] + taken

    def _advance(self, announce: bool = True) -> list:
        """What the acks now confirm; where acks are gathered, our confirm of the newest
        entry of ours among them, unless another author's confirm (`announce` false) did it."""
        confirmed = self.acks.advance()
        for event in confirmed:
            self.confirmed_ledger = self.ledgers.pop(event.seq)
        if not confirmed or not announce or self.seat is None or not gathers(self.players):
            return confirmed
        # the newest of our own entries this confirmed: its confirm vouches for all before it
        own = [seq for seq in self.acks.just_confirmed if self._mine(self.entries[seq - 1].seat)]
        if not own:
            return confirmed
        seq = max(own)
        self.last_confirm = confirm_of(seq, self.entries[seq - 1].hash, self.acks.just_confirmed[seq], self.players)
        ledger = self.ledger
        due = self._due_gathered()
        if seq == ledger.next_seq - 1 and due is not None and self._mine(due[0]):
            # every ack of the head is in, and with them every value of the round we gather:
            # the confirm leaves first, alone, then the round's entry (nothing waiting can
            # change it: the round is whole). Carried by the round, the confirm would wait at
            # every node for the round's check; and the round is signed and checked by our
            # next step, once the confirm has left: written here, the confirm would wait
            # for that too (spec/transport.md, "Latency")
            return self.broadcast(self.last_confirm) + confirmed + [NextStep()]
        return self.broadcast(self.last_confirm) + confirmed

    # -- the local seat's entries -------------------------------------------------------------------------

    def submit(self, kind: str, actions: tuple) -> list:
        """The local seat's decision of `kind` (checked by `decision`)."""
        ledger, author = self.ledger, self.author
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(ledger, kind):
                raise LocalError("That is not one of your choices here.")
            nonce = self.random(NONCE_BYTES)
            return [StoreChoice(actions, nonce)] + self._write("commit", author.commit(actions, nonce))
        try:
            return self._write("move", {"actions": list(actions), "nonce": None}, author.offered(ledger, actions))
        except LedgerError as exc:
            raise LocalError(exc.why) from None

    def _write(self, kind: str, body: dict, offered: bool = False, seat: int | None = None) -> list:
        """Sign, store and send the local seat's next entry. It is checked against the
        ledger first (LedgerError before anything is sent) — unless it is a single action from
        the legal list this seat was `offered`, which applies by the engine contract
        (engines/testing.py checks it): that one leaves first and is re-run after."""
        ledger = self.ledger
        identity = self.identity if seat is None else self.takeovers[seat][0]
        entry = make_entry(identity, ledger.next_seq, ledger.head, self.seat if seat is None else seat, kind, body)
        # (our own signature needs no verifying)
        checked = None if offered else ledger.check(entry, signatures=False)
        # The entry leaves before its fsync, so the peers' checks and fsyncs run while ours
        # does; it is written first, so a crashed process still has it, and the author acks
        # it only once it is on disk. A machine that lost it before the fsync learns it back
        # from its peers: a resumed seat writes nothing until it has heard every seat's head
        # (`resume`), so it never signs another entry there.
        data = EntryMessage(entry).to_bytes()
        return ([Store(entry, sync=False)] + [Send(k, data) for k in self.peers()]
                + [TakeOwnEntry(entry, checked), NextStep()])

    def take_own(self, entry: Entry, checked: Ledger | None) -> list:
        """Our entry is written and on its way: take it into the ledger, then wait for its
        fsync and ack it."""
        if self.keeper.phase() is not Phase.PLAYING:
            return []
        if checked is None:
            try:
                checked = self.ledger.check(entry, signatures=False)
            except LedgerError as exc:  # the engine offered an action it cannot apply
                author = self.takeovers[entry.seat][1] if entry.seat in self.takeovers else self.author
                author.ask_again()  # the peers refuse that entry too
                return [Unstore(entry), Rejected(fingerprint(self.key), f"this seat's own move was refused: "
                                                                        f"{exc.why} (an engine fault)")]
        self._append(entry, checked)
        return [Sync()] + self._stored(entry, checked)

    def _offers_here(self) -> None:
        """Offers of another entry than the next have lapsed."""
        if self.offers_at != self.ledger.next_seq:
            self.offers = {}
            self.declined = set()
            self.offers_at = self.ledger.next_seq

    def offer(self, how: str) -> list:
        """The local seat offers — or, when another seat offered it, accepts — that the game
        ends `how` ("drawn" or "aborted") at the next entry."""
        ledger = self.ledger
        if self.author is None:
            raise LocalError("Only a seat still playing can offer or accept a draw or an abort.")
        if not ledger.may_end():
            raise LocalError("The game is over already.")
        self._offers_here()
        self.declined.discard(how)  # (a seat may offer what it declined a moment ago)
        sigs = self.offers.setdefault(how, {})
        if self.seat in sigs:
            raise LocalError("You have offered that already; the other seats are asked.")
        sigs[self.seat] = self.identity.sign(agree_statement(self.genesis.hash, how, ledger.next_seq, ledger.head))
        return self._send_seats(Offer(self.seat, how, ledger.next_seq, ledger.head, sigs[self.seat])) + self.my_turn()

    def decline(self, how: str) -> list:
        """The local seat declines another seat's offer that the game ends `how`."""
        self._offers_here()
        sigs = self.offers.get(how, {})
        offerers = [s for s in sigs if s != self.seat]
        if not offerers or self.seat in sigs:
            raise LocalError(f"There is no offer of {'a draw' if how == 'drawn' else 'an abort'} to decline.")
        del self.offers[how]
        self.declined.add(how)
        message = Decline(self.seat, how, self.ledger.next_seq).to_bytes()
        return [Send(self.seat_keys[s], message) for s in offerers]

    def offers_standing(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(how, the seats that offered or accepted it) of each offer standing at the next entry."""
        if self.offers_at != self.ledger.next_seq:
            return ()
        return tuple((how, tuple(sorted(sigs))) for how, sigs in sorted(self.offers.items()))

    def resign(self) -> list:
        """The local seat resigns: its statement goes to every seat, and into the log at the
        next entry — its own, if it is entitled to it, else the entitled seat's."""
        ledger = self.ledger
        if self.author is None:
            raise LocalError("A spectator has no seat to resign.")
        if not ledger.may_end():
            raise LocalError("The game is over already.")
        if self.resigned:
            raise LocalError("You have resigned already; the game ends as soon as the next entry is written.")
        self.resigned = True
        self.resignations[self.seat] = self.identity.sign(resign_statement(self.genesis.hash, self.seat))
        return self._send_seats(Resign(self.seat, self.resignations[self.seat])) + self.my_turn()

    def claim(self, gone: int, now: float) -> list:
        """The local seat claims seat `gone`, away longer than the table's patience: at two
        seats it is the only other seat, so it signs the claim and writes it at once."""
        ledger = self.ledger
        if self.author is None:
            raise LocalError("Only a seat still playing can claim another seat.")
        if not 0 <= gone < self.players or gone == self.seat:
            raise LocalError(f"Claim the other seat: seat {1 - self.seat}." if self.players == 2 else
                             f"Claim another seat: one of 0 to {self.players - 1}, not your own ({self.seat}).")
        if not ledger.may_claim(gone):
            raise LocalError(f"Seat {gone} cannot be claimed now: the game's result is being signed, or it is gone already.")
        away = self.away_for(gone, now)
        if away is None:
            raise LocalError(f"Seat {gone} is not away: only a seat away longer than the table's patience "
                             f"({self.patience} s) can be claimed.")
        if away < self.patience:
            raise LocalError(f"Seat {gone} has been away for {int(away)} s; it can be claimed once it has been away "
                             f"for the table's patience, {self.patience} s (in {int(self.patience - away) + 1} s).")
        if self.author.unheard:
            raise LocalError(WAITING)
        if self.players > 2 and len(ledger.writers) > 2:
            return self._sign_claim(gone)
        sig = self.identity.sign(claim_statement(self.genesis.hash, gone, ledger.next_seq, ledger.head))
        return self._write("claim", {"gone": gone, "sigs": [sig]})

    def my_turn(self) -> list:
        """Write what the local seat owes by itself, or tell the client it must decide."""
        if self.keeper.phase() is not Phase.PLAYING or self.author is None:
            return []
        carried = self._resignation_to_carry()
        if carried is not None:
            return self._write("resign", {"seat": carried, "sig": self.resignations[carried]})
        claimed = self._claim_to_write()
        if claimed is not None:
            return self._write("claim", claimed)
        agreed = self._agreement_to_carry()
        if agreed is not None:
            sigs = self.offers[agreed]
            return self._write("agree", {"how": agreed, "sigs": [sigs[s] for s in self.ledger.writers]})
        pending = self.ledger.pending
        if pending is not None and pending[1] == self.seat and not self.author.unheard:
            identity, secrets = takeover_secrets(self.author.secrets.master, self.genesis.hash, pending[0])
            return self._write("takeover", takeover_body(pending[0], identity, secrets))
        self._local_values()
        step = self.author.next(self.ledger)
        if isinstance(step, Write):
            return self._write(step.kind, step.body)
        taken = self._taken_turn() if step is None and self.takeovers and not self.author.unheard else []
        return taken if step is None else taken + [step]

    def _agreement_to_carry(self) -> str | None:
        """The agreement this seat writes now: every seat still playing signed it for the
        next entry, and this seat is entitled to that entry."""
        ledger = self.ledger
        if (self.offers_at != ledger.next_seq or not self.offers or self.author.unheard or not ledger.may_end()
                or ledger.pending is not None):
            return None
        if ledger.entitled()[0] != self.seat:
            return None
        for how in sorted(self.offers):
            if all(s in self.offers[how] for s in ledger.writers):
                return how
        return None

    def _resignation_to_carry(self) -> int | None:
        """The seat whose resignation this seat writes now: it is entitled to the next entry,
        the game may still end, and a resignation is waiting (the lowest seat first)."""
        ledger = self.ledger
        if not self.resignations or self.author.unheard or not ledger.may_end() or ledger.pending is not None:
            return None
        if ledger.entitled()[0] != self.seat:
            return None
        return min(self.resignations)

    # -- claims at three or more seats (protocol/session/claims.py) --------------------------------------------

    def _may_sign_claim(self, gone: int) -> bool:
        """Whether the local seat may sign a claim of `gone` at the next entry: at two seats
        whenever it may be claimed; at more, only where the game waits for it (it is entitled
        to the next entry, or the next entry is a reveal round, which waits for every seat's
        value), so the one entry the claim competes with is its own, or the round its value
        would complete (written by another signer, whose ack refutes the claim)."""
        ledger = self.ledger
        if not ledger.may_claim(gone):
            return False
        if len(ledger.writers) <= 2:
            return True
        try:
            waits_for, kind = ledger.entitled()
        except LedgerError:
            return False
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        # (a seat taken over is played by its runner's node: the game waits for the runner)
        runs = {seat: runner for seat, _, runner in ledger.taken}
        waits = kind in GATHERED or runs.get(waits_for, waits_for) == gone
        return waits and (mine is None or mine.gone == gone)

    def _sign_claim(self, gone: int) -> list:
        """Sign the claim of `gone` at the next entry, keep that on disk, send it to every
        other seat; the writer writes the claim once every statement is in."""
        ledger = self.ledger
        if not self._may_sign_claim(gone):
            raise LocalError(f"Seat {gone} can be claimed only when the game waits for it (it is not its turn now).")
        gathering = self.gathering
        if gathering.standing(ledger.next_seq, ledger.head) is not None:
            raise LocalError(f"You have claimed seat {gone} already; the other seats are asked.")
        mine = Signed(gone, ledger.next_seq, ledger.head)
        sig = self.identity.sign(claim_statement(self.genesis.hash, gone, mine.seq, mine.prev))
        gathering.sign(mine, self.seat, sig)
        message = Claim(self.seat, gone, mine.seq, mine.prev, sig)
        return [StoreClaim(gone, mine.seq, mine.prev)] + self._send_seats(message) + [NextStep()]

    def _signed_before(self, mine: Signed) -> None:
        """This seat signed `mine` before it restarted: it stands again (Ed25519 signatures
        are deterministic: the same bytes)."""
        ledger = self.ledger
        if mine.seq < ledger.next_seq:
            return  # the log has passed it: it lapsed
        self.gathering.here(ledger.next_seq, ledger.head)
        sig = self.identity.sign(claim_statement(self.genesis.hash, mine.gone, mine.seq, mine.prev))
        self.gathering.sign(mine, self.seat, sig)
        self.gathering.here(ledger.next_seq, ledger.head)

    def _claim_again(self) -> list:
        """Our statement, said again every beat while it stands at the next entry."""
        ledger = self.ledger
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        if mine is None:
            return []
        sig = self.gathering.sigs[mine.gone][self.seat]
        return self._send_seats(Claim(self.seat, mine.gone, mine.seq, mine.prev, sig))

    def _claim_to_write(self) -> dict | None:
        """The body of the claim this seat writes now: it is the claim's writer, and every
        other seat still playing signed it for the next entry."""
        ledger = self.ledger
        if self.author.unheard:
            return None
        self.gathering.here(ledger.next_seq, ledger.head)
        mine = self.gathering.standing(ledger.next_seq, ledger.head)
        if mine is None or not ledger.may_claim(mine.gone) or ledger.claim_writer(mine.gone) != self.seat:
            return None
        sigs = self.gathering.complete(mine.gone, ledger.claim_signers(mine.gone))
        return None if sigs is None else {"gone": mine.gone, "sigs": sigs}

    def _hold(self, sender: bytes, entry: Entry) -> list:
        """An entry at the seq of our claim statement: held aside, not stored, not acked,
        until a third seat's ack shows the claim can never be whole (if the entry checks out)."""
        try:
            self.ledger.check(entry)
        except LedgerError as exc:
            return self.keeper.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self.gathering.held = (entry, sender)
        return []

    def on_claim(self, sender: bytes, m: Claim, now: float) -> list:
        """A seat's statement claiming seat `gone` at entry `seq` after `prev`: kept for the
        writer if it is for the next entry; answered with our ack if we took an entry there."""
        keys = self.seat_keys
        if not m.seat < len(keys) or keys[m.seat] != sender or m.gone == m.seat or not m.gone < len(keys):
            raise MessageError(f"claim: the sender does not hold seat {m.seat}, or claims itself")
        if not verify(sender, claim_statement(self.genesis.hash, m.gone, m.seq, m.prev), m.sig):
            raise MessageError(f"claim: not signed by seat {m.seat}")
        ledger = self.ledger
        if self.author is None:
            return []  # (a spectator, or a seat gone for good: it signs nothing, its acks refute nothing)
        if m.seq < ledger.next_seq:
            taken = self.entries[m.seq - 1]
            if taken.prev == m.prev and taken.kind != "claim" and m.seq <= len(self.acks.hashes):
                # we took another entry there: our ack tells the signer its claim is dead
                return [Send(sender, Ack(self.seat, m.seq, taken.hash, self.acks.hashes[m.seq - 1][1]).to_bytes())]
            return []
        self.gathering.here(ledger.next_seq, ledger.head)
        if (m.seq, m.prev) != (ledger.next_seq, ledger.head) or not ledger.may_claim(m.gone):
            return []  # for a head this node has not reached: it is said again
        return [NextStep()] if self.gathering.add(m.gone, m.seat, m.sig) else []

    # -- seats taken over (spec/protocol.md, "Takeover") ------------------------------------------------

    def _silent(self) -> set[int]:
        """The seats whose acks do not count (`_is_silent`)."""
        return {seat for seat in range(self.players) if self._is_silent(seat)}

    def _is_silent(self, seat: int) -> bool:
        """Whether seat `seat`'s acks do not count: gone for good, claimed with a takeover
        due, or taken over (its runner acks as itself)."""
        ledger = self.ledger
        return seat in ledger.gone or seat in ledger.taken_seats or (ledger.pending is not None and ledger.pending[0] == seat)

    def _key_at(self, seq: int, seat: int) -> bytes:
        """The key seat `seat` signs entry `seq` with: its genesis key, or its takeover's."""
        key = self.seat_keys[seat]
        for taken, at, _ in self.ledger.taken:
            if taken == seat and seq > at:
                key = self.ledger.keys[seat]
        return key

    def _take_up(self) -> None:
        """The seats this node runs, taken over in the log: their identity and author, derived
        again from this seat's master secret (nothing of them is stored)."""
        if self.author is None:
            return
        for seat, _, runner in self.ledger.taken:
            if runner == self.seat and seat not in self.takeovers:
                identity, secrets = takeover_secrets(self.author.secrets.master, self.genesis.hash, seat)
                self.takeovers[seat] = (identity, Author(seat, secrets))

    def _taken_turn(self) -> list:
        """What a seat this node runs owes now: an entry it writes by itself, or a decision
        its bot makes (`TakeoverTurn`, answered by `submit_takeover`)."""
        try:
            seat = self.ledger.entitled()[0]
        except LedgerError:
            return []
        if seat not in self.takeovers:
            return []
        step = self.takeovers[seat][1].next(self.ledger)
        if isinstance(step, Write):
            return self._write(step.kind, step.body, seat=seat)
        if isinstance(step, YourTurn):
            return [TakeoverTurn(seat, step.kind, step.legal, self.genesis.terms.takeover)]
        return []

    def submit_takeover(self, seat: int, actions: tuple) -> list:
        """The bot's decision for seat `seat`, which this node runs."""
        ledger = self.ledger
        if seat not in self.takeovers or self.keeper.phase() is not Phase.PLAYING:
            raise LocalError(f"This node does not play seat {seat}.")
        author = self.takeovers[seat][1]
        entitled, kind = ledger.entitled()
        if entitled != seat or kind not in ("move", "commit"):
            raise LocalError(f"It is not seat {seat}'s decision now.")
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(ledger, kind):
                raise LocalError("That is not one of the seat's choices here.")
            nonce = self.random(NONCE_BYTES)
            return self._write("commit", author.commit(actions, nonce), seat=seat)
        try:
            return self._write("move", {"actions": list(actions), "nonce": None}, author.offered(ledger, actions), seat=seat)
        except LedgerError as exc:
            raise LocalError(exc.why) from None
