"""The fitted evaluation (client/bots/knowledge/fitted.py): the chances add up to one, a
team's chance is its seats' together, and the fit finds the weights that made the data."""
import math
import random

import pytest

from peerboard import engines
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.bots.knowledge.fitted import chances, fit, losses, scores_of
from peerboard.engines.playout import random_action


def test_the_chances_of_the_seats_add_up_to_one_and_follow_the_scores():
    p = chances([0.0, 1.0, -2.0])
    assert math.isclose(sum(p), 1.0)
    assert p[1] > p[0] > p[2]
    two = chances([0.3, -0.2])
    assert math.isclose(two[0], 1 / (1 + math.exp(-0.5)))  # two seats: the logistic of the difference
    assert chances([800.0, 0.0]) == [1.0, 0.0]  # (no overflow)


def test_the_fit_finds_the_weights_that_made_the_outcomes():
    rng = random.Random(1)
    truth = (1.5, -0.7)
    examples = []
    for _ in range(3000):
        seats = rng.choice([2, 3, 4])
        features = [[rng.gauss(0, 1), rng.gauss(0, 1)] for _ in range(seats)]
        p = chances(scores_of(truth, features))
        winner = rng.choices(range(seats), p)[0]
        examples.append((features, [1.0 if s == winner else 0.0 for s in range(seats)]))
    found = fit(examples, 2)
    assert found.weights == pytest.approx(truth, abs=0.15)
    assert losses(found.weights, examples)[0] <= losses(truth, examples)[0] + 1e-9


def test_a_ridge_of_its_own_holds_back_only_its_own_weight():
    """A seat's prior is fitted with a lighter ridge than the rest (bench/fit_calibration.py):
    a feature's ridge shrinks that feature's weight and not the other's as much."""
    rng = random.Random(4)
    truth = (1.0, 2.0)
    examples = []
    for _ in range(2000):
        features = [[rng.gauss(0, 1), float(s == 0)] for s in range(3)]
        p = chances(scores_of(truth, features))
        winner = rng.choices(range(3), p)[0]
        examples.append((features, [1.0 if s == winner else 0.0 for s in range(3)]))
    light = fit(examples, 2, ridge=(0.0, 0.0)).weights
    prior_held = fit(examples, 2, ridge=(0.0, 0.5)).weights
    slope_held = fit(examples, 2, ridge=(0.5, 0.0)).weights
    assert light == pytest.approx(truth, abs=0.2)
    assert prior_held[1] < light[1] - 0.5 and prior_held[1] < slope_held[1] - 0.5
    assert slope_held[0] < light[0] - 0.3 and slope_held[0] < prior_held[0]
    with pytest.raises(ValueError):
        fit(examples, 2, ridge=(0.1,))


def test_a_fitted_knowledge_gives_each_seat_its_chance_and_a_team_its_seats_together():
    game = engines.get("athos")
    know = knowledge_for(game)
    rng = random.Random(2)
    state = game.new_game(4, {"teams": True})
    for _ in range(120):
        state = game.apply(state, random_action(game, state, rng))
    weights = tuple(0.3 for _ in know.FEATURES)
    alone = chances(scores_of(weights, know.features(state)))
    together = know.fitted(state, weights)
    assert math.isclose(sum(together), 1.0)
    for side in game.sides(state):
        share = sum(alone[s] for s in side) / len(side)
        assert all(math.isclose(together[s], share) for s in side)


@pytest.mark.parametrize("name", ["aton", "athos", "asterix"])
def test_every_game_has_one_row_of_features_per_seat_as_its_names_say(name):
    game = engines.get(name)
    know = knowledge_for(game)
    rng = random.Random(3)
    state = game.new_game(game.min_players)
    for _ in range(60):
        if game.is_terminal(state):
            break
        state = game.apply(state, random_action(game, state, rng))
    rows = know.features(state)
    assert len(rows) == game.min_players
    assert all(len(row) == len(know.FEATURES) and all(math.isfinite(x) for x in row) for row in rows)


FITTED = [name for name in engines.names() if knowledge_for(engines.get(name)).weights is not None]


def test_every_game_of_the_three_has_a_fitted_evaluation():
    assert {"aton", "athos"} <= set(FITTED)


@pytest.mark.parametrize("name", FITTED)
def test_the_weights_shipped_are_for_the_features_the_knowledge_gives(name):
    from peerboard.client.games import piece

    know = knowledge_for(engines.get(name))
    shipped = piece(name, "fitted")
    assert shipped is not None and shipped.FEATURES == know.FEATURES and len(shipped.WEIGHTS) == len(know.FEATURES)
    assert tuple(know.weights) == tuple(shipped.WEIGHTS)


def test_aton_a_seat_near_a_full_temple_is_near_its_win_by_occupation():
    # strong players win one Aton game in seven by occupation, behind on points: a seat
    # holding 11 of temple 1's 12 squares is a favourite the points alone would not see
    from dataclasses import replace

    game = engines.get("aton")
    know = knowledge_for(game)
    column = know.FEATURES.index("occupation")
    state = game.new_game(2)
    assert [row[column] for row in know.features(state)] == [0.0, 0.0]
    board = [-1] * 48
    board[:11] = [1] * 11
    board[12:16] = [0] * 4
    near = replace(state, board=tuple(board))
    rows = know.features(near)
    assert rows[1][column] == pytest.approx((11 / 12) ** 4) and rows[0][column] == pytest.approx((4 / 12) ** 4)
    blind = tuple(0.0 if k == column else w for k, w in enumerate(know.weights))
    assert know.weights[column] > 0
    assert know.estimate(near)[1] > know.fitted(near, blind)[1] + 0.1

