"""What must hold in every state of every game: checked along seeded random games."""
from __future__ import annotations

import random

import pytest

from peerboard.engines.asterix.board import (
    BIT,
    COHORT,
    LAKE,
    SCORING_KINDS,
    TILE_COUNTS,
    VILLAGE,
    kind_at,
)
from peerboard.engines.asterix.state import OVER
from peerboard.engines.asterix.walks import region
from peerboard.engines.playout import random_action

from support.asterix_positions import GAME


def check(state) -> None:
    if state.laid < 60:
        return
    for kind in SCORING_KINDS:  # a scoring tile is on the board, carried or banked: never lost
        held = sum(load[kind] for load in state.carried) + sum(pile[kind] for pile in state.piles)
        assert state.tiles[kind].bit_count() + held == TILE_COUNTS[kind]
    assert state.tiles[LAKE].bit_count() == TILE_COUNTS[LAKE]
    assert all(0 <= p <= 3 for p in state.potions)
    for seat, square in enumerate(state.pawns):
        if square < 0:
            continue
        assert kind_at(state.tiles, square) not in (LAKE, COHORT)
        if BIT[square] & VILLAGE:
            assert sum(state.carried[seat]) == 0, "a pawn in the village has banked everything"
        load = state.carried[seat]
        assert load[COHORT] == 0 and load[0] <= 2 and load[2] <= 1
        if state.carry_rule == "either":
            assert not (load[0] and load[2]), "never a boar and a menhir together"


def ended_for_a_reason(state) -> bool:
    banked = sum(map(sum, state.piles))
    carried = sum(map(sum, state.carried))
    pawns = 0
    for square in state.pawns:
        pawns |= BIT[square]
    scoring = state.tiles[0] | state.tiles[1] | state.tiles[2] | state.tiles[3]
    unreachable = carried == 0 and not region(pawns, state.tiles[LAKE]) & scoring
    return banked == 40 or unreachable or state.round == state.max_rounds


@pytest.mark.parametrize(
    "players, options",
    [(2, {}), (3, {"carry_rule": "both"}), (5, {}), (8, {"carry_rule": "both"})],
)
def test_tiles_are_conserved_and_pawns_stand_only_where_they_may(players, options):
    rng = random.Random(players)
    for _ in range(2):
        state = GAME.new_game(players, options)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, random_action(GAME, state, rng))
            check(state)
        assert state.phase == OVER and ended_for_a_reason(state)
