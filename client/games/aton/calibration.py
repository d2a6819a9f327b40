"""aton: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: aton at 2 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-95), 3217 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.2040, 18% better than the share, the farthest bin 0.00.
"""

FITS = {
    2: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress'),
        "weights": (0.6799, -0.2777, -0.1157, 0.2393, 0.0198),
        "length": 139.3,
        "scale": 29.75,
        "source": 'aton at 2 seats: 96 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-95), 3217 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.2040, 18% better than the share, the farthest bin 0.00',
    },
}
