"""aton: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: aton at 2 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-23), 786 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.2123, 15% better than the share, the farthest bin 0.00.
"""

FITS = {
    2: {
        "features": ('logit', 'mover'),
        "weights": (0.4495, -0.0621),
        "length": 136.7,
        "scale": 28.75,
        "source": 'aton at 2 seats: 24 self-play games of mcts@100 (seeds calibration-fit:1:aton:2:0-23), 786 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.2123, 15% better than the share, the farthest bin 0.00',
    },
}
