"""One decision judged: an MCTS search from the seat's view (client/bots/mcts.py, the
`mcts` player's search with its game's knowledge), with the action the seat played always
among those searched, and a mark only where the search has the evidence for it.

Each root action's worth is the mean, over the playouts that went through it, of every
seat's result as the game's knowledge scores it (client/bots/knowledge/: 1 for a win, 0
for a loss, shares for a tie, an estimate of the chance of winning when a playout is cut off) —
"the chance of winning". The preferred action is the one the search visits most (as the
bot would play it); the seat's chances *before* are the preferred action's worth, *after*
the played action's, and the drop is what the seat's own chance lost by it.

A playout's result is noisy (a spread of 0.3 to 0.5 around its mean), so a drop is an
estimate with an error (the standard error of the difference of the two means). After the
budget, the played and the preferred action get playouts of their own until each has at
least a tenth of the budget (at least 8); then, while the drop looks like it could be a
mistake and the search cannot yet tell, the one whose mean is the less sure gets more (a
quarter of the budget at a time), up to the budget again in all (`EXTRA`). A move is marked a mistake (a blunder) only
when the drop less `Z` errors is at least MISTAKE (BLUNDER): the search is at least 97.5 %
sure of it. A move whose drop is at least MISTAKE but not that sure is "close". `sure` is
how sure the search is that the move lost at least MISTAKE (the normal approximation).

One search's error is its playouts' and no more: what it does not see is how much the
search itself would change with other luck (other dice and hands dealt to its playouts,
another choice of root actions) — in Asterix, five searches of one position gave drops of
0.00 to 0.20, each with an error near 0.01. So a drop that would be marked, or called
close, is checked (`_one_check`, `_pooled`): CHECKS more searches of the same budget, each with a
generator of its own, the played and the first search's preferred action among their
root actions and given half the budget's playouts each at least; the drop is the mean of theirs (the first search's is left out: it was
chosen for being large), its error their spread over √CHECKS (never below their own
errors), widened by Student's factor for CHECKS - 1 degrees of freedom over Z, so that
`drop - Z * error` is the one-sided 97.5 % bound a t-test gives.

The chances printed are the search's mapped by the game's calibration (calibrate.py: fitted
to who won self-play games, per game and seat count), and the marks are judged on that
scale: the drop is the printed chances' difference, its error the search's carried through
the map (times its slope), so a mark's sureness is the search's own. The search's own
chances and error are kept beside them (`search_before`, `search_after`, `search_error`).

What the search is given is the Decision a bot would get: the view only. The full state
never reaches it, so the judgement of a hidden-information move is the same whatever the
other seats held (tests/client/test_analysis.py changes the opponent's hand and checks).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from peerboard.client.analysis.calibrate import Calibration, Situation, calibration_for, printed, situation
from peerboard.client.analysis.positions import Position
from peerboard.client.bots.knowledge import Knowledge, knowledge_for
from peerboard.client.bots.mcts import Search, collector_paused, spend
from peerboard.client.bots.sdk import Budget, Decision, notation_of
from peerboard.engines import Action, Game

#: a drop in the mover's chance of winning of at least this much is a mistake, of at
#: least BLUNDER a blunder, when the search is sure of it (spec/analysis.md)
MISTAKE = 0.10
BLUNDER = 0.25
#: errors below its estimate a drop must still clear a threshold by: a one-sided 97.5 % bound
Z = 1.96
#: the playouts the played and the preferred action may get beyond the budget, as a part of it
EXTRA = 1.0
#: independent searches that check a drop that would be marked (or called close)
CHECKS = 4
#: Student's t, one-sided 97.5 %, at CHECKS - 1 degrees of freedom: the checks' spread is
#: estimated from CHECKS numbers, so their mean is sure only this many spreads from a threshold
T_CHECKS = 3.182
#: the playouts each check gives the played and the preferred action at least, as a part of the budget
CHECK_SHARE = 0.5

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
    #: the standard error of the drop (0 when the played action is the preferred one)
    error: float = 0.0
    #: the playouts spent beyond the budget on the played and the preferred action
    extra: int = 0
    #: the search's own chances and error before the calibration (calibrate.py) mapped
    #: them to `before`, `after` and `error`; empty where the game and seat count have no map
    search_before: tuple[float, ...] = ()
    search_after: tuple[float, ...] = ()
    search_error: float = 0.0
    #: the independent searches the drop rests on (`_one_check`): 0 where the first search's
    #: drop was not looked at again (the chances and drop are then the first search's)
    checks: int = 0

    @property
    def drop(self) -> float:
        """What the mover's own chance lost by its action (never below 0: an action that
        the search values above its preferred one lost nothing)."""
        return max(0.0, self.before[self.seat] - self.after[self.seat])

    @property
    def mark(self) -> str:
        return mark_of(self.drop, self.error)

    @property
    def sure(self) -> float:
        """How sure the search is that the action lost at least MISTAKE (0 to 1)."""
        return sureness(self.drop, self.error)


def sureness(drop: float, error: float) -> float:
    """P(the true drop >= MISTAKE) for an estimate `drop` with standard error `error`."""
    if error <= 0:
        return 1.0 if drop >= MISTAKE else 0.0
    return 0.5 * math.erfc(-(drop - MISTAKE) / (error * math.sqrt(2)))


def mark_of(drop: float, error: float = 0.0) -> str:
    """"blunder" or "mistake" where the drop less Z errors clears its threshold; "close"
    where the drop reaches MISTAKE but not surely; else ""."""
    low = drop - Z * error
    if low >= BLUNDER:
        return "blunder"
    if low >= MISTAKE:
        return "mistake"
    if drop >= MISTAKE:
        return "close"
    return ""


def undecided(drop: float, error: float) -> bool:
    """Whether more playouts could change the mark: the drop's interval holds MISTAKE and
    the drop is at least half of it (a move that looks fine is not chased)."""
    return drop >= MISTAKE / 2 and drop - Z * error < MISTAKE <= drop + Z * error


class _Scoring:
    """The game's knowledge, remembering the last evaluation: in a search iteration the
    last one is the playout's result (the one backed up), which the search keeps only
    for the seat that acted; the judge wants every seat's."""

    def __init__(self, know: Knowledge):
        self._know = know
        self.last: list[float] | None = None
        self.last_state: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._know, name)

    def evaluate(self, state: Any) -> list[float]:
        values = self._know.evaluate(state)
        self.last, self.last_state = values, state
        return values


