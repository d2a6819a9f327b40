"""The end: the round is finished after a third monk arrives; fewest points break a tie."""
from support.athos_positions import TWO_UP, finish_turn, play, position

from peerboard.engines.athos import GAME
from peerboard.engines.athos.state import MOVE, OVER

def test_the_round_is_finished_after_a_players_third_monk_arrives():
    state = position(monks={0: TWO_UP}, arrivals=(0, 0))
    state = finish_turn(play(state, "k1-summit"))
    assert not GAME.is_terminal(state) and (state.actor, state.phase) == (1, MOVE)
    state = finish_turn(state)
    assert GAME.is_terminal(state) and state.phase == OVER
    assert GAME.winners(state) == [0] and GAME.scores(state) == [3, 0]


def test_when_the_last_seat_of_the_round_finishes_the_game_ends_at_once():
    state = position(monks={1: TWO_UP}, arrivals=(1, 1), actor=1)
    state = finish_turn(play(state, "k1-summit"))
    assert GAME.is_terminal(state) and GAME.winners(state) == [1]


def test_several_finishers_the_fewest_points_in_the_last_turn_wins():
    start = position(monks={0: ["j1", "summit", "summit"], 1: ["k7", "summit", "summit"]},
                     arrivals=(0, 1, 0, 1))
    # seat 0 needs 2 steps (j1-k1-summit), seat 1 only 1 (k7-summit): seat 1 used fewer
    state = finish_turn(play(start, "j1-summit"))
    state = finish_turn(play(state, "k7-summit"))
    assert GAME.is_terminal(state) and state.last_spent == (2, 1)
    assert GAME.winners(state) == [1]


def test_turned_tiles_and_spent_bonus_points_count_in_the_tie_break():
    start = position(monks={0: ["k1", "summit", "summit"], 1: ["k7", "summit", "summit"]},
                     arrivals=(0, 1, 0, 1), blocking=["a1"])
    # seat 0 climbs (1) then turns a tile with the bonus (4): 5 points used
    state = finish_turn(play(start, "k1-summit", "turn a1"))
    state = finish_turn(play(state, "k7-summit"))
    assert state.last_spent == (5, 1) and GAME.winners(state) == [1]


def test_an_equal_tie_break_is_a_shared_win():
    start = position(monks={0: ["k1", "summit", "summit"], 1: ["k7", "summit", "summit"]},
                     arrivals=(0, 1, 0, 1))
    state = finish_turn(play(start, "k1-summit"))
    state = finish_turn(play(state, "k7-summit"))
    assert GAME.winners(state) == [0, 1]


def test_teams_win_together_and_only_with_all_six_monks_up():
    options = {"teams": True}
    # seats: 0 A and 2 B are team 1; 1 D and 3 E are team 2
    state = position(4, options, monks={0: ["summit"] * 3, 2: ["k1", "summit", "summit"]},
                     arrivals=(0, 0, 0, 2, 2))
    state = finish_turn(state)  # seat 0: nothing to move, yet a full turn (it may place)
    for _ in range(3):
        state = finish_turn(state)
    assert not GAME.is_terminal(state)  # seat 0's three are up, but not its team's six
    assert (state.round, state.actor) == (2, 0)
    state = finish_turn(finish_turn(state))
    state = finish_turn(play(state, "k1-summit"))
    state = finish_turn(state)
    assert GAME.is_terminal(state) and GAME.winners(state) == [0, 2]
    assert GAME.scores(state) == [3, 0, 3, 0]


def test_a_seat_with_all_monks_up_and_nothing_to_turn_or_place_passes_at_once():
    everything = {"teams": True}
    state = position(4, everything, monks={0: ["summit"] * 3}, arrivals=(0, 0, 0), pool=0,
                     phase="place", placed=(1, 1, 1, 1, 0), actor=3)
    state = GAME.apply(state, ("end_turn",))
    # seat 0 has no monk to move and no tile to turn, but it may still place tiles
    assert (state.round, state.actor, state.phase) == (2, 0, "place")
