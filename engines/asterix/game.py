"""Asterix: The Hunt behind the engine contract (engines/contract.py)."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.features import Features
from peerboard.engines.chance import uniform_below
from peerboard.engines.contract import CHANCE, TERMINAL, Action
from peerboard.engines.options import Option, int_between, one_of
from peerboard.engines.asterix import action_ids, features, notation, random_play, render, rules, scoring, summary
from peerboard.engines.asterix.board import LAYOUT_ORDER
from peerboard.engines.asterix.state import FIRST_ROLL, LAYOUT, OVER, ROLL, State, record
from peerboard.engines.recipe import Recipe


def _by_value(weighted: list[tuple[Action, int]]) -> tuple[int, tuple[Action, ...]]:
    """(total weight, the outcome for each value below it): `pick_weighted`'s walk through
    the cumulative weights, done once for odds that never change (the dice)."""
    table = tuple(action for action, weight in weighted for _ in range(weight))
    return len(table), table


_ROLLS = _by_value(rules.chance_weights_of(ROLL))
_FIRST_ROLLS = _by_value(rules.chance_weights_of(FIRST_ROLL))


class Asterix(Recipe[State]):
    """Asterix: The Hunt (rules/asterix.md; as implemented: spec/games/asterix.md)."""

    name = "asterix"
    title = "Asterix: The Hunt"
    version = "2"
    min_players = 2
    max_players = 8
    options_schema = {
        "carry_rule": Option(
            "either",
            one_of("either", "both"),
            'the heavy load: "either" one Menhir or up to two Boars, "both" one Menhir and two Boars',
        ),
        "max_rounds": Option(100, int_between(1, 10_000), "the game ends after this many rounds"),
    }
    conformance_setups = (
        (2, {}),
        (4, {"carry_rule": "both"}),
        (8, {}),
        (3, {"carry_rule": "both", "max_rounds": 5}),
    )

    book = rules.BOOK
    seats_aside = {LAYOUT: CHANCE, FIRST_ROLL: CHANCE, ROLL: CHANCE, OVER: TERMINAL}
    write = staticmethod(notation.format_action)
    read = staticmethod(notation.parse_text)
    parse_asks_the_rules = True
    record = staticmethod(record)
    draw = staticmethod(render.render_styled)
    rules_in_brief = summary.RULES_IN_BRIEF

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        return rules.new_state(players, self.resolve_options(players, options))

    def is_terminal(self, state: State) -> bool:
        return state.phase == OVER

    def sample_chance(self, state: State, entropy: bytes) -> Action:
        """As the contract's (spec/chance.md), with the dice's cumulative odds worked out once."""
        phase = state.phase
        if phase == ROLL or phase == FIRST_ROLL:
            total, table = _ROLLS if phase == ROLL else _FIRST_ROLLS
            return table[uniform_below(total, entropy)]
        if phase == LAYOUT:
            # pick_weighted's walk over the bag (a kind with none left is passed over alike)
            value = uniform_below(len(LAYOUT_ORDER) - state.laid, entropy)
            for kind, left in enumerate(rules.tiles_left_to_lay(state)):
                if value < left:
                    return rules.TILE_LAID[kind]
                value -= left
        return super().sample_chance(state, entropy)

    # The rules' own functions (not the book's): a faster path than `book.apply` for the
    # actions the engine hands out, and the listers one call shorter.
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)
    chance_weights = staticmethod(rules.chance_weights)

    # Every legal action with the state it leads to (for search bots; equal to `apply` of
    # each, faster: client/bots/lookahead.py asks for it when a game has it). The rules'
    # function itself, not a method calling it: a search asks it thousands of times.
    successors = staticmethod(rules.successors)
    # `apply(state, random_action(self, state, rng))` in one call, reading `rng` alike
    # (engines/playout.py's random games ask for it when a game has it).
    random_step = staticmethod(random_play.random_step)

    def winners(self, state: State) -> list[int]:
        """The winners once the game is over (category wins, then the tie-breaks)."""
        return scoring.winners(state.piles) if state.phase == OVER else []

    def scores(self, state: State) -> list[int]:
        """Categories won by each seat (of Boar, Mistletoe, Menhir, Cohort)."""
        return scoring.categories_won(state.piles)

    def action_ids(self, players: int, options: Mapping[str, Any] | None = None) -> ActionIds:
        """By player count: the thefts name a seat (action_ids.py)."""
        self.resolve_options(players, options)
        return action_ids.numbering(players)

    def features(self, players: int, options: Mapping[str, Any] | None = None) -> Features:
        """The position as numbers (features.py)."""
        self.resolve_options(players, options)
        return features.features(players)
