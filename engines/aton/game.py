"""Aton behind the engine contract."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.aton import determinize, notation, render, rules, summary
from peerboard.engines.aton.state import ASSIGN, DRAW, OVER, SEATS, TURN_UP, State, record
from peerboard.engines.contract import CHANCE, TERMINAL, Game, IllegalAction
from peerboard.engines.styled import Fragment
from peerboard.engines.options import Option, boolean, int_between
from peerboard.engines.values import evolve


#: who is to act in the phases where it is no seat
_WHO = {DRAW: CHANCE, TURN_UP: CHANCE, OVER: TERMINAL}


class AtonGame(Game):
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

    def new_game(self, players: int = 2, options: Mapping[str, Any] | None = None) -> State:
        opts = self.resolve_options(players, options)
        return rules.new_state(opts["win_points"], opts["first_round_removal"])

    def current(self, state: State) -> int:
        who = _WHO.get(state.phase)  # (one lookup: the ledger asks this several times an entry)
        return state.actor if who is None else who

    def legal_actions(self, state: State) -> list[tuple]:
        return rules.legal_actions(state)

    def chance_weights(self, state: State) -> list[tuple[tuple, int]]:
        if self.current(state) != CHANCE:
            raise IllegalAction("This is not a chance node.")
        return rules.chance_weights(state)

    def sample_chance(self, state: State, entropy: bytes) -> tuple:
        """As the contract's (spec/chance.md), without building the list of weights."""
        if state.phase == DRAW or state.phase == TURN_UP:
            return rules.sample_card(state, entropy)
        return super().sample_chance(state, entropy)

    def apply(self, state: State, action: tuple) -> State:
        return rules.BOOK.apply(state, action)  # (rules.apply, one call fewer: twice an action a game)

    def winners(self, state: State) -> list[int]:
        return list(state.winners)

    def scores(self, state: State) -> list[int]:
        return [s.score for s in state.seats]

    def format_action(self, state: State, action: tuple) -> str:
        return notation.format_action(action)

    def parse_action(self, state: State, text: str) -> tuple:
        action = notation.parse_action(text)
        rules.apply(state, action)  # raises IllegalAction with the rules' reason
        return action

    # -- hidden information ---------------------------------------------------------
    def chance_owner(self, state: State) -> int | None:
        # Draws and tie-break turn-ups both come from the actor's own deck.
        return state.actor if state.phase == DRAW or state.phase == TURN_UP else None  # (at CHANCE)

    def chance_hidden(self, state: State) -> bool:
        return state.phase == DRAW

    def hidden_outcome(self, state: State) -> tuple:
        if state.phase != DRAW:
            return super().hidden_outcome(state)
        return ("draw", None)

    def secret_choice(self, state: State) -> tuple[int, ...]:
        if state.phase != ASSIGN:
            return ()
        return tuple(i for i in SEATS if state.seats[i].cartouches is None)

    def choices_for(self, state: State, seat: int) -> list[tuple]:
        if seat not in self.secret_choice(state):
            return super().choices_for(state, seat)
        return rules.legal_actions(evolve(state, actor=seat))

    def view(self, state: State, seat: int | None) -> State:
        seats = tuple(s if i == seat else evolve(s, hand=None) for i, s in enumerate(state.seats))
        return evolve(state, seats=seats)

    def determinize(self, view: State, seat: int | None, entropy: bytes) -> State:
        return determinize.determinize(view, seat, entropy)

    def public_record(self, state: State) -> tuple:
        return record(state)

    def rules_text(self) -> str:
        return summary.RULES_IN_BRIEF

    def render_styled(self, state: State, seat: int | None = None) -> list[Fragment]:
        return render.render_styled(state, seat)


assert SEATS == (0, 1)
