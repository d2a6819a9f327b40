"""Pig, the dice game: roll a die as often as you dare, a 1 loses the turn's total, hold to
bank it. The rules as implemented: spec/games/pig.md (for this test game, its rules text)."""
from peerboard.engines.pig.game import Pig

GAME = Pig()
