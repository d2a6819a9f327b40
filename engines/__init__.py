"""Pure rule engines behind one contract (spec/engine-contract.md).

    from peerboard import engines
    game = engines.get("aton")
    state = game.new_game(players=2)
    while not game.is_terminal(state): ...

No I/O, no clocks, no randomness of their own, no globals that change a result.
"""
from peerboard.engines.contract import CHANCE, TERMINAL, Action, Game, IllegalAction, OptionError
from peerboard.engines.options import Option
from peerboard.engines.registry import get, names

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "get",
    "names",
]
