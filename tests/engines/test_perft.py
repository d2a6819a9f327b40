"""Perft for games: the lines of play and the distinct positions a few actions deep from
fixed positions of every registered game and player count are the golden counts stored in
tests/engines/perft/NAME.json (tests/support/perft.py says how they are counted). A count
that changes is a change of the rules: `python tests/support/perft.py --write NAME` writes
it again, on purpose, and the file's diff shows what changed."""
import random

import pytest

from peerboard import engines
from peerboard.engines.playout import random_action
from support import perft


@pytest.mark.parametrize("name", engines.names())
def test_the_perft_counts_are_the_golden_ones(name):
    assert perft.path(name).exists(), f"no perft counts for {name}: python tests/support/perft.py --write {name}"
    game = engines.get(name)
    stored = perft.stored(name)["positions"]
    differ = []
    for position in stored:
        state = perft.replay(game, position["players"], position["options"], position["actions"])
        lines, states = perft.perft(game, state, position["depth"])
        if (lines, states) != (position["lines"], position["states"]):
            differ.append(f"{position['players']} players, from {position['from']}: lines {lines} (stored "
                          f"{position['lines']}), states {states} (stored {position['states']})")
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("name", engines.names())
def test_every_player_count_has_its_fixed_positions(name):
    game = engines.get(name)
    stored = [(p["players"], p["from"], p["actions"]) for p in perft.stored(name)["positions"]]
    assert stored == [(p["players"], p["from"], p["actions"]) for p in perft.positions(name)]
    assert {p for p, _, _ in stored} == set(range(game.min_players, game.max_players + 1))


def test_a_line_that_reaches_the_end_counts_at_no_depth_after():
    game = engines.get("asterix")
    state = game.new_game(2, {"max_rounds": 1})
    rng = random.Random(1)
    for _ in range(10_000):  # (a bound: a round of Asterix is a few hundred actions)
        if game.is_terminal(state):
            break
        state = game.apply(state, random_action(game, state, rng))
    assert game.is_terminal(state)
    assert perft.perft(game, state, 3) == ([1, 0, 0, 0], [1, 0, 0, 0])


def test_chance_is_expanded_over_its_outcomes():
    game = engines.get("asterix")
    start = game.new_game(2)  # the board's first tile turns up: six kinds
    assert perft.perft(game, start, 1)[0] == [1, len(game.chance_outcomes(start))] == [1, 6]
