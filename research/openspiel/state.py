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
    """A value a copied state shares with its original instead of copying it: the game's
    tables. (OpenSpiel clones a Python state with `copy.deepcopy`.)"""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> "Kept":
        return self


class Position(Kept):
    """An engine state (immutable) that a state shares with its clones, and what was worked
    out from it, once: its legal action ids, the board's text as each seat sees it and each
    seat's features. OpenSpiel asks a state and its clone for the same things, several
    times each, and sizes every observation tensor it makes on a new initial state, which
    every new state of a game shares."""

    __slots__ = ("_legal", "_texts", "_features")

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        # (made when first asked: a search's rollouts make many positions and ask little of them)
        self._legal: list[int] | None = None
        self._texts: dict[int | None, str] | None = None
        self._features: dict[int, list[float]] | None = None

    def legal(self, engine: Any, ids: Any) -> list[int]:
        """The ids of the legal actions, in ascending order (a copy: the caller's own)."""
        if self._legal is None:
            number = ids.id
            self._legal = sorted(number(action) for action in engine.legal_actions(self.value))
        return list(self._legal)

    def text(self, engine: Any, seat: int | None) -> str:
        """The board as `seat` sees it (None: as everyone sees it)."""
        if self._texts is None:
            self._texts = {}
        text = self._texts.get(seat)
        if text is None:
            shown = self.value if seat is None else engine.view(self.value, seat)
            text = self._texts[seat] = engine.render_text(shown, seat)
        return text

    def features(self, features: Any, engine: Any, seat: int) -> list[float]:
        """The engine's features of `seat`'s view."""
        if self._features is None:
            self._features = {}
        numbers = self._features.get(seat)
        if numbers is None:
            numbers = self._features[seat] = features(engine.view(self.value, seat), seat)
        return numbers

    def __reduce__(self) -> tuple:
        return (Position, (self.value,))  # what was worked out is worked out again


