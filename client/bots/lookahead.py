"""A seat's look through its own next actions: the greedy player's search, and the
plans and priors of the MCTS player."""
from __future__ import annotations

import random
from typing import Any, Protocol

from peerboard.client.bots.sdk import Decision
from peerboard.client.bots.simulate import play_choice, sample_state
from peerboard.engines import Action, Game


class Judge(Protocol):
    """What values positions: each seat's expected result in [0, 1]."""

    def evaluate(self, state: Any) -> list[float]: ...


def has_hidden(game: Game) -> bool:
    """Whether the game overrides `determinize` (has information some seat cannot see)."""
    return type(game).determinize is not Game.determinize


def lookahead(game: Game, know: Judge, state: Any, seat: int, depth: int, budget: list[int],
              seen: dict | None = None, children: dict | None = None) -> float:
    """The best value `seat` can reach by its own next actions (up to `depth` of them,
    while the states looked at stay within `budget`). `seen` remembers the positions
    valued already (with the depth they were searched to): one position is often
    reached by several orders of the same actions. `children` remembers the positions
    each position's actions lead to (`followers`): a search looks again and again from
    the same positions, and most of what they lead to is in `seen` already."""
    if seen is not None:
        known = seen.get(state)
        if known is not None and known[0] >= depth:
            return known[1]
    return _valued(game, know, state, seat, depth, budget, seen, children)


def _open(game: Game) -> bool:
    """Whether the game has no secret choices (it keeps the contract's `secret_choice`,
    always ()): then a search need not ask it of every position."""
    return type(game).secret_choice is Game.secret_choice


#: the depth a position where the seat's own actions end is valued to: as deep as any search
_ENDED = 1 << 30


def _valued(game: Game, know: Judge, state: Any, seat: int, depth: int, budget: list[int],
            seen: dict | None, children: dict | None) -> float:
    """`lookahead` of a position `seen` has no good enough value for."""
    budget[0] -= 1
    own = game.current(state) == seat and not game.secret_choice(state)
    if depth <= 0 or budget[0] <= 0 or not own:
        value = know.evaluate(state)[seat]
        if not own:
            depth = _ENDED
        elif budget[0] <= 0:
            depth = 0  # cut short
    elif depth == 1 and seen is not None:
        value = _leaves(game, know, state, seat, budget, seen, children)
    else:
        value = -1.0
        below = depth - 1
        current, evaluate = game.current, know.evaluate
        secret = None if _open(game) else game.secret_choice
        for _, after in followers(game, state, children):
            # `lookahead` of each, its memo asked here (most are in it: one call saved each)
            known = None if seen is None else seen.get(after)
            if known is not None and known[0] >= below:
                found = known[1]
            elif current(after) != seat or (secret is not None and secret(after)):
                # where the seat's own actions end (most positions a search values): what
                # `_valued` does there, without its call
                budget[0] -= 1
                found = evaluate(after)[seat]
                if seen is not None:
                    seen[after] = (_ENDED, found)
            else:
                found = _valued(game, know, after, seat, below, budget, seen, children)
            if found > value:
                value = found
    if seen is not None:
        seen[state] = (depth, value)
    return value


def _leaves(game: Game, know: Judge, state: Any, seat: int, budget: list[int], seen: dict,
            children: dict | None) -> float:
    """The loop of `_valued` one action above the leaves (depth 1, with a memo), written
    out: each following position is the memo's, or valued where it stands and remembered
    as `_valued` at depth 0 remembers it (depth 0 where the seat acts on, `_ENDED` where
    its own actions end); the same values, the same budget spent, the same memo. The
    search's commonest loop (each die's landings after the first die's)."""
    value = -1.0
    current, evaluate, known_of = game.current, know.evaluate, seen.get
    secret = None if _open(game) else game.secret_choice
    for _, after in followers(game, state, children):
        known = known_of(after)  # (every remembered depth is at least 0)
        if known is not None:
            found = known[1]
        else:
            budget[0] -= 1
            found = evaluate(after)[seat]
            own = current(after) == seat and (secret is None or not secret(after))
            seen[after] = (0 if own else _ENDED, found)
        if found > value:
            value = found
    return value


def followers(game: Game, state: Any, children: dict | None) -> list[tuple[Action, Any]]:
    """(action, the position it leads to) for every legal action of `state`, in the legal
    order; remembered in `children` (when given), which are pure functions of the state."""
    if children is not None:
        known = children.get(state)
        if known is not None:
            return known
    successors = getattr(game, "successors", None)  # an engine's faster way to the same (Asterix)
    if successors is not None:
        found = successors(state)
    else:
        apply = game.apply
        found = [(action, apply(state, action)) for action in game.legal_actions(state)]
    if children is not None:
        children[state] = found
    return found


def best_own_action(decision: Decision, judge: Judge, rng: random.Random, depth: int, nodes: int,
                    samples: int = 1) -> Action:
    """The legal action after which `judge` likes the seat's best reach by its own next
    actions (`depth` of them, `nodes` positions at most per sample) best, averaged over
    `samples` positions its view allows; at a secret choice the other seats choose at
    random. Ties are broken by `rng`."""
    game, seat, legal = decision.game, decision.seat, decision.legal
    totals = [0.0] * len(legal)
    pick = lambda st, s, options: options[rng.randrange(len(options))]  # noqa: E731
    for _ in range(samples if has_hidden(game) else 1):
        state = sample_state(game, decision.view, seat, rng)
        budget = [nodes]
        seen: dict = {}
        for i, action in enumerate(legal):
            after = play_choice(game, state, seat, action, pick)
            totals[i] += lookahead(game, judge, after, seat, depth - 1, budget, seen)
    best = max(totals)
    ties = [a for a, t in zip(legal, totals) if t >= best - 1e-12]
    return ties[rng.randrange(len(ties))]
