"""Error bars for tournament results: Wilson score intervals and Elo differences."""
from __future__ import annotations

import math

Z95 = 1.959964


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (0, 1 when n is 0); n may be an
    effective sample size, not a whole number."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference that expects this score (a share of the points in 0..1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float, float]:
    """(Elo difference, low, high) of a player scoring wins + draws/2 of its games: the
    95% bounds are the Elo of the Wilson interval of that score (finite where the games
    allow it, even after a clean sweep)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, -math.inf, math.inf
    points = wins + 0.5 * draws
    low, high = wilson(points, n, z)
    return elo(points / n), elo(low), elo(high)


def signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}" if round(x) else "+0"
