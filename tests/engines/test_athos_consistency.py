"""One source of truth: `legal_actions` offers exactly the actions `apply` accepts.

Along seeded random games, every go from a node with a monk, every turn, lift, drop, fix
and placement on every hex, and the phase ends are tried: each one applies iff it is in
the legal list. The derived tables a state carries always equal freshly computed ones, and
a phase with nothing but its end to decide never waits for a seat.
"""
import random

import pytest

from peerboard.engines.athos import GAME
from peerboard.engines.athos.board import HEX_COUNT, NODE_COUNT, NODE_NAMES
from peerboard.engines.athos.state import ATHOS, MOVE, PLACE
from peerboard.engines.contract import IllegalAction
from peerboard.engines.playout import random_action
from peerboard.engines.values import stale_caches, warm

ENDS = (("end_move",), ("skip_athos",), ("end_turn",))
HEX_ACTIONS = [
    (kind, NODE_NAMES[h])
    for h in range(HEX_COUNT)
    for kind in ("turn", "lift", "drop", "fix", "place", "place_open")
]


def candidates(state):
    """Every action worth trying here: the ends, every hex action, and a go from every
    node with a monk (any seat's) or on the summit, to every node."""
    starts = sorted({n for nodes in state.monks for n in nodes})
    gos = [("go", NODE_NAMES[u], NODE_NAMES[v]) for u in starts for v in range(NODE_COUNT)]
    return list(ENDS) + HEX_ACTIONS + gos


SETUPS = [
    (2, {"bonus_must_be_spent": True, "handicap": {0: 2}}),
    (3, {"athos_on_empty": True}),
    (4, {}),
]


@pytest.mark.parametrize("players, options", SETUPS)
def test_legal_actions_are_exactly_the_actions_apply_accepts(players, options):
    rng = random.Random(players)
    state = GAME.new_game(players, options)
    for n in range(400):
        if GAME.is_terminal(state):
            break
        legal = set(GAME.legal_actions(state))
        if n % 20 == 0:
            for action in candidates(state):
                try:
                    GAME.apply(state, action)
                except IllegalAction as exc:
                    assert action not in legal, f"{action} is offered but refused: {exc}"
                    assert str(exc).endswith(".")
                else:
                    assert action in legal, f"{action} is accepted but not offered"
        state = GAME.apply(state, random_action(GAME, state, rng))


@pytest.mark.parametrize("players, options", SETUPS + [(4, {"teams": True})])
def test_no_seat_is_asked_to_decide_when_only_the_end_of_its_phase_is_left(players, options):
    rng = random.Random(11)
    state = GAME.new_game(players, options)
    ends = {MOVE: ("end_move",), ATHOS: ("skip_athos",), PLACE: ("end_turn",)}
    for _ in range(1500):
        if GAME.is_terminal(state):
            break
        legal = GAME.legal_actions(state)
        assert legal != [ends.get(state.phase)], f"seat {state.actor} waits in {state.phase}"
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players, options", [(2, {"handicap": {1: 3}}), (4, {"teams": True})])
def test_derived_tables_handed_on_by_apply_equal_freshly_computed_ones(players, options):
    rng = random.Random(7)
    state = GAME.new_game(players, options)
    for _ in range(1500):
        if GAME.is_terminal(state):
            break
        assert stale_caches(state) == []
        warm(state)  # every table worked out, so the next apply has all of them to hand on
        state = GAME.apply(state, random_action(GAME, state, rng))
