"""Teams: when both teams finish in the same round, the team whose two partners together
used fewer movement points in their last turns wins (spec/games/athos.md, "End").

Seats 0 (A) and 2 (B) are team 1, seats 1 (D) and 3 (E) team 2. Every seat has two monks
on the summit and one below it; each climbs in the last round and ends its move at once,
so the points it used are the steps from its hex to the summit:

    k-row: 1 step    j-row: 2 steps    i-row: 3 steps    h-row: 4 steps
"""
import pytest
from support.athos_positions import finish_turn, play, position

from peerboard.engines.athos import GAME

TEAMS = {"teams": True}
UP = ["summit", "summit"]


def _last_round(climbers: dict[int, str]) -> object:
    """Every seat climbs its last monk from its hex to the summit, seats 0, 1, 2, 3."""
    state = position(4, TEAMS, monks={seat: [hex_] + UP for seat, hex_ in climbers.items()},
                     arrivals=(0, 0, 1, 1, 2, 2, 3, 3))
    for seat in range(4):
        assert state.actor == seat
        state = finish_turn(play(state, f"{climbers[seat]}-summit"))
    assert GAME.is_terminal(state)
    return state


@pytest.mark.parametrize("climbers, spent, winners", [
    # team 1: 2 + 2 = 4 beats team 2: 1 + 4 = 5, though seat 1 alone used the fewest
    ({0: "j1", 1: "k3", 2: "j6", 3: "h8"}, (2, 1, 2, 4), [0, 2]),
    # team 1: 1 + 4 = 5 beats team 2: 3 + 3 = 6, though seat 2 alone used the most
    ({0: "k1", 1: "i3", 2: "h5", 3: "i8"}, (1, 3, 4, 3), [0, 2]),
    # team 2: 1 + 1 = 2 beats team 1: 2 + 1 = 3
    ({0: "j1", 1: "k3", 2: "k6", 3: "k7"}, (2, 1, 1, 1), [1, 3]),
])
def test_teams_tie_break_sums_both_partners_points_in_their_last_turns(climbers, spent, winners):
    state = _last_round(climbers)
    assert state.last_spent == spent
    assert GAME.winners(state) == winners


def test_teams_equal_sums_share_the_win():
    # team 1: 2 + 2 = 4, team 2: 1 + 3 = 4
    state = _last_round({0: "j1", 1: "k3", 2: "j6", 3: "i8"})
    assert state.last_spent == (2, 1, 2, 3)
    assert GAME.winners(state) == [0, 1, 2, 3]
