"""A run of chance nodes (spec/log-format.md, "Who writes the next entry", case 3): after a
reveal round, the chance nodes the game reaches are decided in turn by the round's entropy,
with no entry, until a decision, the end of the game, or a public outcome only its owner can
compute (then that owner announces it in a `chance` entry, and the run goes on after it).
"""
from __future__ import annotations

from typing import Any, TypeAlias

from peerboard.engines import CHANCE, Action, Game
from peerboard.protocol.log.secrets import node_entropy

#: the chance outcomes an entry brought about: (the state before, the outcome) pairs
Outcomes: TypeAlias = tuple[tuple[Any, Action], ...]


def run_chance(game: Game, state: Any, run: tuple[bytes, int], known: tuple[bytes | None, ...],
               blind: bool) -> tuple[Any, tuple[bytes, int] | None, Outcomes, bool]:
    """The run `run` (the round's entropy, the index of its next chance node) from `state`:
    the state it leaves the game at, the run if it paused (else None), the outcomes it
    decided, and whether the ledger is blind now. A hidden draw of a seat whose seed is not
    `known` is the engine's placeholder, and makes the ledger blind (its audit re-runs it)."""
    entropy, index = run
    outcomes: list[tuple[Any, Action]] = []
    while game.current(state) == CHANCE:
        owner = game.chance_owner(state)
        if owner is None:
            outcome = game.sample_chance(state, node_entropy(entropy, index))
        elif game.chance_hidden(state):
            seed = known[owner]
            if seed is None:
                outcome = game.hidden_outcome(state)
                blind = True
            else:
                outcome = game.sample_chance(state, node_entropy(entropy, index, seed))
        else:
            return state, (entropy, index), tuple(outcomes), blind
        outcomes.append((state, outcome))
        state = game.apply(state, outcome)
        index += 1
    return state, None, tuple(outcomes), blind
