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

Its `phase` says which messages it takes (protocol/session/takes.py: message class by phase), and moves only
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
from peerboard.engines import Action
from peerboard.protocol.session.budget import CatchUp
from peerboard.protocol.log import (
    Entry, Identity, LedgerError, MAX_ACTIONS_PER_ENTRY, MAX_PATIENCE, MAX_STRATEGY, SeatSecrets, SignedGenesis,
    fingerprint, is_action,
)
from peerboard.protocol.session import chat
from peerboard.protocol.session.rematch import ANSWERS, REMATCH_WAIT, Rematches, next_order
from peerboard.protocol.session.effects import Effects, NextStep, Send, TakeOwnEntry
from peerboard.protocol.session.events import (  # re-exported: the session's events are part of its surface
    Accepted, Chatted, Claimable, Confirmed, Declined, Desync, Disputed, Ended, Ending, Equivocation, Event, GameOver,
    GameStarted, Unanswered, Woke,
    InternalFault, Offered, TakenOver, TakeoverTurn, PeerAway, PeerBack, PeerLeft, PeerMoved, PeersKnown, Refused, Rejected, RematchAnswer, Seated,
    SeatFreed, SeatTaken, YourTurn,
)
from peerboard.protocol.session.hosting import Hosting
from peerboard.protocol.session.joining import Joining
from peerboard.protocol.session.messages import Hello, Leave, MessageError, Rematch, Say, decode_message
from peerboard.protocol.session.phases import Milestone, next_phase
from peerboard.protocol.session.catchup import BEAT_EVERY
from peerboard.protocol.session.play import Play
from peerboard.protocol.session.table import Referee
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveRecord, Phase, Position, SeatInfo
from peerboard.protocol.session.tablecode import knock, stretched
from peerboard.protocol.session.takes import TAKES
from peerboard.protocol.session.view import SessionView

__all__ = [
    "Session", "Phase", "SeatInfo", "Position", "MoveRecord", "ChanceRecord", "LocalError",
    "Event", "Seated", "SeatTaken", "SeatFreed", "PeersKnown", "GameStarted", "Accepted", "Confirmed", "YourTurn",
    "PeerAway", "PeerBack", "PeerLeft", "PeerMoved", "Desync", "Equivocation", "InternalFault", "Ended", "Ending",
    "Claimable", "Offered", "Declined", "GameOver", "Rejected", "Refused", "Chatted", "RematchAnswer",
    "TakeoverTurn", "TakenOver", "Disputed", "Woke", "Unanswered",
]

STRIKES_TO_IGNORE = 50  # a peer that sent this many bad messages is no longer read

# -- the session ---------------------------------------------------------------------------------


