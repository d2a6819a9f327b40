"""athos: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: athos at 2 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-23), 1029 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1775, 29% better than the share, the farthest bin 0.02.
"""

FITS = {
    2: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress'),
        "weights": (0.1487, 0.5833, -0.2066, -0.5086, -0.2675),
        "length": 137.3,
        "scale": 2.83,
        "source": 'athos at 2 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-23), 1029 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1775, 29% better than the share, the farthest bin 0.02',
    },
}
