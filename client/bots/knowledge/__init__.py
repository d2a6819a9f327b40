"""What the search players know of each game beyond its rules: how good a position is
for each seat (`evaluate`), a cheap move for playouts, and how far a playout goes.

Every game works with the generic knowledge (generic.py: terminal results, `game.scores`
plus the engine's optional `heuristic` before the end, and playing for progress when the
numbers stand still); a game may bring its own in client/games/NAME/knowledge.py
(`KNOWLEDGE`, a Knowledge subclass: Aton, Asterix and Athos have their own evaluations,
playouts and search settings, and Athos says when a game stands still).
"""
from __future__ import annotations

from peerboard.client.bots.knowledge.generic import Knowledge
from peerboard.client.games import piece
from peerboard.engines import Game


def knowledge_for(game: Game) -> Knowledge:
    """The knowledge of `game` (the generic kind when it has none of its own)."""
    own = piece(game.name, "knowledge")
    if own is None:
        return Knowledge(game)
    return own.KNOWLEDGE(game)


__all__ = ["Knowledge", "knowledge_for"]
