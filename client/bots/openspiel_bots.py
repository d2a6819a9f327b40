"""OpenSpiel's search bots in a peerboard seat: `openspiel:mcts` and `openspiel:is_mcts`
(docs/research.md). They need the research extra (`pip install 'peerboard[research]'`);
without it, importing this module fails and the bot registry says how to install it.

Each decision, the seat's view becomes a state of the OpenSpiel game (`peerboard.openspiel.
from_view`: hidden parts filled in by the engine's `determinize`; at a secret choice, the
seats OpenSpiel takes first have chosen in secret) and OpenSpiel's own bot searches it:

* `openspiel:mcts` is `open_spiel.python.algorithms.mcts.MCTSBot` (UCT, max^n backups).
  In a game of perfect information it searches the position; in one with hidden parts
  (Aton) it searches the one world sampled for the decision as if all were known;
* `openspiel:is_mcts` is `open_spiel.python.algorithms.ismcts.ISMCTSBot` (information-set
  MCTS: every simulation in a world resampled from what the seat knows,
  `resample_from_infostate`). OpenSpiel runs it on games of imperfect information only;
  where nothing is hidden, the one world is the position and this bot is the MCTS bot.

The leaf evaluator is OpenSpiel's random rollout, cut after `rollout` actions (a random
Athos game runs over a thousand; `ROLLOUT` by default, 0: no rollout at all); a rollout cut
short is valued as the generic search knowledge values a live position (the engine's scores
and heuristic, client/bots/knowledge/generic.py) on the returns' scale. A budget in
playouts is OpenSpiel's simulations per decision; in seconds, as many simulations as the
bot's speed so far says fit (a short first search measures it). Every random number comes
from the bot's seed, so a tournament replays.
"""
from __future__ import annotations

import time
from typing import Any, Mapping

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import peerboard.openspiel
from peerboard.client.bots.knowledge.generic import Knowledge
from peerboard.client.bots.mcts import DEFAULT_BUDGET
from peerboard.client.bots.sdk import Bot, Budget, Decision
from peerboard.engines import Action

#: actions a rollout plays at most before the position is valued as it stands
ROLLOUT = 200
#: OpenSpiel's UCT exploration constant (its examples' value for returns of about ±1)
UCT_C = 2.0
#: simulations of the first search under a seconds budget, which measures the speed
PROBE = 8


class Rollout(mcts.Evaluator):
    """OpenSpiel's random rollout (as `mcts.RandomRolloutEvaluator`: chance by its odds,
    every seat uniformly at random) to the end or for `limit` actions, whichever comes
    first; a position not at its end is valued by the generic knowledge: a seat's expected
    result e in [0, 1] is -1 + n * e on the returns' scale (a sole winner's n - 1, a
    loser's -1)."""

    def __init__(self, engine: Any, limit: int, random_state: np.random.RandomState) -> None:
        self.knowledge = Knowledge(engine)
        self.limit = limit
        self.random_state = random_state

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone() if self.limit else state
        for _ in range(self.limit):
            if working.is_terminal():
                break
            if working.is_chance_node():
                outcomes, odds = zip(*working.chance_outcomes())
                action = self.random_state.choice(outcomes, p=odds)
            else:
                action = self.random_state.choice(working.legal_actions())
            working.apply_action(int(action))
        if working.is_terminal():
            return np.asarray(working.returns())
        expected = self.knowledge.estimate(working.engine_state)
        return np.asarray([-1.0 + len(expected) * e for e in expected])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class OpenSpielMctsBot(Bot):
    """OpenSpiel's MCTS (`mcts.MCTSBot`); in a game with hidden parts, over the one world
    sampled for the decision. The game is loaded once per game started; each decision
    makes a state of the view, spends the budget and turns the id chosen back into
    peerboard's action."""

    name = "openspiel-mcts"
    #: actions a rollout plays at most (0: none, the leaf valued as it stands)
    rollout: int = ROLLOUT

    def __init__(self, seed: int | str | bytes = 0, budget: Budget | None = None):
        super().__init__(seed, budget or DEFAULT_BUDGET)
        self._game: Any = None
        self._started: tuple[str, int, str] | None = None
        #: simulations run and seconds spent, over every search (bench/bench_openspiel.py)
        self.playouts = 0
        self.seconds = 0.0

    def on_start(self, game: str, seat: int, players: int, options: Mapping[str, Any]) -> None:
        self._load(game, players, options)

    def _load(self, name: str, players: int, options: Mapping[str, Any]) -> Any:
        key = (name, players, repr(sorted(dict(options).items())))
        if self._game is None or self._started != key:
            self._game, self._started = peerboard.openspiel.load(name, players, options), key
        return self._game

    def decide(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            return decision.legal[0]
        game = self._game
        if game is None or self._started is None or self._started[0] != decision.game_name:
            # (a bot told nothing of the start: the player count from the view, the default options)
            game = self._load(decision.game_name, len(decision.game.scores(decision.view)), {})
        state = peerboard.openspiel.from_view(game, decision.view, decision.seat, self.rng.randbytes(32))
        action = game.table.ids.action(self._spend(game, state))
        if action not in decision.legal:  # our bug: said plainly, and the guard plays on
            raise RuntimeError(f"OpenSpiel's search chose {game.table.engine.format_action(decision.view, action)!r}, "
                               f"which is not one of this decision's legal actions")
        return action

    def _spend(self, game: Any, state: Any) -> int:
        """Search within the budget; the id of the action chosen."""
        budget = self.budget
        if budget.seconds is None:
            return self._timed(game, state, budget.playouts or DEFAULT_BUDGET.playouts)
        deadline = time.monotonic() + budget.seconds
        number = None
        if not self.playouts:  # the speed is not known yet: a short first search measures it
            number = self._timed(game, state, PROBE)
        simulations = int((deadline - time.monotonic()) * self.playouts / max(self.seconds, 1e-9))
        if number is not None and simulations <= PROBE:
            return number  # no time for a longer search than the first
        return self._timed(game, state, max(1, simulations))

    def _timed(self, game: Any, state: Any, simulations: int) -> int:
        started = time.monotonic()
        random_state = np.random.RandomState(self.rng.randrange(2**32))
        number = self._search(game, state, simulations, Rollout(game.table.engine, self.rollout, random_state),
                              random_state)
        self.seconds += time.monotonic() - started
        self.playouts += simulations
        return int(number)

    def _search(self, game: Any, state: Any, simulations: int, leaf: Rollout,
                random_state: np.random.RandomState) -> int:
        return mcts.MCTSBot(game, UCT_C, simulations, leaf, random_state=random_state).step(state)


class OpenSpielIsMctsBot(OpenSpielMctsBot):
    """OpenSpiel's IS-MCTS (`ismcts.ISMCTSBot`), each simulation in a world resampled from
    what the seat knows; where nothing is hidden, OpenSpiel's MCTS."""

    name = "openspiel-is-mcts"

    def _search(self, game: Any, state: Any, simulations: int, leaf: Rollout,
                random_state: np.random.RandomState) -> int:
        if game.get_type().information != pyspiel.GameType.Information.IMPERFECT_INFORMATION:
            return super()._search(game, state, simulations, leaf, random_state)
        bot = ismcts.ISMCTSBot(game, leaf, UCT_C, simulations, random_state=random_state)
        # The worlds come from the bot's own random numbers (OpenSpiel's default sampler has its own seed).
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, random_state.uniform))
        return bot.step(state)
