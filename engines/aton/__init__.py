"""Aton (Thorsten Gimmler, 2005) for two players: cartouches, temples and the Kingdom of
the Dead. The rules as implemented: spec/games/aton.md."""
from peerboard.engines.aton.game import AtonGame

GAME = AtonGame()
