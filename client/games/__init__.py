"""Each game's own client pieces, one sub-package per game, found by its engine's name.

`peerboard.client.games.NAME` may hold, each optional:

| module | defines | without it |
|---|---|---|
| `board.py` | `BOARD`, the full-screen look (client/tui/boards/canvas.py `Board`) | the engine's `render_styled`, in colour (client/tui/boards/plain.py) |
| `knowledge.py` | `KNOWLEDGE`, a `Knowledge` subclass for the search players | scores plus the engine's `heuristic` (client/bots/knowledge/generic.py) |
| `view.py` | `view_json(game, view, seat) -> dict`, named fields for program bots | the documented `public_record` (client/bots/jsonview.py) |

The rules summary F1 shows comes from the engine itself (`Game.rules_text`). Nothing here
lists the games: a game's sub-package is looked up by name, so a game with none at all
plays everywhere through the fallbacks (spec/engine-contract.md, "How an engine is written").
"""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def piece(game_name: str, module: str) -> ModuleType | None:
    """`peerboard.client.games.<game_name>.<module>`, imported, or None when the game has
    no such piece (a missing piece is the normal case, never an error)."""
    package = f"{__name__}.{game_name}"
    if not game_name.isidentifier() or importlib.util.find_spec(package) is None:
        return None
    if importlib.util.find_spec(f"{package}.{module}") is None:
        return None
    return importlib.import_module(f"{package}.{module}")
