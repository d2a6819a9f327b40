"""The three ends of the game, and the scoring (rules/asterix.md, "End and scoring")."""
from __future__ import annotations

import random

from peerboard.engines.asterix.board import BIT, KIND_LETTERS, KIND_NAMES, LAYOUT_ORDER
from peerboard.engines.asterix.rules import nothing_can_change, reach
from peerboard.engines.asterix.scoring import categories_won, winners
from peerboard.engines.asterix.state import OVER, ROLL
from peerboard.engines.playout import random_action

from support.asterix_positions import GAME, load, position, play, sq

# A menhir on h1 behind the lakes g1, g2, h2: no pawn will ever reach it.
ISLAND = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
. . . . . . L L
C . . . . . L M
"""


def test_the_game_ends_when_no_scoring_tile_is_in_reach_and_nothing_is_carried():
    state = position(ISLAND, pawns=("b2", "g7"), dice=(1, 4), carried=("", "G"))
    state = play(state, "move a1")  # the last cohort in reach
    assert state.phase != OVER  # seat 1 still carries a mistletoe
    state = play(state, "move b2")
    state = play(state, "roll 1 1", "die 1", "move f6", "move e5")  # seat 1 banks it
    assert state.phase == OVER and GAME.is_terminal(state)
    assert state.piles == (load("C"), load("G"))


def test_the_game_ends_at_once_when_the_last_reachable_tile_is_a_cohort():
    state = position(ISLAND, pawns=("b2", "g7"), dice=(1, 4))
    state = play(state, "move a1")
    assert state.phase == OVER and GAME.legal_actions(state) == []


def test_the_game_goes_on_while_a_scoring_tile_is_in_reach():
    state = position(ISLAND, pawns=("b2", "g7"), dice=(1, 4))
    state = play(state, "move b1")
    assert state.phase != OVER


def test_the_game_ends_when_all_forty_scoring_tiles_are_in_victory_piles():
    piles = ("B" * 10 + "C" * 5 + "M" * 4, "C" * 5 + "M" * 4 + "G" * 11)
    state = position(pawns=("c3", "g7"), dice=(1, 6), carried=("G", ""), piles=piles)
    state = play(state, "move d4")
    assert state.phase == OVER
    assert sum(map(sum, state.piles)) == 40


def test_the_game_ends_after_max_rounds_with_the_seat_before_the_first_player():
    state = position(pawns=("c3", "g7"), dice=(1,), actor=1, first=1, round=2, max_rounds=2)
    state = play(state, "move f6")  # seat 1 started round 2; seat 0 still plays it
    assert state.phase == ROLL and state.actor == 0 and state.round == 2
    state = play(state, "roll 1 1", "die 1", "move b2", "move c3")
    assert state.phase == OVER and state.round == 2


def test_a_round_ends_and_the_next_begins_with_the_first_player():
    state = position(pawns=("c3", "g7"), dice=(1,), actor=0, first=1, round=1, max_rounds=2)
    state = play(state, "move b2")
    assert state.phase == ROLL and state.actor == 1 and state.round == 2


def test_a_random_game_with_one_round_gives_each_seat_one_turn():
    state = GAME.new_game(3, {"max_rounds": 1})
    rng = random.Random(5)
    turns = []
    while not GAME.is_terminal(state):
        if state.phase == ROLL:
            turns.append(state.actor)
        state = GAME.apply(state, random_action(GAME, state, rng))
    first = turns[0]
    assert turns == [first, (first + 1) % 3, (first + 2) % 3]


# -- scoring ---------------------------------------------------------------------------

def test_each_category_goes_to_the_one_seat_with_the_most():
    piles = (load("BBG"), load("BCCG"), load("M"))
    assert categories_won(piles) == [1, 1, 1]  # boar 0, cohort 1, menhir 2; mistletoe tied


def test_a_tie_for_the_most_wins_a_category_for_nobody():
    assert categories_won((load("BB"), load("BB"), load("B"))) == [0, 0, 0]
    assert categories_won((load(), load())) == [0, 0]


def test_the_seat_winning_the_most_categories_wins():
    piles = (load("BCC"), load("MGGBB"))  # seat 0: cohort; seat 1: boar, menhir, mistletoe
    assert categories_won(piles) == [1, 3] and winners(piles) == [1]


def test_a_tie_on_categories_goes_to_the_most_menhirs():
    piles = (load("BBBM"), load("CCCM"), load("MMM"))  # one category each
    assert categories_won(piles) == [1, 1, 1]
    assert winners(piles) == [2]


def test_then_the_most_boars():
    piles = (load("CCB"), load("GGGGG"), load("BBB"))  # one category each, no menhir
    assert categories_won(piles) == [1, 1, 1]
    assert winners(piles) == [2]  # three boars beat five tiles
    piles = (load("BBBMM"), load("CCCMM"))  # menhir tied 2-2, so nobody's; then boars
    assert categories_won(piles) == [1, 1] and winners(piles) == [0]


def test_then_the_most_tiles():
    piles = (load("CCCCC"), load("GG"))  # one category each, no menhir, no boar
    assert winners(piles) == [0]


def test_still_tied_is_a_shared_win():
    piles = (load("CC"), load("GG"), load("M"), load("M"))
    assert categories_won(piles) == [1, 1, 0, 0]
    assert winners(piles) == [0, 1]


def test_scores_are_categories_won_and_winners_only_at_the_end():
    state = position(pawns=("c3", "g7"), piles=("CC", "GGB"), phase=ROLL)
    assert GAME.scores(state) == [1, 2] and GAME.winners(state) == []


# -- "Nothing can change any more" ---------------------------------------------------------
# Two corners boxed in by lakes and a cohort, each holding a mistletoe: a1 (a2 b1 lakes, b2
# a cohort) and h8 (g8 h7 lakes, g7 a cohort). The tile counts are the game's own.
CORNERS = """
B B B B M M L G
B B B B M . C L
B B M M . . . .
C C C # # C C C
G G G # # G G G
. . . G G G M M
L C G L L . L C
G L . M L C . .
"""


def laid_out_as(diagram: str, players: int = 2):
    """A new game whose layout chance nodes lay the tiles of `diagram`, square by square."""
    letters = [w for line in reversed(diagram.strip().splitlines()) for w in line.split()]
    state = GAME.new_game(players)
    for square in LAYOUT_ORDER:
        state = play(state, f"tile {KIND_NAMES[KIND_LETTERS.index(letters[square])]}")
    return state


def boxed_in_by_play():
    """Both pawns walk about for two turns, then climb through their corner's cohort (with
    their last potion) onto the mistletoe and pick it up: 0 potions, walled in, carrying."""
    state = play(laid_out_as(CORNERS), "d6 6", "d6 1", "village d4", "village e5")
    for _ in range(2):
        state = play(state, "roll 1 1", "die 1", "move c3", "move b3")
        state = play(state, "roll 1 1", "die 1", "move f6", "move g6")
    state = play(state, "roll 1 2", "die 1", "move a3", "move a1", "pick")
    return state


def test_a_boxed_in_pawn_waits_while_another_pawn_could_still_come_to_steal():
    state = boxed_in_by_play()
    assert state.potions == (0, 1) and state.carried[0] == load("G")
    assert state.phase == ROLL and state.actor == 1  # seat 1 may walk through b2 to a1


def test_when_nothing_can_change_any_more_the_game_ends_at_the_start_of_a_turn():
    state = play(boxed_in_by_play(), "roll 1 2", "die 1", "move h6", "move h8", "pick")
    assert state.potions == (0, 0) and state.carried == (load("G"), load("G"))
    assert state.phase == OVER and GAME.is_terminal(state)
    assert (state.round, state.actor) == (4, 0) and state.round < state.max_rounds
    assert GAME.winners(state) == [0, 1]  # nothing banked: a shared win


def test_a_pawn_boxed_in_without_a_potion_reaches_only_its_own_square():
    state = position(CORNERS_MID, pawns=("a1", "e5"), potions=(0, 3), carried=("G", ""))
    assert reach(state, 0) == BIT[sq("a1")]
    with_potion = position(CORNERS_MID, pawns=("a1", "e5"), potions=(1, 3), carried=("G", ""))
    assert reach(with_potion, 0) & BIT[sq("b2")]  # it may still walk through the cohort


def test_cohorts_count_as_passable_for_a_pawn_that_can_refill_first():
    # no potion, but the village is in reach without the cohorts: it can refill there
    state = position(CORNERS_MID, pawns=("c3", "h8"), potions=(0, 0))
    assert reach(state, 0) & BIT[sq("b2")] and reach(state, 0) & BIT[sq("a1")]


def test_a_load_that_cannot_take_a_tile_and_cannot_bank_changes_nothing():
    boars = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
L L L . . . . .
B . L . . . . .
B . L . . . . .
"""
    # seat 0 carries a menhir in the lake-bound pocket a1-b3 with two boars: the "either"
    # load takes no boar, and no village lies in reach to bank the menhir first
    stuck = position(boars, pawns=("b1", "g7"), potions=(0, 0), carried=("M", ""))
    assert nothing_can_change(stuck)
    both = position(boars, pawns=("b1", "g7"), potions=(0, 0), carried=("M", ""), carry_rule="both")
    assert not nothing_can_change(both)  # one menhir and two boars at once: it may pick


def test_two_pawns_that_could_meet_keep_the_game_going():
    pocket = """
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . # # . . .
. . . # # . . .
. . . . . . . .
L L L . . . . .
. . L . . . . .
"""
    # a1 and b1 are walled in by lakes, with no scoring tile and no village: only a theft
    # could still happen there
    together = position(pocket, pawns=("a1", "b1"), potions=(0, 0), carried=("G", ""))
    assert not nothing_can_change(together)
    apart = position(pocket, pawns=("a1", "e5"), potions=(0, 3), carried=("G", ""))
    assert nothing_can_change(apart)


CORNERS_MID = CORNERS.replace("\nG L . M", "\n. L . M").replace("L G\n", "L .\n", 1)
