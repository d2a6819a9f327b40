"""Random play with a caller's random source: the random bot, benchmarks and the tests.

The engines own no randomness; the `random.Random` passed in decides every choice and
supplies the 32 bytes of entropy each chance node consumes.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Protocol

from peerboard.engines.contract import CHANCE, Action, Game


class FastRandom(Protocol):
    """What an engine's own random player (random_play.py, `random_step`) reads of its
    `random.Random`: 32 bytes at a chance node, and `_randbelow(n)`, which is what
    `randrange(n)` returns for n > 0 without its checks (random.py), as a playout asks
    thousands of times. CPython's Random has it; typeshed does not declare the private
    name, so this says what is read instead of `random.Random`."""

    def randbytes(self, n: int, /) -> bytes: ...

    def _randbelow(self, n: int, /) -> int: ...


def random_action(game: Game, state: Any, rng: random.Random) -> Action:
    """A uniformly random legal action, or a chance outcome with the rules' odds."""
    if game.current(state) == CHANCE:
        return game.sample_chance(state, rng.randbytes(32))
    legal = game.legal_actions(state)
    return legal[rng.randrange(len(legal))]


def random_game(game: Game, players: int, rng: random.Random, options: Mapping[str, Any] | None = None) -> tuple[Any, int]:
    """One whole game of `random_action`s: (the final state, how many actions it took).

    A game with a `random_step(state, rng)` (spec/engine-contract.md: the same position
    from the same draws, in one call) is stepped by it."""
    state = game.new_game(players, options)
    actions = 0
    is_terminal = game.is_terminal
    step = getattr(game, "random_step", None)
    if step is None:
        apply = game.apply
        while not is_terminal(state):
            state = apply(state, random_action(game, state, rng))
            actions += 1
        return state, actions
    while not is_terminal(state):
        state = step(state, rng)
        actions += 1
    return state, actions