class _Tally:
    """Every seat's results over the playouts through one root action, and the square of
    the judged seat's (for its spread)."""

    __slots__ = ("n", "sums", "squares")

    def __init__(self, seats: int):
        self.n = 0
        self.sums = [0.0] * seats
        self.squares = 0.0

    def mean(self) -> tuple[float, ...]:
        return tuple(s / self.n for s in self.sums) if self.n else ()

    def variance(self, seat: int) -> float:
        """The sample variance of the seat's results (inf below two playouts)."""
        if self.n < 2:
            return math.inf
        mean = self.sums[seat] / self.n
        return max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))


class JudgingSearch(Search):
    """The mcts player's search, keeping every seat's result per root action."""

    def __init__(self, decision: Decision, know: Knowledge, rng: random.Random, played: Action, seats: int,
                 also: tuple[Action, ...] = ()):
        super().__init__(decision, know, rng, know.exploration)
        for action in (played, *also):
            if action not in self.candidates:
                self.candidates = tuple(self.candidates) + (action,)
        self.scoring = _Scoring(know)
        self.know = self.scoring  # type: ignore[assignment]
        self.seats = seats
        self.tallies: dict[Action, _Tally] = {}
        #: the playouts of `focus`: beyond the budget
        self.extra = 0

    def iterate(self) -> None:
        self.scoring.last = None
        super().iterate()
        rewards = self.scoring.last
        a = self.taken
        if rewards is None or a is None:
            return
        tally = self.tallies.get(a)
        if tally is None:
            tally = self.tallies[a] = _Tally(self.seats)
        tally.n += 1
        sums = tally.sums
        for i, r in enumerate(rewards):
            sums[i] += r
        mine = rewards[self.decision.seat]
        tally.squares += mine * mine
        self.observe(a, self.scoring.last_state, rewards)

    def observe(self, action: Action, state: Any, rewards: list[float]) -> None:
        """A playout through root `action` ended at `state`, scored `rewards` (nothing here:
        bench/fit_evaluation.py keeps them)."""

    def focus(self, action: Action, playouts: int) -> int:
        """Playouts through `action` alone until it has `playouts` of them; how many ran."""
        keep = self.candidates
        self.candidates = (action,)
        ran = 0
        try:
            for _ in range(3 * playouts):  # bounded: an iteration through it always counts
                tally = self.tallies.get(action)
                if tally is not None and tally.n >= playouts:
                    break
                self.iterate()
                ran += 1
        finally:
            self.candidates = keep
            self.extra += ran
        return ran

    def played_through(self, action: Action) -> int:
        tally = self.tallies.get(action)
        return 0 if tally is None else tally.n

    def difference(self, better: Action, played: Action) -> tuple[float, float]:
        """(the judged seat's mean through `better` less its mean through `played`, the
        standard error of that difference)."""
        seat = self.decision.seat
        a, b = self.tallies[better], self.tallies[played]
        error = math.sqrt(a.variance(seat) / a.n + b.variance(seat) / b.n)
        return a.sums[seat] / a.n - b.sums[seat] / b.n, error


