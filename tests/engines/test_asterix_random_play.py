"""A random game stepped by the engine's `random_step` is the game `random_action` plays:
the same position after every action from the same seed, and the random source read
alike (what it draws next is the same)."""
from __future__ import annotations

import random

import pytest

from peerboard import engines
from peerboard.engines.playout import random_action, random_game

GAME = engines.get("asterix")
OPTION_SETS = ({}, {"carry_rule": "both"}, {"max_rounds": 3})


@pytest.mark.parametrize("players", range(2, 9))
def test_random_step_plays_the_game_random_action_plays(players):
    for seed in range(4):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        slow, fast = random.Random(seed), random.Random(seed)
        state = GAME.new_game(players, options)
        steps = 0
        while not GAME.is_terminal(state):
            after = GAME.random_step(state, fast)
            state = GAME.apply(state, random_action(GAME, state, slow))
            assert after == state and GAME.state_hash(after) == GAME.state_hash(state), (players, seed, steps)
            steps += 1
            assert steps < 100_000
        assert slow.random() == fast.random()  # both read the same draws
        assert steps > 60  # at least the layout and some turns


def test_random_game_is_the_same_game_with_or_without_the_hook():
    for players in (2, 5, 8):
        mine, n = random_game(GAME, players, random.Random(players))
        rng = random.Random(players)
        state, m = GAME.new_game(players), 0
        while not GAME.is_terminal(state):
            state = GAME.apply(state, random_action(GAME, state, rng))
            m += 1
        assert (mine, n) == (state, m)


def test_random_step_refuses_a_game_that_is_over():
    state, _ = random_game(GAME, 2, random.Random(0), {"max_rounds": 1})
    with pytest.raises(ValueError):
        GAME.random_step(state, random.Random(0))
