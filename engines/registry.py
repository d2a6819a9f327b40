"""The games peerboard ships, by name. Engines are imported on first use."""
from __future__ import annotations

import importlib

from peerboard.engines.contract import Game, OptionError

# name -> module defining GAME; sorted by name so names() is stable.
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
        _loaded[name] = importlib.import_module(_MODULES[name]).GAME
    return _loaded[name]
