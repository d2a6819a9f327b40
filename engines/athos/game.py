"""Athos behind the engine contract (engines/contract.py); the rules live in rules.py."""
from __future__ import annotations

from typing import Any, Mapping

from peerboard.engines.athos import notation, render, rules, setup, summary
from peerboard.engines.athos.board import SUMMIT
from peerboard.engines.athos.state import OVER, State, record
from peerboard.engines.contract import TERMINAL, Action, Game, IllegalAction
from peerboard.engines.styled import Fragment


class Athos(Game):
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

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        setup.check_options(players, options)

    def new_game(self, players: int, options: Mapping[str, Any] | None = None) -> State:
        return setup.new_state(players, self.resolve_options(players, options))

    def current(self, state: State) -> int:
        return TERMINAL if state.phase == OVER else state.actor

    def legal_actions(self, state: State) -> list[Action]:
        return rules.legal_actions(state)

    def chance_weights(self, state: State) -> list[tuple[Action, int]]:
        raise IllegalAction("Athos has no chance events.")

    def apply(self, state: State, action: Action) -> State:
        return rules.apply(state, action)

    def winners(self, state: State) -> list[int]:
        return rules.winners(state)

    def sides(self, state: State) -> tuple[tuple[int, ...], ...]:
        """Each seat alone, or with the option teams the two teams (0, 2) and (1, 3)."""
        return rules.sides(state)

    def scores(self, state: State) -> list[int]:
        """Monks on the summit, per seat."""
        return [nodes.count(SUMMIT) for nodes in state.monks]

    def format_action(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, state: State, text: str) -> Action:
        return notation.parse_action(text)

    def plan_order(self, state: State, actions: list[Action]) -> list[Action]:
        """The planned placements (`place`, `place_open`) in board order, in the places the
        placements had among the other actions; everything else as typed."""
        return notation.in_board_order(actions)

    def phase_end(self, state: State) -> Action | None:
        """End move, no Athos piece, end turn: the phases a seat may leave at any time."""
        return rules.phase_end(state)

    def public_record(self, state: State) -> tuple:
        return record(state)

    def state_hash(self, state: State) -> bytes:
        """SHA-256 of the canonical msgpack of `public_record`, worked out once per state."""
        return state.digest

    def rules_text(self) -> str:
        return summary.RULES_IN_BRIEF

    def render_styled(self, state: State, seat: int | None = None) -> list[Fragment]:
        return render.render_styled(state, seat)
