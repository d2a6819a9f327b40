"""A random game's next position in one call: `apply(state, random_action(...))` without
the contract's detours, for the search players' playouts (client/games/aton/knowledge.py).

A random player's action comes from the legal list it was just handed, so it needs no
decoding and no check: the chosen entry's rule effect is called directly, then `settle`,
as `apply` would. The random source is read exactly as `random_action` reads it (32 bytes
at a chance node, then `sample_chance`'s odds; `randrange(len(legal))` at a choice, even of
one action), so a seed plays the same game either way
(tests/engines/test_aton_random_play.py).
"""
from __future__ import annotations

import random

from peerboard.engines.aton import rules
from peerboard.engines.aton.state import ASSIGN, DRAW, EXCHANGE, OVER, PLACE, REMOVE, RETRIEVE, TURN_UP, State

settle = rules.settle


def random_step(state: State, rng: random.Random) -> State:
    """The position after a uniformly random legal action (a chance outcome with the
    rules' odds), as `apply(state, random_action(game, state, rng))`.

    `rng._randbelow(n)` is what `rng.randrange(n)` returns for n > 0 (random.py: it checks
    its arguments and calls it), without the checks: a playout draws thousands."""
    phase = state.phase
    if phase == PLACE:
        squares = rules._empty_allowed(state)
        return settle(rules._place(state, squares[rng._randbelow(len(squares))]))
    if phase == DRAW or phase == TURN_UP:
        outcome = rules.sample_card(state, rng.randbytes(32))
        if phase == DRAW:
            return settle(rules._draw(state, outcome[1]))
        return settle(rules._turn(state, outcome[1]))
    if phase == REMOVE:
        squares = rules._eligible_removals(state)
        return settle(rules._remove(state, squares[rng._randbelow(len(squares))]))
    seat = state.seats[state.actor]
    if phase == ASSIGN and seat.hand is not None:
        orders = rules.assignments(seat.hand)
        return settle(rules._assign(state, *orders[rng._randbelow(len(orders))]))
    if phase == EXCHANGE and seat.hand is not None:
        # [keep, exchange the hand]: the one hand this view knows
        if rng._randbelow(2) == 0:
            return settle(rules._keep(state))
        return settle(rules._exchange(state, *rules.cards.listed(seat.hand)))
    if phase == RETRIEVE:
        squares = rules._own_squares(state, state.actor)
        return settle(rules._retrieve(state, squares[rng._randbelow(len(squares))]))
    if phase == OVER:
        raise ValueError("the game is over: no action follows")
    # a hand this view cannot see (exchange, assign): the listed actions, applied
    legal = rules.legal_actions(state)
    return rules.apply(state, legal[rng._randbelow(len(legal))])
