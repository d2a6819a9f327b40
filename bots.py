"""What a bot author needs, in one import (spec/bot-protocol.md, README "Write a bot"):

    from peerboard.bots import Bot, Decision

    class FirstBot(Bot):
        name = "first"

        def decide(self, decision: Decision):
            return decision.legal[0]

Play it from the folder its file is in: `peerboard selfplay aton --players first:FirstBot,random`,
or at a table: `peerboard play aton --bots first:FirstBot`.
"""
from peerboard.client.bots import Bot, BotError, Budget, Decision, make_bot
from peerboard.engines import CHANCE, TERMINAL, Action, Game, IllegalAction

__all__ = ["Action", "Bot", "BotError", "Budget", "CHANCE", "Decision", "Game", "IllegalAction", "TERMINAL",
           "make_bot"]
