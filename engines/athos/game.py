"""Athos behind the engine contract (engines/contract.py); the rules live in rules.py."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.action_ids import ActionIds
from peerboard.engines.features import Features
from peerboard.engines.athos import action_ids, features, notation, render, rules, setup, summary
from peerboard.engines.athos.board import SUMMIT
from peerboard.engines.athos.state import OVER, State, record
from peerboard.engines.contract import TERMINAL, Action, IllegalAction
from peerboard.engines.recipe import Recipe


class Athos(Recipe[State]):
    """Athos (Kramer & Kübler, 1993): bring your three monks up the mountain first.

    Perfect information: `view` is the whole state. Every action is by the seat to act;
    there is no chance.
    """

    name = "athos"
    title = "Athos"
    version = "2"
    min_players = 2
    max_players = 4
    options_schema = setup.OPTIONS
    # Every option is carried by some set-up; tests/test_athos_* cover the rest.
    conformance_setups = (
        (2, {"handicap": {"1": 2}, "bonus_must_be_spent": True}),
        (3, {"three_player_areas": "ACD", "athos_on_empty": True}),
        (4, {"teams": True, "bonus_must_be_spent": True}),
        (3, {}),
        (4, {"handicap": {"0": 1, "3": 2}}),
    )
    playout_limit = 200_000

    book = rules.BOOK
    seats_aside = {OVER: TERMINAL}
    write = staticmethod(notation.format_action)
    read = staticmethod(notation.parse_action)
    record = staticmethod(record)
    draw = staticmethod(render.render_styled)
    rules_in_brief = summary.RULES_IN_BRIEF

    #: the winners at the end; each seat alone, or with the option teams the two teams
    #: (0, 2) and (1, 3); the action that ends the phase (end move, no Athos piece, end turn)
    winners = staticmethod(rules.winners)
    sides = staticmethod(rules.sides)
    phase_end = staticmethod(rules.phase_end)

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        setup.check_options(players, options)

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        return setup.new_state(players, self.resolve_options(players, options))

    def chance_weights(self, state: State) -> list[tuple[Action, int]]:
        raise IllegalAction("Athos has no chance events.")

    def scores(self, state: State) -> list[int]:
        """Monks on the summit, per seat."""
        return [nodes.count(SUMMIT) for nodes in state.monks]

    def plan_order(self, state: State, actions: list[Action]) -> list[Action]:
        """The planned placements (`place`, `place_open`) in board order, in the places the
        placements had among the other actions; everything else as typed."""
        return notation.in_board_order(actions)

    def state_hash(self, state: State) -> bytes:
        """SHA-256 of the canonical msgpack of `public_record`, worked out once per state."""
        return state.digest

    def action_ids(self, players: int, options: Mapping[str, Any] | None = None) -> ActionIds:
        """One numbering for every player count and option set (action_ids.py)."""
        self.resolve_options(players, options)
        return action_ids.numbering()

    def features(self, players: int, options: Mapping[str, Any] | None = None) -> Features:
        """The position as numbers (features.py)."""
        self.resolve_options(players, options)
        return features.features()
