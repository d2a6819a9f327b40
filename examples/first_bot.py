"""A peerboard bot in a few lines of Python, with the SDK (README "Bots", spec/bot-protocol.md).

From this folder:  peerboard selfplay aton --players first_bot:FirstBot,random
At a table:        peerboard play athos --bots first_bot:FirstBot
It plays any game: it takes the action that leaves it the best score, the first of those on a tie.
"""
from peerboard.bots import Bot, Decision


class FirstBot(Bot):
    name = "first"

    def decide(self, decision: Decision):
        game, view, seat = decision.game, decision.view, decision.seat
        if decision.kind != "move":  # a secret choice (Aton's cartouches): the first one offered
            return decision.legal[0]

        def score_after(action):
            return game.scores(game.apply(view, action))[seat]

        return max(decision.legal, key=score_after)
