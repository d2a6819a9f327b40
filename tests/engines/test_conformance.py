"""Every registered engine passes the conformance kit (engines/testing.py) in each of the
set-ups it declares, and plays identically in processes with different hash seeds."""
import json
import os
import subprocess
import sys

import pytest

from support.budget import LONG
from peerboard import engines
from peerboard.engines.testing import check_random_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# two random games in a game's first set-up, one in each other (two everywhere with --long)
SETUPS = [
    pytest.param(name, players, options, 2 if index == 0 or LONG else 1,
                 id=f"{name}-{players}p-{json.dumps(options, sort_keys=True)}")
    for name in engines.names()
    for index, (players, options) in enumerate(engines.get(name).conformance_setups)
]


def test_every_game_declares_setups():
    for name in engines.names():
        assert engines.get(name).conformance_setups, f"{name} declares no conformance set-ups"


@pytest.mark.parametrize("name, players, options, games", SETUPS)
def test_conformance(name, players, options, games):
    """Slow for Athos at 3 and 4 seats (10-20 s): random games there run to thousands of actions, and
    the kit checks every state of them (copies, hashes, notation round trips, refusals)."""
    game = engines.get(name)
    lengths = check_random_games(
        game, players, options, games=games, seed=1, max_actions=game.playout_limit
    )
    assert len(lengths) == games and all(n > 0 for n in lengths)


def _hashes_in_subprocess(name, players, options, seed, hashseed):
    code = (
        "import json, sys; from peerboard.engines.testing import playout_hashes; "
        "a = json.loads(sys.argv[1]); print(json.dumps(playout_hashes(*a)))"
    )
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps([name, players, options, seed])],
        env=env, capture_output=True, text=True, timeout=300, check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.processes
@pytest.mark.parametrize("name", engines.names())
def test_same_seeded_game_same_hashes_across_hash_seeds(name):
    players, options = engines.get(name).conformance_setups[0]
    first = _hashes_in_subprocess(name, players, options, 7, 0)
    second = _hashes_in_subprocess(name, players, options, 7, 12345)
    assert len(first) > 10
    assert first == second


# -- caches that cannot go stale (engines/values.py) ------------------------------------------
from dataclasses import dataclass  # noqa: E402

from peerboard.engines.values import cached, derived_from, evolve, stale_caches, warm  # noqa: E402


@dataclass(frozen=True)
class Box:
    width: int
    height: int
    colour: str

    @derived_from("width", "height")
    def area(self) -> int:
        return self.width * self.height

    @derived_from("area")
    def doubled(self) -> int:
        return 2 * self.area

    @cached
    def label(self) -> str:
        return f"{self.colour} {self.area}"


def test_evolve_hands_on_exactly_the_caches_whose_inputs_did_not_change():
    box = Box(2, 3, "red")
    warm(box)
    recoloured = evolve(box, colour="blue")
    assert "area" in recoloured.__dict__ and "doubled" in recoloured.__dict__
    assert "label" not in recoloured.__dict__  # a plain `cached` depends on everything
    wider = evolve(box, width=4)
    assert "area" not in wider.__dict__ and "doubled" not in wider.__dict__  # through `area`
    assert (wider.area, wider.doubled, wider.label) == (12, 24, "red 12")
    assert stale_caches(wider) == [] and stale_caches(recoloured) == []


def test_a_cache_naming_an_input_that_does_not_exist_is_an_error():
    @dataclass(frozen=True)
    class Wrong:
        size: int

        @derived_from("sise")
        def twice(self) -> int:
            return 2 * self.size

    wrong = Wrong(1)
    warm(wrong)
    with pytest.raises(TypeError, match="names 'sise', which is no field or cached value"):
        evolve(wrong, size=2)
    with pytest.raises(TypeError, match="has no field 'sise'"):
        evolve(wrong, sise=2)


def test_the_kit_catches_a_stale_cache_planted_on_purpose(monkeypatch):
    # `taken` (the hexes of the other seats' monks) depends on the seat to act too; declared
    # as if it depended on the monks alone, it is handed on when the turn passes
    from peerboard.engines import values
    from peerboard.engines.athos.state import State

    monkeypatch.setattr(State, "taken", derived_from("monks")(State.__dict__["taken"].fn))
    monkeypatch.setattr(values, "_CACHED_NAMES", {})  # (its memo of what the class declares: anew)
    with pytest.raises(AssertionError, match=r"cached State\.taken differ from a state rebuilt from scratch"):
        check_random_games(engines.get("athos"), 2, {}, games=1, seed=3, max_actions=3000)


def test_every_engine_state_rebuilt_from_scratch_has_the_caches_it_carried():
    # the same check the kit makes, on each engine's own new game and its first actions
    import random as _random

    from peerboard.engines.playout import random_action

    for name in engines.names():
        game = engines.get(name)
        state = game.new_game(game.min_players)
        rng = _random.Random(name)
        for _ in range(200):
            if game.is_terminal(state):
                break
            warm(state)
            state = game.apply(state, random_action(game, state, rng))
            assert stale_caches(state) == [], name
