"""One peerboard position as an OpenSpiel state (`pyspiel.State`), and what each seat saw.

The engine's state is immutable, so a state holds one and replaces it on every action. Beside
it each seat keeps the lines it observed, in order: its information state (perfect recall).
What a seat is not told (spec/engine-contract.md, "Hidden information"):

* a hidden chance outcome (an Aton draw) that is not its own: it sees the engine's hidden
  placeholder (`draw ?`);
* the choices of the other seats in a secret group (Aton's cartouches) until the last seat
  of the group has chosen: OpenSpiel takes a simultaneous secret choice as sequential moves,
  in the engine's seat order (`secret_choice`); each seat sees "seat k chose" until the
  group closes, then every choice of the group at once. Meanwhile every seat's observation
  is the position as it stood when the group opened: the engine applies a choice at once,
  but the others may not see it yet.
"""
from __future__ import annotations

import random
from typing import Any

import pyspiel

from peerboard.engines import CHANCE, TERMINAL


class Kept:
    """A value a copied state shares with its original instead of copying it: the engine's
    immutable states, the game's tables. (OpenSpiel clones a Python state with
    `copy.deepcopy`.)"""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> "Kept":
        return self


class Seen:
    """What the seats observed: one chain (earlier chain, event) shared by every seat and with
    the states a state was cloned from, an action adding one link; each seat's lines are
    worked out from it when asked (a search plays many actions and asks for few lines).

    An event is ("chance", before, action, owner of a hidden outcome or None), ("move",
    seat, before, action), ("secret", seat, before, action) or ("reveal", ((seat, before,
    action), ...)), where `before` is the engine's state the action was taken in, and a
    last field that keeps the event's lines for each seat once worked out. (OpenSpiel
    serialises a Python state by pickling its fields: the chain pickles as a list.)"""

    __slots__ = ("chain", "header")

    def __init__(self, chain: tuple | None, header: Any) -> None:
        self.chain = chain
        self.header = header

    @classmethod
    def of_events(cls, events: list, header: Any) -> "Seen":
        chain = None
        for event in events:
            chain = (chain, event)
        return cls(chain, header)

    def events(self) -> list:
        events = []
        chain = self.chain
        while chain is not None:
            chain, event = chain
            events.append(event)
        events.reverse()
        return events

    def told(self, event: tuple) -> "Seen":
        return Seen((self.chain, event), self.header)

    def lines(self, engine: Any, seat: int) -> list[str]:
        """The lines `seat` observed, in order (research/openspiel/state.py, above); each
        event's lines are worked out once per seat and kept with it."""
        lines = list(self.header(seat))
        for event in self.events():
            lines.extend(_event_lines(engine, event, seat))
        return lines

    def __deepcopy__(self, memo: dict) -> "Seen":
        return self

    def __reduce__(self) -> tuple:
        return (Seen.of_events, (self.events(), self.header))


def _event_lines(engine: Any, event: tuple, seat: int) -> tuple[str, ...]:
    """The lines an event shows `seat`, worked out once (kept in the event's last field)."""
    kept = event[-1]
    lines = kept.get(seat)
    if lines is None:
        lines = kept[seat] = _lines_of(engine, event, seat)
    return lines


def _lines_of(engine: Any, event: tuple, seat: int) -> tuple[str, ...]:
    text = engine.format_action
    kind = event[0]
    if kind == "chance":
        _, before, action, owner, _ = event
        shown = action if owner is None or owner == seat else engine.hidden_outcome(before)
        return (f"chance: {text(before, shown)}",)
    if kind == "move":
        _, who, before, action, _ = event
        return (f"seat {who}: {text(before, action)}",)
    if kind == "secret":
        _, who, before, action, _ = event
        return (f"seat {who}: {text(before, action)}" if who == seat else f"seat {who} chose in secret",)
    return tuple(f"seat {who} chose: {text(before, action)}" for who, before, action in event[1])


