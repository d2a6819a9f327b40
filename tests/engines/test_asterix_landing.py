"""Landing: picking up, the load rule, cohorts, stealing (rules/asterix.md, "Landing")."""
from __future__ import annotations

import pytest

from peerboard.engines import IllegalAction
from peerboard.engines.asterix.board import CLEARING, LAKE, MISTLETOE, kind_at
from peerboard.engines.asterix.state import MOVE, PICK, ROLL, STEAL

from support.asterix_positions import GAME, load, position, play, sq

# Tiles next to b2 (the pawn of seat 0 starts there in most tests).
FIELD = """
G . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
G M B . . . . .
. . . . . . . .
L C B . . . . .
"""


def at_b2(*, dice=(1, 6), carried=("", ""), carry_rule="either", pawns=("b2", "g7"), **kw):
    return position(FIELD, pawns=pawns, dice=dice, carried=carried, carry_rule=carry_rule, **kw)


def test_a_mistletoe_landed_on_may_be_picked_up():
    state = play(at_b2(), "move a3")
    assert state.phase == PICK and GAME.legal_actions(state) == [("pick",), ("leave",)]
    state = play(state, "pick")
    assert state.carried[0] == load("G") and state.phase == MOVE


def test_a_tile_left_where_it_lies_stays_on_the_board():
    state = play(at_b2(), "move a3", "leave")
    assert kind_at(state.tiles, sq("a3")) == MISTLETOE and state.carried[0] == load()


def test_a_picked_up_tile_leaves_an_empty_square():
    state = play(at_b2(dice=(1, 2)), "move a3", "pick")
    assert kind_at(state.tiles, sq("a3")) == CLEARING
    state = play(state, "move a3")  # the 2: out and back onto the emptied square
    assert state.phase == ROLL and state.carried[0] == load("G")


def test_a_tile_is_only_picked_up_by_landing_not_by_passing():
    state = play(at_b2(dice=(2, 6)), "move a4")  # via a3 (or b3): the mistletoe stays
    assert kind_at(state.tiles, sq("a3")) == MISTLETOE and state.phase == MOVE


def test_a_cohort_landed_on_goes_straight_to_the_victory_pile_at_no_potion_cost():
    state = play(at_b2(potions=(1, 3)), "move b1")
    assert state.piles[0] == load("C") and kind_at(state.tiles, sq("b1")) == CLEARING
    assert state.potions[0] == 1 and state.phase == MOVE


def test_lakes_and_clearings_stay_where_they_are():
    state = play(at_b2(), "move c2")
    assert state.phase == MOVE and kind_at(state.tiles, sq("c2")) == CLEARING
    assert kind_at(state.tiles, sq("a1")) == LAKE


@pytest.mark.parametrize(
    "carrying, square, may_pick",
    [
        ("", "b3", True),        # a menhir on an empty load
        ("", "c3", True),        # a boar on an empty load
        ("B", "c3", True),       # a second boar
        ("BB", "c3", False),     # never a third
        ("M", "b3", False),      # never a second menhir
        ("B", "b3", False),      # a boar and a menhir: never both
        ("M", "c3", False),
        ("MGGGG", "a3", True),   # mistletoe: any number, whatever else is carried
    ],
)
def test_the_either_load_rule_one_menhir_or_up_to_two_boars(carrying, square, may_pick):
    state = play(at_b2(carried=(carrying, "")), f"move {square}")
    assert (state.phase == PICK) is may_pick


@pytest.mark.parametrize(
    "carrying, square, may_pick",
    [
        ("M", "c3", True),       # a boar with a menhir
        ("BB", "b3", True),      # a menhir with two boars
        ("MB", "c3", True),
        ("MBB", "c3", False),    # still never a third boar
        ("MBB", "b3", False),    # or a second menhir
    ],
)
def test_the_both_load_option_one_menhir_and_two_boars(carrying, square, may_pick):
    state = play(at_b2(carried=(carrying, ""), carry_rule="both"), f"move {square}")
    assert (state.phase == PICK) is may_pick


def test_landing_on_another_pawn_lets_the_mover_steal_one_thing_or_leave_it_be():
    state = at_b2(carried=("", "BG"), pawns=("b2", "d2"), dice=(2, 6))
    state = play(state, "move d2")
    assert state.phase == STEAL
    assert GAME.legal_actions(state) == [("steal", 1, "boar"), ("steal", 1, "mistletoe"), ("leave",)]
    stolen = play(state, "steal boar from seat 1")
    assert stolen.carried == (load("B"), load("G")) and stolen.phase == MOVE
    spared = play(state, "leave")
    assert spared.carried == (load(), load("BG"))


def test_with_several_pawns_on_the_square_the_mover_picks_one_victim():
    state = position(FIELD, pawns=("b2", "d2", "d2"), dice=(2, 6), carried=("", "G", "M"))
    state = play(state, "move d2")
    assert GAME.legal_actions(state) == [("steal", 1, "mistletoe"), ("steal", 2, "menhir"), ("leave",)]
    state = play(state, "steal menhir from seat 2")
    assert state.carried == (load("M"), load("G"), load())


def test_stealing_respects_the_thiefs_load():
    state = at_b2(carried=("B", "MG"), pawns=("b2", "d2"), dice=(2, 6))
    state = play(state, "move d2")
    assert GAME.legal_actions(state) == [("steal", 1, "mistletoe"), ("leave",)]
    with pytest.raises(IllegalAction):
        GAME.apply(state, ("steal", 1, "menhir"))


def test_a_pawn_carrying_nothing_takeable_offers_no_theft():
    state = at_b2(carried=("M", "M"), pawns=("b2", "d2"), dice=(2, 6))
    state = play(state, "move d2")
    assert state.phase == MOVE


def test_the_pick_up_comes_first_and_the_theft_then_fits_the_new_load():
    state = at_b2(carried=("", "B"), pawns=("b2", "b3"), dice=(1, 6))
    state = play(state, "move b3")
    assert state.phase == PICK  # the menhir on b3
    after_pick = play(state, "pick")
    assert after_pick.phase == MOVE  # with a menhir, the other pawn's boar can't be taken
    after_leave = play(state, "leave")
    assert GAME.legal_actions(after_leave) == [("steal", 1, "boar"), ("leave",)]


def test_after_the_second_landing_the_turn_passes():
    state = play(at_b2(dice=(1, 1)), "move c2", "move d2")
    assert state.phase == ROLL and state.actor == 1
