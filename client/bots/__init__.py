"""Bots: the SDK (`Bot`, `Decision`), the built-in players (random, greedy, mcts; OpenSpiel's
openspiel:mcts and openspiel:is_mcts with the research extra), bots in
any language over JSON lines (`ProgramBot`, spec/bot-protocol.md), tournaments."""
from peerboard.client.bots.registry import bot_class, make_bot, names
from peerboard.client.bots.sdk import Bot, BotError, Budget, Decision

__all__ = ["Bot", "BotError", "Budget", "Decision", "bot_class", "make_bot", "names"]
