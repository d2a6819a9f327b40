"""asterix: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: asterix at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:asterix:2:0-47), 3869 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1194, 50% better than the share, the farthest bin 0.05.
4 seats: asterix at 4 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:asterix:4:0-47), 3951 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1447, 23% better than the share, the farthest bin 0.00.
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
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress', 'lead', 'k:banked'),
        "weights": (0.01, 0.8559, -0.0027, 0.3757, 0.1132, 0.7201, 0.2624),
        "length": 326.7,
        "scale": 1.94,
        "source": 'asterix at 4 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:asterix:4:0-47), 3951 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1447, 23% better than the share, the farthest bin 0.00',
    },
}