class Seen:
    """What the seats observed: one chain (earlier chain, event) shared by every seat and with
    the states a state was cloned from, an action adding one link; each seat's text is
    worked out from it when asked (a search plays many actions and asks for few texts).

    An event is ("chance", before, action, owner of a hidden outcome or None), ("move",
    seat, before, action), ("secret", seat, before, action) or ("reveal", ((seat, before,
    action), ...)), where `before` is the engine's state the action was taken in, and a
    last field that keeps the event's lines for each seat once worked out. (OpenSpiel
    serialises a Python state by pickling its fields: the chain pickles as a list.)

    A seat's text, once worked out, is kept with the link it reached (`texts`) and handed
    on to the next link: the text after one more action is the text before it and that
    action's lines, not the whole game's lines joined again (OpenSpiel's tests ask for
    every seat's information state at every state of a game)."""

    __slots__ = ("chain", "header", "texts")

    def __init__(self, chain: tuple | None, header: Any, texts: dict | None = None) -> None:
        self.chain = chain
        self.header = header
        #: seat -> (the link its text reached, the text); None until a text is asked for
        self.texts: dict[int, tuple[tuple | None, str]] | None = texts

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
        return Seen((self.chain, event), self.header, dict(self.texts) if self.texts else None)

    def text(self, engine: Any, seat: int) -> str:
        """The lines `seat` observed, in order, one a line (research/openspiel/state.py,
        above): the text kept for an earlier link of this chain and the lines since."""
        if self.texts is None:
            self.texts = {}
        kept = self.texts.get(seat)
        if kept is not None and kept[0] is self.chain:
            return kept[1]
        since = []
        chain, reached = self.chain, kept[0] if kept is not None else None
        while chain is not None and chain is not reached:
            chain, event = chain
            since.append(event)
        if chain is None and reached is not None:  # a text kept for another branch: from the start
            kept = None
        lines = list(self.header(seat)) if kept is None else [kept[1]]
        for event in reversed(since):
            lines.extend(_event_lines(engine, event, seat))
        text = "\n".join(lines)
        self.texts[seat] = (self.chain, text)
        return text

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
        self._kept = game.table.start  # the start, shared by every new state of the game
        #: what each seat observed (its information state)
        self._seen = Seen(None, game.table.header_lines)
        #: while a secret group is open: the position when it opened, and the group's
        #: choices so far as (seat, the state it chose in, action)
        self._kept_opened: Position | None = None
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
        self._kept = Position(value)

    def _tell(self, event: tuple) -> None:
        self._seen = self._seen.told((*event, {}))  # (the last field keeps its lines, by seat)

    @property
    def _opened(self) -> Any:
        return None if self._kept_opened is None else self._kept_opened.value

    @_opened.setter
    def _opened(self, value: Any) -> None:
        self._kept_opened = None if value is None else Position(value)

    # -- whose move, what is legal -------------------------------------------------------
    def current_player(self) -> int:
        who = self._spiel.engine.current(self.engine_state)
        if who == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if who == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return who

    def _legal_actions(self, player: int) -> list[int]:
        table = self._spiel
        if player != table.engine.current(self.engine_state):
            return []
        return self._kept.legal(table.engine, table.ids)

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

    def _shown(self) -> Position:
        """The position the seats see: when an open secret group began, else this one."""
        return self._kept_opened if self._kept_opened is not None else self._kept

    def observation_text(self, seat: int) -> str:
        """The board as `seat` sees it: its view's text in a game with hidden parts; in a
        game of perfect information every seat sees the same board, `str(state)`."""
        table = self._spiel
        return self._shown().text(table.engine, seat if table.hidden else None)

    def seat_features(self, seat: int) -> list[float]:
        """The engine's features of `seat`'s view (the observation tensor)."""
        table = self._spiel
        return self._shown().features(table.features, table.engine, seat)

    def information_state_text(self, seat: int) -> str:
        """The lines `seat` observed, in order, after the game's header, one a line."""
        return self._seen.text(self._spiel.engine, seat)

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
        own = seen.texts.get(player_id) if seen.texts else None  # the seat's own text is the same in the sample
        sample._seen = Seen(seen.chain, _Sampled(seen.header, player_id, engine, sample._shown()),
                            {player_id: own} if own is not None else None)
        return sample

    def __str__(self) -> str:
        return self._kept.text(self._spiel.engine, None)


class _Sampled:
    """The header of a sample's seats: the game's, then for every seat but the one the
    sample is for, what the sample shows it (its view's text, worked out when asked)."""

    def __init__(self, header: Any, player: int, engine: Any, shown: Position) -> None:
        self.header, self.player, self.engine, self.shown = header, player, engine, shown

    def __call__(self, seat: int) -> list[str]:
        lines = list(self.header(seat))
        if seat != self.player:
            lines.append(f"sampled: {self.shown.text(self.engine, seat)}")
        return lines


def from_view(game: Any, view: Any, seat: int, entropy: bytes) -> PeerboardState:
    """A state of the OpenSpiel `game` for a search by `seat`, which knows only its `view`
    (a bot at a table): the hidden parts filled in by the engine's `determinize` from
    `entropy` (32 bytes; the view itself where nothing is hidden) and, at a secret choice
    that seats before `seat` make first in OpenSpiel's order, their choices made at random
    (hidden from `seat`, as at the table, where nobody has revealed yet). Its information
    states begin here: the game's header and nothing before."""
    engine, ids = game.table.engine, game.table.ids
    state = game.new_initial_state()
    state.engine_state = engine.determinize(view, seat, entropy)
    chooser = random.Random(entropy)
    while True:
        current = engine.current(state.engine_state)
        if current == seat or current < 0 or not engine.secret_choice(state.engine_state):
            return state
        state.apply_action(ids.id(chooser.choice(engine.legal_actions(state.engine_state))))
