"""The built-in players that do not search a tree: random and greedy."""
from __future__ import annotations

from typing import Any

from client.bots.knowledge import Knowledge, knowledge_for
from client.bots.sdk import Bot, Decision
from client.bots.simulate import play_choice, sample_state
from engines import Action, Game


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def decide(self, decision: Decision) -> Action:
        return decision.legal[self.rng.randrange(len(decision.legal))]


class GreedyBot(Bot):
    """The action whose position the game's evaluation likes best, looking ahead through
    the seat's own following actions of the same turn (client/bots/knowledge). With hidden
    information it averages over a few positions its view allows; at a secret choice the
    other seats are imagined choosing at random."""

    name = "greedy"

    def __init__(self, seed: int | str | bytes = 0, budget=None):
        super().__init__(seed, budget)
        self._knowledge: Knowledge | None = None

    def decide(self, decision: Decision) -> Action:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        game, seat = decision.game, decision.seat
        know = self._knowledge
        if know is None or know.game is not game:
            know = self._knowledge = knowledge_for(game)
        samples = know.samples if _has_hidden(game) else 1
        totals = [0.0] * len(legal)
        pick = lambda st, s, options: options[self.rng.randrange(len(options))]  # noqa: E731
        for _ in range(samples):
            state = sample_state(game, decision.view, seat, self.rng)
            budget = [know.lookahead_nodes]
            seen: dict = {}
            for i, action in enumerate(legal):
                after = play_choice(game, state, seat, action, pick)
                totals[i] += lookahead(game, know, after, seat, know.lookahead - 1, budget, seen)
        best = max(totals)
        ties = [a for a, t in zip(legal, totals) if t >= best - 1e-12]
        return ties[self.rng.randrange(len(ties))]


def _has_hidden(game: Game) -> bool:
    """Whether the game overrides `determinize` (has information some seat cannot see)."""
    return type(game).determinize is not Game.determinize


def lookahead(game: Game, know: Knowledge, state: Any, seat: int, depth: int, budget: list[int],
              seen: dict | None = None) -> float:
    """The best value `seat` can reach by its own next actions (up to `depth` of them,
    while the states looked at stay within `budget`). `seen` remembers the positions
    valued already (with the depth they were searched to): one position is often
    reached by several orders of the same actions."""
    if seen is not None:
        known = seen.get(state)
        if known is not None and known[0] >= depth:
            return known[1]
    budget[0] -= 1
    if depth <= 0 or budget[0] <= 0 or game.current(state) != seat or game.secret_choice(state):
        value = know.evaluate(state)[seat]
        if game.current(state) != seat or game.secret_choice(state):
            depth = 1 << 30  # the seat's actions end here: as deep as any search
        elif budget[0] <= 0:
            depth = 0  # cut short
    else:
        value = -1.0
        for action in game.legal_actions(state):
            value = max(value, lookahead(game, know, game.apply(state, action), seat, depth - 1, budget, seen))
    if seen is not None:
        seen[state] = (depth, value)
    return value

