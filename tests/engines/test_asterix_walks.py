"""Movement: walks of exactly N king steps (rules/asterix.md, "Movement")."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from peerboard.engines.asterix.board import BIT, LAYOUT_ORDER, SQUARE_NAMES, VILLAGE, squares_of
from peerboard.engines.asterix.walks import blocked_squares, landings

from support.asterix_positions import GAME, landing_names, oracle_landings, position, sq


def test_a_walk_of_one_step_reaches_the_eight_neighbours():
    state = position(pawns=("c3", "e4"), dice=(1,))
    assert landing_names(state) == ["b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"]


def test_a_walk_may_turn_back_and_land_where_it_started():
    state = position(pawns=("b2", "e4"), dice=(2,))
    assert "b2" in landing_names(state)


def test_a_walk_cannot_enter_a_lake():
    # The pawn on a1 is walled in by lakes on a2, b2 and b1: no walk at all.
    walled = """
    G . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . # # . . .
    . . . # # . . .
    . . . . . . . .
    L L . . . . . .
    . L . . . . . .
    """
    state = position(walled, pawns=("a1", "e4"), dice=(3,))
    assert GAME.legal_actions(state) == [("skip",)]


def test_a_walk_goes_around_a_lake_but_never_lands_on_it():
    lake = """
    G . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . # # . . .
    . . . # # . . .
    . . . . . . . .
    . . . . . . . .
    . L . . . . . .
    """
    state = position(lake, pawns=("a1", "e4"), dice=(2,))
    names = landing_names(state)
    assert "b1" not in names and "c1" in names


def test_a_pawn_with_no_potion_can_neither_land_on_nor_pass_through_a_cohort():
    # a1's only way out is b1, a cohort; a2 and b2 are lakes.
    gate = """
    G . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . # # . . .
    . . . # # . . .
    . . . . . . . .
    L L . . . . . .
    . C . . . . . .
    """
    broke = position(gate, pawns=("a1", "e4"), dice=(2,), potions=(0, 3))
    assert GAME.legal_actions(broke) == [("skip",)]
    one_step = position(gate, pawns=("a1", "e4"), dice=(1,), potions=(0, 3))
    assert GAME.legal_actions(one_step) == [("skip",)]


def test_a_pawn_with_a_potion_may_pass_through_a_cohort_or_land_on_it():
    gate = """
    G . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . # # . . .
    . . . # # . . .
    . . . . . . . .
    L L . . . . . .
    . C . . . . . .
    """
    state = position(gate, pawns=("a1", "e4"), dice=(2,), potions=(1, 3))
    assert landing_names(state) == ["a1", "c1", "c2"]  # through b1 and back, or on past it
    assert landing_names(position(gate, pawns=("a1", "e4"), dice=(1,), potions=(1, 3))) == ["b1"]


def test_a_walk_ends_in_the_village_after_fewer_steps_and_never_passes_through_it():
    # Lakes above and below the village: the only 3-step way from c4 to f4 or f5 would
    # cross the village, which stops a walk on entry.
    banks = """
    G . . . . . . .
    . . . . . . . .
    . . . L L . . .
    . . . # # . . .
    . . . # # . . .
    . . . L L . . .
    . . . . . . . .
    . . . . . . . .
    """
    state = position(banks, pawns=("c4", "h8"), dice=(3,))
    names = landing_names(state)
    assert {"d4", "d5"} <= set(names)  # entered after 1 step: the walk stops there
    assert not {"e4", "e5", "f4", "f5"} & set(names)  # only reachable through d4 or d5
    assert "f4" in landing_names(position(pawns=("c4", "h8"), dice=(3,)))  # around, with no lakes


def test_a_walk_from_the_village_leaves_it_or_stops_on_another_village_square():
    state = position(pawns=("d4", "h8"), dice=(1,))
    names = landing_names(state)
    assert "d4" not in names  # a one-step walk cannot stay put
    assert {"e4", "d5", "e5", "c3", "e3", "c5"} <= set(names)


def test_a_walk_out_of_the_village_and_back_in_ends_on_the_square_it_enters():
    state = position(pawns=("d4", "h8"), dice=(2,))
    assert {"d4", "e4", "d5", "e5"} <= set(landing_names(state))


# -- the fast layered walk agrees with the walk-by-walk oracle -------------------------

_kinds = st.sampled_from("BCMGL.")


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, str, int, int]:
    """A random board diagram (lakes and cohorts dense enough to matter), a start, a die, potions."""
    letters = draw(st.lists(st.sampled_from("LLCC..BG"), min_size=60, max_size=60))
    squares = ["#" if BIT[i] & VILLAGE else "" for i in range(64)]
    for i, letter in zip(LAYOUT_ORDER, letters):
        squares[i] = letter
    start = draw(st.integers(0, 63))
    if squares[start] in "LC":
        squares[start] = "."  # a pawn never stands on a lake or a cohort
    rows = [" ".join(squares[8 * r : 8 * r + 8]) for r in range(7, -1, -1)]
    steps = draw(st.integers(1, 6))
    potions = draw(st.integers(0, 3))
    return "\n".join(rows), SQUARE_NAMES[start], steps, potions


@settings(max_examples=120, deadline=None)
@given(boards())
def test_the_layered_walk_lands_exactly_where_some_walk_of_n_steps_ends(case):
    diagram, start, steps, potions = case
    state = position(diagram, pawns=(start, "e4"), dice=(steps,), potions=(potions, 3))
    fast = landings(sq(start), steps, blocked_squares(state.tiles, potions))
    assert {SQUARE_NAMES[s] for s in squares_of(fast)} == oracle_landings(state.tiles, sq(start), steps, potions)
