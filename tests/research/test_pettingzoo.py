"""Every registered game passes PettingZoo's own API test and seed test, at every player count."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install -e '.[research]'")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import peerboard.pettingzoo  # noqa: E402
from peerboard import engines  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _every_count():
    for name in engines.names():
        game = engines.get(name)
        for players in range(game.min_players, game.max_players + 1):
            yield name, players


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name,players", list(_every_count()))
def test_api_test_and_seed_test_pass(name, players):
    api_test(peerboard.pettingzoo.env(name, players=players), num_cycles=300, verbose_progress=False)
    seed_test(lambda: peerboard.pettingzoo.env(name, players=players), num_cycles=100)


def _play(env, seed):
    """A random game to the end; the reward each agent was given when its game ended."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return final


def test_a_whole_game_ends_with_zero_sum_rewards_and_the_engines_winners():
    env = peerboard.pettingzoo.raw_env("asterix", players=3, max_rounds=3)
    final = _play(env, seed=4)
    assert not env.agents and sorted(final) == env.possible_agents
    winners = engines.get("asterix").winners(env.state)
    assert winners and sum(final.values()) == pytest.approx(0.0)
    assert [a for a, r in sorted(final.items()) if r > 0] == [f"seat_{s}" for s in winners]


def test_an_observation_is_the_seats_view_only():
    env = peerboard.pettingzoo.raw_env("aton")
    env.reset(seed=2)
    game = engines.get("aton")
    seat = env.agent_name_mapping[env.agent_selection]
    other = 1 - seat
    shown = env.observe(f"seat_{other}")["observation"]
    hidden = game.features(2)(game.view(env.state, other), other)
    assert list(shown) == pytest.approx(hidden)
    assert not env.observe(f"seat_{other}")["action_mask"].any()  # not its turn


def test_options_reach_the_engine_and_a_bad_one_is_refused():
    assert peerboard.pettingzoo.raw_env("athos", players=4, teams=True).options["teams"] is True
    with pytest.raises(engines.OptionError, match="teams=True needs 4 players"):
        peerboard.pettingzoo.raw_env("athos", players=2, teams=True)


@pytest.mark.processes
def test_the_real_libraries_import_from_the_repositorys_root():
    """The repository's root is the package `peerboard` and a program run there has it first
    on sys.path: nothing there may be named like a library (a `pettingzoo.py` would shadow
    the real one)."""
    code = ("import pettingzoo, pyspiel, peerboard.pettingzoo, peerboard.openspiel, sys; "
            "print(pettingzoo.__file__); print(peerboard.pettingzoo.__file__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    real, ours = out.stdout.splitlines()
    assert "site-packages" in real and not real.startswith(str(ROOT) + "/pettingzoo")
    assert Path(ours).resolve() == ROOT / "research" / "pettingzoo" / "__init__.py"
    assert not any((ROOT / f"{name}{tail}").exists() for name in ("pettingzoo", "pyspiel", "open_spiel", "gymnasium")
                   for tail in (".py", ""))
