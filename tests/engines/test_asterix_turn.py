"""A turn: refill, 2d6, which die first, the walks, the village, the discard."""
from __future__ import annotations

import pytest

from peerboard.engines import IllegalAction
from peerboard.engines.asterix.state import MOVE, ORDER, ROLL

from support.asterix_positions import GAME, landing_names, load, position, play, sq

WALLED = """
G . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
L L . . . . . .
. L . . . . . .
"""


def test_potions_go_back_up_to_three_when_the_turn_starts_in_the_village():
    state = position(pawns=("c3", "e4"), potions=(2, 1), dice=(1,))
    state = play(state, "move b2")
    assert state.phase == ROLL and state.actor == 1
    assert state.potions == (1, 3)  # seat 0 discarded one; seat 1 starts in the village


def test_potions_are_not_refilled_when_the_turn_starts_outside_the_village():
    state = position(pawns=("c3", "g7"), potions=(2, 1), dice=(1,))
    state = play(state, "move b2")
    assert state.actor == 1 and state.potions == (1, 1)


def test_ending_a_turn_in_the_village_refills_only_when_the_next_turn_starts():
    state = position(pawns=("c3", "g7"), potions=(1, 1), dice=(1,))
    state = play(state, "move d4")  # seat 0 ends its turn in the village: discards to 0
    assert state.potions == (0, 1)
    state = play(state, "roll 1 1", "die 1", "move g8", "move h8")
    assert state.actor == 0 and state.potions == (3, 0)  # seat 0 starts in the village


def test_the_end_of_turn_discard_never_goes_below_zero():
    state = position(pawns=("c3", "g7"), potions=(0, 2), dice=(1,))
    state = play(state, "move b2")
    assert state.potions == (0, 2)


def test_the_mover_chooses_which_die_moves_first():
    state = position(pawns=("c3", "g7"), phase=ROLL)
    state = play(state, "roll 5 2")
    assert state.phase == ORDER and state.dice == (2, 5)
    assert GAME.legal_actions(state) == [("die", 2), ("die", 5)]
    state = play(state, "die 5")
    assert state.phase == MOVE and state.dice == (5, 2)


def test_a_double_offers_one_choice_of_die():
    state = play(position(pawns=("c3", "g7"), phase=ROLL), "roll 4 4")
    assert GAME.legal_actions(state) == [("die", 4)]


def test_the_second_die_moves_on_from_where_the_first_landed():
    state = play(position(pawns=("a1", "g7"), phase=ROLL), "roll 1 2", "die 1", "move b1")
    assert state.phase == MOVE and state.dice == (2,)
    assert landing_names(state) == sorted(landing_names(state), key=sq)
    assert "d1" in landing_names(state) and "e1" not in landing_names(state)
    state = play(state, "move d1")
    assert state.actor == 1 and state.pawns[0] == sq("d1")


def test_a_die_with_no_legal_landing_cannot_be_chosen_and_a_stuck_pawn_skips():
    state = play(position(WALLED, pawns=("a1", "g7"), phase=ROLL), "roll 3 5")
    assert GAME.legal_actions(state) == [("skip",)]
    with pytest.raises(IllegalAction, match="skip"):
        GAME.apply(state, ("die", 3))
    state = play(state, "skip")
    assert state.actor == 1 and state.pawns[0] == sq("a1") and state.potions[0] == 2


def test_a_second_die_with_no_legal_landing_is_skipped():
    # Not reachable by play (a walk can always step back where it came from), but the
    # rule stands on its own: the mover says "skip" and the turn ends.
    state = position(WALLED, pawns=("a1", "g7"), dice=(4,))
    assert GAME.legal_actions(state) == [("skip",)]
    state = play(state, "skip")
    assert state.actor == 1 and state.phase == ROLL


def test_entering_the_village_ends_the_turn_and_banks_everything_carried():
    state = position(pawns=("c3", "g7"), dice=(1, 5), carried=("BGG", ""), piles=("M", ""))
    state = play(state, "move d4")
    assert state.actor == 1 and state.phase == ROLL  # the 5 is lost
    assert state.carried[0] == load() and state.piles[0] == load("BGGM")


def test_a_walk_that_only_passes_the_village_by_does_not_bank():
    state = position(pawns=("c3", "g7"), dice=(2, 5), carried=("G", ""))
    state = play(state, "move c5")
    assert state.carried[0] == load("G") and state.phase == MOVE


def test_a_move_to_a_square_out_of_reach_is_refused_with_the_legal_landings():
    state = position(pawns=("a1", "g7"), dice=(1,))
    with pytest.raises(IllegalAction, match="move a2, move b2"):
        GAME.parse_action(state, "move h8")
