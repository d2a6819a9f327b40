"""Every registered engine passes the conformance kit (engines/testing.py) in each of the
set-ups it declares, and plays identically in processes with different hash seeds."""
import json
import os
import subprocess
import sys

import pytest

import engines
from engines.testing import check_random_games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SETUPS = [
    pytest.param(name, players, options, id=f"{name}-{players}p-{json.dumps(options, sort_keys=True)}")
    for name in engines.names()
    for players, options in engines.get(name).conformance_setups
]


def test_every_game_declares_setups():
    for name in engines.names():
        assert engines.get(name).conformance_setups, f"{name} declares no conformance set-ups"


@pytest.mark.parametrize("name, players, options", SETUPS)
def test_conformance(name, players, options):
    game = engines.get(name)
    lengths = check_random_games(
        game, players, options, games=2, seed=1, max_actions=game.playout_limit
    )
    assert len(lengths) == 2 and all(n > 0 for n in lengths)


def _hashes_in_subprocess(name, players, options, seed, hashseed):
    code = (
        "import json, sys; from engines.testing import playout_hashes; "
        "a = json.loads(sys.argv[1]); print(json.dumps(playout_hashes(*a)))"
    )
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed), PYTHONPATH=ROOT)
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps([name, players, options, seed])],
        env=env, capture_output=True, text=True, timeout=300, check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("name", engines.names())
def test_same_seeded_game_same_hashes_across_hash_seeds(name):
    players, options = engines.get(name).conformance_setups[0]
    first = _hashes_in_subprocess(name, players, options, 7, 0)
    second = _hashes_in_subprocess(name, players, options, 7, 12345)
    assert len(first) > 10
    assert first == second
