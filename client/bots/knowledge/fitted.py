"""A fitted evaluation: each seat's chance of winning from a few features of the position,
weights fitted offline to who won self-play games (bench/fit_evaluation.py), shipped as
data beside the game's knowledge (client/games/NAME/fitted.py).

The model is a conditional logit over the seats (a softmax, multinomial logistic
regression with the same weights for every seat): seat i's score is w · f(i), the dot
product of the weights with seat i's features, and its chance is exp(score_i) over the sum
of exp(score_j) over every seat. With two seats it is the logistic function of the
difference of the scores; at any number of seats the chances add up to 1, as the results
of a finished game do (a shared win shares the 1).

`fit` finds the weights by Newton's method on the log loss with a small ridge penalty (a
handful of weights, tens of thousands of positions: a few seconds of pure Python, no
dependency); each example's target is what each seat got at the end (1, 0, or its share).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: one position: per seat, its features; and per seat, what it got at the end (sums to 1)
Example = tuple[Sequence[Sequence[float]], Sequence[float]]


def chances(scores: Sequence[float]) -> list[float]:
    """The softmax of the seats' scores: each seat's chance, adding up to 1."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def scores_of(weights: Sequence[float], features: Sequence[Sequence[float]]) -> list[float]:
    return [sum(w * x for w, x in zip(weights, f)) for f in features]


@dataclass(frozen=True)
class Fit:
    weights: tuple[float, ...]
    #: the mean log loss and Brier score (per seat) on the examples it was fitted to
    log_loss: float
    brier: float
    iterations: int


def fit(examples: Sequence[Example], features: int, ridge: float | Sequence[float] = 1e-3,
        iterations: int = 50) -> Fit:
    """Weights that minimise the mean log loss of `examples` (plus Σ ridge_k * w_k^2 / 2: one
    ridge for every weight, or one per feature)."""
    w = [0.0] * features
    n = len(examples)
    if not n:
        raise ValueError("no examples to fit")
    ridges = [float(ridge)] * features if isinstance(ridge, (int, float)) else [float(r) for r in ridge]
    if len(ridges) != features:
        raise ValueError(f"{len(ridges)} ridges for {features} features")
    done = 0
    for done in range(1, iterations + 1):
        gradient = [r * x for r, x in zip(ridges, w)]
        hessian = [[ridges[i] if i == j else 0.0 for j in range(features)] for i in range(features)]
        for xs, ys in examples:
            p = chances(scores_of(w, xs))
            mean = [sum(pi * x[k] for pi, x in zip(p, xs)) for k in range(features)]
            for pi, yi, x in zip(p, ys, xs):
                for k in range(features):
                    gradient[k] += (pi - yi) * x[k] / n
                    if pi:
                        d = pi * (x[k] - mean[k]) / n
                        row = hessian[k]
                        for m in range(k + 1):
                            row[m] += d * (x[m] - mean[m])
        for k in range(features):
            for m in range(k + 1, features):
                hessian[k][m] = hessian[m][k]
        step = _solve(hessian, gradient)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    loss, brier = losses(w, examples)
    return Fit(tuple(w), loss, brier, done)


def losses(weights: Sequence[float], examples: Sequence[Example]) -> tuple[float, float]:
    """(the mean log loss per position, the mean Brier score per seat) of `weights`."""
    loss = brier = 0.0
    seats = 0
    for xs, ys in examples:
        p = chances(scores_of(weights, xs))
        loss -= sum(y * math.log(max(pi, 1e-12)) for pi, y in zip(p, ys))
        brier += sum((pi - y) ** 2 for pi, y in zip(p, ys))
        seats += len(ys)
    return loss / len(examples), brier / seats


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-15:
            continue  # a feature that never varies: its weight stays
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-15 else 0.0 for i in range(n)]
