"""One source of truth: `legal_actions` offers exactly the actions `apply` accepts.

Along seeded random games, every step to a neighbour, every turn, fix and placement on
every hex, and the phase ends are tried: each one applies iff it is in the legal list.
"""
import dataclasses
import random

import pytest

from engines.athos import GAME
from engines.athos.board import HEX_COUNT, NEIGHBOURS, NODE_COUNT, NODE_NAMES
from engines.contract import IllegalAction
from engines.playout import random_action

CANDIDATES = (
    [("end_move",), ("skip_athos",), ("end_turn",)]
    + [("step", NODE_NAMES[u], NODE_NAMES[v]) for u in range(NODE_COUNT) for v in NEIGHBOURS[u]]
    + [
        (kind, NODE_NAMES[h])
        for h in range(HEX_COUNT)
        for kind in ("turn", "fix", "place", "place_open")
    ]
)


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {"bonus_must_be_spent": True, "handicap": {0: 2}}),
        (3, {"athos_on_empty": True}),
        (4, {}),
    ],
)
def test_legal_actions_are_exactly_the_actions_apply_accepts(players, options):
    rng = random.Random(players)
    state = GAME.new_game(players, options)
    for n in range(1500):
        if GAME.is_terminal(state):
            break
        legal = set(GAME.legal_actions(state))
        if n % 25 == 0:
            for action in CANDIDATES:
                try:
                    GAME.apply(state, action)
                except IllegalAction as exc:
                    assert action not in legal, f"{action} is offered but refused: {exc}"
                    assert str(exc).endswith(".")
                else:
                    assert action in legal, f"{action} is accepted but not offered"
        state = GAME.apply(state, random_action(GAME, state, rng))


DERIVED = ("passable", "walk", "movable", "crowd", "walkers", "taken", "cuts")


@pytest.mark.parametrize("players, options", [(2, {"handicap": {1: 3}}), (4, {"teams": True})])
def test_derived_tables_handed_on_by_apply_equal_freshly_computed_ones(players, options):
    rng = random.Random(7)
    state = GAME.new_game(players, options)
    for _ in range(3000):
        if GAME.is_terminal(state):
            break
        fresh = dataclasses.replace(state)  # the same fields, no derived tables yet
        for name in DERIVED:
            assert getattr(state, name) == getattr(fresh, name), name
        state = GAME.apply(state, random_action(GAME, state, rng))
