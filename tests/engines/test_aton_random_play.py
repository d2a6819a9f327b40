"""Aton's random step (engines/aton/random_play.py, what the search players' playouts take)
plays the game `random_action` plays: the same position after every action from the same
seed, and the random source read alike (what it draws next is the same)."""
from __future__ import annotations

import random

import pytest

from peerboard import engines
from peerboard.engines.aton.random_play import random_step
from peerboard.engines.playout import random_action, random_game

GAME = engines.get("aton")
OPTION_SETS = ({}, {"first_round_removal": True}, {"win_points": 20})


@pytest.mark.parametrize("seed", range(12))
def test_random_step_plays_the_game_random_action_plays(seed):
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    slow, fast = random.Random(seed), random.Random(seed)
    state = GAME.new_game(2, options)
    steps = 0
    while not GAME.is_terminal(state):
        after = random_step(state, fast)
        state = GAME.apply(state, random_action(GAME, state, slow))
        assert after == state and GAME.state_hash(after) == GAME.state_hash(state), (seed, steps)
        steps += 1
        assert steps < 100_000
    assert slow.random() == fast.random()  # both read the same draws
    assert steps > 40


def test_a_view_with_a_hidden_hand_is_stepped_as_its_listed_actions():
    """A seat's own view: the other hand hidden, so its draws, exchange and assignment are
    taken from the listed actions (the view's own), as random_action takes them."""
    state = GAME.new_game(2)
    for seat in (0, 1):
        slow, fast = random.Random(seat), random.Random(seat)
        view = GAME.view(state, seat)
        for _ in range(40):
            if GAME.is_terminal(view):
                break
            after = random_step(view, fast)
            view = GAME.apply(view, random_action(GAME, view, slow))
            assert after == view
        assert slow.random() == fast.random()


def test_random_step_refuses_a_game_that_is_over():
    state, _ = random_game(GAME, 2, random.Random(0), {"win_points": 5})
    with pytest.raises(ValueError):
        random_step(state, random.Random(0))
