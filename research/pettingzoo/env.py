"""The AEC environment (research/pettingzoo/__init__.py says what it offers)."""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from peerboard import engines
from peerboard.engines import CHANCE


def _returns(game: Any, state: Any, players: int) -> list[float]:
    winners = game.winners(state)
    if not winners:
        return [0.0] * players
    share = players / len(winners) - 1.0
    return [share if seat in winners else -1.0 for seat in range(players)]


class PeerboardEnv(AECEnv):
    """A peerboard game for PettingZoo: seats take turns, chance is played inside."""

    metadata = {"render_modes": ["ansi", "human"], "name": "peerboard", "is_parallelizable": False}

    def __init__(self, name: str, players: int, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game = engines.get(name)
        self.players = players
        self.options = self.game.resolve_options(players, options)  # OptionError: a bad option
        self.ids = self.game.action_ids(players, self.options)
        self.features = self.game.features(players, self.options)
        if self.ids is None or self.features is None:
            raise engines.OptionError(f"{self.game.title} has no action ids or features, so no PettingZoo environment.")
        self.metadata = {**self.metadata, "name": f"peerboard_{name}"}
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (len(self.features),), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.ids),), np.int8),
        })
        self._action_space = spaces.Discrete(len(self.ids))
        self._rng = random.Random()
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_game(self.players, self.options)
        self._opened = None  # the position when an open secret group began
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Play chance events, then make the seat to act the agent selected (or end)."""
        game = self.game
        while game.current(self.state) == CHANCE:
            self.state = game.apply(self.state, game.sample_chance(self.state, self._rng.randbytes(32)))
        if game.is_terminal(self.state):
            for agent, reward in zip(self.possible_agents, _returns(game, self.state, self.players)):
                self.rewards[agent] = reward
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        self.agent_selection = self.possible_agents[game.current(self.state)]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = 0.0
        before = self.state
        group = self.game.secret_choice(before)
        self.state = self.game.apply(before, self.ids.action(int(action)))  # IllegalAction: not legal here
        if group and self._opened is None:
            self._opened = before
        if not group or not self.game.secret_choice(self.state) or self.game.current(self.state) not in group:
            self._opened = None
        self._settle()

    # -- what a seat sees ----------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        shown = self._opened if self._opened is not None else self.state
        mask = np.zeros(len(self.ids), np.int8)
        if self.game.current(self.state) == seat:
            mask[[self.ids.id(a) for a in self.game.legal_actions(self.state)]] = 1
        features = np.asarray(self.features(self.game.view(shown, seat), seat), np.float32)
        return {"observation": features, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        seat = self.agent_name_mapping.get(self.agent_selection)
        text = self.game.render_text(self.game.view(self.state, seat), seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(name: str, players: int = 2, render_mode: str | None = None, **options: Any) -> PeerboardEnv:
    """The environment without PettingZoo's checking wrappers."""
    return PeerboardEnv(name, players, render_mode=render_mode, **options)


def env(name: str, players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """`peerboard.pettingzoo.env("athos", players=3, **options)`: the environment inside
    PettingZoo's usual wrappers (an illegal action ends the game for the seat that played
    it; out-of-bounds actions refused; the order of calls checked)."""
    wrapped: Any = raw_env(name, players, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