class PeerboardState(pyspiel.State):
    """A position of a peerboard game, played by OpenSpiel's action ids."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._kept_game = Kept(game.table)
        self._kept = Kept(game.table.engine.new_game(game.table.players, game.table.options))
        #: what each seat observed (its information state)
        self._seen = Seen(None, game.table.header_lines)
        #: while a secret group is open: the position when it opened, and the group's
        #: choices so far as (seat, the state it chose in, action)
        self._kept_opened: Kept | None = None
        self._secret: list[tuple[int, Any, Any]] = []

    @property
    def _spiel(self) -> Any:
        return self._kept_game.value

    @property
    def engine_state(self) -> Any:
        """The engine's state (immutable: an action replaces it)."""
        return self._kept.value

    @engine_state.setter
    def engine_state(self, value: Any) -> None:
        self._kept = Kept(value)

    def _tell(self, event: tuple) -> None:
        self._seen = self._seen.told((*event, {}))  # (the last field keeps its lines, by seat)

    @property
    def _opened(self) -> Any:
        return None if self._kept_opened is None else self._kept_opened.value

    @_opened.setter
    def _opened(self, value: Any) -> None:
        self._kept_opened = None if value is None else Kept(value)

    # -- whose move, what is legal -------------------------------------------------------
    def current_player(self) -> int:
        who = self._spiel.engine.current(self.engine_state)
        if who == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if who == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return who

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._spiel.engine.current(self.engine_state):
            return []
        number = self._spiel.ids.id
        return sorted(number(action) for action in self._spiel.engine.legal_actions(self.engine_state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        number = self._spiel.ids.id
        return sorted((number(action), float(p)) for action, p in self._spiel.engine.chance_outcomes(self.engine_state))

    # -- moves -----------------------------------------------------------------------------
    def _apply_action(self, number: int) -> None:
        engine, before = self._spiel.engine, self.engine_state
        action = self._spiel.ids.action(number)
        who = engine.current(before)
        group = engine.secret_choice(before) if who >= 0 else ()
        after = engine.apply(before, action)  # IllegalAction: OpenSpiel asked for an illegal id
        if who == CHANCE:
            owner = engine.chance_owner(before)
            hidden = owner is not None and engine.chance_hidden(before)
            self._tell(("chance", before, action, owner if hidden else None))
        elif group:
            if self._opened is None:
                self._opened = before
            self._secret.append((who, before, action))
            self._tell(("secret", who, before, action))
            if not engine.secret_choice(after) or engine.current(after) not in group:
                self._tell(("reveal", tuple(self._secret)))
                self._opened, self._secret = None, []
        else:
            self._tell(("move", who, before, action))
        self.engine_state = after

    def _action_to_string(self, player: int, number: int) -> str:
        return self._spiel.engine.format_action(self.engine_state, self._spiel.ids.action(number))

    # -- the end ---------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._spiel.engine.is_terminal(self.engine_state)

    def returns(self) -> list[float]:
        """Zero-sum: at the end each of w winners gets n/w - 1 and every other seat -1
        (two players: +1 and -1); a draw (no winner) and a game still going: 0 each."""
        players = self._spiel.players
        if not self.is_terminal():
            return [0.0] * players
        winners = self._spiel.engine.winners(self.engine_state)
        if not winners:
            return [0.0] * players
        share = players / len(winners) - 1.0
        return [share if seat in winners else -1.0 for seat in range(players)]

    # -- what a seat knows ----------------------------------------------------------------
    def seat_view(self, seat: int) -> Any:
        """The engine's view of `seat`: of the position when an open secret group began."""
        shown = self._opened if self._opened is not None else self.engine_state
        return self._spiel.engine.view(shown, seat)

    def information_state_lines(self, seat: int) -> list[str]:
        """The lines `seat` observed, in order, after the game's header."""
        return self._seen.lines(self._spiel.engine, seat)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "PeerboardState":
        """A state `player_id` cannot tell from this one (OpenSpiel's IS-MCTS asks for it):
        the hidden parts filled in by the engine's `determinize` from 32 bytes drawn with
        `probability_sampler`; in an open secret group, from the position when it opened,
        then the seat's own choices as made and the others' at random among theirs.

        `player_id` observed all it did; of what the other seats observed it knows only
        what it saw itself, so in the sample they observed that and, at the start of the
        sample, what the sample shows them (their view of it as text): the sample's own
        world. Its `history()` is empty (a sample has no true past: serialise the real
        state, never a sample)."""
        engine = self._spiel.engine
        entropy = bytes(int(probability_sampler() * 256) % 256 for _ in range(32))
        chooser = random.Random(entropy)
        sample = PeerboardState(self.get_game())
        if self._opened is None:
            state = engine.determinize(engine.view(self.engine_state, player_id), player_id, entropy)
        else:
            sample._opened = engine.determinize(engine.view(self._opened, player_id), player_id, entropy)
            state = sample._opened
            for seat, before, action in self._secret:
                if seat != player_id:
                    action = chooser.choice(engine.legal_actions(state))
                sample._secret.append((seat, state, action))
                state = engine.apply(state, action)
        sample.engine_state = state
        seen = self._seen
        sample._seen = Seen(seen.chain, _Sampled(seen.header, player_id, [
            engine.render_text(engine.view(sample._opened if sample._opened is not None else state, seat), seat)
            for seat in range(self._spiel.players)]))
        return sample

    def __str__(self) -> str:
        return self._spiel.engine.render_text(self.engine_state)


class _Sampled:
    """The header of a sample's seats: the game's, then for every seat but the one the
    sample is for, what the sample shows it."""

    def __init__(self, header: Any, player: int, shown: list[str]) -> None:
        self.header, self.player, self.shown = header, player, shown

    def __call__(self, seat: int) -> list[str]:
        lines = list(self.header(seat))
        if seat != self.player:
            lines.append(f"sampled: {self.shown[seat]}")
        return lines
