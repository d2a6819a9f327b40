"""Bots by name: the built-in players, or a third party's class by import path.

    make_bot("mcts", seed=7, budget=Budget(playouts=500))
    make_bot("openspiel:is_mcts", seed=7)       # OpenSpiel's, with the research extra
    make_bot("mypkg.mybot:MyBot", seed=7)       # any importable Bot subclass

A third party's module is imported as `python -m` would import it: from the current
directory first, then the installed packages, so `--players first:FirstBot` finds the
`first.py` beside the person who typed it.
"""
from __future__ import annotations

import importlib
import os
import sys

from peerboard.client.bots.sdk import Bot, BotError, Budget

BUILT_IN: dict[str, str] = {
    "random": "peerboard.client.bots.players:RandomBot",
    "greedy": "peerboard.client.bots.players:GreedyBot",
    "mcts": "peerboard.client.bots.mcts:MctsBot",
    "openspiel:mcts": "peerboard.client.bots.openspiel_bots:OpenSpielMctsBot",
    "openspiel:is_mcts": "peerboard.client.bots.openspiel_bots:OpenSpielIsMctsBot",
}
#: built-in bots that need an optional extra of the distribution, and the one line saying so
EXTRA = {name: "research" for name in BUILT_IN if name.startswith("openspiel:")}


def names() -> list[str]:
    return sorted(BUILT_IN)


def bot_class(spec: str) -> type[Bot]:
    """The class `spec` names: a built-in name or "module.path:ClassName"."""
    path = BUILT_IN.get(spec, spec)
    module_name, colon, attr = path.partition(":")
    if not colon or not module_name or not attr:
        raise BotError(f"there is no bot {spec!r}: use one of {', '.join(names())} or an import path "
                       f"like mypkg.mybot:MyBot")
    if spec not in BUILT_IN:
        _current_directory_first()
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if spec in EXTRA:
            raise BotError(f"the bot {spec!r} needs the {EXTRA[spec]} extra, which is not installed here "
                           f"({exc}): pip install 'peerboard[{EXTRA[spec]}]' (or make setup)") from None
        raise BotError(f"cannot import {module_name!r} for the bot {spec!r}: {exc}") from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"{spec!r} is not a Bot class (a peerboard.bots.Bot subclass) in {module_name}")
    return cls


def make_bot(spec: str, seed: int | str = 0, budget: Budget | None = None) -> Bot:
    cls = bot_class(spec)
    try:
        return cls(seed=seed, budget=budget)
    except Exception as exc:  # a third party's constructor: its fault, said in one line
        raise BotError(f"the bot {spec!r} could not be made: {type(exc).__name__}: {exc}") from None


def _current_directory_first() -> None:
    """The current directory at the front of the import path, as `python -m` puts it (the
    `peerboard` console script, unlike `python -m`, starts without it)."""
    here = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == here for p in sys.path[:1]):
        sys.path.insert(0, here)
