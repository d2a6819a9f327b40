"""The Athos engine plays exactly as it did before its speed-up (issue 40, point 3).

Recorded once from the engine at 611e2c1 (before the speed-up) into
tests/support/athos_equivalence.json: for seeded random games at 2 to 4 players with
each set-up the conformance kit plays, a digest of everything a peer or a player could
notice at every step (tests/support/equivalence.py says what). Any change of a rule, a
list's order or a refusal's words changes a digest.

    .venv/bin/python tests/engines/test_athos_equivalence.py --record   # only for a rule change
"""
from __future__ import annotations

import sys

import pytest

from peerboard import engines
from support import equivalence
from support.budget import LONG

GAME = engines.get("athos")
SETUPS = ((2, {}), (3, {}), (4, {}), *GAME.conformance_setups)
GAMES = tuple((*SETUPS[n % len(SETUPS)], n) for n in range(24))
#: every set-up once in a run (each game runs to a thousand steps and more, probed at every one);
#: all the recorded games with --long
PLAYED = GAMES if LONG else GAMES[: len(SETUPS)]
#: actions tried at every step whatever the phase: most are refused here, with their reason
PROBES = (
    ("go", "B", "b4"), ("go", "b4", "c4"), ("go", "k3", "S"), ("turn", "c5"), ("end_move",), ("lift", "c5"),
    ("drop", "e12"), ("fix", "c5"), ("skip_athos",), ("place", "b2"), ("place", "g9"), ("place_open", "b2"),
    ("end_turn",), ("place", "z9"), ("go",), ("nonsense",), [], "place b2", ("place", 3),
)


@pytest.mark.parametrize("players,options,seed", PLAYED)
def test_random_game_is_step_for_step_as_recorded(players, options, seed):
    digest, steps = equivalence.game_digest(GAME, players, options, seed, PROBES)
    assert steps > 0
    assert digest == equivalence.recorded("athos")[equivalence.key(players, options, seed)], (
        f"{players} players, options {options}, seed {seed}: the game differs from the recorded one")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: test_athos_equivalence.py --record")
    print("wrote", equivalence.record("athos", equivalence.everything(GAME, GAMES, PROBES)))
