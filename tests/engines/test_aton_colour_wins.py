"""Aton: all 14 yellow (or all 14 green) squares win at once — all of them, wherever the
missing one is; 13 of the 14 win nothing (rules/aton.md, "End").

The 14 yellow squares: the top rows 1.1-1.4, 2.1-2.4, 3.1-3.3, 4.1-4.3 (3.4 and 4.4 are
bonus squares); the 14 green: the bottom rows 1.9-1.12, 2.9-2.12, 3.9-3.11, 4.9-4.11.
"""
import pytest

from support.aton_helpers import BLUE, GAME, RED, new, play, to_actions, with_board

YELLOW = "1.1 1.2 1.3 1.4 2.1 2.2 2.3 2.4 3.1 3.2 3.3 4.1 4.2 4.3".split()
GREEN = "1.9 1.10 1.11 1.12 2.9 2.10 2.11 2.12 3.9 3.10 3.11 4.9 4.10 4.11".split()


def _red_places_the_last(squares: list[str], missing: str) -> object:
    """Red holds `squares` but `missing` and the last one, 4.x; it places that last one
    (cartouche 3 opens all four temples; red acts first)."""
    held = [sq for sq in squares[:-1] if sq != missing]
    s = with_board(new(), red=" ".join(held))
    s = to_actions(s, "1 2 4 1", "1 3 1 1")
    assert s.actor == RED and s.phase == "place"
    return play(s, f"place {squares[-1]}")


@pytest.mark.parametrize("squares, missing", [
    (YELLOW, "1.1"), (YELLOW, "2.3"), (YELLOW, "4.2"), (GREEN, "1.9"), (GREEN, "3.10"), (GREEN, "4.10"),
])
def test_thirteen_of_the_fourteen_squares_of_a_colour_win_nothing(squares, missing):
    s = _red_places_the_last(squares, missing)
    assert not GAME.is_terminal(s) and s.actor == BLUE


@pytest.mark.parametrize("squares, colour", [(YELLOW, "yellow"), (GREEN, "green")])
def test_all_fourteen_squares_of_a_colour_win_at_once(squares, colour):
    s = _red_places_the_last(squares, missing="")
    assert GAME.is_terminal(s) and GAME.winners(s) == [RED]
    assert f"all 14 {colour} squares" in s.ending
