"""Every registered peerboard game as a PettingZoo AEC environment (`pip install 'peerboard[research]'`).

    import peerboard.pettingzoo
    env = peerboard.pettingzoo.env("athos", players=3, teams=False)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

Agents are "seat_0", "seat_1", …; an action is the engine's action id (spec/games/NAME.md,
"Action ids"). An observation is the seat's view only: {"observation": the engine's
features of the seat's view, "action_mask": 1 for each legal id}; chance events are played
inside the environment with the engine's odds, from the generator `reset(seed=...)` seeds,
so a seed replays the same game. Rewards come at the end: the OpenSpiel face's zero-sum
returns (each of w winners n/w − 1, every other seat −1, a draw 0). A simultaneous secret
choice (Aton's cartouches) is taken seat by seat; a seat's observation does not show the
choices of the others until the group has chosen.
"""
from __future__ import annotations

from peerboard.pettingzoo.env import PeerboardEnv, env, raw_env

__all__ = ["PeerboardEnv", "env", "raw_env"]
