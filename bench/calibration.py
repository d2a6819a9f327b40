"""What the analysis benches share: who won a log, the Brier score with its interval, and
the calibration table (said -> happened, by tenths, each with its 95 % Wilson interval).

A game's decisions are not independent (one game, one outcome), so the Brier score's
interval is a bootstrap over games (the games drawn again with replacement, 400 times,
its 2.5th and 97.5th percentiles). A bin's Wilson interval counts decisions and is narrower
than the games allow; `bins(..., by_games=True)` gives each bin the interval the benches
judge it by, which counts games: the games drawn again (what happened in the bin), never
narrower than the decisions' Wilson interval. Where every decision of a bin went the same
way (all won, or all lost), drawing the games again cannot vary what happened, and the
bootstrap has no width: 16 games won by the seat said to have 0.86 (which happens 9 % of
the time) gave [1.00, 1.00]. Such a bin's interval is Wilson's at its effective number of
outcomes (Kish's, (sum m)^2 / sum m^2, m the decisions each game has in the bin, which
there all share one outcome), which keeps its width at 0 and 1 as a score interval does.
(`kish=False`: the bootstrap alone, as the benches judged a bin before; printed beside, for
comparison.) The games column says how many games a bin's decisions came from.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from peerboard.client.bots.stats import wilson
from peerboard.protocol.log import result_in


def shares(contents, seats: int) -> list[float] | None:
    """What each seat got at the end of a finished log (1 shared among the winners; a
    game nobody won: every seat alike), None for a log without a result."""
    for entry in reversed(contents.entries):
        result = result_in(entry)
        if result is not None:
            winners = list(result["winners"])
            if not winners:
                return [1.0 / seats] * seats
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]
    return None


@dataclass(frozen=True)
class Said:
    """One decision: the mover's chance as said, what it got, its share, its game."""

    said: float
    got: float
    share: float
    game: int


def brier(rows: Sequence[Said]) -> float:
    return sum((r.said - r.got) ** 2 for r in rows) / len(rows)


def share_brier(rows: Sequence[Said]) -> float:
    """The Brier score of always saying the seat's share (1 / seats)."""
    return sum((r.share - r.got) ** 2 for r in rows) / len(rows)


def bootstrap(rows: Sequence[Said], rounds: int = 400, seed: int = 0) -> tuple[float, float]:
    """The 95 % interval of the Brier score's improvement over the share (1 - brier /
    share_brier), the games drawn again with replacement."""
    games: dict[int, list[Said]] = {}
    for r in rows:
        games.setdefault(r.game, []).append(r)
    keys = sorted(games)
    rng = random.Random(seed)
    found = []
    for _ in range(rounds):
        drawn = [r for _ in keys for r in games[keys[rng.randrange(len(keys))]]]
        base = share_brier(drawn)
        if base > 0:
            found.append(1 - brier(drawn) / base)
    found.sort()
    if not found:
        return 0.0, 0.0
    return found[int(0.025 * len(found))], found[min(len(found) - 1, int(0.975 * len(found)))]


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    said: float
    happened: float
    #: the 95 % interval of what happened: Wilson's over the bin's decisions, or with
    #: by_games the games' (the module's docstring)
    interval: tuple[float, float]
    count: int
    games: int

    @property
    def off(self) -> float:
        """How far what was said lies outside the interval of what happened (0: inside)."""
        return max(0.0, self.interval[0] - self.said, self.said - self.interval[1])


def _bin_of(said: float, count: int) -> int:
    return min(count - 1, max(0, int(said * count)))


def effective_count(sizes: Sequence[int]) -> float:
    """Kish's effective sample size of a mean over groups of `sizes` members that each
    share one outcome: the number of independent outcomes it is worth."""
    total = sum(sizes)
    return total * total / sum(m * m for m in sizes) if total else 0.0


def bins(rows: Sequence[Said], count: int = 10, by_games: bool = False, rounds: int = 400,
         seed: int = 0, kish: bool = True) -> list[Bin]:
    # per bin: what was said, what happened, how many decisions, from which games (one pass)
    said = [0.0] * count
    happened = [0.0] * count
    n = [0] * count
    games: list[set[int]] = [set() for _ in range(count)]
    per_game: dict[int, list[list[float]]] = {}
    for r in rows:
        b = _bin_of(r.said, count)
        said[b] += r.said
        happened[b] += r.got
        n[b] += 1
        games[b].add(r.game)
        mine = per_game.setdefault(r.game, [[0.0, 0.0] for _ in range(count)])
        mine[b][0] += r.got
        mine[b][1] += 1
    drawn_rates: list[list[float]] = [[] for _ in range(count)]
    if by_games and per_game:
        keys = sorted(per_game)
        rng = random.Random(seed)
        for _ in range(rounds):
            got, seen = [0.0] * count, [0.0] * count
            for _ in keys:
                g = per_game[keys[rng.randrange(len(keys))]]
                for b in range(count):
                    got[b] += g[b][0]
                    seen[b] += g[b][1]
            for b in range(count):
                if seen[b]:
                    drawn_rates[b].append(got[b] / seen[b])
    out = []
    for b in range(count):
        if not n[b]:
            continue
        lo, hi = wilson(happened[b], n[b])
        if by_games and drawn_rates[b]:
            rates = sorted(drawn_rates[b])
            lo = min(lo, rates[int(0.025 * len(rates))])
            hi = max(hi, rates[min(len(rates) - 1, int(0.975 * len(rates)))])
        if by_games and kish and happened[b] in (0.0, float(n[b])):
            n_eff = effective_count([int(g[b][1]) for g in per_game.values() if g[b][1]])
            klo, khi = wilson(happened[b] / n[b] * n_eff, n_eff)
            lo, hi = min(lo, klo), max(hi, khi)
        out.append(Bin(b / count, (b + 1) / count, said[b] / n[b], happened[b] / n[b], (lo, hi), n[b], len(games[b])))
    return out


def table(rows: Sequence[Said], indent: str = "    ", by_games: bool = False) -> list[str]:
    """The calibration table as text lines."""
    lines = [f"{indent}said        said  happened  95% interval   decisions (games)"]
    for b in bins(rows, by_games=by_games):
        flag = f"  off by {b.off:.2f}" if b.off else ""
        lines.append(f"{indent}{b.low:.1f}-{b.high:.1f}   {b.said:5.2f}  {b.happened:7.2f}   "
                     f"[{b.interval[0]:.2f}, {b.interval[1]:.2f}]   {b.count:5d} ({b.games}){flag}")
    return lines


def worst_off(rows: Sequence[Said], by_games: bool = False, kish: bool = True) -> float:
    """The largest distance between what a bin said and the interval of what happened."""
    return max((b.off for b in bins(rows, by_games=by_games, kish=kish)), default=0.0)
