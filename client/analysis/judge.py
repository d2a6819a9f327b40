"""One decision judged: an MCTS search from the seat's view (client/bots/mcts.py, the
`mcts` player's search with its game's knowledge), with the action the seat played always
among those searched.

Each root action's worth is the mean, over the playouts that went through it, of every
seat's result as the game's knowledge scores it (client/bots/knowledge/: 1 for a win, 0
for a loss, shares for a tie, an estimate in between when a playout is cut off) — "the
chance of winning". The preferred action is the one the search visits most (as the bot
would play it); the seat's chances *before* are the preferred action's worth, *after* the
played action's, and the drop is what the seat's own chance lost by it. After the budget,
the played and the preferred action get playouts of their own until each has at least a
tenth of the budget (at least 8), so that neither worth rests on a handful of playouts.

What the search is given is the Decision a bot would get: the view only. The full state
never reaches it, so the judgement of a hidden-information move is the same whatever the
other seats held (tests/client/test_analysis.py changes the opponent's hand and checks).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from peerboard.client.analysis.positions import Position
from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.mcts import Search, spend
from peerboard.client.bots.sdk import Budget, Decision, notation_of
from peerboard.engines import Action, Game

#: a drop in the mover's chance of winning of at least this much is a mistake, of at
#: least BLUNDER a blunder (README, "peerboard analyse")
MISTAKE = 0.10
BLUNDER = 0.25

DEFAULT_BUDGET = Budget(playouts=300)


@dataclass(frozen=True)
class Judgement:
    seq: int
    index: int
    seat: int
    kind: str
    played: str
    preferred: str
    #: each seat's chance of winning before the action (by the preferred one) and after it
    before: tuple[float, ...]
    after: tuple[float, ...]
    #: playouts through the played and the preferred action
    played_playouts: int
    preferred_playouts: int
    playouts: int

    @property
    def drop(self) -> float:
        """What the mover's own chance lost by its action (never below 0: an action that
        the search values above its preferred one lost nothing)."""
        return max(0.0, self.before[self.seat] - self.after[self.seat])

    @property
    def mark(self) -> str:
        return mark_of(self.drop)


def mark_of(drop: float) -> str:
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    return ""


class _Scoring:
    """The game's knowledge, remembering the last evaluation: in a search iteration the
    last one is the playout's result (the one backed up), which the search keeps only
    for the seat that acted; the judge wants every seat's."""

    def __init__(self, know: Knowledge):
        self._know = know
        self.last: list[float] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._know, name)

    def evaluate(self, state: Any) -> list[float]:
        values = self._know.evaluate(state)
        self.last = values
        return values


class _Tally:
    __slots__ = ("n", "sums")

    def __init__(self, seats: int):
        self.n = 0
        self.sums = [0.0] * seats

    def mean(self) -> tuple[float, ...]:
        return tuple(s / self.n for s in self.sums) if self.n else ()


class JudgingSearch(Search):
    """The mcts player's search, keeping every seat's result per root action."""

    def __init__(self, decision: Decision, know: Knowledge, rng: random.Random, played: Action, seats: int):
        super().__init__(decision, know, rng, know.exploration)
        if played not in self.candidates:
            self.candidates = tuple(self.candidates) + (played,)
        self.scoring = _Scoring(know)
        self.know = self.scoring  # type: ignore[assignment]
        self.seats = seats
        self.tallies: dict[Action, _Tally] = {}

    def iterate(self) -> None:
        children = self.root.children
        before = {a: c.played for a, c in children.items()}
        self.scoring.last = None
        super().iterate()
        rewards = self.scoring.last
        if rewards is None:
            return
        for a, child in children.items():
            if child.played != before.get(a, 0):
                tally = self.tallies.get(a)
                if tally is None:
                    tally = self.tallies[a] = _Tally(self.seats)
                tally.n += 1
                for i, r in enumerate(rewards):
                    tally.sums[i] += r
                break

    def focus(self, action: Action, playouts: int) -> None:
        """Playouts through `action` alone until it has `playouts` of them."""
        keep = self.candidates
        self.candidates = (action,)
        try:
            for _ in range(3 * playouts):  # bounded: an iteration through it always counts
                tally = self.tallies.get(action)
                if tally is not None and tally.n >= playouts:
                    break
                self.iterate()
        finally:
            self.candidates = keep

    def played_through(self, action: Action) -> int:
        tally = self.tallies.get(action)
        return 0 if tally is None else tally.n


def search_position(game: Game, position: Position, budget: Budget, rng: random.Random) -> tuple[JudgingSearch, Action, int]:
    """The search of one decision that is not forced, run to the budget and topped up
    for the played and the preferred action: (the search, the preferred action, the
    playouts of the budget)."""
    seat, view = position.seat, position.view
    legal = position.legal
    decision = Decision(game.name, game, seat, view, legal, notation_of(game, view, legal), position.kind)
    know = knowledge_for(game)
    seats = len(game.scores(view))
    search = JudgingSearch(decision, know, rng, position.played, seats)
    n = spend(search, budget)
    preferred = search.best()
    least = max(8, n // 10)
    search.focus(position.played, least)
    search.focus(preferred, least)
    return search, preferred, n


def judge(game: Game, position: Position, budget: Budget, rng: random.Random) -> Judgement | None:
    """The judgement of one decision (None when it was forced: one legal action)."""
    if position.forced:
        return None
    search, preferred, n = search_position(game, position, budget, rng)
    view = position.view
    before = search.tallies[preferred].mean()
    after = search.tallies[position.played].mean()
    return Judgement(
        position.seq, position.index, position.seat, position.kind,
        game.format_action(view, position.played), game.format_action(view, preferred),
        tuple(round(v, 4) for v in before), tuple(round(v, 4) for v in after),
        search.played_through(position.played), search.played_through(preferred), n,
    )


__all__ = ["BLUNDER", "DEFAULT_BUDGET", "Judgement", "MISTAKE", "judge", "mark_of"]
