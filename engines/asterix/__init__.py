"""Asterix: The Hunt, a fan game by Lloyd Krassner: Gauls hunt boars, menhirs, mistletoe
and Roman cohorts around their village on a chess board (spec/games/asterix.md)."""
from peerboard.engines.asterix.game import Asterix

GAME = Asterix()

__all__ = ["Asterix", "GAME"]
