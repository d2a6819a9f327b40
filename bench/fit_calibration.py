"""Fit the printed chance of `peerboard analyse` (client/analysis/calibrate.py) to who won, and
write the weights into client/games/NAME/calibration.py.

    python bench/fit_calibration.py aton:2 athos:2 athos:3 asterix:2 asterix:4 [--write]

Reads what bench/calibration_games.py gathered (bench/data/calibration-GAME-Np.jsonl: at
judged decisions of self-play games, every seat's raw chance as the analysis's search put
it, the position's numbers, and what each seat got at the end) and fits, per game and seat
count, the conditional logit of client/bots/knowledge/fitted.py (`fit`) over the seats,
each seat's features those of calibrate.py. A few sets of features are tried (CANDIDATES,
plus the game's own in GAME_FEATURES); each is judged by four folds of games (the games
split by their number, each fold's decisions said by the weights fitted to the other three),
and the set kept is, of those whose held-out bins all lie within 0.10 of what happened
(`BIN_GOAL`, each bin's interval the games drawn again, as bench/bench_analysis.py judges
it; of all, where none does), the one with the least held-out Brier score of the
mover's chance (where a fit's
weights would make the printed chance fall as the raw one rises somewhere, the logit's own
weight is raised until it does not: `monotone_made`, in the folds as in the shipped fit). Printed per
setting: the held-out Brier score of the raw chance and of each set against always saying
the seat's share, and the held-out calibration table of the kept one; then the weights
fitted to every game, and with `--write` the data module.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from peerboard.client.analysis.calibrate import MOST_PROGRESS, Calibration, Situation
from peerboard.client.bots.knowledge import knowledge_for
from peerboard.client.bots.knowledge.fitted import fit, losses

from calibration import Said, bootstrap, brier, share_brier, table, worst_off  # (bench/calibration.py)
from calibration_games import data_path  # (bench/calibration_games.py)

ROOT = Path(__file__).resolve().parent.parent
FOLDS = 4
CANDIDATES = (
    ("logit",),
    ("logit", "mover"),
    ("logit", "logit_progress", "mover"),
    ("logit", "logit_progress", "mover", "mover_logit"),
    ("logit", "logit_progress", "mover", "first", "first_progress"),
    ("logit", "logit_progress", "mover", "first", "first_progress", "lead"),
)
#: how far a held-out bin may lie from what happened (issue 40's goal): a set within it is kept
#: before a set with a lower Brier score and a bin farther off
BIN_GOAL = 0.10
#: a game's own feature (of its knowledge, `k:NAME`) tried beside the largest set
GAME_FEATURES = {"athos": ("k:need",), "aton": ("k:owed",), "asterix": ("k:banked",)}


def load(game_name: str, seats: int) -> tuple[dict, list[dict], list[dict]]:
    """(the run's header, the decision rows, the games' closing rows)."""
    lines = [json.loads(line) for line in data_path(game_name, seats).read_text(encoding="utf-8").splitlines()]
    head, rows = lines[0], lines[1:]
    return head, [r for r in rows if not r.get("end")], [r for r in rows if r.get("end")]


def situations(game_name: str, rows: list[dict]) -> list[tuple[Situation, list[float], str]]:
    names = knowledge_for(_engine(game_name)).FEATURES
    out = []
    for r in rows:
        known = tuple(dict(zip(names, f)) for f in r["features"]) if r.get("features") else ()
        out.append((Situation(tuple(r["before"]), r["seat"], r["seq"], tuple(r["scores"]), known), r["got"], r["tag"]))
    return out


def _engine(name: str):
    from peerboard import engines
    return engines.get(name)


def _slopes(w: dict[str, float]) -> list[float]:
    """The logit's weight at both ends of a game, for the deciding seat and the others, and
    for every seat with a weight of its own (`seat_logit:K`) and the rest."""
    a, b, c = w.get("logit", 0.0), w.get("logit_progress", 0.0), w.get("mover_logit", 0.0)
    own = [0.0] + [v for f, v in w.items() if f.startswith("seat_logit:")]
    return [a + b * t + c * m + d for t in (0.0, MOST_PROGRESS) for m in (0, 1) for d in own]


def monotone(cal: Calibration) -> bool:
    """Whether the logit's weight is positive at every point of the game, for every seat,
    deciding or not."""
    return all(slope > 0 for slope in _slopes(dict(zip(cal.features, cal.weights))))


#: the ridge penalty of the fit: a game's decisions share one outcome, so two dozen games
#: are a few dozen independent facts, and an unpenalised fit of six weights learns their noise
RIDGE = 0.02
#: the ridge of a seat's own prior (`first`, `seat:K`): a number each game tells once and for
#: all, so the whole data's games pin it down; the full ridge held Athos's middle seat at half
#: its edge (it won 82 % of 48 games and was said to win about 65 %)
PRIOR_RIDGE = 0.002


def is_prior(feature: str) -> bool:
    return feature == "first" or feature.startswith("seat:")


def fitted(game_name: str, seats: int, features, length: float, scale: float, data) -> Calibration:
    template = Calibration(game_name, seats, tuple(features), (0.0,) * len(features), length, scale, "")
    examples = [(template.rows(s), got) for s, got, _ in data]
    ridges = [PRIOR_RIDGE if is_prior(f) else RIDGE for f in features]
    result = fit(examples, len(features), ridge=ridges, iterations=30)
    return monotone_made(Calibration(game_name, seats, tuple(features), tuple(round(w, 4) for w in result.weights),
                                     length, scale, ""))


#: the least weight of the logit anywhere in a game (monotone_made)
LEAST_SLOPE = 0.01


def monotone_made(cal: Calibration) -> Calibration:
    """`cal`, its logit's own weight raised where needed so that the logit's weight is at
    least LEAST_SLOPE at every point of the game, for the deciding seat and the others (a
    fit may find the raw chance worth nothing early in a game, and a little below nothing
    by chance: the printed chance must still rise with the raw one)."""
    if "logit" not in cal.features:
        return cal
    w = dict(zip(cal.features, cal.weights))
    least = min(_slopes(w))
    if least >= LEAST_SLOPE:
        return cal
    w["logit"] = round(w["logit"] + LEAST_SLOPE - least, 4)
    return Calibration(cal.game, cal.seats, cal.features, tuple(w[f] for f in cal.features), cal.length, cal.scale,
                       cal.source)


def said(cal: Calibration | None, data, games: dict[str, int]) -> list[Said]:
    out = []
    for s, got, tag in data:
        p = s.raw if cal is None else cal.chances(s)
        out.append(Said(p[s.mover], got[s.mover], 1 / len(got), games[tag]))
    return out


def report(rows: list[Said], label: str) -> str:
    b, base = brier(rows), share_brier(rows)
    lo, hi = bootstrap(rows)
    return (f"{label}: Brier {b:.4f} against the share's {base:.4f}: {100 * (1 - b / base):.0f}% better "
            f"[{100 * lo:.0f}%, {100 * hi:.0f}%], the farthest bin {worst_off(rows, by_games=True):.2f}")


def one(config: str, write: bool) -> None:
    game_name, _, seats_text = config.partition(":")
    seats = int(seats_text or 2)
    head, rows, ends = load(game_name, seats)
    data = situations(game_name, rows)
    tags = sorted({tag for _, _, tag in data}, key=lambda t: int(t.rsplit(":", 1)[1]))
    games = {t: i for i, t in enumerate(tags)}
    length = sum(e["entries"] for e in ends) / len(ends)
    tops: dict[str, float] = {}
    for s, _, tag in data:
        tops[tag] = max(tops.get(tag, 0.0), max(s.scores))
    scale = max(1.0, sum(tops.values()) / max(1, len(tops)))
    print(f"{config}: {len(data)} decisions of {len(tags)} games (seed {head['seed']}, every {head['every']}th "
          f"judged decision at {head['budget']} playouts); typical length {length:.0f} entries, score scale {scale:.1f}")
    print("  held out (" + f"{FOLDS} folds by game" + "):")
    print("    " + report(said(None, data, games), "raw (the search's own)"))
    own = GAME_FEATURES.get(game_name, ())
    # every seat's own prior (the last seat's is the others' baseline), where there are more than two;
    # and, beside them, those seats' logit and progress of their own
    middle = range(1, seats - 1)
    priors = tuple(f"seat:{k}" for k in middle)
    own_ways = tuple(f"seat_logit:{k}" for k in middle) + tuple(f"seat_progress:{k}" for k in middle)
    candidates = list(CANDIDATES) + [CANDIDATES[-1] + own]
    if priors:
        candidates += [CANDIDATES[-2] + priors, CANDIDATES[-1] + priors + own,
                       ("logit", "logit_progress", "mover", "first") + priors + own_ways]
    best = None
    for features in candidates:
        held: list[Said] = []
        ok = True
        for fold in range(FOLDS):
            train = [d for d in data if games[d[2]] % FOLDS != fold]
            test = [d for d in data if games[d[2]] % FOLDS == fold]
            cal = fitted(game_name, seats, features, length, scale, train)
            ok = ok and monotone(cal)
            held += said(cal, test, games)
        # kept: a set whose held-out bins all lie within BIN_GOAL of what happened before any
        # that has one farther; among those, the least held-out Brier score
        b = (worst_off(held, by_games=True) > BIN_GOAL, brier(held))
        print("    " + report(held, ", ".join(features)) + ("" if ok else " (not monotone in a fold: not kept)"))
        if ok and (best is None or b[0] < best[0][0] or (b[0] == best[0][0] and b[1] < best[0][1] - 1e-4)):
            best = (b, features, held)
    if best is None:
        print("  no set of features fits monotone: nothing written")
        return
    _, features, held = best
    print(f"  kept: {', '.join(features)}; its held-out table:")
    print("\n".join(table(held, "      ", by_games=True)))
    cal = fitted(game_name, seats, features, length, scale, data)
    template = Calibration(game_name, seats, cal.features, cal.weights, length, scale, "")
    loss, _ = losses(cal.weights, [(template.rows(s), got) for s, got, _ in data])
    print(f"  fitted to all: weights {dict(zip(cal.features, cal.weights))}, log loss {loss:.4f}")
    if write:
        source = (f"{game_name} at {seats} seats: {len(tags)} self-play games of mcts@100 (seeds calibration-fit:{head['seed']}:{game_name}:{seats}:0-"
                  f"{len(tags) - 1}), {len(data)} decisions at {head['budget']} playouts")
        b, base = brier(held), share_brier(held)
        fits = _read_fits(game_name)
        fits[seats] = {"features": features, "weights": cal.weights, "length": round(length, 1), "scale": round(scale, 2),
                       "source": source, "held": f"held out ({FOLDS} folds by game): Brier {b:.4f}, "
                       f"{100 * (1 - b / base):.0f}% better than the share, the farthest bin {worst_off(held, by_games=True):.2f}"}
        print(f"  wrote {_write(game_name, fits)}")


def _target(game_name: str) -> Path:
    return ROOT / "client" / "games" / game_name / "calibration.py"


def _read_fits(game_name: str) -> dict[int, dict]:
    """The fits written before (another seat count's stays as it was)."""
    target = _target(game_name)
    if not target.exists():
        return {}
    space: dict = {}
    exec(compile(target.read_text(), str(target), "exec"), space)  # (our own generated module)
    return dict(space["FITS"])


def _write(game_name: str, fits: dict[int, dict]) -> Path:
    """One module per game, a fit per seat count (each with its own features); calibrate.py reads it."""
    lines = [f'"""{game_name}: the printed chance\'s calibration (client/analysis/calibrate.py), per seat count;',
             "written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.",
             ""]
    for seats in sorted(fits):
        lines += [f"{seats} seats: {fits[seats]['source']};", f"  {fits[seats]['held']}."]
    lines += ['"""', "", "FITS = {"]
    for seats in sorted(fits):
        f = fits[seats]
        lines += [f"    {seats}: {{",
                  f"        \"features\": {tuple(f['features'])!r},",
                  f"        \"weights\": {tuple(f['weights'])!r},",
                  f"        \"length\": {f['length']!r},",
                  f"        \"scale\": {f['scale']!r},",
                  f"        \"source\": {f['source']!r},",
                  f"        \"held\": {f['held']!r},",
                  "    },"]
    lines += ["}", ""]
    target = _target(game_name)
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


def main() -> int:
    global RIDGE, PRIOR_RIDGE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="+", metavar="GAME:SEATS")
    ap.add_argument("--write", action="store_true", help="write client/games/GAME/calibration.py")
    ap.add_argument("--ridge", type=float, default=RIDGE, help=f"the fit's ridge penalty (default {RIDGE})")
    ap.add_argument("--prior-ridge", type=float, default=PRIOR_RIDGE,
                    help=f"the ridge penalty of a seat's own prior, first and seat:K (default {PRIOR_RIDGE})")
    args = ap.parse_args()
    RIDGE, PRIOR_RIDGE = args.ridge, args.prior_ridge
    for config in args.configs:
        one(config, args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
