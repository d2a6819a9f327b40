"""OpenSpiel's MCTS at a peerboard table, without training (docs/research.md).

    peerboard selfplay asterix --players openspiel_mcts:OpenSpielMCTS,random     (from this folder)
    peerboard play asterix --bots openspiel_mcts:OpenSpielMCTS
"""
import numpy as np
from open_spiel.python.algorithms import mcts

import peerboard.openspiel
from peerboard.bots import Bot, Decision


class OpenSpielMCTS(Bot):
    name = "openspiel-mcts"

    def on_start(self, game, seat, players, options):
        self.spiel = peerboard.openspiel.load(game, players, options)  # the same game, as OpenSpiel's

    def decide(self, decision: Decision):
        state = peerboard.openspiel.from_view(self.spiel, decision.view, decision.seat, self.rng.randbytes(32))
        search = mcts.MCTSBot(self.spiel, 2.0, 100, mcts.RandomRolloutEvaluator(1, np.random.RandomState(self.rng.randrange(2**31))))
        return self.spiel.table.ids.action(search.step(state))
