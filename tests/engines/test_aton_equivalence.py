"""The Aton engine plays exactly as it did before its speed-up (issue 40, point 3).

Recorded once from the engine at 611e2c1 (before the speed-up) into
tests/support/aton_equivalence.json: for seeded random games with each option set, a
digest of everything a peer or a player could notice at every step (tests/support/
equivalence.py says what). Any change of a rule, a list's order, a refusal's words, a
view or a deal changes a digest.

    .venv/bin/python tests/engines/test_aton_equivalence.py --record   # only for a rule change
"""
from __future__ import annotations

import sys

import pytest

from peerboard import engines
from support import equivalence

GAME = engines.get("aton")
OPTION_SETS = ({}, {"first_round_removal": True}, {"win_points": 25}, {"first_round_removal": True, "win_points": 60})
GAMES = tuple((2, OPTION_SETS[n % len(OPTION_SETS)], n) for n in range(48))
#: actions tried at every step whatever the phase: most are refused here, with their reason
PROBES = (
    ("keep",), ("exchange", 1, 2, 3, 4), ("exchange", 4, 3, 2, 1), ("assign", 1, 2, 3, 4), ("assign", 4, 4, 4, 4),
    ("draw", 1), ("draw", None), ("turn", 2), ("remove", 0), ("remove", 30), ("place", 1), ("place", 47),
    ("place", 99), ("retrieve", 3), ("place", True), ("nonsense",), ("place",), [], "place 1.1",
)


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_random_game_is_step_for_step_as_recorded(players, options, seed):
    digest, steps = equivalence.game_digest(GAME, players, options, seed, PROBES)
    assert steps > 0
    assert digest == equivalence.recorded("aton")[equivalence.key(players, options, seed)], (
        f"options {options}, seed {seed}: the game differs from the recorded one")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: test_aton_equivalence.py --record")
    print("wrote", equivalence.record("aton", equivalence.everything(GAME, GAMES, PROBES)))
