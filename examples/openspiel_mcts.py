"""OpenSpiel's MCTS at a peerboard table, without training (docs/research.md).

    peerboard selfplay asterix --players os:OpenSpielMCTS,random       (from this folder)
    peerboard play asterix --bots os:OpenSpielMCTS
"""
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import peerboard.openspiel  # noqa: F401  (registers the games)
from peerboard.bots import Bot, Decision


class OpenSpielMCTS(Bot):
    name = "openspiel-mcts"

    def decide(self, decision: Decision):
        players = len(decision.game.scores(decision.view))
        game = pyspiel.load_game(f"peerboard_{decision.game_name}(players={players})")
        state = game.new_initial_state()
        state.engine_state = decision.view  # the seat's view: the whole position where nothing is hidden
        search = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1, np.random.RandomState(self.rng.randrange(2**31))))
        return game.table.ids.action(search.step(state))
