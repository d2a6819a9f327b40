"""The game under way: one node's handling of the game from its genesis on, phases PLAYING
and OVER (spec/protocol.md, "The session").

It accepts an entry only when the ledger accepts it (signature, position, entitlement,
legality), stores it, acks it with the state hash, confirms it once every seat's ack agrees,
writes its own seat's entries (reveals, commitments, the audit, the result) by itself,
gossips heads and serves missing entries. `Play` is the table it plays (protocol/session/
table.py: the log held, the seats, the ledger) and the entries in and out; each other concern
is a part of its own, given the table: the acks and confirms (acks.py), catch-up
(catchup.py), liveness and this node's own presence (liveness.py), the endings by consent
(endings.py), claims (claims.py), the protest of a claim one seat alone signed
(protests.py), and the seats it writes for, taken over ones included (authors.py). Whatever
moves the phase — the end of the game, a halt — and a strike against a sender are the
session's: `Referee` (table.py).
"""
from __future__ import annotations

from typing import Callable, Mapping

from peerboard.engines import Action
from peerboard.protocol.log import (
    Entry, Identity, Ledger, LedgerError, NONCE_BYTES, SeatSecrets, SignedGenesis, WireMap, failures, fingerprint,
    make_entry,
)
from peerboard.protocol.session.acks import Acking
from peerboard.protocol.session.ahead import ChoicesAhead
from peerboard.protocol.session.author import Write
from peerboard.protocol.session.catchup import BEAT_EVERY, Fetches
from peerboard.protocol.session.claims import Claims, Signed
from peerboard.protocol.session.confirmation import Confirmations
from peerboard.protocol.session.effects import (
    Effects, NextStep, Send, Store, StoreChoice, StoreGenesis, Sync, TakeOwnEntry, Unstore,
)
from peerboard.protocol.session.endings import Endings
from peerboard.protocol.session.forks import Forks
from peerboard.protocol.session.events import (
    Accepted, Ended, Ending, GameOver, GameStarted, PeerBack, PeerLeft, PeerMoved, PeersKnown, Rejected,
    TakenOver,
)
from peerboard.protocol.session.liveness import Liveness, Presence
from peerboard.protocol.session.messages import (
    Ack, Beat, EntryMessage, GenesisMessage, Hello, Leave, MessageError, Refuse, Sign, Want,
)
from peerboard.protocol.session.phases import Milestone
from peerboard.protocol.session.protests import Protests
from peerboard.protocol.session.refusals import NOT_WATCHING, STARTED
from peerboard.protocol.session.surface import LocalError, Phase
from peerboard.protocol.session.table import Referee, Table
from peerboard.protocol.session.takeovers import Takeovers


