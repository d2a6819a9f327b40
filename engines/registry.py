"""The games peerboard ships, by name. Engines are imported on first use.

Adding a game is writing `engines/NAME/` (its `__init__.py` defines `GAME`) and one line in
`_MODULES` below; nothing else lists the games (spec/engine-contract.md, "How an engine is
written")."""
from __future__ import annotations

import importlib

from peerboard.engines.contract import Game, OptionError

# name -> the package defining GAME: the one registration line per game. names() sorts them.
_MODULES = {
    "asterix": "peerboard.engines.asterix",
    "athos": "peerboard.engines.athos",
    "aton": "peerboard.engines.aton",
}
_loaded: dict[str, Game] = {}


def names() -> list[str]:
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The game called `name`; OptionError listing the known names otherwise."""
    if name not in _MODULES:
        raise OptionError(f"There is no game {name!r}; the games are: {', '.join(names())}.")
    if name not in _loaded:
        game = getattr(importlib.import_module(_MODULES[name]), "GAME", None)
        if not isinstance(game, Game) or game.name != name:
            # a mistake of whoever added the game, said where it is to be put right
            raise TypeError(f"{_MODULES[name]} must define GAME, an engines.Game whose name is {name!r} "
                            f"(spec/engine-contract.md, \"How an engine is written\"); it has {game!r}.")
        _loaded[name] = game
    return _loaded[name]
