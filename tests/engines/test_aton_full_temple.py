"""Aton: a player who occupies all 12 squares of any one temple wins at once — temples 2,
3 and 4 exactly as temple 1 (rules/aton.md, "End"; spec/games/aton.md).

Red holds 11 squares of temple t; its cartouche 3 (t) opens temples 1..t, its cartouche 4
places one counter, and red acts first (cartouche 2: 2 against blue's 3):

    temple t:   [R] [R] [R] [R]
                [R] [R] [R] [R]
                [R] [R] [R]  .     <- red places t.12
"""
import pytest

from support.aton_helpers import BLUE, GAME, RED, play, to_actions, with_board, new


@pytest.mark.parametrize("temple", [1, 2, 3, 4])
def test_occupying_all_12_squares_of_any_temple_wins_at_once(temple):
    s = with_board(new(), red=" ".join(f"{temple}.{n}" for n in range(1, 12)))
    s = to_actions(s, f"1 2 {temple} 1", "1 3 1 1")
    assert s.actor == RED and s.phase == "place"
    s = play(s, f"place {temple}.12")
    assert GAME.is_terminal(s) and GAME.winners(s) == [RED]
    assert f"all 12 squares of temple {temple}" in s.ending


@pytest.mark.parametrize("temple", [2, 3, 4])
def test_a_temple_with_one_square_of_the_opponent_is_no_win(temple):
    # blue holds one square of temple t: red filling the other eleven wins nothing yet
    squares = [f"{temple}.{n}" for n in range(1, 13)]
    s = with_board(new(), red=" ".join(squares[:10]), blue=squares[11])
    s = to_actions(s, f"1 2 {temple} 1", "1 3 1 1")
    s = play(s, f"place {temple}.11")
    assert not GAME.is_terminal(s) and s.actor == BLUE