class Play(Table):
    """One node's game from its genesis on. Build it with `start`."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
                 genesis: SignedGenesis, addrs: tuple[str, ...], ledger: Ledger, seat: int | None,
                 spectators: Mapping[bytes, str], heard: dict[bytes, float], referee: Referee,
                 may_watch: Callable[[bytes], bool] = lambda key: True):
        super().__init__(identity, secrets, random, genesis, addrs, ledger, seat, spectators, referee, may_watch)
        self.result: GameOver | None = None  # once over
        #: this node's own presence: its evidence when a claim of its seat comes
        self.presence = Presence()
        self.liveness = Liveness(heard, self.presence)
        self.fetches = Fetches(self)
        self.acking = Acking(self, self.fetches, self.my_turn)
        #: resignations and offers of a draw or an abort, until they are in the log
        self.endings = Endings(self, self.my_turn)
        #: the local seat's claims, and the statements of the others' (protocol/session/claims.py)
        self.claims = Claims(self, self._write)
        #: the seats this node runs taken over, and the takeover it writes after its claim
        self.takeovers = Takeovers(self, self._write)
        #: the local seat's protest of a claim one seat alone signed, and news of one of ours
        self.protests = Protests(self, self.presence, self.fetches, self._write)
        #: an entry for a seq held already: a duplicate, a claim in place of ours, a protest, or a fork
        self.forks = Forks(self, self.fetches, self.protests, self._append, self._stored)
        #: the signs of secret choices made ahead: the local seat's, and the others' heard
        self.ahead = ChoicesAhead(self)

    @classmethod
    def start(cls, identity: Identity, secrets: SeatSecrets | None, random: Callable[[int], bytes],
              genesis: SignedGenesis, addrs: tuple[str, ...], spectators: Mapping[bytes, str],
              heard: dict[bytes, float], referee: Referee,
              may_watch: Callable[[bytes], bool] = lambda key: True) -> "Play":
        """The game of `genesis`; LedgerError if the genesis cannot start one. A spectator
        is served only if `may_watch` admits its key."""
        key = identity.public_key
        mine = [i for i, s in enumerate(genesis.terms.seats) if s.key == key]
        seat = mine[0] if mine and secrets is not None else None
        ledger = Ledger.start(genesis, {} if seat is None or secrets is None else {seat: secrets.seed})
        return cls(identity, secrets, random, genesis, addrs, ledger, seat, spectators, heard, referee, may_watch)

    def started(self, handed: list[bytes], resumed: bool) -> Effects:
        """The effects of the start: the genesis stored (unless `resumed` from it) and sent to
        the keys `handed` it and to the spectators; the peers and the start told."""
        g = self.genesis.terms
        effects: Effects = [] if resumed else [StoreGenesis(self.genesis, self.addrs)]
        data = GenesisMessage(self.genesis, self.addrs).to_bytes()
        effects += [Send(k, data) for k in handed if k != self.key]
        effects += [Send(k, data) for k in self.spectators]
        effects.append(PeersKnown(tuple((s.key, a) for s, a in zip(g.seats, self.addrs))))
        effects.append(GameStarted(self.genesis))
        return effects + self._genesis_value()

    def _genesis_value(self) -> Effects:
        """The genesis leaves the game at a reveal round (a shuffle, a layout): our value
        goes to its gatherer, seat 0, on an ack of seq 0 (the genesis), which carries
        nothing else."""
        if self.seat is None or self.entries:
            return []
        value = self.authors.round_value(self.ledger, 0)
        if value is None:
            return []
        state = self.ledger.game.state_hash(self.ledger.state)
        return [Send(self.seat_keys[value[0]], Ack(self.seat, 0, self.genesis.hash, state, value[2]).to_bytes())]

    def resume(self, entries: list[Entry], choice: tuple[tuple[Action, ...], bytes] | None, addr: str, hello: bytes,
               claim: tuple[int, int, bytes] | None = None) -> Effects:
        """Take back the stored `entries` (re-checked: LedgerError unless they check out), the
        secret choice committed and the claim statement signed last (gone, seq, prev); say
        `hello` to every seat if this node listens at `addr`, not where the genesis says."""
        effects: Effects = []
        hashes = []
        self.presence.resumed = True
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
        self.acks.gone = self.silent()
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
            silent = self.silent()
            self.author.unheard = {k for k, seat in self.seats.items() if k != self.key and seat not in silent}
            if claim is not None:
                self.claims.signed_before(Signed(*claim))
            self.authors.take_up(self.ledger)
        if self.seat is not None and self.seat < len(self.addrs) and self.addrs[self.seat] != addr:
            # it listens somewhere else now (`resume --bind`): its hello tells every seat
            effects += [Send(k, hello) for k in self.seat_keys if k != self.key]
        want = Want(len(self.entries) + 1).to_bytes()
        return effects + [Send(k, want) for k in self.peers()] + self._genesis_value() + self.my_turn()

    # -- liveness (protocol/session/liveness.py) -----------------------------------------------------------

    def connection(self, index: int) -> str:
        if index in self.ledger.taken_seats:
            return "bot"  # taken over: a bot plays it, run by another seat's node
        return self.liveness.connection(index)

    def heard_from(self, sender: bytes, now: float) -> Effects:
        seat = self.seats.get(sender)
        liveness = self.liveness
        if (seat is not None and (seat in liveness.away or seat in liveness.left) and seat not in self.ledger.taken_seats
                and liveness.back(seat)):
            self.claims.told.discard(seat)
            return [PeerBack(seat)]
        return []

    def away_for(self, index: int, now: float) -> float | None:
        """How long seat `index` has been silent, if it is away (or left); else None."""
        return self.liveness.away_for(index, self.seat_keys[index], now)

    @property
    def patience(self) -> int:
        """Seconds a seat may be away before the others may claim it."""
        return self.claims.patience

    def tick(self, now: float, beat: bool) -> Effects:
        """Time passed (`beat`: a beat was just sent): this node's own freeze told, a resumed
        seat nobody answered told, the entry missing asked for, lost acks and statements said
        again, seats silent too long shown away, claimable ones told."""
        effects: Effects = []
        effects += self.presence.tick(now)
        author = self.author
        if author is not None and author.unheard:
            effects += self.presence.unanswered(now, tuple(sorted(self.seats[k] for k in author.unheard)))
        effects += self.fetches.tick(now)
        if beat:
            effects += self._genesis_value() if not self.entries else self.acking.again(now)
            effects += self.endings.again()
            if self.author is not None:
                effects += self.claims.again()
        liveness = self.liveness
        effects += liveness.tick(now, ((k, s) for k, s in self.seats.items() if k != self.key), self.ledger.taken_seats)
        if self.author is not None and not self.author.unheard:
            effects += self.claims.claimable(liveness.away | liveness.left, lambda seat: self.away_for(seat, now))
        return effects

    # -- the game's messages ----------------------------------------------------------------------------

    def on_hello(self, sender: bytes, m: Hello, now: float) -> Effects:
        """A spectator joining late, or a seat that lost its genesis or listens somewhere
        else now (it resumed on another address)."""
        if m.key != sender:
            raise MessageError("hello: the key is not the sender's")
        effects: Effects = []
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

    def on_sign(self, sender: bytes, m: Sign, now: float) -> Effects:
        """A seat still collecting signatures: hand it the genesis."""
        asked = self.fetches.asked
        if sender not in self.seats or now - asked.get(sender, -1e9) < BEAT_EVERY:
            return []
        asked[sender] = now
        return [Send(sender, GenesisMessage(self.genesis, self.addrs).to_bytes())]

    def on_beat(self, sender: bytes, m: Beat, now: float) -> Effects:
        """A peer's head: answered by a protest where one parts our logs, else by catch-up."""
        self.presence.heard_head(m.seq)
        told = self.protests.on_beat(sender, m, now)
        return self.fetches.on_beat(sender, m, now) if told is None else told

    def on_genesis(self, sender: bytes, m: GenesisMessage, now: float) -> Effects:
        if m.genesis.hash != self.genesis.hash:
            raise MessageError("genesis: a different game")
        return []

    def on_entry(self, sender: bytes, m: EntryMessage, now: float) -> Effects:
        effects = [] if m.confirm is None else self.acking.on_confirm(sender, m.confirm, now)  # (of the entry before it)
        if self.referee.phase() is Phase.HALTED:
            return effects
        effects += self._on_entry(sender, m, now)
        early_confirms = self.fetches.early_confirms
        if not early_confirms:
            return effects
        held = len(self.entries)
        for seq in sorted(s for s in early_confirms if s <= held):
            if self.referee.phase() is Phase.HALTED:
                break
            early, confirm = early_confirms.pop(seq)
            try:
                effects += self.acking.on_confirm(early, confirm, now)
            except MessageError as exc:
                effects += self.referee.reject(early, str(exc))
        return effects

    def _on_entry(self, sender: bytes, m: EntryMessage, now: float) -> Effects:
        entry = m.entry
        have = len(self.entries)
        if entry.seq <= have:
            return self.forks.compare(sender, entry)
        if entry.seq > have + 1:
            return self.fetches.early(sender, entry, now)
        effects = self._accept(sender, entry)
        phase = self.referee.phase
        while phase() is Phase.PLAYING:
            held = self.fetches.next_held()
            if held is None:
                break
            effects += self._accept(sender, held)
        # the local seat's own next step comes last, after every store and ack of these entries
        return effects + [NextStep()]

    def on_ack(self, sender: bytes, m: Ack, now: float) -> Effects:
        keys = self.seat_keys
        if not m.seat < len(keys) or sender not in (keys[m.seat], self.node_of(m.seat)):
            raise MessageError(f"ack: a forged ack (the sender does not hold seat {m.seat})")
        if self.is_silent(m.seat):
            # a seat gone for good or taken over: its acks count for nothing (its runner acks
            # as itself), but its runner's ack in its name carries its value for the round
            if (m.reveal is None and m.sig is None) or sender == keys[m.seat] or m.seq == 0:
                return []
            return [NextStep()] if self.authors.gather(self.ledger, m) else []
        if m.seq == 0:  # (the genesis: only a value for the round it leaves the game at)
            if m.reveal is None or m.entry != self.genesis.hash:
                raise MessageError("ack: an ack of seq 0 carries a reveal for the genesis's round, and nothing else")
            return [NextStep()] if self.authors.gather(self.ledger, m) else []
        released = self.claims.released(m)
        if released is not None:
            # a third seat took the entry held aside: our claim can never be whole
            entry, by = released
            return self.on_entry(by, EntryMessage(entry), now) + self.on_ack(sender, m, now)
        return self.acking.on_ack(sender, m, now)

    def on_leave(self, sender: bytes, m: Leave, now: float) -> Effects:
        if self.spectators.pop(sender, None) is not None:
            self.broadcast_keys = None
        seat = self.seats.get(sender)
        if seat is None:
            return []
        self.liveness.leaves(seat)
        return [PeerLeft(seat)]

    # -- entries in ---------------------------------------------------------------------------------------

    def _accept(self, sender: bytes, entry: Entry) -> Effects:
        """Take the next entry from a peer: check it, store it, pass it on to our
        spectators, ack it — unless this seat signed a claim for its seq (then it is held:
        protocol/session/claims.py)."""
        if self.protests.closed:
            return []  # (the claimer's end, written before it heard the protest: nothing follows one)
        if self.claims.gathering.holds(entry):
            return self.claims.hold(sender, entry)
        try:
            checked = self.ledger.check(entry)
        except LedgerError as exc:
            if exc.failure == failures.PREV and self.entries:
                # our last entries may be a seat's that the others never took (a claimed
                # seat's own, come back): fetch from where that seat's run began, to compare
                return [Send(sender, Want(self.forks.run_start()).to_bytes())]
            # A refused entry can never be accepted by an honest node, so it cannot
            # split the table: it is no evidence of equivocation, only a strike.
            return self.referee.reject(sender, f"entry seq {exc.seq}: {exc.why}")
        self._append(entry, checked)
        # (passed on to our spectators after our ack: nobody's confirmation waits for them)
        relay = [k for k in self.spectators if k != sender]
        data = EntryMessage(entry).to_bytes() if relay else b""
        return [Store(entry)] + self._stored(entry, checked, [Send(k, data) for k in relay])

    def _append(self, entry: Entry, ledger: Ledger) -> None:
        before = self.ledger
        if entry.kind == "claim" and entry.body["gone"] == self.seat:
            self.protests.claimed(entry)
        # (in step: this node had heard every seat's head — not a resumed seat catching up)
        self.presence.took(entry.seq, self.author is None or not self.author.unheard)
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
            self.acks.gone = self.silent()  # their acks no longer count
            if self.seat in ledger.gone or self.seat == entry.body["gone"]:
                self.gone_for_good()
        elif entry.kind == "takeover":
            self.acks.gone = self.silent()
            self.liveness.back(entry.body["gone"])  # (as alive as its runner from now on)
            self.authors.take_up(self.ledger)

    def _stored(self, entry: Entry, ledger: Ledger, relay: Effects | None = None) -> Effects:
        """`entry` is on disk here, `ledger` the ledger it ends: ack it with the state hash
        (then pass it on: `relay`, the sends to our spectators), take the acks that were
        waiting for it, confirm what that confirms."""
        state_hash = ledger.game.state_hash(ledger.state)
        effects = self.acking.ack(entry, state_hash)
        if relay:
            effects += relay
        desync = self.acks.stored(entry.hash, state_hash)
        if desync is not None:
            return effects + self.acking.told_desync(entry.seq) + self.referee.halt(desync) + [Accepted(entry.seq, entry)]
        effects += self.acking.advance()
        effects.append(Accepted(entry.seq, entry))
        protest = self.protests.due(entry, ledger)
        if protest:  # (in place of being told we were claimed: we were not gone)
            effects += protest
        elif entry.kind in ("resign", "claim", "agree") and ledger.ending is not None and ledger.ending[2] == entry.seq:
            ending = self.ending()
            assert ending is not None  # (the ledger's, just above)
            effects.append(Ended(ending))
        if entry.kind == "protest":
            effects.append(self.protests.disputed(entry))
        if entry.kind == "takeover":
            gone, strategy = entry.body["gone"], self.genesis.terms.takeover
            assert strategy is not None  # (a seat is taken over only by the genesis's strategy)
            effects.append(TakenOver(gone, entry.seq, entry.seat, strategy, you=gone == self.seat))
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

    def _game_over(self) -> Effects:
        body = self.ledger.result_body()
        # (a game a protest ended is disputed: it has no winner, and no result entry)
        winners = () if self.ledger.protest is not None else tuple(body["winners"])
        self.result = GameOver(winners, tuple(body["scores"]), tuple(self.ledger.cheats), self.ending(),
                               self.ledger.taken)
        self.referee.reach(Milestone.ENDED)
        return [self.result]

    # -- the local seat's entries -------------------------------------------------------------------------

    def submit(self, kind: str, actions: tuple[Action, ...]) -> Effects:
        """The local seat's decision of `kind` (checked by `decision`)."""
        ledger, author = self.ledger, self.author
        assert author is not None  # (a spectator decides nothing: `decision`)
        if kind == "commit":
            if len(actions) != 1 or actions[0] not in author.options(ledger, kind):
                raise LocalError("That is not one of your choices here.")
            nonce = self.random(NONCE_BYTES)
            stored: Effects = [StoreChoice(actions, nonce)]
            return stored + self._write("commit", author.commit(actions, nonce))
        try:
            return self._write("move", {"actions": list(actions), "nonce": None}, author.offered(ledger, actions))
        except LedgerError as exc:
            raise LocalError(exc.why) from None

    def _write(self, kind: str, body: WireMap, offered: bool = False, seat: int | None = None) -> Effects:
        """Sign, store and send the local seat's next entry. It is checked against the
        ledger first (LedgerError before anything is sent) — unless it is a single action from
        the legal list this seat was `offered`, which applies by the engine contract
        (engines/testing.py checks it): that one leaves first and is re-run after."""
        ledger = self.ledger
        identity = self.identity if seat is None else self.authors.taken[seat][0]
        writer = self.seat if seat is None else seat
        assert writer is not None  # (a spectator writes nothing)
        entry = make_entry(identity, ledger.next_seq, ledger.head, writer, kind, body)
        # (our own signature needs no verifying)
        checked = None if offered else ledger.check(entry, signatures=False)
        # The entry leaves before its fsync, so the peers' checks and fsyncs run while ours
        # does; it is written first, so a crashed process still has it, and the author acks
        # it only once it is on disk. A machine that lost it before the fsync learns it back
        # from its peers: a resumed seat writes nothing until it has heard every seat's head
        # (`resume`), so it never signs another entry there.
        data = EntryMessage(entry).to_bytes()
        effects: Effects = [Store(entry, sync=False)]
        return effects + [Send(k, data) for k in self.peers()] + [TakeOwnEntry(entry, checked), NextStep()]

    def take_own(self, entry: Entry, checked: Ledger | None) -> Effects:
        """Our entry is written and on its way: take it into the ledger, then wait for its
        fsync and ack it."""
        if self.referee.phase() is not Phase.PLAYING:
            return []
        if checked is None:
            try:
                checked = self.ledger.check(entry, signatures=False)
            except LedgerError as exc:  # the engine offered an action it cannot apply
                author = self.authors.taken[entry.seat][1] if entry.seat in self.authors.taken else self.author
                assert author is not None  # (the entry is this node's own: `_write`)
                author.ask_again()  # the peers refuse that entry too
                return [Unstore(entry), Rejected(fingerprint(self.key), f"this seat's own move was refused: "
                                                                        f"{exc.why} (an engine fault)")]
        self._append(entry, checked)
        return [Sync()] + self._stored(entry, checked)

    def my_turn(self) -> Effects:
        """Write what the local seat owes by itself, or tell the client it must decide."""
        if self.referee.phase() is not Phase.PLAYING or self.author is None:
            return []
        ledger, endings, author = self.ledger, self.endings, self.author
        if not author.unheard:  # (a seat catching up writes nothing)
            carried = endings.resignation_to_carry(ledger, author.seat)
            if carried is not None:
                return self._write("resign", {"seat": carried, "sig": endings.resignations[carried]})
            claimed = self.claims.to_write()
            if claimed is not None:
                return self._write("claim", claimed)
            agreed = endings.agreement_to_carry(ledger, author.seat)
            if agreed is not None:
                sigs = endings.offers[agreed]
                return self._write("agree", {"how": agreed, "sigs": [sigs[s] for s in ledger.writers]})
            takeover = self.takeovers.due()
            if takeover is not None:
                return takeover
        self.authors.local_values(ledger)
        held = author.held_due(ledger)
        if held is not None:  # (chosen before its turn: committed now, nobody is asked)
            return self.submit("commit", (held,))
        step = author.next(ledger)
        if isinstance(step, Write):
            return self._write(step.kind, step.body)
        taken = self.takeovers.turn() if step is None and self.authors.taken and not author.unheard else []
        return taken if step is None else taken + [step]
