"""The Asterix engine plays exactly as it did before its speed-up (issue 25, point 3).

Recorded once from the engine at 990cd82 (before the speed-up, with that commit's package
first on the path) and checked in
(tests/support/asterix_equivalence.json): for seeded random games at 2 to 8 players and several
option sets, a digest of everything a peer or a player could notice at every step: the
state hash, the legal list (content and order), the chance odds, the action's text and
its parse, the refusal text of an illegal action, the scores and winners, the final
board; and the choices of the greedy and MCTS players at seeded positions. Any change of
a rule, a list's order, a refusal's words or a bot's choice changes a digest.

    .venv/bin/python tests/engines/test_asterix_equivalence.py --record   # only for a rule change

(It was recorded with 990cd82's package first on the path: `git archive 990cd82` unpacked
into DIR/peerboard, then `PYTHONPATH=DIR .venv/bin/python tests/engines/test_asterix_equivalence.py
--record`.)
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys

import pytest

from support.budget import LONG
from peerboard import engines
from peerboard.client.bots.mcts import MctsBot
from peerboard.client.bots.players import GreedyBot
from peerboard.client.bots.sdk import Budget, Decision, notation_of
from peerboard.engines.contract import CHANCE, IllegalAction
from peerboard.engines.playout import random_action

GAME = engines.get("asterix")
RECORDED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support", "asterix_equivalence.json")

OPTION_SETS = ({}, {"carry_rule": "both"}, {"max_rounds": 7}, {"carry_rule": "both", "max_rounds": 30})
#: (players, options index, seed) of the random games: every player count with every option set
GAMES = tuple((2 + n % 7, (n // 7) % len(OPTION_SETS), n) for n in range(112))
#: actions tried at every step whatever the phase: most are refused here, with their reason
PROBES = (
    ("skip",), ("pick",), ("leave",), ("die", 3), ("die", 7), ("move", "a1"), ("move", "d4"), ("move", "h8"),
    ("village", "a1"), ("village", "e5"), ("roll", 6, 1), ("tile", "lake"), ("d6", 0), ("steal", 1, "menhir"),
    ("steal", 0, "boar"), ("steal", 9, "cohort"), ("die", True), ("move",), ("nonsense", 1), [], "move a1",
)


def _line(h, *parts) -> None:
    h.update(repr(parts).encode())
    h.update(b"\n")


def game_digest(players: int, options: dict, seed: int) -> tuple[str, int]:
    """(digest of the whole game step by step, the number of actions)."""
    rng = random.Random(f"equivalence:{seed}")
    h = hashlib.sha256()
    state = GAME.new_game(players, options)
    steps = 0
    before: list = [("skip",)]
    while True:
        _line(h, "hash", GAME.state_hash(state).hex(), GAME.current(state))
        if GAME.is_terminal(state):
            break
        legal = GAME.legal_actions(state)
        _line(h, "legal", legal)
        if GAME.current(state) == CHANCE:
            _line(h, "odds", GAME.chance_weights(state))
        probe = PROBES[rng.randrange(len(PROBES))]
        try:
            GAME.apply(state, probe)
            _line(h, "probe ok", probe)
        except IllegalAction as refused:
            _line(h, "probe refused", probe, str(refused))
        # the engine's own action objects, offered a step late: mostly refused now
        late = before[rng.randrange(len(before))]
        try:
            _line(h, "late ok", late, GAME.state_hash(GAME.apply(state, late)).hex())
        except IllegalAction as refused:
            _line(h, "late refused", late, str(refused))
        before = legal
        if GAME.current(state) >= 0 and steps % 2 == 0 and hasattr(GAME, "successors"):  # (not at 990cd82)
            # what a search asks instead of applying each action: the same, in the same order
            assert GAME.successors(state) == [(a, GAME.apply(state, a)) for a in legal]
        action = random_action(GAME, state, rng)
        text = GAME.format_action(state, action)
        _line(h, "action", action, text, GAME.parse_action(state, text))
        state = GAME.apply(state, action)
        steps += 1
    _line(h, "end", GAME.scores(state), GAME.winners(state), GAME.render_text(state), GAME.render_text(state, 0))
    return h.hexdigest(), steps


def positions(count: int, players: int, seed: str):
    """`count` (state, seat, legal) where a seat has a choice, from seeded random games."""
    rng = random.Random(seed)
    found = []
    state = GAME.new_game(players)
    while len(found) < count:
        if GAME.is_terminal(state):
            state = GAME.new_game(players)
        seat = GAME.current(state)
        if seat >= 0:
            legal = tuple(GAME.legal_actions(state))
            if len(legal) > 1 and rng.random() < 0.15:
                found.append((state, seat, legal))
        state = GAME.apply(state, random_action(GAME, state, rng))
    return found


def bot_digest(kind: str, players: int, count: int) -> str:
    h = hashlib.sha256()
    for n, (state, seat, legal) in enumerate(positions(count, players, f"bots:{kind}:{players}")):
        bot = GreedyBot(seed=n) if kind == "greedy" else MctsBot(seed=n, budget=Budget(playouts=40))
        view = GAME.view(state, seat)
        choice = bot.decide(Decision("asterix", GAME, seat, view, legal, notation_of(GAME, view, legal)))
        _line(h, GAME.state_hash(state).hex(), choice)
    return h.hexdigest()


BOTS = (("greedy", 2, 40), ("greedy", 5, 30), ("greedy", 8, 20), ("mcts", 2, 10), ("mcts", 4, 5))


def everything() -> dict:
    out = {"games": {}, "bots": {}}
    for players, which, seed in GAMES:
        out["games"][f"{players}:{which}:{seed}"] = game_digest(players, OPTION_SETS[which], seed)[0]
    for kind, players, count in BOTS:
        out["bots"][f"{kind}:{players}:{count}"] = bot_digest(kind, players, count)
    return out


def _recorded() -> dict:
    with open(RECORDED) as f:
        return json.load(f)


# every third game unless --long: still every player count with every option set (gcd(3, 7) = 1,
# and the option sets' period of 28 games meets each residue of 3)
@pytest.mark.parametrize("players,which,seed", GAMES if LONG else GAMES[::3])
def test_random_game_is_step_for_step_as_recorded(players, which, seed):
    digest, steps = game_digest(players, OPTION_SETS[which], seed)
    assert steps > 0
    assert digest == _recorded()["games"][f"{players}:{which}:{seed}"], (
        f"{players} players, options {OPTION_SETS[which]}, seed {seed}: the game differs from the recorded one")


@pytest.mark.parametrize("kind,players,count", BOTS)
def test_bot_choices_are_as_recorded(kind, players, count):
    assert bot_digest(kind, players, count) == _recorded()["bots"][f"{kind}:{players}:{count}"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: test_asterix_equivalence.py --record")
    with open(RECORDED, "w") as f:
        json.dump(everything(), f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {RECORDED}")