def search_position(game: Game, position: Position, budget: Budget, rng: random.Random,
                    kind: type[JudgingSearch] | None = None,
                    also: tuple[Action, ...] = ()) -> tuple[JudgingSearch, Action, int]:
    """The search of one decision that is not forced, run to the budget and topped up
    for the played and the preferred action (and those of `also`): (the search, the
    preferred action, the playouts of the budget). `kind`: the search's class (a
    JudgingSearch by default); `also`: actions searched whatever the game's knowledge
    would leave out (`root_width`): a check's, the first search's preferred one."""
    seat, view = position.seat, position.view
    legal = position.legal
    decision = Decision(game.name, game, seat, view, legal, notation_of(game, view, legal), position.kind)
    know = knowledge_for(game)
    seats = len(game.scores(view))
    with collector_paused():  # (as the mcts player searches: see client/bots/mcts.py)
        search = (kind or JudgingSearch)(decision, know, rng, position.played, seats, also)
        n = spend(search, budget)
        preferred = search.best()
        least = max(8, n // 10)
        for action in dict.fromkeys((position.played, preferred, *also)):
            search.focus(action, least)
    return search, preferred, n


def gather(search: JudgingSearch, preferred: Action, played: Action, budget: int, scale: float = 1.0) -> None:
    """More playouts while the drop is undecided (`undecided`), a quarter of `budget` at a
    time, until EXTRA * `budget` have been spent beyond the budget: each time for the
    action whose mean is the less sure (the larger variance over playouts), mostly the played
    one (the preferred has most of the budget's): that narrows the drop's error fastest, and
    the played action's own tree grows as a longer search would grow it. `scale`: the
    calibration's slope (calibrate.py), so that the drop is undecided on the printed scale,
    where the marks are judged."""
    if preferred == played:
        return
    seat = search.decision.seat
    step = max(8, budget // 4)
    while search.extra + step <= EXTRA * budget:
        drop, error = search.difference(preferred, played)
        if not undecided(scale * drop, scale * error):
            break
        a, b = search.tallies[played], search.tallies[preferred]
        action = played if a.variance(seat) / a.n >= b.variance(seat) / b.n else preferred
        search.focus(action, search.played_through(action) + step)


def judge(game: Game, position: Position, budget: Budget, rng: random.Random) -> Judgement | None:
    """The judgement of one decision (None when it is not the seat's own choice: a forced
    action, or a pass a client puts in by itself): the chances as printed (calibrate.py),
    the search's own beside them."""
    if not position.judged:
        return None
    search, preferred, n = search_position(game, position, budget, rng)
    played = position.played
    cal = calibration_for(game.name, search.seats)
    situation_of = _situations(game, position, cal)
    if cal is not None and preferred != played:
        drop, _ = search.difference(preferred, played)
        scale = cal.slope(situation_of(search.tallies[preferred].mean()), search.tallies[played].mean()) if drop > 0 else 1.0
    else:
        scale = 1.0
    with collector_paused():
        gather(search, preferred, played, n, scale)
    view = position.view
    raw_before, raw_after = search.tallies[preferred].mean(), search.tallies[played].mean()
    raw_error = 0.0 if preferred == played else search.difference(preferred, played)[1]
    raw_error = raw_error if math.isfinite(raw_error) else 1.0
    before, after, error = printed(cal, situation_of(raw_before), raw_after, raw_error)
    if preferred == played:
        after, error = before, 0.0
    played_n, preferred_n, checks = search.played_through(played), search.played_through(preferred), 0
    if preferred != played and before[position.seat] - after[position.seat] >= MISTAKE:
        seeds = [rng.getrandbits(64) for _ in range(CHECKS)]
        checked = [_one_check(game, position, budget, random.Random(x), preferred, cal, situation_of) for x in seeds]
        (raw_before, raw_after, raw_error), (before, after, error) = _pooled(checked, position.seat)
        played_n, preferred_n, checks = sum(c.played_n for c in checked), sum(c.preferred_n for c in checked), CHECKS
    kept = (lambda v: tuple(round(x, 4) for x in v)) if cal is not None else (lambda v: ())
    return Judgement(
        position.seq, position.index, position.seat, position.kind,
        game.format_action(view, played), game.format_action(view, preferred),
        tuple(round(v, 4) for v in before), tuple(round(v, 4) for v in after),
        played_n, preferred_n, n,
        round(min(1.0, error), 4), search.extra,
        kept(raw_before), kept(raw_after), round(min(1.0, raw_error), 4) if cal is not None else 0.0,
        checks,
    )


@dataclass(frozen=True)
class _Check:
    """One check's chances by the preferred and the played action and its drop's error:
    the search's own (`raw`) and as printed."""

    raw: tuple[tuple[float, ...], tuple[float, ...], float]
    shown: tuple[tuple[float, ...], tuple[float, ...], float]
    played_n: int
    preferred_n: int


def _one_check(game: Game, position: Position, budget: Budget, rng: random.Random, preferred: Action,
               cal: Calibration | None, situation_of) -> _Check:
    """A search of its own (its generator `rng`) of the played against `preferred`, both
    topped up to half the budget's playouts (CHECK_SHARE): a check's own error is what its
    playouts leave open, and the played action, which the search seldom visits, would
    otherwise have a tenth of the budget and an error that no drop could clear."""
    search, _, n = search_position(game, position, budget, rng, also=(preferred,))
    with collector_paused():
        for action in (position.played, preferred):
            search.focus(action, max(8, int(n * CHECK_SHARE)))
    b, a = search.tallies[preferred].mean(), search.tallies[position.played].mean()
    error = search.difference(preferred, position.played)[1]
    error = error if math.isfinite(error) else 1.0
    return _Check((b, a, error), printed(cal, situation_of(b), a, error),
                  search.played_through(position.played), search.played_through(preferred))


def _pooled(checks: list[_Check], seat: int) -> tuple[tuple[tuple[float, ...], tuple[float, ...], float], ...]:
    """(the search's own, as printed): every seat's chances by the preferred and the
    played action, the checks' means, and the error of the seat's mean drop: the checks'
    spread over √k (never below their own errors'), widened by T_CHECKS / Z."""
    out = []
    for which in ("raw", "shown"):
        rows = [getattr(c, which) for c in checks]
        k = len(rows)
        before = tuple(sum(r[0][i] for r in rows) / k for i in range(len(rows[0][0])))
        after = tuple(sum(r[1][i] for r in rows) / k for i in range(len(rows[0][1])))
        drops = [r[0][seat] - r[1][seat] for r in rows]
        mean = sum(drops) / k
        spread = sum((d - mean) ** 2 for d in drops) / (k - 1)
        own = sum(r[2] ** 2 for r in rows) / k
        out.append((before, after, math.sqrt(max(spread, own) / k) * T_CHECKS / Z))
    return out[0], out[1]


def _situations(game: Game, position: Position, cal: Calibration | None):
    """raw chances -> the decision's Situation for the map (its scores and knowledge once)."""
    if cal is None:
        return lambda raw: Situation(tuple(raw), position.seat, position.seq, ())
    base = situation(game, knowledge_for(game), position.view, (), position.seat, position.seq, cal.features)
    return lambda raw: Situation(tuple(raw), base.mover, base.seq, base.scores, base.known)


__all__ = ["BLUNDER", "CHECKS", "DEFAULT_BUDGET", "Judgement", "MISTAKE", "Z", "judge", "mark_of", "sureness"]
