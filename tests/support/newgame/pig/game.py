"""The contract for Pig: the recipe's base class (engines/recipe.py) names the modules beside it."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.contract import CHANCE, TERMINAL
from peerboard.engines.options import Option, int_between
from peerboard.engines.pig import notation, render, rules, summary
from peerboard.engines.pig.state import CHOOSE, OVER, ROLL, State, record
from peerboard.engines.recipe import Recipe

#: Pig's action ids (spec/engine-contract.md, "Action ids"): the die's faces first (chance)
_IDS = ActionIds("pig", [("die", face) for face in rules.FACES], [("roll",), ("hold",)])


class Pig(Recipe):
    name = "pig"
    title = "Pig"
    version = "1"
    min_players = 2
    max_players = 4
    options_schema = {"goal": Option(30, int_between(10, 100), "points to bank to win")}
    conformance_setups = ((2, {}), (3, {"goal": 10}))
    playout_limit = 20_000

    book = rules.BOOK
    write = staticmethod(notation.format_action)
    read = staticmethod(notation.parse_action)
    record = staticmethod(record)
    draw = staticmethod(render.render_styled)
    rules_in_brief = summary.RULES_IN_BRIEF

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        opts = self.resolve_options(players, options)
        return State(goal=opts["goal"], banked=(0,) * players)

    def current(self, state: State) -> int:
        return {ROLL: CHANCE, OVER: TERMINAL}.get(state.phase, state.turn)  # (Pig calls its actor `turn`)

    def winners(self, state: State) -> list[int]:
        return [state.turn] if state.phase == OVER else []

    def scores(self, state: State) -> list[int]:
        return list(state.banked)

    def action_ids(self, players: int, options: Mapping[str, Any] | None = None) -> ActionIds:
        self.resolve_options(players, options)
        return _IDS

    def heuristic(self, state: State, seat: int) -> float | None:
        """The turn total the seat to act can still expect to bank: all of it when it may
        hold now; before a roll, what one more roll leaves on average (a 1 in 6 loses it,
        else 2 to 6 join it), so the greedy player rolls while that is more."""
        if seat != state.turn or state.phase == OVER:
            return 0.0
        if state.phase == CHOOSE:
            return float(state.total)
        return 5 / 6 * (state.total + 4)
