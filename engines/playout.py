"""Playing a game with a caller's random source: the random bot, selfplay and the tests.

The engines own no randomness; the `random.Random` passed in decides every choice and
supplies the 32 bytes of entropy each chance node consumes.
"""
from __future__ import annotations

import random
from typing import Any, Iterator, Mapping

from engines.contract import CHANCE, Action, Game


def random_action(game: Game, state: Any, rng: random.Random) -> Action:
    """A uniformly random legal action, or a chance outcome with the rules' odds."""
    if game.current(state) == CHANCE:
        return game.sample_chance(state, rng.randbytes(32))
    legal = game.legal_actions(state)
    return legal[rng.randrange(len(legal))]


def random_game(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None,
    rng: random.Random,
    max_actions: int = 1_000_000,
) -> Iterator[tuple[Any, Action]]:
    """Yield (state before, action) for a whole random game, at most `max_actions` long."""
    state = game.new_game(players, options)
    for _ in range(max_actions):
        if game.is_terminal(state):
            return
        action = random_action(game, state, rng)
        yield state, action
        state = game.apply(state, action)
