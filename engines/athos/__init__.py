"""Athos: monks climb a mountain of hexes while every player blocks the ways up.

Modules, by concept: `board` (the board as data), `state` (the position and its record),
`paths` (the path rule), `parting` (monks sharing a hex), `rules` (legal actions and their
effects), `setup` (options and the first position), `notation`, `render`, `game` (the
contract), `oracle` (the plain-search reference for the path rule, used by tests and bench).
"""
from peerboard.engines.athos.game import Athos

GAME = Athos()

__all__ = ["GAME", "Athos"]
