"""The session's read-only surface (spec/protocol.md, "The session's public surface"):
everything above the session — node/, client/, bots — reads the game through it. `Session`
(protocol/session/session.py) is a `SessionView`, as python-chess's `Board` is a
`BaseBoard`: this base holds what a session shows — its phase, the stage it is at (the
forming side, or the game), who it has heard, why it halted, its side of a rematch — and
answers every question about it; the session itself takes the inputs.
"""
from __future__ import annotations

from typing import Any, Mapping

from peerboard import engines
from peerboard.engines import Action
from peerboard.protocol.log import LedgerError, NO_TAKEOVER, fingerprint
from peerboard.protocol.session.events import Ending, Event, GameOver
from peerboard.protocol.session.hosting import Hosting
from peerboard.protocol.session.joining import Joining
from peerboard.protocol.session.play import Play
from peerboard.protocol.session.rematch import RematchState, Rematches, Rematching
from peerboard.protocol.session.surface import ChanceRecord, LocalError, MoveRecord, Phase, Position, SeatInfo


class SessionView:
    """What a session shows, and its read-only surface."""

    def __init__(self, key: bytes, private: bool):
        self._key = key
        self._private = private
        self._phase = Phase.FORMING
        #: set by the constructor that built the session: the forming side while FORMING and
        #: SIGNING, the game from the genesis on (`_forming`, `_play`)
        self._stage: Hosting | Joining | Play
        self._heard: dict[bytes, float] = {}
        self._halt: Event | None = None
        #: who answers a rematch here (the node sets it: `answers_rematch`; None: nothing is
        #: said by itself), and, from the genesis on, this node's side of a rematch
        self._rematches: Rematches | None = None
        self._rematching: Rematching | None = None

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def _play(self) -> Play:
        """The game: asked for only from the genesis on (PLAYING, OVER, or HALTED after them)."""
        stage = self._stage
        assert isinstance(stage, Play), "no game has started here"
        return stage

    @property
    def _forming(self) -> Hosting | Joining:
        """The forming side: asked for only while the table forms (FORMING, SIGNING)."""
        stage = self._stage
        assert not isinstance(stage, Play), "the game has started here"
        return stage

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

    def legal_actions(self) -> tuple[Action, ...]:
        """The local seat's options now: its legal moves, or its secret choice's candidates;
        () when the decision is not the local seat's."""
        kind = self.decision_kind()
        return () if kind is None else self._play.options_for(kind)

    def choice_ahead(self) -> tuple[Action, ...]:
        """A secret choice the local seat is in but may not commit to yet (a seat ahead of
        it in the group commits first): its options, the same it will be offered then; ()
        when there is none. A node may take the choice now and submit it when it may."""
        if self._phase is not Phase.PLAYING:
            return ()
        play = self._play
        if play.author is None:
            return ()
        try:
            return play.author.choice_ahead(play.ledger)
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
        play = self._play if phase is Phase.PLAYING else None
        if play is None or play.author is None:
            raise LocalError("There is no game in progress at this seat.")
        return play.author.decision(play.ledger)

    @property
    def offers(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(how, the seats that offered or accepted it) of each offer standing at the next entry."""
        return self._stage.endings.standing(self._stage.ledger.next_seq) if isinstance(self._stage, Play) else ()

    @property
    def rematch_state(self) -> RematchState:
        """What this node has heard about playing the game again (read it; never change it)."""
        return self._rematch_part().state

    def _rematch_part(self) -> Rematching:
        if self._rematching is None:
            self._rematching = Rematching(self.players, self._rematches)
        return self._rematching

    def awaits_rematch(self, now: float) -> bool:
        """Whether this node should still wait for a rematch (the game over here): one is
        possible — nobody declined or left — not yet settled, and the wait of `REMATCH_WAIT`
        seconds after the end is not over."""
        if self._phase is not Phase.OVER or self._rematching is None:
            return False
        left = [i.index for i in self.seats if i.connection == "left"]
        return self._rematching.waits(self.local_seat, now, left)

    @property
    def over_since(self) -> float | None:
        """The session time the game was over here (its last result entry taken), else None."""
        return None if self._rematching is None else self._rematching.over_at

    @property
    def chosen_ahead(self) -> tuple[int, ...]:
        """The other seats that said they have made their secret choice due at the head and
        wait for this one (a sign, `ChoseAhead`: what they chose stays sealed)."""
        return self._play.ahead.signed() if self._phase in (Phase.PLAYING, Phase.OVER) else ()

    @property
    def held_choice(self) -> Action | None:
        """A secret choice the player made before this seat may commit to it, held until it
        may (`submit`); else None."""
        author = self._play.author if self._phase is Phase.PLAYING else None
        return None if author is None else author.held
