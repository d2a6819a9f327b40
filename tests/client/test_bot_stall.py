"""A game that stands still: the search players stop waiting (client/bots/stall.py).

The position is the one an MCTS and a greedy player reached in a tournament and then held
for 1,600 rounds: one monk each left, on g6 and f6, under the blocking tile on h5; every
tile is out and every Athos piece used. Whoever turns h5 open lets the other monk up
first, so each waits for the other."""
import dataclasses

import pytest

from peerboard import engines
from peerboard.client.bots import make_bot
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.bots.sdk import Decision, notation_of
from peerboard.engines.athos.board import NODE_NAMES

ATHOS = engines.get("athos")
NODE = {name: n for n, name in enumerate(NODE_NAMES)}
TILES = ("OGGg.G..G..g...gG......GG.G.GGGGGYYY...Y.YY.....YY...YYYYYY.YYOOOO..O..O.O.O.O.O.OOO.OO"
         "BBBBB.BB.B..BBBBBB.BBWW.W.WW.WWWW....WWW.WWWW")


def standoff(round_: int = 60):
    start = ATHOS.new_game(2)
    return dataclasses.replace(
        start, round=round_, actor=0, phase="move", pool=6, placed=(0, 0, 0, 0, 0),
        monks=((NODE["g6"], NODE["summit"], NODE["summit"]), (NODE["f6"], NODE["summit"], NODE["summit"])),
        tiles=TILES, fixed=(0, 2, 103, 116), pieces=(0, 0), arrivals=(0, 1, 1, 0), last_spent=(4, 6))


def decide(bot, state):
    seat = ATHOS.current(state)
    view = ATHOS.view(state, seat)
    legal = tuple(ATHOS.legal_actions(state))
    return bot.decide(Decision("athos", ATHOS, seat, view, legal, notation_of(ATHOS, view, legal)))


def test_the_standoff_is_one_whoever_opens_h5_loses():
    state = standoff()
    know = knowledge_for(ATHOS)
    assert ("turn", "h5") in ATHOS.legal_actions(state)
    assert (know.distance(state, 0), know.distance(state, 1)) == (9, 10)  # 4 to turn h5 open, then 5 / 6 steps
    opened = ATHOS.apply(state, ("turn", "h5"))
    assert (know.distance(opened, 0), know.distance(opened, 1)) == (5, 6)  # seat 1 goes up in its next turn


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_a_player_that_met_the_same_standing_too_often_opens_the_way(name):
    bot = make_bot(name, seed=3)
    patience = knowledge_for(ATHOS).patience
    firsts = [ATHOS.format_action(standoff(r), decide(bot, standoff(r))) for r in range(60, 60 + patience + 2)]
    assert "turn h5" not in firsts[:patience], firsts
    assert firsts[patience:] == ["turn h5", "turn h5"], firsts


def test_the_players_of_the_standoff_finish_the_game():
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]  # without the count: 300 rounds and on
    state = standoff()
    for _ in range(2000):  # ample: about 10 actions a turn, two turns a round
        if ATHOS.is_terminal(state):
            break
        state = ATHOS.apply(state, decide(bots[ATHOS.current(state)], state))
    assert ATHOS.is_terminal(state)
    assert state.round <= 60 + knowledge_for(ATHOS).patience + 2
