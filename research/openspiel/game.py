"""A registered peerboard game as an OpenSpiel game type (`pyspiel.Game`).

Short name `peerboard_NAME`; parameters: `players` and each of the game's options (an
option whose value is no int, float, bool or str, such as Athos's `handicap`, is a string
holding its JSON, e.g. `handicap={"1": 2}` as `'{"1":2}'`).
"""
from __future__ import annotations

import functools
import json
from typing import Any

import pyspiel

from peerboard import engines
from peerboard.engines import Game
from peerboard.openspiel.observer import PeerboardObserver
from peerboard.openspiel.state import PeerboardState, Position

PREFIX = "peerboard_"
_PLAIN = (bool, int, float, str)


def short_name(name: str) -> str:
    """OpenSpiel's name of the peerboard game `name`."""
    return PREFIX + name


def parameter(default: Any) -> Any:
    """An option's value as an OpenSpiel game parameter (JSON text unless plain)."""
    return default if isinstance(default, _PLAIN) else json.dumps(default, sort_keys=True, separators=(",", ":"))


def _option(value: Any, default: Any) -> Any:
    return value if isinstance(default, _PLAIN) else json.loads(value)


def _hidden(engine: Game) -> bool:
    """Whether a seat can ever know less than the whole position: the game has its own
    `view` or a secret choice or private draws (the contract's hooks)."""
    kind = type(engine)
    return any(getattr(kind, hook) is not getattr(Game, hook)
               for hook in ("view", "secret_choice", "chance_hidden", "determinize"))


def _has_chance(engine: Game, ids: Any) -> bool:
    return ids.chance > 0


def game_type(engine: Game) -> Any:
    """The OpenSpiel `GameType` of a peerboard engine (which must have action ids)."""
    ids = engine.action_ids(engine.min_players, {})
    parameters = {"players": engine.min_players} | {
        name: parameter(option.default) for name, option in engine.options_schema.items()
    }
    Chance = pyspiel.GameType.ChanceMode
    Info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(engine.name),
        long_name=f"peerboard {engine.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=Chance.EXPLICIT_STOCHASTIC if _has_chance(engine, ids) else Chance.DETERMINISTIC,
        information=Info.IMPERFECT_INFORMATION if _hidden(engine) else Info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=engine.features(engine.min_players, {}) is not None,
        parameter_specification=parameters,
    )


class Table:
    """What every state of one loaded game shares: the engine, the player count, the options
    (resolved: an OptionError names a bad parameter), the action ids, the features, whether
    a seat can know less than the whole position, and the start (engine states never change,
    so every new state begins from the same one)."""

    def __init__(self, engine: Game, players: int, options: dict[str, Any]) -> None:
        self.engine, self.players, self.options = engine, players, options
        self.ids = engine.action_ids(players, options)
        self.features = engine.features(players, options)
        self.hidden = _hidden(engine)
        self.start = Position(engine.new_game(players, options))

    def header_lines(self, seat: int) -> list[str]:
        """The first line of every information state: the game, its options and the seat."""
        options = json.dumps(self.options, sort_keys=True, separators=(",", ":"))
        return [f"{self.engine.name} players={self.players} options={options} seat={seat}"]

    def __deepcopy__(self, memo: dict) -> "Table":
        return self  # shared by every state of the game, never changed

    def __reduce__(self) -> tuple:
        return (_table, (self.engine.name, self.players, json.dumps(self.options, sort_keys=True)))


@functools.lru_cache(maxsize=64)
def _table(name: str, players: int, options: str) -> Table:
    """The table of a pickled state, built once per game, player count and options."""
    return Table(engines.get(name), players, json.loads(options))


def game_class(engine: Game, kind: Any) -> type:
    """The `pyspiel.Game` subclass OpenSpiel builds for each `load_game` of this game."""

    class PeerboardGame(pyspiel.Game):
        __doc__ = f"peerboard's {engine.title} as an OpenSpiel game."

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.pop("players", engine.min_players))
            defaults = {name: option.default for name, option in engine.options_schema.items()}
            options = {name: _option(params.get(name, parameter(default)), default)
                       for name, default in defaults.items()}
            table = self.table = Table(engine, players, engine.resolve_options(players, options))
            info = pyspiel.GameInfo(
                num_distinct_actions=len(table.ids),
                max_chance_outcomes=table.ids.chance,
                num_players=players,
                min_utility=-1.0,
                max_utility=float(players - 1),
                utility_sum=0.0,
                max_game_length=engine.playout_limit,
            )
            super().__init__(kind, info, {"players": players} | {
                name: parameter(value) for name, value in table.options.items()})

        def new_initial_state(self) -> PeerboardState:
            return PeerboardState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PeerboardObserver:
            return PeerboardObserver(self.table, iig_obs_type, params)

    PeerboardGame.__name__ = PeerboardGame.__qualname__ = f"Peerboard{engine.name.title()}Game"
    return PeerboardGame
