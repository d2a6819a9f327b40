"""Athos's game-over line says who won and by which rule, as Aton's does (issue 24, 19)."""
from support.athos_positions import TWO_UP, finish_turn, play, position

from peerboard.client.tui.boards import board_for
from peerboard.engines.athos import GAME

NAMES = ("ann", "bob", "cy", "dee")


def over_line(state) -> str:
    assert GAME.is_terminal(state)
    return board_for("athos").situation(state, NAMES)


def test_one_seat_up_wins_with_all_its_monks_on_the_summit():
    state = finish_turn(finish_turn(play(position(monks={0: TWO_UP}, arrivals=(0, 0)), "k1-summit")))
    assert over_line(state).endswith("Game over: seat 0 (ann) won, with all 3 monks on the summit.")


def test_several_up_the_line_gives_the_points_of_the_tie_break():
    start = position(monks={0: ["j1", "summit", "summit"], 1: ["k7", "summit", "summit"]}, arrivals=(0, 1, 0, 1))
    state = finish_turn(play(finish_turn(play(start, "j1-summit")), "k7-summit"))
    assert over_line(state).endswith(
        "Game over: seat 1 (bob) won: 2 sides have all 3 monks on the summit, and it spent the fewest "
        "points in its last turn, 1 point, against 2 for seat 0 (ann).")


def test_an_equal_tie_break_is_said_a_shared_win():
    start = position(monks={0: ["k1", "summit", "summit"], 1: ["k7", "summit", "summit"]}, arrivals=(0, 1, 0, 1))
    state = finish_turn(play(finish_turn(play(start, "k1-summit")), "k7-summit"))
    assert over_line(state).endswith("Game over: seat 0 (ann) and seat 1 (bob) share the win: 2 sides have all "
                                     "3 monks on the summit, and these spent the fewest points in their last "
                                     "turn, 1 point each.")


def test_a_team_wins_with_all_six_monks_up():
    state = position(4, {"teams": True}, monks={0: ["summit"] * 3, 2: ["k1", "summit", "summit"]},
                     arrivals=(0, 0, 0, 2, 2))
    for _ in range(4):
        state = finish_turn(state)
    for _ in range(4):
        if GAME.is_terminal(state):
            break
        state = finish_turn(play(state, "k1-summit") if state.actor == 2 else state)
    assert "Game over: team seat 0 (ann) and seat 2 (cy) won, with all 6 monks on the summit." in over_line(state)
