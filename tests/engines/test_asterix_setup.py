"""Setup: the random layout, the first-player roll, placing the pawns, the 2d6."""
from __future__ import annotations

from fractions import Fraction

import pytest

from peerboard.engines import CHANCE, IllegalAction
from peerboard.engines.asterix.board import BIT, KIND_NAMES, LAYOUT_ORDER, SQUARE_NAMES, TILE_COUNTS, VILLAGE, kind_at

from support.asterix_positions import GAME, play

# A layout in a fixed order: all the boars first, then the cohorts, and so on.
BAG_ORDER = [name for name, count in zip(KIND_NAMES, TILE_COUNTS) for _ in range(count)]


def laid_out(players: int):
    state = GAME.new_game(players)
    for kind in BAG_ORDER:
        state = play(state, f"tile {kind}")
    return state


def test_the_layout_draws_each_kind_with_odds_equal_to_the_tiles_left_in_the_bag():
    state = GAME.new_game(2)
    assert GAME.current(state) == CHANCE
    assert GAME.chance_weights(state) == [
        (("tile", "boar"), 10),
        (("tile", "cohort"), 10),
        (("tile", "menhir"), 8),
        (("tile", "mistletoe"), 12),
        (("tile", "lake"), 8),
        (("tile", "clearing"), 12),
    ]
    assert dict(GAME.chance_outcomes(state))[("tile", "menhir")] == Fraction(8, 60)
    state = play(state, "tile menhir", "tile menhir", "tile clearing")
    assert dict(GAME.chance_weights(state)) == {
        ("tile", "boar"): 10,
        ("tile", "cohort"): 10,
        ("tile", "menhir"): 6,
        ("tile", "mistletoe"): 12,
        ("tile", "lake"): 8,
        ("tile", "clearing"): 11,
    }
    assert dict(GAME.chance_outcomes(state))[("tile", "menhir")] == Fraction(6, 57)


def test_a_kind_whose_tiles_are_all_laid_is_no_longer_an_outcome():
    state = GAME.new_game(2)
    for _ in range(8):
        state = play(state, "tile lake")
    assert ("tile", "lake") not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(state, ("tile", "lake"))


def test_the_layout_fills_a1_to_h8_in_order_skipping_the_village():
    assert [SQUARE_NAMES[s] for s in LAYOUT_ORDER[:3]] == ["a1", "b1", "c1"]
    assert "d4" not in [SQUARE_NAMES[s] for s in LAYOUT_ORDER]
    assert len(LAYOUT_ORDER) == 60 and SQUARE_NAMES[LAYOUT_ORDER[-1]] == "h8"
    state = play(GAME.new_game(2), "tile lake", "tile cohort")
    assert KIND_NAMES[kind_at(state.tiles, LAYOUT_ORDER[0])] == "lake"
    assert KIND_NAMES[kind_at(state.tiles, LAYOUT_ORDER[1])] == "cohort"


def test_a_full_layout_holds_exactly_the_tile_mix():
    state = laid_out(2)
    counts = [0] * 6
    for square in range(64):
        if not BIT[square] & VILLAGE:
            counts[kind_at(state.tiles, square)] += 1
    assert counts == list(TILE_COUNTS)
    assert state.phase == "first" and GAME.legal_actions(state) == [("d6", n) for n in range(1, 7)]


def test_the_highest_first_player_roll_starts():
    state = play(laid_out(3), "d6 2", "d6 5", "d6 1")
    assert state.first == 1 and GAME.current(state) == 1


def test_only_the_seats_tied_for_the_highest_roll_roll_again():
    state = play(laid_out(3), "d6 6", "d6 2", "d6 6")
    assert state.contenders == (0, 2) and state.first == -1 and GAME.current(state) == CHANCE
    state = play(state, "d6 4", "d6 4")  # tied again: the same two roll again
    assert state.contenders == (0, 2)
    state = play(state, "d6 3", "d6 5")
    assert state.first == 2


def test_pawns_go_on_village_squares_in_turn_order_from_the_first_player():
    state = play(laid_out(3), "d6 1", "d6 6", "d6 3")
    assert GAME.current(state) == 1
    assert GAME.legal_actions(state) == [("village", s) for s in ("d4", "e4", "d5", "e5")]
    state = play(state, "village e5")
    assert GAME.current(state) == 2
    state = play(state, "village e5", "village d4")  # pawns may share a square
    assert [SQUARE_NAMES[p] for p in state.pawns] == ["d4", "e5", "e5"]
    assert state.phase == "roll" and state.actor == 1 and state.round == 1


def test_a_pawn_cannot_start_outside_the_village():
    state = play(laid_out(2), "d6 1", "d6 6")
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.parse_action(state, "village c3")


def test_the_two_dice_are_21_unordered_outcomes_doubles_half_as_likely():
    state = play(laid_out(2), "d6 1", "d6 6", "village d4", "village d4")
    weights = GAME.chance_weights(state)
    assert len(weights) == 21 and sum(w for _, w in weights) == 36
    assert dict(weights)[("roll", 3, 3)] == 1 and dict(weights)[("roll", 2, 5)] == 2
    assert dict(GAME.chance_outcomes(state))[("roll", 2, 5)] == Fraction(1, 18)
