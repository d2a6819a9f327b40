"""athos: the printed chance's calibration (client/analysis/calibrate.py), per seat count;
written by bench/fit_calibration.py from bench/data/calibration-*.jsonl; do not edit by hand: fit again.

2 seats: athos at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-47), 2026 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.1556, 36% better than the share, the farthest bin 0.03.
3 seats: athos at 3 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-47), 2533 decisions at 300 playouts;
  held out (4 folds by game): Brier 0.0906, 58% better than the share, the farthest bin 0.04.
"""

FITS = {
    2: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress'),
        "weights": (0.2668, 0.4895, -0.285, -0.337, -0.2433),
        "length": 135.5,
        "scale": 2.71,
        "source": 'athos at 2 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:2:0-47), 2026 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.1556, 36% better than the share, the farthest bin 0.03',
    },
    3: {
        "features": ('logit', 'logit_progress', 'mover', 'first', 'first_progress', 'seat:1'),
        "weights": (0.3038, 0.1797, -0.1799, -1.1982, -0.3821, 0.8116),
        "length": 163.5,
        "scale": 2.88,
        "source": 'athos at 3 seats: 48 self-play games of mcts@100 (seeds calibration-fit:1:athos:3:0-47), 2533 decisions at 300 playouts',
        "held": 'held out (4 folds by game): Brier 0.0906, 58% better than the share, the farthest bin 0.04',
    },
}
