"""Aton: after a scoring that ends no game, each player takes four counters back, the one
with more points first; on equal points the player who acted first in the last round
(rules/aton.md, "Scoring"; spec/games/aton.md).

Both players stand at 10 points with the Kingdom of the Dead at 4 + 4; red holds 1.1 and
blue 1.9. Each places one counter in temple 1 (the round's only action): temple 1 is then
2 against 2, a tie that scores nothing, but the Kingdom is full, so the round is scored
and the points stay equal.
"""
from dataclasses import replace

from support.aton_helpers import BLUE, GAME, RED, new, to_actions, with_board


def _scored_at_equal_points(red: str, blue: str):
    s = with_board(new(), red="1.1", blue="1.9")
    seats = tuple(replace(x, score=10, dead=4, supply=x.supply - 4) for x in s.seats)
    s = to_actions(replace(s, seats=seats), red, blue)
    while s.phase == "place":
        s = GAME.apply(s, GAME.legal_actions(s)[-1])
    assert s.phase == "retrieve" and GAME.scores(s) == [10, 10]
    return s


def test_equal_points_blue_acted_first_so_blue_takes_counters_back_first():
    # blue's cartouche 2 (2) is lower than red's (3): blue acted first in the round
    s = _scored_at_equal_points(red="1 3 1 1", blue="1 2 1 1")
    assert s.actor == BLUE and s.owed == 2  # blue holds two counters: both come back
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.phase == "retrieve" and s.actor == RED and s.owed == 2


def test_equal_points_red_acted_first_so_red_takes_counters_back_first():
    s = _scored_at_equal_points(red="1 2 1 1", blue="1 3 1 1")
    assert s.actor == RED and s.owed == 2
