"""asterix: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: asterix at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:asterix:2:0-47), 3869 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1194, 50% better than the share, the farthest bin 0.05.
4 seats: asterix at 4 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:asterix:4:0-95), 7824 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1384, 26% better than the share, the farthest bin 0.02.
"""

FITS = {
    2: {
        "features": ('logit', 'mover'),
        "weights": (0.4429, 0.5714),
        "length": 322.3,
        "scale": 2.52,
        "source": 'asterix at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:asterix:2:0-47), 3869 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1194, 50% better than the share, the farthest bin 0.05',
    },
    4: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress', 'lead'),
        "weights": (0.01, 0.9061, -0.0, 0.0433, 0.111, 0.732),
        "length": 322.4,
        "scale": 1.96,
        "source": 'asterix at 4 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:asterix:4:0-95), 7824 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1384, 26% better than the share, the farthest bin 0.02',
    },
}