class Session(SessionView):
    """One node's consensus session. Build it with `host`, `join` or `resume`.

    Its phase moves only in `_reach`, by the phase table (protocol/session/phases.py). The data of
    the phase it is in is its `_stage`: the host's or a joiner's side of a forming table
    (`Hosting`, `Joining`) while FORMING and SIGNING, the game (`Play`) from the genesis on;
    HALTED keeps the stage it halted in, so the surface still shows where it stood."""

    def __init__(self, identity: Identity, secrets: SeatSecrets | None, name: str, addr: str,
                 random: Callable[[int], bytes], now: float, private: bool = False,
                 may_watch: Callable[[bytes], bool] | None = None):
        super().__init__(identity.public_key, private)
        self._identity = identity
        #: whether this node serves a spectator with that key (the node's admission: the
        #: keys given with --spectator, or any with --spectators-any); None: any key
        self._may_watch = may_watch or _anyone
        self._secrets = secrets
        self._name = name
        self._addr = addr
        self._random = random
        self._takes = TAKES[self._phase]  # what the phase does with each message (kept with it)
        self._referee = Referee(lambda: self._phase, self._reach, self._halt_with, self._reject)
        self._strikes: dict[bytes, int] = {}
        self._catch_up = CatchUp()
        self._next_beat = now
        self._chat = chat.ChatRoom()
        #: the latest time an input brought (`follow` brings none)
        self._now = now
        self._over_news = False  # the game has just ended: the rematch's first answers are due
        #: a rematch's table: the session time by which its game must have started, else it is left
        self._start_by: float | None = None
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
             code: str | None = None, may_watch: Callable[[bytes], bool] | None = None) -> tuple["Session", Effects]:
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
               choice: tuple[tuple[Action, ...], bytes] | None, random: Callable[[int], bytes], now: float,
               may_watch: Callable[[bytes], bool] | None = None,
               claim: tuple[int, int, bytes] | None = None) -> tuple["Session", Effects]:
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
            effects += session._play.resume(list(entries), choice, addr, hello, claim)
            return session, effects + session._asks() + session._news()
        except LedgerError:
            raise
        except Exception as exc:
            return session, effects + session._fault("re-checking the stored log", exc)

    def _hello(self, role: str, table: bytes, game: str, proof: bytes | None = None) -> Hello:
        s = self._secrets
        chain, seed = (s.chain_tip, s.commitments()["seed"]) if s is not None else (bytes(32), bytes(32))
        return Hello(table, game, self._name, self._key, role, chain, seed, self._addr, proof)

    # -- the inputs -------------------------------------------------------------------------------

    def receive(self, sender: bytes, data: bytes, now: float, source: str = "") -> Effects:
        """A message from the peer with public key `sender` (authenticated by the transport),
        from network address `source` if the node knows it (a private table's host backs off
        wrong codes by it: protocol/session/guesses.py)."""
        if self._strikes.get(sender, 0) >= STRIKES_TO_IGNORE:
            return []
        self._now = now
        if self._phase in _FORMING:
            self._forming.source = source
        self._heard[sender] = now
        effects: Effects = self._stage.heard_from(sender, now)
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
                effects += self._formed(self._forming.after_message(now))
            except Exception as exc:
                return effects + self._fault("proposing the table", exc)
        return effects + self._news() if self._over_news else effects

    def submit(self, actions: list[Action] | tuple[Action, ...], now: float) -> Effects:
        """The local player's decision: actions for a move (several: a planned turn, one
        entry), or the one action of a secret choice (committed now, revealed when the rules
        call for it); or a secret choice made before this seat may commit to it (a seat ahead
        of it in the group commits first: `choice_ahead`), held and committed the moment it
        may — nothing in the log differs from a choice made then; the other seats are only
        told that it was made (`chosen`, a sign). LocalError if it is not allowed now."""
        self._now = now
        try:
            kind = self._decision()
        except LocalError:
            ahead = self.choice_ahead()
            if not ahead:
                raise
            return self._hold(actions, ahead)
        if not isinstance(actions, (list, tuple)) or not all(is_action(a) for a in actions):
            raise LocalError("A decision is a list of actions (tuples of text, numbers, booleans or None).")
        decided = tuple(actions)
        if not 1 <= len(decided) <= MAX_ACTIONS_PER_ENTRY:
            raise LocalError(f"A decision holds 1 to {MAX_ACTIONS_PER_ENTRY} actions.")
        try:
            return self._play.submit(kind, decided)
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("writing the local seat's decision", exc)

    def submit_takeover(self, seat: int, actions: list[Action] | tuple[Action, ...], now: float) -> Effects:
        """The decision of the bot playing seat `seat`, taken over and run by this node
        (asked by `TakeoverTurn`); LocalError if it is not allowed now."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        if not isinstance(actions, (list, tuple)) or not all(is_action(a) for a in actions) or \
                not 1 <= len(actions) <= MAX_ACTIONS_PER_ENTRY:
            raise LocalError(f"A decision is a list of 1 to {MAX_ACTIONS_PER_ENTRY} actions.")
        try:
            return self._play.takeovers.submit(seat, tuple(actions))
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("writing a taken-over seat's decision", exc)

    def tick(self, now: float) -> Effects:
        """Time passed: heartbeats (with the head), away peers, retries for missing entries."""
        self._now = now
        try:
            effects = self._tick(now)
            return effects + self._news() if self._over_news else effects
        except Exception as exc:
            return self._fault("keeping time", exc)

    def follow(self, step: TakeOwnEntry | NextStep) -> Effects:
        """Work the session left for later (the effect runner hands it back)."""
        if not isinstance(step, (TakeOwnEntry, NextStep)):
            raise TypeError(f"{step!r} is no step of a session")
        if self._phase not in _PLAYED:
            return []  # (left by a game that has halted since)
        try:
            play = self._play
            if isinstance(step, TakeOwnEntry):
                effects = play.take_own(step.entry, step.checked)
                return effects + self._news() if self._over_news else effects
            return play.my_turn()
        except Exception as exc:
            return self._fault("taking its own next step", exc)

    def resign(self, now: float) -> Effects:
        """The local seat resigns the game, at any time, its turn or not (spec/protocol.md,
        "Endings"); LocalError saying why it cannot (no game, a spectator, over already)."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress to resign." if self._phase is not Phase.OVER
                             else "The game is over already.")
        try:
            return self._play.endings.resign()
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("resigning", exc)

    def offer(self, how: str, now: float) -> Effects:
        """The local seat offers that the game ends `how` — "drawn" or "aborted" — at the
        next entry, or accepts another seat's offer of it; the game ends so once every seat
        still playing has (spec/protocol.md, "Endings"). LocalError saying why it cannot."""
        if how not in ("drawn", "aborted"):
            raise LocalError('An offer is of a draw ("drawn") or of an abort ("aborted").')
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        try:
            return self._play.endings.offer(how)
        except LocalError:
            raise
        except Exception as exc:
            return self._fault("offering", exc)

    def decline(self, how: str, now: float) -> Effects:
        """The local seat declines another seat's offer that the game ends `how`."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        return self._play.endings.decline(how)

    def claim(self, seat: int, now: float) -> Effects:
        """The local seat claims seat `seat`, away longer than the table's patience: it is
        gone for good (spec/protocol.md, "Endings"); LocalError saying why it cannot."""
        if self._phase is not Phase.PLAYING:
            raise LocalError("There is no game in progress here.")
        try:
            play = self._play
            return play.claims.claim(seat, play.away_for(seat, now) if 0 <= seat < play.players else None)
        except (LocalError, LedgerError) as exc:
            raise LocalError(getattr(exc, "why", str(exc))) from None
        except Exception as exc:
            return self._fault("claiming a seat", exc)

    def leave(self) -> Effects:
        """This node leaves (cleanly: its peers are told)."""
        data = Leave().to_bytes()
        return [Send(k, data) for k in self._stage.peers()]

    def say(self, text: str, now: float) -> Effects:
        """A line said to the table (spec/protocol.md, "Chat"): signed, sent to every seat
        and spectator this node serves, and told here too (`Chatted`). LocalError saying why
        when there is no game yet, the line is empty or too long, or this node says too much."""
        if self._phase not in _PLAYED:
            raise LocalError("The table's chat opens when the game starts." if self._phase in _FORMING
                             else "The game is halted: nothing can be said to the table.")
        return self._chat.say(self._identity, self._play, text, now)

    def _heard_say(self, sender: bytes, line: Say, now: float) -> Effects:
        return self._chat.heard(sender, line, now, self._play)

    def rematch(self, answer: str, next_table: bytes | None = None) -> Effects:
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
        gone = [i.index for i in self.seats if i.connection == "left"]
        if answer == "yes" and gone and self._phase is Phase.OVER:
            raise LocalError(f"Seat {gone[0]} has left the table: there can be no rematch.")
        return self._answer(answer, next_table) + self._rematch_step()

    def answers_rematch(self, rematches: Rematches) -> None:
        """Who answers a rematch at this node's seat: a person, or the node by itself
        (protocol/session/rematch.py). The node says so as it starts the session."""
        self._rematches = rematches
        if self._rematching is not None:
            self._rematching.policy = rematches

    def _answer(self, answer: str, next_table: bytes | None = None) -> Effects:
        """This seat's answer, kept and said to every other seat."""
        stage = self._play
        assert stage.seat is not None  # (the callers answer for a seat: `rematch`, `_asks`)
        others = [k for k in stage.seats if k != self._key]
        return self._rematch_part().answer(stage.seat, answer, next_table, stage.table, others)

    def _heard_rematch(self, sender: bytes, m: Rematch, now: float) -> Effects:
        stage = self._play
        told = self._rematch_part().heard(stage.seats.get(sender), m, stage.table)
        return told + self._rematch_step() if told else []

    def _asks(self) -> Effects:
        """"ask", if a person sits here or this node offers rematches (said as the game starts
        and again at its end)."""
        if self._rematches is None or not self._rematches.asks or self.local_seat is None or self._phase not in _PLAYED:
            return []
        return self._answer("ask")

    def _news(self) -> Effects:
        """The game has just ended here: "ask" again, and what the node answers by itself."""
        if not self._over_news:
            return []
        self._over_news = False
        return self._asks() + self._rematch_step()

    def _rematch_step(self) -> Effects:
        """What follows from where the rematch stands, the game over here (`Rematching.step`)."""
        seat = self.local_seat
        if seat is None or self._phase is not Phase.OVER:
            return []
        stage = self._play
        host = next(i for i in self.seats if i.index == 0)
        others = [k for k in stage.seats if k != self._key]
        return self._rematch_part().step(seat, stage.table, others, (host.key, host.address), self._random)

    def next_game(self, secrets: SeatSecrets, now: float) -> tuple["Session", Effects]:
        """The session of the rematch this node begins (`NextGame`), and its first effects:
        seat 0's node hosts the new table, its seats the same keys with the first seat moved
        on; every other node joins it at seat 0's node. With fresh `secrets`; the same
        patience and takeover; one rematch fewer left to offer. Its game must start within
        `REMATCH_WAIT` seconds, or the new table is left. LocalError if no rematch begins here."""
        state, seat = self.rematch_state, self.local_seat
        if self._phase is not Phase.OVER or seat is None or state.next is None or state.answers.get(seat) != "yes":
            raise LocalError("There is no rematch to begin here.")
        name, addr, random, may_watch = self._name, self._addr, self._random, self._may_watch
        if seat == 0:
            order = next_order(i.key for i in self.seats)
            session = Session.host(self._identity, secrets, name, addr, self.game_name, self.players, dict(self.options),
                                   state.next, random, now, may_watch=may_watch, order=order, patience=self.patience,
                                   takeover=self.takeover)
            effects: Effects = []
        else:
            host = next(i for i in self.seats if i.index == 0)
            session, effects = Session.join(self._identity, secrets, name, addr, host.key, state.next, self.game_name,
                                            random, now, may_watch=may_watch)
        if self._rematches is not None:
            session.answers_rematch(self._rematches.after())
        session._start_by = now + REMATCH_WAIT
        return session, effects

    def _hold(self, actions: list[Action] | tuple[Action, ...], ahead: tuple[Action, ...]) -> Effects:
        """The player's secret choice, made before this seat may commit to it: held."""
        chosen = tuple(tuple(a) if isinstance(a, list) else a for a in actions) if isinstance(actions, (list, tuple)) else ()
        if len(chosen) != 1 or chosen[0] not in ahead:
            raise LocalError("That is not one of your secret choices here.")
        play = self._play
        assert play.author is not None  # (a choice `ahead` is a seat's own: `choice_ahead`)
        play.author.held = chosen[0]
        return play.ahead.sign(True)

    def remove_seat(self, index: int, now: float) -> Effects:
        """The host removes the node holding seat `index` before the game starts: the seat
        is free again (`SeatFreed`, why "removed"), that node is refused and its hellos are
        refused from now on; a proposal already sent is withdrawn. LocalError saying why
        when this node hosts no forming table or no one holds that seat."""
        if self._phase not in _FORMING:
            raise LocalError("Seats can only be removed before the game starts.")
        return self._formed(self._forming.remove(index))

    # -- the phase, and whose fault --------------------------------------------------------------------

    def _reach(self, milestone: Milestone) -> None:
        """The one place the phase changes: as the phase table says (protocol/session/phases.py)."""
        self._phase = next_phase(self._phase, milestone)
        self._takes = TAKES[self._phase]
        if milestone is Milestone.ENDED:  # (what follows for a rematch: `_news`, after this input)
            self._rematch_part().over_at = self._now
            self._over_news = True
        if milestone is Milestone.WITHDRAWN:
            self._seated = None  # (the welcome that withdraws a proposal is news, whatever it says)

    def _reject(self, sender: bytes, reason: str) -> Effects:
        """The sender's fault: said, and counted against it."""
        self._strikes[sender] = self._strikes.get(sender, 0) + 1
        return [Rejected(fingerprint(sender) if len(sender) == 32 else "?", reason)]

    def _flooding(self, sender: bytes, now: float) -> Effects:
        """The sender asked beyond its catch-up budget (protocol/session/budget.py): said now and
        then, counted against nobody."""
        line = self._catch_up.said(sender, now)
        return [] if line is None else [Rejected(fingerprint(sender) if len(sender) == 32 else "?", line)]

    def _fault(self, doing: str, exc: Exception) -> Effects:
        """Our own: the game halts here, nobody is blamed, the node keeps the details."""
        return self._halt_with(InternalFault.of(doing, exc))

    def _halt_with(self, event: Event) -> Effects:
        """The game halts with `event`; once halted, a later one is told but the first stands."""
        if self._phase is not Phase.HALTED:
            self._reach(Milestone.HALTED)
            self._halt = event
        return [event]

    # -- time -------------------------------------------------------------------------------------------

    def _tick(self, now: float) -> Effects:
        if self._phase is Phase.HALTED:
            return []
        if self._start_by is not None and now >= self._start_by:
            self._start_by = None
            if self._phase in _FORMING:  # (nobody waits for ever: a seat never came)
                return self.leave() + [Refused(f"the rematch did not start within {REMATCH_WAIT:g} s (a seat never came)")]
        stage = self._stage
        effects: Effects = []
        beat = now >= self._next_beat
        if beat:
            self._next_beat = now + BEAT_EVERY
            data = stage.beat()
            effects += [Send(k, data) for k in stage.peers()]
            if self._phase is Phase.PLAYING and isinstance(stage, Play) and stage.author is not None:
                effects += stage.ahead.sign(stage.author.held is not None)  # (said again while a choice is held)
        if isinstance(stage, Play):  # (PLAYING or OVER, the game halted already: above)
            return effects + stage.tick(now, beat)
        return effects + self._formed(stage.tick(now))

    # -- forming the table (protocol/session/forming.py), and the start --------------------------------------

    def _formed(self, effects: Effects) -> Effects:
        """After the forming handshake took a message: the game starts once it has its genesis."""
        effects = self._news_only(effects)
        f = self._forming
        if f.genesis is None:
            return effects
        try:
            # the host, holding every signature, hands the genesis to every seat at once
            return effects + self._start(f.genesis, f.addrs, f.spectators, hand_out=f.hands_out_genesis)
        except LedgerError as exc:
            f.genesis = None
            raise MessageError(f"genesis: {exc.why}") from None

    def _news_only(self, effects: Effects) -> Effects:
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
               hand_out: bool, resumed: bool = False) -> Effects:
        """The game begins here (or, `resumed`, begins again from the stored genesis);
        LedgerError if that genesis cannot begin one."""
        play = Play.start(self._identity, self._secrets, self._random, genesis, addrs, spectators, self._heard,
                          self._referee, self._may_watch)
        self._stage = play
        self._reach(Milestone.STARTED)
        effects = play.started(list(play.seat_keys) if hand_out else [], resumed)
        return effects if resumed else effects + play.my_turn() + self._asks()


def _anyone(key: bytes) -> bool:
    return True


_FORMING = (Phase.FORMING, Phase.SIGNING)
_PLAYED = (Phase.PLAYING, Phase.OVER)
