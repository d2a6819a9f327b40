"""athos: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: athos at 2 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-23), 1029 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1775, 29% better than the share, the farthest bin 0.02.
3 seats: athos at 3 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-23), 1258 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.0841, 62% better than the share, the farthest bin 0.07.
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
    3: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress', 'lead', 'k:need'),
        "weights": (0.6682, -0.3008, -0.2713, -1.822, -0.6888, 0.6225, -0.1792),
        "length": 162.7,
        "scale": 2.92,
        "source": 'athos at 3 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-23), 1258 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.0841, 62% better than the share, the farthest bin 0.07',
    },
}
