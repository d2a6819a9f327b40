"""What the search players know of each game beyond its rules: how good a position is
for each seat (`evaluate`), a cheap move for playouts, and how far a playout goes.

Every game works with the generic knowledge (terminal results, `game.scores` before the
end); Aton, Asterix and Athos have their own evaluations, playouts and search settings,
and Athos says when a game stands still (client/bots/stall.py).
"""
from __future__ import annotations

import importlib

from peerboard.engines import Game
from peerboard.client.bots.knowledge.generic import Knowledge

_MODULES = {
    "aton": "peerboard.client.bots.knowledge.aton",
    "asterix": "peerboard.client.bots.knowledge.asterix",
    "athos": "peerboard.client.bots.knowledge.athos",
}


def knowledge_for(game: Game) -> Knowledge:
    """The knowledge of `game` (the generic kind when it has none of its own)."""
    name = _MODULES.get(game.name)
    if name is None:
        return Knowledge(game)
    return importlib.import_module(name).KNOWLEDGE(game)


__all__ = ["Knowledge", "knowledge_for"]
