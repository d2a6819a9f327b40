"""The consensus session: one node's side of a game, sans-IO (spec/protocol.md).

Feed it what arrives — `receive(sender, data, now)` — what the local player decides —
`submit(actions, now)` — and the passing of time — `tick(now)`; each returns the effects for
the node to carry out in order (protocol/session/effects.py), which `EffectRunner` does, handing the
session's own steps back through `follow`. It never touches a socket, a file or a clock.

Whose fault: nothing a peer sends makes the session raise. Bytes that do not decode or fit
their schema, a message that makes no sense where the session stands, an entry the ledger
refuses (an illegal action, a bad signature) are the sender's: a `Rejected` event with the
reason, and a strike. Anything else that goes wrong inside is ours — a bug of the engine or
of the session: it halts with an `InternalFault`, blames nobody, and hands the node the
traceback to keep.

Its `phase` says which messages it takes (`_TABLE`: message class by phase), and moves only
by the phase table (protocol/session/phases.py: phase by milestone). FORMING and SIGNING, the table
forms (protocol/session/forming.py: the host's side or a joiner's). PLAYING, the game is under way
(protocol/session/play.py); OVER, it still confirms and serves. HALTED — a desync, an equivocation,
or an internal fault — it takes nothing more, and no message moves it again.

Everything above the session reads the game through its read-only surface (`phase`,
`seats`, `position()`, `legal_actions()` ...: spec/protocol.md, "The session's public surface").
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from peerboard import engines
from peerboard.protocol.session.budget import CatchUp
from peerboard.protocol.log import (
    Entry, Identity, LedgerError, MAX_ACTIONS_PER_ENTRY, MAX_PATIENCE, MAX_STRATEGY, NO_TAKEOVER, SeatSecrets,
    SignedGenesis, fingerprint, is_action,
)
from peerboard.protocol.session import chat
from peerboard.protocol.session.rematch import ANSWERS, RematchState
from peerboard.protocol.session.effects import NextStep, Send, TakeOwnEntry
from peerboard.protocol.session.events import (  # re-exported: the session's events are part of its surface
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Disputed, Ended, Ending, Equivocation, Event, GameOver,
    GameStarted, Unanswered, Woke,
    InternalFault, Offered, TakenOver, TakeoverTurn, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Refused, Rejected, RematchAnswer, Seated,
    SeatFreed, SeatTaken, YourTurn,
)
from peerboard.protocol.session.forming import Forming, Hosting, Joining
from peerboard.protocol.session.messages import (
    MESSAGE_CLASSES, Ack, Beat, Confirm, EntryMessage, GenesisMessage, Hello, Leave, Message, MessageError, Proof, Propose,
    Claim, Decline, Offer, Refuse, Rematch, Resign, Say, Sign, Want, Welcome, decode_message,
)
from peerboard.protocol.session.phases import Milestone, next_phase
from peerboard.protocol.session.play import BEAT_EVERY, Keeper, Play
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveRecord, Phase, Position, SeatInfo
from peerboard.protocol.session.tablecode import knock, stretched

__all__ = [
    "Session", "Phase", "SeatInfo", "Position", "MoveRecord", "ChanceRecord", "LocalError",
    "Event", "Seated", "SeatTaken", "SeatFreed", "PeersKnown", "GameStarted", "Accepted", "Confirmed", "YourTurn",
    "PeerAway", "PeerBack", "PeerLeft", "PeerMoved", "Desync", "Equivocation", "InternalFault", "Ended", "Ending",
    "Claimable", "Offered", "Declined", "GameOver", "Rejected", "Refused", "Chatted", "RematchAnswer",
    "TakeoverTurn", "TakenOver", "Disputed", "Woke", "Unanswered",
]

STRIKES_TO_IGNORE = 50  # a peer that sent this many bad messages is no longer read

Handler = Callable[["Session", bytes, Any, float], list]


# -- the session ---------------------------------------------------------------------------------


class Session:
    """One node's consensus session. Build it with `host`, `join` or `resume`.

    Its phase moves only in `_reach`, by the phase table (protocol/session/phases.py). The data of
    the phase it is in is its `_stage`: the host's or a joiner's side of a forming table
    (`Hosting`, `Joining`) while FORMING and SIGNING, the game (`Play`) from the genesis on;
    HALTED keeps the stage it halted in, so the surface still shows where it stood."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
                 random: Callable[[int], bytes], now: float, private: bool = False,
                 may_watch: Callable[[bytes], bool] | None = None):
        self._identity = identity
        #: whether this node serves a spectator with that key (the node's admission: the
        #: keys given with --spectator, or any with --spectators-any); None: any key
        self._may_watch = may_watch or _anyone
        self._key = identity.public_key
        self._secrets = secrets
        self._name = name
        self._addr = addr
        self._random = random
        self._private = private
        self._phase = Phase.FORMING
        self._takes = _TAKES[self._phase]  # what the phase does with each message (kept with it)
        self._stage: Forming | Play  # set by the constructor that built it
        self._keeper = Keeper(lambda: self._phase, self._reach, self._halt_with, self._reject)
        self._heard: dict[bytes, float] = {}
        self._strikes: dict[bytes, int] = {}
        self._catch_up = CatchUp()
        self._halt: Event | None = None
        self._next_beat = now
        self._chat = chat.ChatRoom()
        self._rematch: RematchState | None = None  # from the genesis on
        #: the seat and players last said as `Seated`: a joiner's repeated hello is answered by
        #: the same welcome every few seconds, news only once (or after a proposal withdrawn)
        self._seated: tuple[int, int] | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def host(cls, identity: Identity, secrets: SeatSecrets, name: str, addr: str, game: str, players: int,
             options: Mapping[str, Any], table: bytes, random: Callable[[int], bytes], now: float,
             code: str | None = None, may_watch: Callable[[bytes], bool] | None = None,
             order: tuple[bytes, ...] | None = None, patience: int | None = None,
             takeover: str | None = None) -> "Session":
        """Open a table as seat 0 — a private one, that a joiner needs `code` for, if given
        (protocol/session/tablecode.py); a rematch (`order`: each seat's key in seat order, this
        node's among them) with only those keys, each at its seat. OptionError for a bad
        game, player count or option, ValueError for a code that cannot be one or a `patience`
        (seconds a seat may be away before the others may claim it; written in the genesis)
        out of range; `takeover` the bot strategy that plays a claimed seat at three or more seats
        (written in the genesis; None or "none": a claim ends the game). Only the spectators `may_watch` admits (None: any) are welcomed; any
        other is refused before anything else is sent to it."""
        engines.get(game).new_game(players, options)
        if patience is not None and not (type(patience) is int and 1 <= patience <= MAX_PATIENCE):
            raise ValueError(f"the patience is a whole number of seconds from 1 to {MAX_PATIENCE}, not {patience!r}")
        if takeover is not None and not (type(takeover) is str and 1 <= len(takeover) <= MAX_STRATEGY):
            raise ValueError(f"the takeover strategy is a name of 1 to {MAX_STRATEGY} characters, not {takeover!r}")
        session = cls(identity, secrets, name, addr, random, now, private=code is not None, may_watch=may_watch)
        code_key = None if code is None else stretched(code, identity.public_key, table)
        hello = session._hello("seat", table, game)
        session._stage = Hosting.open(identity, hello, players, options, now, session._reach, code_key,
                                      session._may_watch, order, patience, takeover)
        return session

    @classmethod
    def join(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str, host_key: bytes,
             table: bytes, game: str, random: Callable[[int], bytes], now: float,
             code: str | None = None, may_watch: Callable[[bytes], bool] | None = None) -> tuple["Session", list]:
        """Ask `host_key`'s table for a seat (with secrets) or to watch (without); with the
        `code` of a private table, if given (ValueError for a code that cannot be one);
        `may_watch` as for `host`, once the game is under way."""
        session = cls(identity, secrets, name, addr, random, now, private=code is not None, may_watch=may_watch)
        proof = None if code is None else knock(stretched(code, host_key, table), identity.public_key)
        hello = session._hello("seat" if secrets is not None else "spectator", table, game, proof)
        session._stage = Joining.ask(identity, hello, host_key, now, session._reach)
        return session, [Send(host_key, hello.to_bytes())]

    @classmethod
    def resume(cls, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
               genesis: SignedGenesis, addrs: tuple[str, ...], entries: Iterable[Entry],
               choice: tuple[tuple, bytes] | None, random: Callable[[int], bytes], now: float,
               may_watch: Callable[[bytes], bool] | None = None,
               claim: tuple[int, int, bytes] | None = None) -> tuple["Session", list]:
        """A node restarted from its stored log: it re-checks every entry, then catches up
        from its peers. LedgerError if the stored log does not check out; a fault of our own
        while re-checking its entries halts the session (`InternalFault`) instead.
        `may_watch` as for `host`; `claim`: the claim statement it signed last, as stored
        (`StoreClaim`: gone, seq, prev)."""
        session = cls(identity, secrets, name, addr, random, now, may_watch=may_watch)
        g = genesis.terms
        effects = session._start(genesis, addrs, {}, hand_out=False, resumed=True)
        try:
            hello = session._hello("seat", g.table, g.game).to_bytes()
            return session, effects + session._stage.resume(list(entries), choice, addr, hello, claim)
        except LedgerError:
            raise
        except Exception as exc:
            return session, effects + session._fault("re-checking the stored log", exc)

    def _hello(self, role: str, table: bytes, game: str, proof: bytes | None = None) -> Hello:
        s = self._secrets
        chain, seed = (s.chain_tip, s.commitments()["seed"]) if s is not None else (bytes(32), bytes(32))
        return Hello(table, game, self._name, self._key, role, chain, seed, self._addr, proof)

    # -- the inputs -------------------------------------------------------------------------------

    def receive(self, sender: bytes, data: bytes, now: float, source: str = "") -> list:
        """A message from the peer with public key `sender` (authenticated by the transport),
        from network address `source` if the node knows it (a private table's host backs off
        wrong codes by it: protocol/session/guesses.py)."""
        if self._strikes.get(sender, 0) >= STRIKES_TO_IGNORE:
            return []
        if self._phase in _FORMING:
            self._stage.source = source
        self._heard[sender] = now
        effects: list = self._stage.heard_from(sender, now)
        try:
            message = decode_message(data)
        except MessageError as exc:
            return effects + self._reject(sender, str(exc))
        handler = self._takes[type(message)]
        try:
            effects += handler(self, sender, message, now)
        except MessageError as exc:
            effects += self._reject(sender, str(exc))
        except Exception as exc:  # not the sender's doing: ours
            return effects + self._fault(f"handling the {message.kind} message just received", exc)
        if self._phase is Phase.FORMING:
            try:
                effects += self._formed(self._stage.after_message(now))
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
            return self._stage.submit(kind, actions)
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("writing the local seat's decision", exc)

    def submit_takeover(self, seat: int, actions: list | tuple, now: float) -> list:
        """The decision of the bot playing seat `seat`, taken over and run by this node
        (asked by `TakeoverTurn`); LocalError if it is not allowed now."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        if not isinstance(actions, (list, tuple)) or not all(is_action(a) for a in actions) or \
                not 1 <= len(actions) <= MAX_ACTIONS_PER_ENTRY:
            raise LocalError(f"A decision is a list of 1 to {MAX_ACTIONS_PER_ENTRY} actions.")
        try:
            return self._stage.submit_takeover(seat, tuple(actions))
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("writing a taken-over seat's decision", exc)

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
        if self._phase not in _PLAYED:
            return []  # (left by a game that has halted since)
        try:
            if isinstance(step, TakeOwnEntry):
                return self._stage.take_own(step.entry, step.checked)
            return self._stage.my_turn()
        except Exception as exc:
            return self._fault("taking its own next step", exc)

    def resign(self, now: float) -> list:
        """The local seat resigns the game, at any time, its turn or not (spec/protocol.md,
        "Endings"); LocalError saying why it cannot (no game, a spectator, over already)."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress to resign." if self._phase is not Phase.OVER
                             else "The game is over already.")
        try:
            return self._stage.resign()
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("resigning", exc)

    def offer(self, how: str, now: float) -> list:
        """The local seat offers that the game ends `how` — "drawn" or "aborted" — at the
        next entry, or accepts another seat's offer of it; the game ends so once every seat
        still playing has (spec/protocol.md, "Endings"). LocalError saying why it cannot."""
        if how not in ("drawn", "aborted"):
            raise LocalError('An offer is of a draw ("drawn") or of an abort ("aborted").')
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        try:
            return self._stage.offer(how)
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("offering", exc)

    def decline(self, how: str, now: float) -> list:
        """The local seat declines another seat's offer that the game ends `how`."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        return self._stage.decline(how)

    @property
    def offers(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(how, the seats that offered or accepted it) of each offer standing at the next entry."""
        return self._stage.offers_standing() if isinstance(self._stage, Play) else ()

    def claim(self, seat: int, now: float) -> list:
        """The local seat claims seat `seat`, away longer than the table's patience: it is
        gone for good (spec/protocol.md, "Endings"); LocalError saying why it cannot."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        try:
            return self._stage.claim(seat, now)
        except (LocalError, LedgerError) as exc:
            raise LocalError(getattr(exc, "why", str(exc))) from None
        except Exception as exc:
            return self._fault("claiming a seat", exc)

    def leave(self) -> list:
        """This node leaves (cleanly: its peers are told)."""
        data = Leave().to_bytes()
        return [Send(k, data) for k in self._stage.peers()]

    def say(self, text: str, now: float) -> list:
        """A line said to the table (spec/protocol.md, "Chat"): signed, sent to every seat
        and spectator this node serves, and told here too (`Chatted`). LocalError saying why
        when there is no game yet, the line is empty or too long, or this node says too much."""
        if self._phase not in _PLAYED:
            raise LocalError("The table's chat opens when the game starts." if self._phase in _FORMING
                             else "The game is halted: nothing can be said to the table.")
        problem = chat.problem_of(text)
        if problem is not None:
            raise LocalError(problem)
        stage = self._stage
        if not self._chat.pace.take(self._key, now):
            raise LocalError(f"Slow down: at most {chat.CHAT_BURST} lines at once, then one every "
                             f"{chat.CHAT_EVERY:g} s.")
        line = chat.signed(self._identity, stage.table, stage.log_length, text)
        self._chat.taken(line)
        data = line.to_bytes()
        return [Send(k, data) for k in stage.peers()] + [Chatted(line, stage.seat, mine=True)]

    def _heard_say(self, sender: bytes, line: Say, now: float) -> list:
        """A line said at the table: from a seat or a spectator this node serves, or a
        spectator's line a seat passed on. A seat passes a spectator's line on to its other
        spectators (they hear seats only)."""
        stage = self._stage
        if line.table != stage.table:
            raise MessageError("say: about another table")
        if sender not in stage.seats and (line.by != sender or sender not in stage.spectators):
            raise MessageError("say: from a node that holds no seat and is not watching here")
        verdict = self._chat.hear(line, now)
        if verdict == "forged":
            raise MessageError("say: the signature is not its author's; the line is dropped")
        if verdict == "flood":
            # (not a strike: a person who types fast must not be cut off from the game)
            return [Rejected(fingerprint(line.by), f"say: more than {chat.CHAT_BURST} lines at once; its lines "
                                                   f"are dropped until it slows down")]
        if verdict != "new":
            return []
        effects: list = []
        if stage.seat is not None and line.by == sender and sender in stage.spectators:
            data = line.to_bytes()
            effects += [Send(k, data) for k in stage.spectators if k != sender]
        return effects + [Chatted(line, stage.seats.get(line.by))]

    def rematch(self, answer: str, next_table: bytes | None = None) -> list:
        """Say to every other seat what this seat says about playing again (spec/protocol.md,
        "Rematch"): "ask" (a person sits here: wait for its answer at the end), "yes" or
        "no" once the game is over; seat 0's node says "yes" with `next_table`, the id of
        the new table it opened. LocalError saying why when it cannot be said now."""
        if answer not in ANSWERS:
            raise LocalError(f"A rematch answer is one of {', '.join(ANSWERS)}.")
        if self._phase not in _PLAYED or self.local_seat is None:
            raise LocalError("Only a seat of a game can answer a rematch.")
        if answer != "ask" and self._phase is not Phase.OVER:
            raise LocalError("The game is not over yet: a rematch is offered at its end.")
        if next_table is not None and (self.local_seat != 0 or answer != "yes"):
            raise LocalError("Only seat 0's node opens the new table of a rematch.")
        stage = self._stage
        seat = stage.seat
        # ("ask" is said again at the end: a seat still forming when it was said first dropped it)
        if not self.rematch_state.heard(seat, answer, next_table) and answer != "ask":
            return []
        data = Rematch(stage.table, answer, next_table).to_bytes()
        return [Send(k, data) for k in stage.seats if k != self._key] + [RematchAnswer(seat, answer, next_table, True)]

    @property
    def rematch_state(self) -> RematchState:
        """What this node has heard about playing the game again (read it; never change it)."""
        if self._rematch is None:
            self._rematch = RematchState(self.players)
        return self._rematch

    def _heard_rematch(self, sender: bytes, m: Rematch, now: float) -> list:
        stage = self._stage
        if m.table != stage.table:
            raise MessageError("rematch: about another table")
        seat = stage.seats.get(sender)
        if seat is None:
            raise MessageError("rematch: from a node that holds no seat")
        if m.next is not None and (seat != 0 or m.answer != "yes"):
            raise MessageError("rematch: only seat 0's node opens the new table")
        if not self.rematch_state.heard(seat, m.answer, m.next):
            return []
        return [RematchAnswer(seat, m.answer, m.next)]

    def remove_seat(self, index: int, now: float) -> list:
        """The host removes the node holding seat `index` before the game starts: the seat
        is free again (`SeatFreed`, why "removed"), that node is refused and its hellos are
        refused from now on; a proposal already sent is withdrawn. LocalError saying why
        when this node hosts no forming table or no one holds that seat."""
        if self._phase not in _FORMING:
            raise LocalError("Seats can only be removed before the game starts.")
        return self._formed(self._stage.remove(index))

    # -- the read-only surface ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def game_name(self) -> str:
        return self._stage.game_name

    @property
    def game(self) -> engines.Game:
        return engines.get(self.game_name)

    @property
    def options(self) -> Mapping[str, Any]:
        """The game's options with every default filled in ({} for a joiner until the proposal)."""
        return self._stage.options_resolved

    @property
    def players(self) -> int:
        """Seats at the table (0 for a joiner until it is welcomed)."""
        return self._stage.players

    @property
    def private(self) -> bool:
        """The table needs a code (a joiner: it was given one)."""
        return self._private

    @property
    def refused_for_now(self) -> str | None:
        """A joiner the host refused for now (the table full, codes not checked now): the
        reason, while it asks again; else None."""
        return self._stage.refused_for_now

    @property
    def local_seat(self) -> int | None:
        """This node's seat; None for a spectator, or before it has one."""
        return self._stage.seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seat: while the table forms, the seats taken so far, in seat order (a freed
        seat leaves a gap: read each one's `index`; a joiner knows them from the proposal);
        then the genesis's."""
        stage = self._stage
        return tuple(self._seat_info(*seat, stage.connection(seat[0])) for seat in stage.known_seats())

    def _seat_info(self, index: int, name: str, key: bytes, address: str, connection: str) -> SeatInfo:
        if key == self._key:
            return SeatInfo(index, name, fingerprint(key), key, "you", None, address)
        return SeatInfo(index, name, fingerprint(key), key, connection, self._heard.get(key), address)

    def acked(self, index: int) -> int:
        """The last seq seat `index` has acknowledged holding (with our entry there); 0
        before the genesis."""
        return self._stage.acked(index)

    @property
    def spectators(self) -> tuple[bytes, ...]:
        """The keys of the spectators this node serves."""
        return tuple(self._stage.spectators)

    @property
    def log_length(self) -> int:
        """Entries after the genesis held here."""
        return self._stage.log_length

    @property
    def confirmed_seq(self) -> int:
        return self._stage.confirmed_seq

    def position(self, confirmed: bool = False) -> Position | None:
        """Where the game stands at the head (or at the last confirmed entry), as this seat
        sees it; None before the genesis."""
        return self._stage.position(confirmed)

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
        return () if kind is None else self._stage.options_for(kind)

    def choice_ahead(self) -> tuple:
        """A secret choice the local seat is in but may not commit to yet (a seat ahead of
        it in the group commits first): its options, the same it will be offered then; ()
        when there is none. A node may take the choice now and submit it when it may."""
        if self._phase is not Phase.PLAYING or self._stage.author is None:
            return ()
        try:
            return self._stage.author.choice_ahead(self._stage.ledger)
        except LedgerError:
            return ()

    @property
    def moves(self) -> tuple[MoveRecord, ...]:
        """Every accepted move entry, in order, with its actions in the game's notation."""
        return self._stage.move_records()

    @property
    def chance(self) -> tuple[ChanceRecord, ...]:
        """The chance outcomes of the game so far, in order: one record per entry that
        brought any about (a hidden draw of another seat: its placeholder)."""
        return self._stage.chance_records()

    @property
    def result(self) -> GameOver | None:
        return self._stage.result

    @property
    def patience(self) -> int | None:
        """Seconds a seat may be away before the others may claim it (None before the genesis)."""
        return self._stage.patience if isinstance(self._stage, Play) else None

    @property
    def takeover(self) -> str | None:
        """The bot strategy that plays a claimed seat at this table (the genesis's), None when
        a claim ends the game (spec/protocol.md, "Takeover")."""
        if not isinstance(self._stage, Play):
            return None
        strategy = self._stage.genesis.terms.takeover
        return None if strategy in (None, NO_TAKEOVER) or self.players < 3 else strategy

    @property
    def taken_over(self) -> tuple[tuple[int, int, int], ...]:
        """(seat, seq of its takeover entry, the seat that runs it) of every seat taken over."""
        return self._stage.ledger.taken if isinstance(self._stage, Play) else ()

    def claimable_in(self, index: int, now: float) -> float | None:
        """Seconds until seat `index`, away, may be claimed (0: now); None when it is not away."""
        if not isinstance(self._stage, Play):
            return None
        away = self._stage.away_for(index, now)
        return None if away is None else max(0.0, self._stage.patience - away)

    @property
    def ending(self) -> Ending | None:
        """How the game ended otherwise than by its rules (a resignation), once it did; else None."""
        return self._stage.ending() if isinstance(self._stage, Play) else None

    @property
    def halt(self) -> Event | None:
        """Why the game halted here (Desync, Equivocation or InternalFault), else None."""
        return self._halt

    @property
    def table_id(self) -> bytes:
        return self._stage.table

    @property
    def genesis_hash(self) -> bytes | None:
        return self._stage.genesis_hash

    def _decision(self) -> str:
        """The kind of decision the local seat must make now; LocalError saying why there is none."""
        phase = self._phase
        if phase is Phase.HALTED:
            raise LocalError("The game is halted.")
        if phase is Phase.OVER:
            raise LocalError("The game is over.")
        if phase is not Phase.PLAYING or self._stage.author is None:
            raise LocalError("There is no game in progress at this seat.")
        return self._stage.author.decision(self._stage.ledger)

    # -- the phase, and whose fault --------------------------------------------------------------------

    def _reach(self, milestone: Milestone) -> None:
        """The one place the phase changes: as the phase table says (protocol/session/phases.py)."""
        self._phase = next_phase(self._phase, milestone)
        self._takes = _TAKES[self._phase]
        if milestone is Milestone.WITHDRAWN:
            self._seated = None  # (the welcome that withdraws a proposal is news, whatever it says)

    def _reject(self, sender: bytes, reason: str) -> list:
        """The sender's fault: said, and counted against it."""
        self._strikes[sender] = self._strikes.get(sender, 0) + 1
        return [Rejected(fingerprint(sender) if len(sender) == 32 else "?", reason)]

    def _flooding(self, sender: bytes, now: float) -> list:
        """The sender asked beyond its catch-up budget (protocol/session/budget.py): said now and
        then, counted against nobody."""
        line = self._catch_up.said(sender, now)
        return [] if line is None else [Rejected(fingerprint(sender) if len(sender) == 32 else "?", line)]

    def _fault(self, doing: str, exc: Exception) -> list:
        """Our own: the game halts here, nobody is blamed, the node keeps the details."""
        return self._halt_with(InternalFault.of(doing, exc))

    def _halt_with(self, event: Event) -> list:
        """The game halts with `event`; once halted, a later one is told but the first stands."""
        if self._phase is not Phase.HALTED:
            self._reach(Milestone.HALTED)
            self._halt = event
        return [event]

    # -- time -------------------------------------------------------------------------------------------

    def _tick(self, now: float) -> list:
        if self._phase is Phase.HALTED:
            return []
        stage = self._stage
        effects: list = []
        beat = now >= self._next_beat
        if beat:
            self._next_beat = now + BEAT_EVERY
            data = stage.beat()
            effects += [Send(k, data) for k in stage.peers()]
        if self._phase in _FORMING:
            return effects + self._formed(stage.tick(now))
        return effects + stage.tick(now, beat)

    # -- forming the table (protocol/session/forming.py), and the start --------------------------------------

    def _formed(self, effects: list) -> list:
        """After the forming handshake took a message: the game starts once it has its genesis."""
        effects = self._news_only(effects)
        f = self._stage
        if f.genesis is None:
            return effects
        try:
            # the host, holding every signature, hands the genesis to every seat at once
            return effects + self._start(f.genesis, f.addrs, f.spectators, hand_out=f.hands_out_genesis)
        except LedgerError as exc:
            f.genesis = None
            raise MessageError(f"genesis: {exc.why}") from None

    def _news_only(self, effects: list) -> list:
        """`effects` without a `Seated` that says again what the last one said."""
        out = []
        for e in effects:
            if isinstance(e, Seated):
                if (e.seat, e.players) == self._seated:
                    continue
                self._seated = (e.seat, e.players)
            out.append(e)
        return out

    def _start(self, genesis: SignedGenesis, addrs: tuple[str, ...], spectators: Mapping[bytes, str],
               hand_out: bool, resumed: bool = False) -> list:
        """The game begins here (or, `resumed`, begins again from the stored genesis);
        LedgerError if that genesis cannot begin one."""
        play = Play.start(self._identity, self._secrets, self._random, genesis, addrs, spectators, self._heard,
                          self._keeper, self._may_watch)
        self._stage = play
        self._reach(Milestone.STARTED)
        effects = play.started(list(play.seat_keys) if hand_out else [], resumed)
        return effects if resumed else effects + play.my_turn()


def _anyone(key: bytes) -> bool:
    return True


_FORMING = (Phase.FORMING, Phase.SIGNING)
_PLAYED = (Phase.PLAYING, Phase.OVER)


# -- which messages each phase takes -------------------------------------------------------------


def _paced_want(session: Session, sender: bytes, message: Message, now: float) -> list:
    """A `want`, answered only within the sender's catch-up budget (protocol/session/budget.py)."""
    play = session._stage
    if not session._catch_up.answers(sender, sender not in play.seats, now):
        return session._flooding(sender, now)
    return play.on_want(sender, message, now)


def _ignore(session: Session, sender: bytes, message: Message, now: float) -> list:
    """Taken and dropped: a late repeat, or something this phase has no use for."""
    return []


def _no_game(session: Session, sender: bytes, message: Message, now: float) -> list:
    raise MessageError(f"{message.kind}: no game has started here")


def _say(session: Session, sender: bytes, message: Say, now: float) -> list:
    return session._heard_say(sender, message, now)


def _rematch(session: Session, sender: bytes, message: Rematch, now: float) -> list:
    return session._heard_rematch(sender, message, now)


def _forming(name: str) -> Handler:
    """A message for the forming handshake: the host's or the joiner's `name` method
    (protocol/session/forming.py)."""
    getattr(Hosting, name), getattr(Joining, name)  # (a name either side lacks fails as this module loads)

    def handler(session: Session, sender: bytes, message: Message, now: float) -> list:
        return session._formed(getattr(session._stage, name)(sender, message, now))
    return handler


def _game(name: str) -> Handler:
    """A message for the game under way: `Play`'s `name` method (protocol/session/play.py)."""
    method = getattr(Play, name)

    def handler(session: Session, sender: bytes, message: Message, now: float) -> list:
        return method(session._stage, sender, message, now)
    return handler


#: (spec/protocol.md, "Phases") each message class, and what each phase does with it: FORMING
#: and SIGNING alike hand it to the forming side (which knows whether a proposal stands),
#: PLAYING and OVER to the game (whose ledger knows whether it is over)
COLUMNS = ((Phase.FORMING, Phase.SIGNING), (Phase.PLAYING, Phase.OVER), (Phase.HALTED,))
_TABLE: dict[type[Message], tuple[Handler, ...]] = {
    #                FORMING, SIGNING         PLAYING, OVER        HALTED
    Hello:          (_forming("on_hello"),    _game("on_hello"),   _ignore),
    Welcome:        (_forming("on_welcome"),  _ignore,             _ignore),
    Refuse:         (_forming("on_refuse"),   _ignore,             _ignore),
    Propose:        (_forming("on_propose"),  _ignore,             _ignore),
    Sign:           (_forming("on_sign"),     _game("on_sign"),    _ignore),
    GenesisMessage: (_forming("on_genesis"),  _game("on_genesis"), _ignore),
    EntryMessage:   (_ignore,                 _game("on_entry"),   _ignore),
    Ack:            (_ignore,                 _game("on_ack"),     _ignore),
    Confirm:        (_ignore,                 _game("on_confirm"), _ignore),
    Beat:           (_ignore,                 _game("on_beat"),    _ignore),
    Want:           (_ignore,                 _paced_want,         _ignore),
    Proof:          (_no_game,                _game("on_proof"),   _ignore),
    Leave:          (_forming("on_leave"),    _game("on_leave"),   _ignore),
    Say:            (_ignore,                 _say,                _ignore),
    Rematch:        (_ignore,                 _rematch,            _ignore),
    Resign:         (_ignore,                 _game("on_resign"),  _ignore),
    Offer:          (_ignore,                 _game("on_offer"),   _ignore),
    Decline:        (_ignore,                 _game("on_decline"), _ignore),
    Claim:          (_ignore,                 _game("on_claim"),   _ignore),
}


def dispatch_table(table: Mapping[type[Message], tuple[Handler, ...]]) -> dict[Phase, dict[type[Message], Handler]]:
    """phase -> message class -> handler, from a table of rows; ImportError unless every
    message class of the protocol has a row with a handler for every phase (so a message
    class renamed or added without its row fails the moment this module loads)."""
    missing = sorted(c.__name__ for c in set(MESSAGE_CLASSES) - set(table))
    unknown = sorted(c.__name__ for c in set(table) - set(MESSAGE_CLASSES))
    short = sorted(c.__name__ for c, row in table.items() if len(row) != len(COLUMNS))
    phases = [phase for column in COLUMNS for phase in column]
    if missing or unknown or short or sorted(phases, key=str) != sorted(Phase, key=str):
        raise ImportError(f"the session's table must give every message class a handler in every phase "
                          f"(no row: {missing}; not a message: {unknown}; not one handler per phase: {short})")
    return {phase: {cls: row[i] for cls, row in table.items()} for i, column in enumerate(COLUMNS) for phase in column}


_TAKES = dispatch_table(_TABLE)
