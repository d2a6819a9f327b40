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


def _successors(state):
    return [GAME.apply(state, a) for a in GAME.legal_actions(state)]


@pytest.mark.parametrize("seed", range(6))
def test_every_playout_step_is_one_of_the_positions_the_legal_actions_lead_to(seed):
    from peerboard.engines.aton.random_play import playout_step

    rng = random.Random(seed)
    state = GAME.new_game(2, OPTION_SETS[seed % len(OPTION_SETS)])
    steps = 0
    while not GAME.is_terminal(state):
        after = playout_step(state, rng)
        assert after in _successors(state), (seed, steps)
        state = after
        steps += 1
    assert steps > 40


def test_a_playout_draws_each_card_with_the_rules_odds():
    """From one draw, many times: each value comes as often as the deck holds it (within
    five standard deviations, a fixed seed)."""
    from peerboard.engines.aton.random_play import playout_step

    state = GAME.new_game(2)
    odds = dict(GAME.chance_weights(state))
    total = sum(odds.values())
    rng = random.Random(3)
    n = 6000
    counts = {action: 0 for action in odds}
    for _ in range(n):
        after = playout_step(state, rng)
        (action,) = [a for a in odds if GAME.apply(state, a) == after]
        counts[action] += 1
    for action, weight in odds.items():
        p = weight / total
        assert abs(counts[action] - n * p) <= 5 * (n * p * (1 - p)) ** 0.5, (action, counts)


def test_a_playout_stops_after_its_actions_or_at_the_end():
    from peerboard.engines.aton.random_play import playout

    state = GAME.new_game(2, {"win_points": 5})
    assert playout(state, random.Random(1), 0) is state
    one = playout(state, random.Random(1), 1)
    assert one in _successors(state)
    end = playout(state, random.Random(1), 100_000)
    assert GAME.is_terminal(end)


@pytest.mark.parametrize("seed", range(8))
def test_a_playout_is_its_steps_taken_one_by_one(seed):
    """`playout` deals a run of draws in one go: the same positions as `playout_step` taken
    as many times, from the same draws, at every length (a cut in the middle of the draws too)."""
    from peerboard.engines.aton.random_play import playout, playout_step

    rng = random.Random(seed)
    start = GAME.new_game(2, OPTION_SETS[seed % len(OPTION_SETS)])
    for _ in range(6):  # from six points of one game: its start, and later ones
        for length in (1, 2, 3, 5, 8, 13, 21, 60, 400):
            one, many = random.Random(f"{seed}:{length}"), random.Random(f"{seed}:{length}")
            state = start
            for _ in range(length):
                if GAME.is_terminal(state):
                    break
                state = playout_step(state, one)
            assert playout(start, many, length) == state, (seed, length)
            assert one.random() == many.random()
        for _ in range(rng.randrange(20, 60)):
            if GAME.is_terminal(start):
                break
            start = random_step(start, rng)
