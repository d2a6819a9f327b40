"""The contract for Pig: each method one line into the modules beside it."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.contract import CHANCE, TERMINAL, Action, Game
from peerboard.engines.options import Option, int_between
from peerboard.engines.pig import notation, render, rules, summary
from peerboard.engines.pig.state import CHOOSE, OVER, ROLL, State, record
from peerboard.engines.styled import Fragment


class Pig(Game):
    name = "pig"
    title = "Pig"
    version = "1"
    min_players = 2
    max_players = 4
    options_schema = {"goal": Option(30, int_between(10, 100), "points to bank to win")}
    conformance_setups = ((2, {}), (3, {"goal": 10}))
    playout_limit = 20_000

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        opts = self.resolve_options(players, options)
        return State(goal=opts["goal"], banked=(0,) * players)

    def current(self, state: State) -> int:
        return {ROLL: CHANCE, OVER: TERMINAL}.get(state.phase, state.turn)

    def legal_actions(self, state: State) -> list[Action]:
        return rules.BOOK.legal_actions(state)

    def chance_weights(self, state: State) -> list[tuple[Action, int]]:
        return [(action, 1) for action in rules.BOOK.legal_actions(state)] if state.phase == ROLL else []

    def apply(self, state: State, action: Action) -> State:
        return rules.BOOK.apply(state, action)

    def winners(self, state: State) -> list[int]:
        return [state.turn] if state.phase == OVER else []

    def scores(self, state: State) -> list[int]:
        return list(state.banked)

    def format_action(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, state: State, text: str) -> Action:
        return notation.parse_action(text)

    def public_record(self, state: State) -> tuple:
        return record(state)

    def render_styled(self, state: State, seat: int | None = None) -> list[Fragment]:
        return render.render_styled(state, seat)

    def rules_text(self) -> str:
        return summary.RULES_IN_BRIEF

    def heuristic(self, state: State, seat: int) -> float | None:
        """The turn total the seat to act can still expect to bank: all of it when it may
        hold now; before a roll, what one more roll leaves on average (a 1 in 6 loses it,
        else 2 to 6 join it), so the greedy player rolls while that is more."""
        if seat != state.turn or state.phase == OVER:
            return 0.0
        if state.phase == CHOOSE:
            return float(state.total)
        return 5 / 6 * (state.total + 4)
