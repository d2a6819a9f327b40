"""What the analysis benches share: who won a log, the Brier score with its interval, and
the calibration table (said -> happened, by tenths, each with its 95 % Wilson interval).

A game's decisions are not independent (one game, one outcome), so the Brier score's
interval is a bootstrap over games (the games drawn again with replacement, 400 times,
its 2.5th and 97.5th percentiles); the bins' Wilson intervals count decisions and are
narrower than the games allow: where a bin is off, the games column says how many games
its decisions came from.
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
    interval: tuple[float, float]
    count: int
    games: int

    @property
    def off(self) -> float:
        """How far what was said lies outside the interval of what happened (0: inside)."""
        return max(0.0, self.interval[0] - self.said, self.said - self.interval[1])


def bins(rows: Sequence[Said], count: int = 10) -> list[Bin]:
    out = []
    for b in range(count):
        low, high = b / count, (b + 1) / count
        inside = [r for r in rows if low <= r.said < high or (b == count - 1 and r.said >= 1.0)]
        if not inside:
            continue
        said = sum(r.said for r in inside) / len(inside)
        happened = sum(r.got for r in inside)
        out.append(Bin(low, high, said, happened / len(inside), wilson(happened, len(inside)), len(inside),
                       len({r.game for r in inside})))
    return out


def table(rows: Sequence[Said], indent: str = "    ") -> list[str]:
    """The calibration table as text lines."""
    lines = [f"{indent}said        said  happened  95% interval   decisions (games)"]
    for b in bins(rows):
        flag = f"  off by {b.off:.2f}" if b.off else ""
        lines.append(f"{indent}{b.low:.1f}-{b.high:.1f}   {b.said:5.2f}  {b.happened:7.2f}   "
                     f"[{b.interval[0]:.2f}, {b.interval[1]:.2f}]   {b.count:5d} ({b.games}){flag}")
    return lines


def worst_off(rows: Sequence[Said]) -> float:
    """The largest distance between what a bin said and the interval of what happened."""
    return max((b.off for b in bins(rows)), default=0.0)
