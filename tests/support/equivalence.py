"""Step-for-step digests of seeded random games: what tells that an engine plays exactly as
it did before a change made for speed (issue 40; the Asterix engine's own check,
tests/engines/test_asterix_equivalence.py, is the model).

A game's digest hashes, at every step, everything a peer or a player could notice: the
state hash and who is to act, the legal list (content and order), the chance odds, the
phase end a client may take, the refusal text of a probe action and of an action offered a
step late, the action's text and its parse, each seat's view (its hash) and a position
dealt from that view (every hand in it), and at the end the scores, the winners and the
board drawn. Any change of a rule, a list's order, a refusal's words or a deal changes it.

The digests of a game are recorded once, from the engine before the change, into
tests/support/NAME_equivalence.json (`record`), and the test compares (`recorded`).
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from typing import Any, Iterable

from peerboard.engines import Game
from peerboard.engines.contract import CHANCE, IllegalAction
from peerboard.engines.playout import random_action

HERE = os.path.dirname(os.path.abspath(__file__))


def path_of(name: str) -> str:
    return os.path.join(HERE, f"{name}_equivalence.json")


def _line(h: Any, *parts: Any) -> None:
    h.update(repr(parts).encode())
    h.update(b"\n")


def _refusal(game: Game, state: Any, action: Any) -> tuple:
    try:
        return ("ok", game.state_hash(game.apply(state, action)).hex())
    except IllegalAction as refused:
        return ("refused", str(refused))


def _seen(game: Game, state: Any, seat: int, entropy: bytes) -> tuple:
    """What `seat` sees (the view's hash, the view's own fields as text) and a position
    dealt from it (as text: a hash leaves hidden hands out)."""
    view = game.view(state, seat)
    dealt = game.determinize(view, seat, entropy)
    return game.state_hash(view).hex(), repr(view), repr(dealt)


def game_digest(game: Game, players: int, options: dict, seed: int, probes: Iterable[Any]) -> tuple[str, int]:
    """(digest of one seeded random game step by step, the number of actions)."""
    probes = tuple(probes)
    rng = random.Random(f"equivalence:{game.name}:{seed}")
    h = hashlib.sha256()
    state = game.new_game(players, options)
    steps = 0
    before: list = []
    while True:
        who = game.current(state)
        _line(h, "hash", game.state_hash(state).hex(), who)
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        _line(h, "legal", legal, game.phase_end(state), game.secret_choice(state))
        if who == CHANCE:
            _line(h, "odds", game.chance_weights(state), game.chance_owner(state), game.chance_hidden(state))
        probe = probes[rng.randrange(len(probes))]
        _line(h, "probe", probe, _refusal(game, state, probe))
        if before:
            late = before[rng.randrange(len(before))]
            _line(h, "late", late, _refusal(game, state, late))
        before = legal
        if steps % 5 == 0:
            seat = rng.randrange(players)
            _line(h, "seen", seat, _seen(game, state, seat, rng.randbytes(32)))
        action = random_action(game, state, rng)
        text = game.format_action(state, action)
        _line(h, "action", action, text, game.parse_action(state, text) if who != CHANCE else None)
        state = game.apply(state, action)
        steps += 1
    _line(h, "end", game.scores(state), game.winners(state), game.render_text(state),
          game.render_text(state, 0))
    return h.hexdigest(), steps


def everything(game: Game, games: Iterable[tuple[int, dict, int]], probes: Iterable[Any]) -> dict[str, str]:
    probes = tuple(probes)
    return {key(players, options, seed): game_digest(game, players, options, seed, probes)[0]
            for players, options, seed in games}


def key(players: int, options: dict, seed: int) -> str:
    return f"{players}:{json.dumps(options, sort_keys=True)}:{seed}"


def recorded(name: str) -> dict[str, str]:
    with open(path_of(name)) as f:
        return json.load(f)


def record(name: str, digests: dict[str, str]) -> str:
    path = path_of(name)
    with open(path, "w") as f:
        json.dump(digests, f, indent=1, sort_keys=True)
        f.write("\n")
    return path
