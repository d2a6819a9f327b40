"""Arriving on the summit: arrival order over all players, bonus points 3,3,2,2,1,0."""
import pytest
from support.athos_positions import finish_turn, play, position, refused

from peerboard.engines.athos import GAME
from peerboard.engines.athos.state import MOVE

# (seats of the monks already up, in arrival order) for three players, seat 0 to climb next
EARLIER = [(), (1,), (1, 2), (1, 2, 2), (1, 2, 2, 1), (1, 2, 2, 1, 1)]


@pytest.mark.parametrize("before, extra", list(zip(EARLIER, [3, 3, 2, 2, 1, 0])))
def test_bonus_points_follow_the_arrival_order_over_all_players(before, extra):
    up = {1: ["summit"] * before.count(1), 2: ["summit"] * before.count(2)}
    state = position(3, monks={0: ["k1"], **up}, arrivals=before)
    state = play(state, "k1-summit")
    assert state.pool == 6 - 1 + extra
    assert state.arrivals == before + (0,)


def test_bonus_points_join_this_move_phase_only():
    state = play(position(monks={0: ["k1", "e5"]}), "k1-summit")
    assert state.pool == 8
    state = finish_turn(finish_turn(state))
    assert state.actor == 0 and state.pool == 6


def test_bonus_points_may_be_spent_on_turning_once_the_pool_reaches_four():
    state = position(monks={0: ["k1", "e5"]}, blocking=["e6"], pool=2)
    assert ("turn", "e6") not in GAME.legal_actions(state)
    state = play(state, "k1-summit")  # 1 point left + 3 bonus
    assert state.pool == 4 and ("turn", "e6") in GAME.legal_actions(state)
    assert play(state, "turn e6").pool == 0


def test_unspent_bonus_points_are_lost_by_default():
    state = play(position(monks={0: ["k1", "e5"]}, pool=1), "k1-summit")
    assert state.owed == 3
    assert play(state, "end move").phase != MOVE


def test_with_bonus_must_be_spent_the_move_phase_waits_for_the_bonus():
    options = {"bonus_must_be_spent": True}
    state = play(position(2, options, monks={0: ["k1", "e5"]}, pool=1), "k1-summit")
    assert ("end_move",) not in GAME.legal_actions(state)
    assert "3 bonus points must still be spent" in refused(state, "end move")
    state = play(state, "e5-e6", "e6-e7")
    assert state.owed == 1 and ("end_move",) not in GAME.legal_actions(state)
    state = play(state, "e7-e8")  # the last point: the move phase ends
    assert state.owed == 0 and state.phase != MOVE and state.spent == 4


def test_bonus_points_are_spent_before_the_turns_own_points():
    options = {"bonus_must_be_spent": True}
    state = play(position(2, options, monks={0: ["k1", "e5"]}, pool=3), "k1-summit")
    assert (state.pool, state.owed) == (5, 3)
    state = play(state, "e5-e6")
    assert (state.pool, state.owed) == (4, 2)


def test_a_bonus_nobody_can_spend_does_not_hold_up_the_game():
    # the third monk arrives: no monk is left to move and 2 points do not turn a tile, so
    # the move phase has nothing left to decide and passes by itself
    options = {"bonus_must_be_spent": True}
    state = position(2, options, monks={0: ["k1", "summit", "summit"]}, arrivals=(0, 0), pool=1)
    state = play(state, "k1-summit")
    assert state.phase != "move" and state.last_spent == (0, 0) and state.spent == 1
