"""bench/calibration.py judges a calibration bin by an interval that counts games (issue 40's
goal: every bin within 0.10 of what happened, with its interval): many decisions of a few
games are not many outcomes, and a bin every game of which went the same way still has an
interval a score test would give it."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "calibration.py"


def _calibration():
    module = sys.modules.get("bench_calibration")
    if module is None:
        spec = importlib.util.spec_from_file_location("bench_calibration", BENCH)
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_calibration"] = module  # (its dataclasses look their module up)
        spec.loader.exec_module(module)
    return module


def _rows(cal, said: float, outcomes: list[int], per_game: list[int]):
    return [cal.Said(said, float(y), 0.5, g) for g, (y, m) in enumerate(zip(outcomes, per_game)) for _ in range(m)]


def test_a_bin_all_of_whose_games_were_won_keeps_the_width_its_games_allow():
    # 16 games, 116 decisions, all won by the seat said to have 0.86: at 0.86 that happens
    # 0.86 ** 16 = 9 % of the time, so no 95 % interval may leave 0.86 out
    cal = _calibration()
    rows = _rows(cal, 0.86, [1] * 16, [7] * 12 + [8] * 4)
    [b] = cal.bins(rows, by_games=True)
    assert b.happened == 1.0 and b.games == 16 and b.count == 116
    assert b.interval[0] < 0.86 and b.off == 0.0
    # the games drawn again alone cannot vary what happened: that interval is the decisions' Wilson
    [alone] = cal.bins(rows, by_games=True, kish=False)
    assert alone.interval[0] > 0.96 and alone.off > 0.09
    # and a bin said far from what all its games did is still off
    [far] = cal.bins(_rows(cal, 0.45, [1] * 16, [7] * 16), by_games=True)
    assert far.off > 0.2


def test_a_bin_of_mixed_games_is_judged_by_the_games_drawn_again():
    cal = _calibration()
    rows = _rows(cal, 0.5, [1, 0] * 20, [10] * 40)
    [b] = cal.bins(rows, by_games=True)
    [alone] = cal.bins(rows, by_games=True, kish=False)
    assert b.interval == alone.interval  # (only a bin that went one way is widened)
    decisions = cal.bins(rows)[0].interval
    assert b.interval[1] - b.interval[0] > decisions[1] - decisions[0]  # 40 games are fewer than 400 decisions


def test_the_effective_count_of_unequal_games_is_below_their_number():
    cal = _calibration()
    assert cal.effective_count([5, 5, 5, 5]) == 4
    assert 1 < cal.effective_count([100, 1, 1, 1]) < 2
    assert cal.effective_count([]) == 0


def test_the_ceiling_bench_scores_the_share_and_the_continuations_spread_of_real_positions():
    # bench/chance_ceiling.py: a game of mcts@100 players, positions played on twice each
    spec = importlib.util.spec_from_file_location("bench_chance_ceiling", BENCH.parent / "chance_ceiling.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    positions, spread, share, cpu = module.one_game(("aton", 2, 0, 1, 60, 2, False))
    assert positions >= 1 and cpu > 0
    # two seats: the share (0.5) is 0.5 off at every position of a game someone won, 0 of a draw
    assert share in (0.25 * positions, 0.0)
    # two results in [0, 1]: their sample variance is at most 0.5
    assert 0.0 <= spread <= 0.5 * positions
