"""Every registered peerboard game as an OpenSpiel game (`pip install 'peerboard[research]'`).

    import pyspiel
    import peerboard.openspiel                      # registers every game with pyspiel
    game = pyspiel.load_game("peerboard_athos(players=3)")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)

Importing this module registers `peerboard_NAME` for every game of `engines.names()` that
numbers its actions (`Game.action_ids`; a game without them is left out, and
`registered()` says which are in). Parameters: `players` and the game's options.

How the games are told (spec/engine-contract.md, "OpenSpiel and PettingZoo"):

* actions are the engine's action ids; chance is OpenSpiel's chance player, with the
  engine's exact odds as floats;
* hidden information is told truly: a game with hidden parts (Aton) is of imperfect
  information; a seat's information state is the lines it observed (its own draws; the
  other seat's as `draw ?`), its observation the board as it sees it (`render_text` of its
  view; in a game of perfect information the board all seats see, `str(state)`) and, as a
  tensor, the engine's `features` of that view;
* a simultaneous secret choice (Aton's cartouches) is sequential moves in the engine's seat
  order, each hidden from the other seats until the last of the group has chosen (research/
  openspiel/state.py);
* returns are zero-sum at the end: each of w winners n/w − 1, every other seat −1 (two
  players: +1 and −1), a draw 0.
"""
from __future__ import annotations

import pyspiel

from peerboard import engines
from typing import Any, Mapping

from peerboard.openspiel.game import game_class, game_type, parameter, short_name
from peerboard.openspiel.state import PeerboardState, from_view

__all__ = ["PeerboardState", "from_view", "load", "register", "registered", "short_name"]

_registered: dict[str, str] = {}


def register(name: str) -> str | None:
    """Register the peerboard game `name` with pyspiel (once); its short name, or None for
    a game that has no action ids."""
    if name in _registered:
        return _registered[name]
    engine = engines.get(name)
    if engine.action_ids(engine.min_players, {}) is None:
        return None
    kind = game_type(engine)
    if short_name(name) not in pyspiel.registered_names():
        pyspiel.register_game(kind, game_class(engine, kind))
    _registered[name] = short_name(name)
    return _registered[name]


def load(name: str, players: int, options: Mapping[str, Any] | None = None) -> Any:
    """The OpenSpiel game (`pyspiel.Game`) of the peerboard game `name` for `players` seats
    and `options` as the engine takes them (engines.OptionError: a bad option; ValueError:
    a game without action ids)."""
    engine = engines.get(name)
    if register(name) is None:
        raise ValueError(f"{engine.title} has no action ids, so it is no OpenSpiel game")
    resolved = engine.resolve_options(players, options)
    return pyspiel.load_game(short_name(name), {"players": players} | {
        option: parameter(value) for option, value in resolved.items()})


def registered() -> dict[str, str]:
    """peerboard name -> OpenSpiel short name, for every game registered so far."""
    return dict(_registered)


for _name in engines.names():
    register(_name)
