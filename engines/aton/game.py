"""Aton behind the engine contract."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.features import Features
from peerboard.engines.aton import action_ids, features, determinize, notation, render, rules, summary
from peerboard.engines.aton.state import ASSIGN, DRAW, OVER, SEATS, TURN_UP, State, record
from peerboard.engines.contract import CHANCE, TERMINAL, Action, IllegalAction
from peerboard.engines.options import Option, boolean, int_between
from peerboard.engines.recipe import Recipe
from peerboard.engines.values import evolve


class AtonGame(Recipe[State]):
    name = "aton"
    title = "Aton"
    version = "1"
    min_players = 2
    max_players = 2
    options_schema = {
        "win_points": Option(40, int_between(1, 200), "points that win (reached, not passed)"),
        "first_round_removal": Option(False, boolean, "allow removals in the very first round"),
    }
    conformance_setups = (
        (2, {}),
        (2, {"first_round_removal": True, "win_points": 25}),
    )
    playout_limit = 20_000

    book = rules.BOOK
    seats_aside = {DRAW: CHANCE, TURN_UP: CHANCE, OVER: TERMINAL}
    write = staticmethod(notation.format_action)
    read = staticmethod(notation.parse_action)
    parse_asks_the_rules = True
    record = staticmethod(record)
    draw = staticmethod(render.render_styled)
    rules_in_brief = summary.RULES_IN_BRIEF

    def new_game(self, players: int = 2, options: Mapping[str, Any] | None = None) -> State:
        opts = self.resolve_options(players, options)
        return rules.new_state(opts["win_points"], opts["first_round_removal"])

    def chance_weights(self, state: State) -> list[tuple[Action, int]]:
        if self.current(state) != CHANCE:
            raise IllegalAction("This is not a chance node.")
        return rules.chance_weights(state)

    def sample_chance(self, state: State, entropy: bytes) -> Action:
        """As the contract's (spec/chance.md), without building the list of weights."""
        if state.phase == DRAW or state.phase == TURN_UP:
            return rules.sample_card(state, entropy)
        return super().sample_chance(state, entropy)

    def winners(self, state: State) -> list[int]:
        return list(state.winners)

    def scores(self, state: State) -> list[int]:
        return [s.score for s in state.seats]

    # -- hidden information ---------------------------------------------------------
    def chance_owner(self, state: State) -> int | None:
        # Draws and tie-break turn-ups both come from the actor's own deck.
        return state.actor if state.phase == DRAW or state.phase == TURN_UP else None  # (at CHANCE)

    def chance_hidden(self, state: State) -> bool:
        return state.phase == DRAW

    def hidden_outcome(self, state: State) -> Action:
        if state.phase != DRAW:
            return super().hidden_outcome(state)
        return ("draw", None)

    def secret_choice(self, state: State) -> tuple[int, ...]:
        if state.phase != ASSIGN:
            return ()
        return tuple(i for i in SEATS if state.seats[i].cartouches is None)

    def choices_for(self, state: State, seat: int) -> list[Action]:
        if seat not in self.secret_choice(state):
            return super().choices_for(state, seat)
        return rules.legal_actions(evolve(state, actor=seat))

    def view(self, state: State, seat: int | None) -> State:
        seats = tuple(s if i == seat else evolve(s, hand=None) for i, s in enumerate(state.seats))
        return evolve(state, seats=seats)

    def determinize(self, view: State, seat: int | None, entropy: bytes) -> State:
        return determinize.determinize(view, seat, entropy)

    def action_ids(self, players: int = 2, options: Mapping[str, Any] | None = None) -> ActionIds:
        """One numbering for both option sets (action_ids.py)."""
        self.resolve_options(players, options)
        return action_ids.numbering()

    def features(self, players: int = 2, options: Mapping[str, Any] | None = None) -> Features:
        """The position as numbers (features.py)."""
        self.resolve_options(players, options)
        return features.features()


assert SEATS == (0, 1)
