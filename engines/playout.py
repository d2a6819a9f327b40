"""Random play with a caller's random source: the random bot, benchmarks and the tests.

The engines own no randomness; the `random.Random` passed in decides every choice and
supplies the 32 bytes of entropy each chance node consumes.
"""
from __future__ import annotations

import random
from typing import Any

from engines.contract import CHANCE, Action, Game


def random_action(game: Game, state: Any, rng: random.Random) -> Action:
    """A uniformly random legal action, or a chance outcome with the rules' odds."""
    if game.current(state) == CHANCE:
        return game.sample_chance(state, rng.randbytes(32))
    legal = game.legal_actions(state)
    return legal[rng.randrange(len(legal))]
