"""The chance as printed: what the analysis's search says, mapped to a frequency a player can
trust, per game and seat count (spec/analysis.md, "The chance as printed").

The search (the mcts player's, the same that plays) says each seat's mean result over its
playouts, which is a good guide to which move is better but not a calibrated chance: its
playouts are cut off and scored by an estimate, the preferred action's mean is the largest
of several noisy means, and a seat's place in the turn order matters in ways a playout
does not see. So the analysis prints, for every seat i,

    p_i = exp(w · f_i) / Σ_j exp(w · f_j)

with f_i a few numbers of seat i (`FEATURES`: the logit of its raw chance, that logit times
how far the game is, whether it is the seat that is deciding, whether it is the first seat,
its lead in the game's scores, a feature of the game's knowledge) and w the weights fitted
offline (bench/fit_calibration.py: the conditional logit of client/bots/knowledge/fitted.py
on self-play games between MCTS players) and shipped as data in
client/games/NAME/calibration.py, one fit per seat count. Every seat goes through the same
map and the chances add up to 1. The weight of the logit (at every point of the game, for
every seat, deciding or not) is positive, so a seat's printed chance rises with its raw chance, the others' staying.

A game or seat count without a fit prints the raw chance (`calibration_for` gives None, and
the report says so). The marks (judge.py) are judged on the printed scale: the drop is the
printed chances' difference, and its error is the search's error carried through the map
(times the map's slope between the two raw chances), so how sure a mark is stays what the
search knows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from peerboard.client.bots.knowledge.fitted import chances
from peerboard.client.games import piece

#: the features a fit may use (client/games/NAME/calibration.py names its own, in order)
FEATURES = ("logit", "logit_progress", "mover", "mover_logit", "first", "first_progress", "lead")
#: besides these: `seat:K` (1 for seat K: a seat's place in the turn order and its start, which
#: at three seats and more matter for more than the first seat), `seat_logit:K` and
#: `seat_progress:K` (the logit and the progress, for seat K only: where one seat's start
#: wins most games, its raw chance and the game's progress say less, or more, than another's)
#: and `k:NAME` (the knowledge's)
#: the raw chance is clamped to this far from 0 and 1 before its logit (a playout that
#: ended is a certain 0 or 1; a mean over a few hundred is never that sure)
EDGE = 0.005
#: progress (the log entries so far over a game's typical length) stops growing here
MOST_PROGRESS = 1.5


def logit(p: float) -> float:
    p = min(1 - EDGE, max(EDGE, p))
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class Situation:
    """What the map reads of a decision: every seat's raw chance, the deciding seat, the
    log entry it is at, the game's scores and the knowledge's features (per seat, by
    name) as that seat saw the position."""

    raw: tuple[float, ...]
    mover: int
    seq: int
    scores: tuple[float, ...]
    known: tuple[dict[str, float], ...] = ()


@dataclass(frozen=True)
class Calibration:
    """One game's map at one seat count."""

    game: str
    seats: int
    features: tuple[str, ...]
    weights: tuple[float, ...]
    #: a game's typical length in log entries (progress = seq / length)
    length: float
    #: the scores' scale (the lead is divided by it)
    scale: float
    #: what it was fitted to, one line (for the report and the analysis file)
    source: str

    def progress(self, seq: int) -> float:
        return min(MOST_PROGRESS, max(0.0, seq / self.length))

    def rows(self, s: Situation) -> list[list[float]]:
        """Per seat, its features in the fit's order."""
        t = self.progress(s.seq)
        out = []
        for i, r in enumerate(s.raw):
            others = [x for j, x in enumerate(s.scores) if j != i]
            lr = logit(r)
            values = {
                "logit": lr, "logit_progress": lr * t, "mover": float(i == s.mover),
                "mover_logit": lr * (i == s.mover),
                "first": float(i == 0), "first_progress": float(i == 0) * t,
                "lead": ((s.scores[i] - max(others)) / self.scale) if others and len(s.scores) == len(s.raw) else 0.0,
            }
            known = s.known[i] if i < len(s.known) else {}
            out.append([values[f] if f in values else _per_seat(f, i, lr, t, known) for f in self.features])
        return out

    def chances(self, s: Situation) -> tuple[float, ...]:
        """Every seat's printed chance (adding up to 1)."""
        return tuple(chances([sum(w * x for w, x in zip(self.weights, f)) for f in self.rows(s)]))

    def slope(self, s: Situation, played: Sequence[float]) -> float:
        """How much the mover's printed chance moves per unit of its raw chance between the
        raw chances `s.raw` (by the preferred action) and `played` (by the played one): the
        secant, or the tangent at `s.raw` where the two are (nearly) the same. Never below 0."""
        m = s.mover
        before, after = self.chances(s)[m], self.chances(_with(s, played))[m]
        if abs(s.raw[m] - played[m]) > 1e-3:
            return max(0.0, (before - after) / (s.raw[m] - played[m]))
        nudged = list(s.raw)
        h = 1e-3 if s.raw[m] < 0.5 else -1e-3
        nudged[m] += h
        return max(0.0, (self.chances(_with(s, nudged))[m] - before) / h)


def _per_seat(feature: str, seat: int, lr: float, t: float, known: dict[str, float]) -> float:
    """A feature of one seat only (`seat:K`, `seat_logit:K`, `seat_progress:K`), or the
    knowledge's (`k:NAME`)."""
    kind, _, which = feature.partition(":")
    if kind == "k":
        return float(known.get(which, 0.0))
    if kind not in ("seat", "seat_logit", "seat_progress"):
        raise ValueError(f"no such feature of the calibration: {feature!r}")
    if seat != int(which):
        return 0.0
    return {"seat": 1.0, "seat_logit": lr, "seat_progress": t}[kind]


def _with(s: Situation, raw: Sequence[float]) -> Situation:
    return Situation(tuple(raw), s.mover, s.seq, s.scores, s.known)


def printed(cal: "Calibration | None", s: Situation, played: Sequence[float],
            error: float) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    """(every seat's printed chance by the preferred action, by the played one, the drop's
    error carried through the map) for the raw chances `s.raw` and `played` and the raw
    drop's standard error `error`; the raw ones themselves without a map."""
    if cal is None:
        return tuple(s.raw), tuple(played), error
    return cal.chances(s), cal.chances(_with(s, played)), error * cal.slope(s, played)


def calibration_for(game_name: str, seats: int) -> Calibration | None:
    """The shipped map of `game_name` at `seats` seats (client/games/NAME/calibration.py),
    None when there is none (the raw chance is printed then)."""
    data = piece(game_name, "calibration")
    if data is None:
        return None
    fit = data.FITS.get(seats)
    if fit is None:
        return None
    return Calibration(game_name, seats, tuple(fit["features"]), tuple(fit["weights"]), float(fit["length"]),
                       float(fit["scale"]), str(fit["source"]))


def situation(game: Any, know: Any, view: Any, raw: Sequence[float], mover: int, seq: int,
              names: Sequence[str]) -> Situation:
    """The Situation of a decision: the game's scores and, where the map uses them
    (`names` with a `k:` prefix), the knowledge's features of the seat's view."""
    scores = tuple(float(x) for x in game.scores(view))
    known: tuple[dict[str, float], ...] = ()
    if any(n.startswith("k:") for n in names):
        rows = know.features(view)
        known = tuple(dict(zip(know.FEATURES, row)) for row in rows)
    return Situation(tuple(raw), mover, seq, scores, known)


__all__ = ["Calibration", "FEATURES", "Situation", "calibration_for", "logit", "printed", "situation"]
